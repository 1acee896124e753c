//! Tells `queuey --version` which commit the binary is built from: `QUEUEY_BUILD_COMMIT` (ten
//! hex digits) and, when the sources that make the binary differ from that commit,
//! `QUEUEY_BUILD_MODIFIED`. Read from git when this package is a git work tree's top (a clone),
//! else from the `.cargo_vcs_info.json` that `cargo package` writes into a `.crate` (so a
//! `cargo install queuey-cli` knows the commit it was published from), else nothing.
//!
//! It must never fail a build: no git, a git that fails, a file that does not parse all mean
//! "no commit", and `queuey --version` then says only the version.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What goes into the binary: a change outside these (tests, docs) leaves it as the commit's.
const SOURCES: [&str; 5] = ["src", "crates", "Cargo.toml", "Cargo.lock", "build.rs"];

/// How many hex digits of the commit are shown (always as many: CI compares them).
const SHORT: usize = 10;

fn main() {
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        return;
    };
    let build = from_git(&dir).or_else(|| from_vcs_info(&dir));
    if let Some(build) = build {
        println!("cargo:rustc-env=QUEUEY_BUILD_COMMIT={}", build.commit);
        if build.modified {
            println!("cargo:rustc-env=QUEUEY_BUILD_MODIFIED=1");
        }
    } else {
        // Without this line Cargo would run the script again whenever any file changes.
        println!("cargo:rerun-if-changed=build.rs");
    }
}

struct Build {
    commit: String,
    modified: bool,
}

/// Runs git in `dir`; its trimmed standard output when it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The commit checked out in `dir`, when `dir` is the top of a git work tree: not when it is a
/// directory inside another repository (an unpacked `.crate` under `target/`, the registry's
/// sources under a home directory kept in git).
fn from_git(dir: &Path) -> Option<Build> {
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same(Path::new(&top), dir) {
        return None;
    }
    let commit = short(&git(dir, &["rev-parse", "HEAD"])?)?;
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(SOURCES);
    let modified = git(dir, &status).is_some_and(|s| !s.is_empty());

    // Run again when the sources change, not when only the commit does: each commit would
    // otherwise rebuild every target of the package, tests included. A binary built before a
    // commit and not since then still names the commit its sources were taken from, and says
    // they were modified: true of the binary, only not the newest name for it.
    for path in SOURCES {
        println!("cargo:rerun-if-changed={path}");
    }
    Some(Build { commit, modified })
}

/// The commit a `.crate` was packaged from, from the `.cargo_vcs_info.json` Cargo writes:
/// `{"git": {"sha1": "...", "dirty": true}, "path_in_vcs": ""}`.
fn from_vcs_info(dir: &Path) -> Option<Build> {
    let path = dir.join(".cargo_vcs_info.json");
    let text = std::fs::read_to_string(&path).ok()?;
    println!("cargo:rerun-if-changed={}", path.display());
    let commit = short(string_after(&text, "\"sha1\"")?)?;
    let modified = text.split_once("\"dirty\"").is_some_and(|(_, rest)| {
        rest.trim_start_matches([' ', ':', '\n'])
            .starts_with("true")
    });
    Some(Build { commit, modified })
}

/// The first [`SHORT`] digits of a full commit id; `None` for anything else.
fn short(id: &str) -> Option<String> {
    let hex = id.len() >= 40 && id.bytes().all(|b| b.is_ascii_hexdigit());
    hex.then(|| id[..SHORT].to_owned())
}

/// The JSON string value after `key` (`"key": "value"`): enough for Cargo's own small file,
/// whose values hold no escapes.
fn string_after<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let (_, rest) = text.split_once(key)?;
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let (value, _) = rest.split_once('"')?;
    Some(value)
}
