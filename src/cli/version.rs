//! What `queuey --version` says: the release, the commit the binary was built from (when
//! `build.rs` found one), and the queuey library release whose wire format it is checked
//! against. `queuey -V` says the release alone, and so do the man pages, which are committed
//! and must not change with each commit.

use std::sync::LazyLock;

/// The release of the queuey job-queue library (`queuey`, `queuey-core` and `queuey-rabbitmq`)
/// that the tests use as the oracle of the wire format: Cargo.toml pins all three to exactly
/// this version as dev-dependencies, and a test holds the two equal.
pub const QUEUEY_LIBRARY: &str = "1.1.0";

/// The library crates pinned to [`QUEUEY_LIBRARY`].
pub const QUEUEY_LIBRARY_CRATES: [&str; 3] = ["queuey", "queuey-core", "queuey-rabbitmq"];

static LONG: LazyLock<String> = LazyLock::new(|| {
    long_version(
        env!("CARGO_PKG_VERSION"),
        option_env!("QUEUEY_BUILD_COMMIT"),
        option_env!("QUEUEY_BUILD_MODIFIED").is_some(),
    )
});

/// `queuey --version`'s text after the name (clap wants it for the life of the program).
pub fn long() -> &'static str {
    &LONG
}

/// The text of `queuey --version` after the program's name: the release and the commit on
/// the first line, the library on the second.
pub fn long_version(version: &str, commit: Option<&str>, modified: bool) -> String {
    let build = match commit {
        Some(commit) if modified => format!(" (commit {commit}, sources modified)"),
        Some(commit) => format!(" (commit {commit})"),
        None => String::new(),
    };
    format!(
        "{version}{build}\nqueuey library: the 1.x wire format, checked against {QUEUEY_LIBRARY} ({})",
        QUEUEY_LIBRARY_CRATES.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_commit_when_there_is_one() {
        assert_eq!(
            long_version("1.0.0", Some("0123456789"), false),
            "1.0.0 (commit 0123456789)\nqueuey library: the 1.x wire format, checked against \
             1.1.0 (queuey, queuey-core, queuey-rabbitmq)"
        );
        assert!(
            long_version("1.0.0", Some("0123456789"), true)
                .starts_with("1.0.0 (commit 0123456789, sources modified)\n")
        );
        assert!(long_version("1.0.0", None, false).starts_with("1.0.0\nqueuey library: "));
    }
}
