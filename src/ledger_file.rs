//! The ledger on disk: where it lives, reading an unfinished one, appending lines and flushing
//! them to disk before the step they announce. The format and the rule a rerun follows are
//! pure, in [`crate::dead::ledger`]; this is the one writer of its lines, for a replay's
//! journal and a purge archive's marker alike.
//!
//! By default a replay's ledger lives in the user's state directory, `$XDG_STATE_HOME/queuey`
//! (else `~/.local/state/queuey`, else the system's temporary directory), one file per broker,
//! vhost and dead-letter queue: `replay-<vhost>-<queue>-<hash>.ledger`. `--journal FILE`
//! chooses another file. A purge's ledger is its archive's marker, `ARCHIVE.unfinished`. Every
//! one is created readable by its owner alone (mode 0600), as archives and exports are.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::dead::ledger::{
    Boot, Ledger, Op, Scope, acking_line, boot_line, claimed_line, copied_line, doubt_line,
    found_line, missed_line, run_line, settled_line, undone_line,
};
use crate::error::{Error, Kind, Result};
use crate::output::file::private_options;

/// Appends `line` (a whole line) to the ledger at `path` and flushes it to disk, when the file
/// is there: a replay's last line, written after its writer is gone (`acked_through_line`). A
/// last line a crash cut short is cut first, as [`LedgerFile::open`] does.
pub fn append_if_present(path: &Path, line: &str) -> Result<()> {
    if !path.exists() {
        return Ok(());
    }
    let whole = whole_lines_len(path).map_err(|e| io_err(path, "read", &e))?;
    let mut file = private_options()
        .append(true)
        .open(path)
        .map_err(|e| io_err(path, "open", &e))?;
    file.set_len(whole)
        .and_then(|()| file.write_all(line.as_bytes()))
        .and_then(|()| file.sync_data())
        .map_err(|e| io_err(path, "write", &e))
}

/// The user's state directory for queuey: `$XDG_STATE_HOME/queuey`, else
/// `~/.local/state/queuey` (each only when absolute).
pub fn state_dir() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| {
        let p = PathBuf::from(v);
        p.is_absolute().then_some(p)
    };
    if let Some(p) = std::env::var_os("XDG_STATE_HOME").and_then(absolute) {
        return Some(p.join("queuey"));
    }
    std::env::var_os("HOME")
        .and_then(absolute)
        .map(|h| h.join(".local").join("state").join("queuey"))
}

/// Where the replay ledger of `scope` lives by default.
pub fn default_path(scope: &Scope) -> Result<PathBuf> {
    let dir = state_dir().unwrap_or_else(|| std::env::temp_dir().join("queuey-state"));
    Ok(dir.join(scoped_file_name(scope, "replay", "ledger")))
}

/// A file name for `scope`: `{kind}-<vhost>-<queue>-<hash>.{extension}`, readable and unique
/// per broker, vhost and queue.
pub fn scoped_file_name(scope: &Scope, kind: &str, extension: &str) -> String {
    let slug = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .take(60)
            .collect()
    };
    let mut h = Sha256::new();
    for part in [&scope.broker, &scope.vhost, &scope.queue] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part.as_bytes());
    }
    let hash = crate::dead::value::hex(&h.finalize()[..6]);
    format!(
        "{kind}-{}-{}-{hash}.{extension}",
        slug(&scope.vhost),
        slug(&scope.queue)
    )
}

fn io_err(path: &Path, doing: &str, e: &io::Error) -> Error {
    Error::io(format!("cannot {doing} the ledger {}", path.display()), e)
}

/// The unfinished ledger at `path`, if there is one.
pub fn read(path: &Path, scope: &Scope) -> Result<Option<Ledger>> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(path, "read", &e)),
    };
    Ledger::parse(&text, scope).map(Some).map_err(|why| {
        Error::new(
            Kind::Usage,
            format!("the ledger {} cannot be used: {why}", path.display()),
        )
        .with_hint(
            "nothing was done; pass --journal FILE to use another ledger (a rerun without this \
             one copies again the dead letters it recorded: duplicates, never a loss)",
        )
    })
}

/// A ledger open for appending. Lines wait in a buffer until [`LedgerFile::sync`] writes and
/// flushes them to disk, which every caller does before the step they announce.
pub struct LedgerFile {
    pub path: PathBuf,
    file: File,
    buffer: String,
}

impl LedgerFile {
    /// Opens (or creates, mode 0600, in a directory of mode 0700) the ledger at `path` for
    /// the run `run`, first cutting a last line a crash left short, and writes its run line.
    pub fn open(
        path: &Path,
        op: Op,
        scope: &Scope,
        run: &str,
        started: u64,
        boot: &Boot,
    ) -> Result<LedgerFile> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            create_private_dir(dir).map_err(|e| io_err(path, "create the directory of", &e))?;
        }
        let file = private_options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io_err(path, "open", &e))?;
        let mut ledger = LedgerFile {
            path: path.to_owned(),
            file,
            buffer: String::new(),
        };
        let whole = whole_lines_len(path).map_err(|e| io_err(path, "read", &e))?;
        ledger
            .file
            .set_len(whole)
            .map_err(|e| io_err(path, "repair", &e))?;
        ledger.buffer.push_str(&run_line(op, scope, run, started));
        ledger.buffer.push_str(&boot_line(boot));
        ledger.sync()?;
        Ok(ledger)
    }

    /// A copy about to be published.
    pub fn doubt(&mut self, digest: &str, to: &str, run: &str, copy: u64) {
        self.buffer.push_str(&doubt_line(digest, to, run, copy));
    }

    /// A copy confirmed: its dead letter may be acked once this is on disk (`may_duplicate`:
    /// see [`copied_line`]).
    pub fn copied(&mut self, digest: &str, to: &str, run: &str, copy: u64, may_duplicate: bool) {
        self.buffer
            .push_str(&copied_line(digest, to, run, copy, may_duplicate));
    }

    /// A copy certainly not in its target.
    pub fn undone(&mut self, run: &str, copy: u64) {
        self.buffer.push_str(&undone_line(run, copy));
    }

    /// A copy in doubt a rerun did not find in its target (see [`missed_line`]).
    pub fn missed(&mut self, digest: &str, run: &str, copy: u64) {
        self.buffer.push_str(&missed_line(digest, run, copy));
    }

    /// A copy in doubt found in its target by a rerun.
    pub fn found(&mut self, digest: &str, run: &str, copy: u64) {
        self.buffer.push_str(&found_line(digest, Some((run, copy))));
    }

    /// A record the rule granted, used up before the ack it allows.
    pub fn claimed(&mut self, digest: &str) {
        self.buffer.push_str(&claimed_line(digest));
    }

    /// A purge's mark: its archive's first `n` records may be acked from now on
    /// (`may_duplicate`: see [`acking_line`]).
    pub fn acking(&mut self, n: u64, may_duplicate: u64) {
        self.buffer.push_str(&acking_line(n, may_duplicate));
    }

    /// The broker processed the ack of a dead letter of `digest`.
    pub fn settled(&mut self, digest: &str) {
        self.buffer.push_str(&settled_line(digest));
    }

    /// Writes the lines waiting and flushes them to disk.
    pub fn sync(&mut self) -> Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        self.file
            .write_all(self.buffer.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| io_err(&self.path, "write", &e))?;
        self.buffer.clear();
        Ok(())
    }

    /// The run ended cleanly. The ledger goes, but for what earlier runs left that this run
    /// did not meet (`carried`): that is rewritten as the new ledger, under this run's line.
    pub fn finish(self, op: Op, scope: &Scope, run: &str, carried: Option<&Ledger>) -> Result<()> {
        let path = self.path.clone();
        drop(self.file);
        match carried.filter(|c| !c.is_empty()) {
            None => match std::fs::remove_file(&path) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
                Err(e) => Err(io_err(&path, "delete", &e)),
            },
            Some(c) => {
                let tmp = path.with_extension("ledger.tmp");
                let text = format!("{}{}", run_line(op, scope, run, 0), c.remaining_lines(run));
                let write = || -> io::Result<()> {
                    let mut f = private_options()
                        .write(true)
                        .create(true)
                        .truncate(true)
                        .open(&tmp)?;
                    f.write_all(text.as_bytes())?;
                    f.sync_data()?;
                    std::fs::rename(&tmp, &path)
                };
                write().map_err(|e| io_err(&path, "rewrite", &e))
            }
        }
    }
}

/// The length of `path` up to its last newline: a line a crash cut short is not a line.
fn whole_lines_len(path: &Path) -> io::Result<u64> {
    let bytes = std::fs::read(path)?;
    Ok(bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i as u64 + 1))
}

/// Creates `dir` (and its parents) readable by its owner alone, unless it exists.
fn create_private_dir(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::ledger::Decision;

    fn scope() -> Scope {
        Scope {
            broker: "127.0.0.1:5672".into(),
            vhost: "/".into(),
            queue: "orders.dead".into(),
        }
    }

    #[test]
    fn file_names_are_readable_and_unique_per_scope() {
        let a = scoped_file_name(&scope(), "replay", "ledger");
        assert!(a.starts_with("replay-_-orders.dead-"), "{a}");
        assert!(a.ends_with(".ledger"));
        let mut other = scope();
        other.broker = "127.0.0.1:5682".into();
        assert_ne!(a, scoped_file_name(&other, "replay", "ledger"));
    }

    #[test]
    fn a_ledger_survives_a_cut_line_is_private_and_is_deleted_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("j.ledger");
        let mut j =
            LedgerFile::open(&path, Op::Replay, &scope(), "r1", 1, &Boot::default()).unwrap();
        j.doubt("aa", "orders", "r1", 1);
        j.sync().unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        }
        drop(j);
        // A crash in the middle of a line.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(b"{\"copied\":\"b").unwrap();
        drop(f);
        let mut j2 =
            LedgerFile::open(&path, Op::Replay, &scope(), "r2", 2, &Boot::default()).unwrap();
        j2.found("aa", "r1", 1);
        j2.doubt("cc", "orders", "r2", 1);
        j2.copied("cc", "orders", "r2", 1, false);
        j2.sync().unwrap();
        let mut read = read(&path, &scope()).unwrap().unwrap();
        assert_eq!(read.runs, vec!["r1".to_owned(), "r2".to_owned()]);
        assert_eq!(
            (read.unacked(), read.maybe_acked(), read.doubts()),
            (1, 1, 0)
        );
        assert_eq!(
            read.decide("cc"),
            Decision::Copy {
                may_duplicate: true
            }
        );
        j2.finish(Op::Replay, &scope(), "r2", Some(&read)).unwrap();
        let kept = super::read(&path, &scope()).unwrap().unwrap();
        assert_eq!(kept.unacked(), 1, "the record not met is carried");
        let j3 = LedgerFile::open(&path, Op::Replay, &scope(), "r3", 3, &Boot::default()).unwrap();
        j3.finish(Op::Replay, &scope(), "r3", None).unwrap();
        assert!(!path.exists());
        assert!(super::read(&path, &scope()).unwrap().is_none());
    }
}
