//! Shell completions and man pages, generated from the clap definitions by the binary itself.
//!
//! `queuey generate-assets .` (hidden) rewrites `completions/` and `man/`; a test regenerates
//! them into a temporary directory and fails when the committed files differ.

use std::path::Path;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;
use crate::error::{Error, ExitCode, Result};
use crate::output::{self, Output};

/// The shells `completions/` holds a script for.
pub const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::Elvish,
    Shell::PowerShell,
];

pub fn print_completions(shell: Shell) -> Result<ExitCode> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "queuey", &mut buf);
    output::print(String::from_utf8_lossy(&buf).trim_end())?;
    Ok(ExitCode::Ok)
}

/// Writes `dir/completions/*` and `dir/man/*.1`.
pub fn generate(dir: &Path, output: Output) -> Result<ExitCode> {
    let completions = dir.join("completions");
    let man = dir.join("man");
    for d in [&completions, &man] {
        std::fs::create_dir_all(d)
            .map_err(|e| Error::io(format!("cannot create {}", d.display()), &e))?;
    }
    for shell in SHELLS {
        let path = clap_complete::generate_to(shell, &mut Cli::command(), "queuey", &completions)
            .map_err(|e| {
            Error::io(
                format!(
                    "cannot write {shell} completions into {}",
                    completions.display()
                ),
                &e,
            )
        })?;
        output.note(&format!("wrote {}", path.display()));
    }
    // The man pages say the release alone (`-V`'s text): they are committed, and the commit
    // `--version` names would change them with each one.
    let command = Cli::command().long_version(None::<&str>);
    clap_mangen::generate_to(command, &man)
        .map_err(|e| Error::io(format!("cannot write man pages into {}", man.display()), &e))?;
    output.note(&format!("wrote man pages into {}", man.display()));
    Ok(ExitCode::Ok)
}
