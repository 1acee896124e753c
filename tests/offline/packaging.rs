//! What a packager and an installer rely on: `queuey --version` (the release, the commit, the
//! library it is checked against), the library version written once and equal to Cargo.toml's
//! pins, the changelog naming this release, man pages free of the commit, the README's
//! install lines being the ones `scripts/package-check.sh` (CI) runs, and its line that starts
//! the test broker being the one a live test names when it finds none.

use std::fs;
use std::path::Path;

use queuey_cli::cli::version::{QUEUEY_LIBRARY, QUEUEY_LIBRARY_CRATES, long_version};

use crate::common::{Queuey, stdout};

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn version_names_the_release_the_commit_and_the_library() {
    let out = Queuey::new().arg("--version").run();
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    // The test is built by the same build script as the binary, so it knows the same commit.
    let expected = long_version(
        env!("CARGO_PKG_VERSION"),
        option_env!("QUEUEY_BUILD_COMMIT"),
        option_env!("QUEUEY_BUILD_MODIFIED").is_some(),
    );
    assert_eq!(text, format!("queuey {expected}\n"));
    let first = text.lines().next().unwrap_or_default();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        first == format!("queuey {version}") || first.starts_with(&format!("queuey {version} (")),
        "{text}"
    );
    assert!(
        text.contains(&format!("checked against {QUEUEY_LIBRARY} ")),
        "{text}"
    );
    if let Some(commit) = option_env!("QUEUEY_BUILD_COMMIT") {
        assert!(text.contains(&format!("(commit {commit}")), "{text}");
    }

    // -V, as the man pages: the release alone.
    let out = Queuey::new().arg("-V").run();
    assert_eq!(
        stdout(&out),
        format!("queuey {}\n", env!("CARGO_PKG_VERSION"))
    );
    // A subcommand's --version says the same as the top's.
    let out = Queuey::new().args(["dead", "--version"]).run();
    assert_eq!(stdout(&out), format!("queuey-dead {expected}\n"));
}

#[test]
fn the_library_version_is_the_one_cargo_toml_pins() {
    let manifest: toml::Table = toml::from_str(&read("Cargo.toml")).unwrap();
    let dev = manifest["dev-dependencies"].as_table().unwrap();
    for name in QUEUEY_LIBRARY_CRATES {
        let pin = dev
            .get(name)
            .and_then(|d| d.get("version").or(Some(d)))
            .and_then(|v| v.as_str());
        assert_eq!(
            pin,
            Some(format!("={QUEUEY_LIBRARY}").as_str()),
            "Cargo.toml's dev-dependency {name} and cli::version::QUEUEY_LIBRARY differ"
        );
    }
    // The README says which release queuey is checked against.
    assert!(read("README.md").contains(&format!("queuey is checked against {QUEUEY_LIBRARY}")));
}

/// Keep a Changelog: an Unreleased section first, then this version's, dated.
#[test]
fn the_changelog_names_this_release() {
    let changelog = read("CHANGELOG.md");
    let releases: Vec<&str> = changelog
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .collect();
    assert_eq!(releases.first(), Some(&"[Unreleased]"), "{releases:?}");
    let this = releases.get(1).copied().unwrap_or_default();
    let prefix = format!("[{}] - ", env!("CARGO_PKG_VERSION"));
    let date = this.strip_prefix(&prefix).unwrap_or_else(|| {
        panic!("CHANGELOG.md's latest release is '{this}', not {prefix}YYYY-MM-DD")
    });
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = date.split('-').collect();
    assert!(
        parts.len() == 3
            && parts
                .iter()
                .zip([4, 2, 2])
                .all(|(p, n)| p.len() == n && digits(p)),
        "CHANGELOG.md: '{date}' is not a date"
    );
}

/// The committed man pages change with the release, never with the commit: they say the
/// version of `-V`.
#[test]
fn man_pages_name_the_release_not_the_commit() {
    let page = read("man/queuey.1");
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        page.contains(&format!(".TH queuey 1  \"queuey {version}\"")),
        "{page}"
    );
    assert!(
        page.contains(&format!("\n.SH VERSION\nv{version}\n")),
        "{page}"
    );
    for entry in fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("man")).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("(commit "),
            "{} names a commit",
            path.display()
        );
    }
}

/// The commands of the README's install section, as CI runs them: each (without `sudo`) starts
/// a command line of scripts/package-check.sh, which adds only where it installs to and where
/// the sources come from before they are published.
#[test]
fn the_readme_install_lines_are_the_ones_ci_runs() {
    let readme = read("README.md");
    let section = readme
        .split("\n## ")
        .find(|s| s.starts_with("Install\n"))
        .expect("README.md has an Install section");
    let lines: Vec<String> = section
        .lines()
        .filter_map(|l| l.strip_prefix("    "))
        .map(|l| l.split("  #").next().unwrap_or(l).trim())
        .map(|l| l.strip_prefix("sudo ").unwrap_or(l).to_owned())
        .collect();
    assert!(lines.len() >= 6, "the install lines: {lines:?}");
    let script = read("scripts/package-check.sh");
    let run: Vec<&str> = script
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .collect();
    for line in &lines {
        assert!(
            run.iter().any(|r| r.starts_with(line.as_str())),
            "README.md's install line `{line}` is not run by scripts/package-check.sh"
        );
    }
}

/// The README's line that starts the test broker is the one a live test names when it finds
/// none (`common::START_TEST_BROKER`), and its test command is the one `.ci/run` runs: a fresh
/// machine's first failure says what to run, word for word.
#[test]
fn the_readme_starts_the_test_broker_with_the_line_the_harness_names() {
    let readme = read("README.md");
    let section = readme
        .split("\n## ")
        .find(|s| s.starts_with("Run the tests\n"))
        .expect("README.md has a Run the tests section");
    let lines: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("    "))
        .map(|l| l.split("  #").next().unwrap_or(l).trim())
        .collect();
    assert_eq!(
        lines,
        [crate::common::START_TEST_BROKER, "cargo test"],
        "README.md's Run the tests lines"
    );
    let said = crate::common::no_broker("amqp://127.0.0.1:5672/%2f", "connection refused");
    assert!(
        said.contains(&format!("\n    {}\n", crate::common::START_TEST_BROKER)),
        "the harness's panic names the README's line on a line of its own: {said}"
    );
    let ci = read(".ci/run");
    assert!(
        ci.lines().any(|l| l.trim().starts_with("cargo test ")),
        ".ci/run runs the README's test command"
    );
}
