//! No password in any output: URLs that do not parse, in every place a URL is given (`--url`,
//! `--api-url`, `QUEUEY_URL`, `QUEUEY_API_URL`), and a topology file, for several commands.
//!
//! The offline cases are the typos an operator makes; the property test wraps a known secret,
//! shaped like `user:SECRET@`, in arbitrary text and checks that neither stdout nor stderr of
//! any of the commands holds it. URLs that happen to parse reach the test broker (or nothing)
//! and are refused there: that output must not hold the secret either.

use crate::common::Queuey;
use proptest::prelude::*;

/// The commands each input is tried with: one needing nothing but the URL, one reading the
/// API first, one reading dead letters over AMQP.
const COMMANDS: &[&[&str]] = &[
    &["ping"],
    &["status", "orders"],
    &["dead", "ls", "orders"],
    &["verify", "orders"],
];

/// Where the text goes (`Positional`: a stray argument of `ping`).
#[derive(Clone, Copy, Debug)]
enum Place {
    UrlFlag,
    UrlFlagEquals,
    ApiUrlFlag,
    UrlEnv,
    ApiUrlEnv,
    TopologyFile,
    Positional,
    /// The second address of a list: `--url FIRST,TEXT`.
    UrlList,
    /// The second `--url`, after one of its own.
    UrlRepeated,
    /// `QUEUEY_URL=FIRST,TEXT`.
    UrlListEnv,
    /// `--api-url FIRST_API,TEXT`.
    ApiUrlList,
    /// `[connection] url = [FIRST, TEXT]` in the topology file.
    TopologyFileList,
}

const PLACES: [Place; 12] = [
    Place::UrlFlag,
    Place::UrlFlagEquals,
    Place::ApiUrlFlag,
    Place::UrlEnv,
    Place::ApiUrlEnv,
    Place::TopologyFile,
    Place::Positional,
    Place::UrlList,
    Place::UrlRepeated,
    Place::UrlListEnv,
    Place::ApiUrlList,
    Place::TopologyFileList,
];

/// The first address of the lists: nothing listens there, so the text after it is tried too.
/// Its password must never show either.
const FIRST: &str = "amqp://guest:Fir5tPassw0rd@127.0.0.1:5699/%2f";
const FIRST_API: &str = "http://guest:Fir5tPassw0rd@127.0.0.1:15699";

/// Runs `command` with `text` given at `place`; returns stdout and stderr together.
fn output_of(command: &[&str], place: Place, text: &str) -> String {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut cmd = Queuey::in_dir(dir.path());
    cmd.args(command).args(["--connect-timeout", "2s"]);
    match place {
        Place::UrlFlag => {
            cmd.args(["--url", text]);
        }
        Place::UrlFlagEquals => {
            cmd.arg(format!("--url={text}"));
        }
        Place::ApiUrlFlag => {
            cmd.args(["--api-url", text]);
        }
        Place::UrlEnv => {
            cmd.env("QUEUEY_URL", text);
        }
        Place::ApiUrlEnv => {
            cmd.env("QUEUEY_API_URL", text);
        }
        Place::TopologyFile => {
            let path = dir.path().join("queuey.toml");
            std::fs::write(&path, text).expect("writing the topology file");
            cmd.arg("--config").arg(&path);
        }
        Place::Positional => {
            cmd.arg(text);
        }
        Place::UrlList => {
            cmd.args(["--url", &format!("{FIRST},{text}")]);
        }
        Place::UrlRepeated => {
            cmd.args(["--url", FIRST, "--url", text]);
        }
        Place::UrlListEnv => {
            cmd.env("QUEUEY_URL", format!("{FIRST},{text}"));
        }
        Place::ApiUrlList => {
            cmd.args(["--api-url", &format!("{FIRST_API},{text}")]);
        }
        Place::TopologyFileList => {
            let path = dir.path().join("queuey.toml");
            let list = toml::Value::Array(vec![FIRST.into(), text.into()]);
            std::fs::write(&path, format!("[connection]\nurl = {list}\n"))
                .expect("writing the topology file");
            // The harness's QUEUEY_URL would come first.
            cmd.env_remove("QUEUEY_URL").arg("--config").arg(&path);
        }
    }
    let out = cmd.run();
    out.stdout + &out.stderr
}

#[test]
fn typos_in_a_url_never_show_its_password() {
    for url in [
        "amqp//guest:Sup3rSecret@host:5672/%2f",
        "amqp:/guest:Sup3rSecret@host",
        "guest:Sup3rSecret@host",
        "amqp://guest:Sup3rSecret@host:port/%2f",
        "amqp://guest:Sup3r Secret@host:x/",
    ] {
        for place in [
            Place::UrlFlag,
            Place::ApiUrlFlag,
            Place::UrlEnv,
            Place::ApiUrlEnv,
            Place::UrlList,
            Place::UrlRepeated,
            Place::ApiUrlList,
            Place::TopologyFileList,
        ] {
            for command in COMMANDS {
                let out = output_of(command, place, url);
                assert!(
                    !out.contains("Sup3r") && !out.contains("Secret") && !out.contains("Fir5t"),
                    "{command:?} with {url} as {place:?}:\n{out}"
                );
                assert!(out.contains("error:"), "{command:?} {place:?}:\n{out}");
            }
        }
    }
    // The message still says what is wrong, with the URL masked.
    let out = output_of(
        &["ping"],
        Place::UrlFlag,
        "amqp//guest:Sup3rSecret@host:5672/%2f",
    );
    assert!(
        out.contains("invalid AMQP URL amqp//guest:***@host:5672/%2f"),
        "{out}"
    );
    let out = output_of(&["ping"], Place::Positional, "guest:Sup3rSecret@host");
    assert!(out.contains("'guest:***@host'"), "{out}");
}

/// Text around the secret: fragments of URLs, and arbitrary characters.
fn surrounding() -> impl Strategy<Value = String> {
    let fragment = prop::sample::select(vec![
        "",
        "amqp://",
        "amqp:/",
        "amqp//",
        "amqps://",
        "http://",
        "https://",
        "amqp:",
        "x:",
        "/",
        "@",
        ":",
        "%2f",
        " ",
        "\"",
        "'",
        "127.0.0.1:1",
        "localhost:1/%2f",
        "[::1]:1",
        ":99999",
        "/a/b",
        "?heartbeat=x",
        "#",
        "\n",
    ]);
    prop::collection::vec(
        prop_oneof![fragment.prop_map(str::to_owned), "[^\u{0}]{0,6}"],
        0..4,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn a_password_shaped_like_user_password_at_never_reaches_any_output(
        prefix in surrounding(),
        user in "[a-z]{0,6}",
        secret in "Zq[A-Za-z0-9]{6,14}",
        suffix in surrounding(),
        place in prop::sample::select(PLACES.to_vec()),
    ) {
        let text = format!("{prefix}{user}:{secret}@{suffix}");
        // A stray argument is quoted by the usage error; as a queue name it would be data.
        let commands = match place {
            Place::Positional => &COMMANDS[..1],
            _ => COMMANDS,
        };
        for command in commands {
            let out = output_of(command, place, &text);
            prop_assert!(
                !out.contains(&secret) && !out.contains("Fir5t"),
                "{:?} with {:?} as {:?}:\n{}", command, text, place, out
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// The filter itself, on many more texts than the commands can run: what surrounds
    /// `user:SECRET@` never lets SECRET through, and masking is idempotent.
    #[test]
    fn the_filter_masks_the_secret_in_any_text(
        prefix in surrounding(),
        user in "[a-z]{0,6}",
        secret in "Zq[A-Za-z0-9]{6,14}",
        suffix in surrounding(),
    ) {
        let text = format!("{prefix}{user}:{secret}@{suffix}");
        let masked = queuey_cli::redact::mask_userinfo(&text);
        prop_assert!(!masked.contains(&secret), "{:?} -> {:?}", text, masked);
        prop_assert_eq!(queuey_cli::redact::mask_userinfo(&masked), masked.clone());
        let quoted = format!("error: invalid AMQP URL {text:?}: whatever");
        prop_assert!(!queuey_cli::redact::mask_userinfo(&quoted).contains(&secret));
    }
}
