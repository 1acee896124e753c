//! The tests that need no broker, one binary: what queuey answers before it connects (settings,
//! the topology file, `args`, help, completions, man pages, the docs that must match them), what
//! it prints on a terminal or as JSON, that no password ever shows, what `--version` and the
//! packages rely on (`packaging`), and the layering the crate boundary cannot say
//! (`architecture`).
//!
//! `cargo test --test offline`; one subject: `cargo test --test offline settings::`.

#[path = "../common/mod.rs"]
mod common;

mod architecture;
mod help;
mod output;
mod packaging;
mod secrets;
mod settings;
