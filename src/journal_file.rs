//! The replay journal on disk: where it lives, reading an unfinished one, appending records and
//! flushing them to disk before their dead letters are acked. The format and the rule a rerun
//! follows are pure, in [`crate::dead::journal`].
//!
//! By default a journal lives in the user's state directory, `$XDG_STATE_HOME/queuey` (else
//! `~/.local/state/queuey`, else the system's temporary directory), one file per broker, vhost
//! and dead-letter queue:
//! `replay-<vhost>-<queue>-<hash>.journal`. `--journal FILE` chooses another file.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::dead::journal::{
    Boot, Scope, Unfinished, boot_line, copied_line, doubt_line, read_line, run_line, settled_line,
    undone_line,
};
use crate::error::{Error, Kind, Result};

/// queuey's state directory: `$XDG_STATE_HOME/queuey`, else `$HOME/.local/state/queuey`.
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

/// The default journal of a scope, in the state directory (without `XDG_STATE_HOME` and
/// `HOME`, as under some cron jobs, in the system's temporary directory).
pub fn default_path(scope: &Scope) -> Result<PathBuf> {
    let dir = state_dir().unwrap_or_else(|| std::env::temp_dir().join("queuey-state"));
    path_in(&dir, scope)
}

/// The journal of `scope` in the state directory `dir`.
fn path_in(dir: &Path, scope: &Scope) -> Result<PathBuf> {
    let path = dir.join(file_name(scope));
    // A journal written before journals were the cluster's is named after the AMQP address
    // it went through: found there, it moves to the cluster's name (its run lines are this
    // scope's, see `Scope::owns`).
    for legacy in scope.legacy() {
        let old = dir.join(file_name(&legacy));
        if !path.exists() && old.exists() {
            std::fs::rename(&old, &path).map_err(|e| io_err(&old, "move", &e))?;
        }
    }
    Ok(path)
}

/// `replay-<vhost>-<queue>-<hash>.journal`: readable, and unique per scope by its hash.
fn file_name(scope: &Scope) -> String {
    scoped_file_name(scope, "replay", "journal")
}

/// `<kind>-<vhost>-<queue>-<hash>.<extension>`: a state file of `scope`, readable, and unique
/// per scope by its hash.
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
    Error::io(
        format!("cannot {doing} the replay journal {}", path.display()),
        e,
    )
}

/// Reads the unfinished journal at `path`, if there is one (`None`: no file).
pub fn read(path: &Path, scope: &Scope) -> Result<Option<Unfinished>> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(path, "read", &e)),
    };
    Unfinished::parse(&text, scope).map(Some).map_err(|why| {
        Error::new(
            Kind::Usage,
            format!(
                "the replay journal {} cannot be used: {why}",
                path.display()
            ),
        )
        .with_hint(
            "nothing was replayed; pass --journal FILE to use another journal (a rerun \
             without this one may copy again the dead letters it recorded)",
        )
    })
}

/// A journal open for a run: records are appended and made durable by [`JournalFile::sync`].
pub struct JournalFile {
    pub path: PathBuf,
    file: File,
    /// Lines written since the last sync.
    buffer: String,
}

impl JournalFile {
    /// Opens (or creates) the journal at `path` for the run `run`, appending its run line.
    pub fn open(
        path: &Path,
        scope: &Scope,
        run: &str,
        started: u64,
        boot: &Boot,
    ) -> Result<JournalFile> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            create_private_dir(dir).map_err(|e| io_err(path, "create the directory of", &e))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io_err(path, "open", &e))?;
        let mut journal = JournalFile {
            path: path.to_owned(),
            file,
            buffer: String::new(),
        };
        // A line cut short by a crash (its dead letter was never acked) is dropped, so that
        // it does not run into this run's first line.
        let whole = whole_lines_len(path).map_err(|e| io_err(path, "read", &e))?;
        journal
            .file
            .set_len(whole)
            .map_err(|e| io_err(path, "repair", &e))?;
        journal.buffer.push_str(&run_line(scope, run, started));
        journal.buffer.push_str(&boot_line(boot));
        journal.sync()?;
        Ok(journal)
    }

    /// Adds a confirmed copy's record, copy number `copy` of `run` (durable at the next
    /// [`JournalFile::sync`]).
    pub fn record(&mut self, digest: &str, to: &str, run: &str, copy: u64) {
        self.buffer
            .push_str(&copied_line(digest, to, run, Some(copy)));
    }

    /// Records a copy about to be published, in doubt until confirmed (durable at the next
    /// sync, which must come before the publish).
    pub fn doubt(&mut self, digest: &str, to: &str, run: &str, copy: u64) {
        self.buffer.push_str(&doubt_line(digest, to, run, copy));
    }

    /// Records that copy `copy` of `run` is certainly not in its target.
    pub fn undone(&mut self, run: &str, copy: u64) {
        self.buffer.push_str(&undone_line(run, copy));
    }

    /// Cancels a record: the broker processed its dead letter's ack (durable at the next
    /// sync).
    pub fn settled(&mut self, digest: &str) {
        self.buffer.push_str(&settled_line(digest));
    }

    /// Notes how many dead letters the run has read so far (durable at the next sync).
    pub fn read_so_far(&mut self, n: u64) {
        self.buffer.push_str(&read_line(n));
    }

    /// Writes the records added and flushes them to disk (fsync): only then may their dead
    /// letters be acked.
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

    /// The run ended cleanly: every ack it sent was taken. `carried` holds the records of
    /// earlier runs whose dead letters this run did not meet (it stopped before the end of the
    /// queue): they are kept, alone; without any, the journal is deleted.
    pub fn finish(self, scope: &Scope, run: &str, carried: Option<&Unfinished>) -> Result<()> {
        let path = self.path.clone();
        drop(self.file);
        match carried.filter(|c| c.left() > 0) {
            None => match std::fs::remove_file(&path) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
                Err(e) => Err(io_err(&path, "delete", &e)),
            },
            Some(c) => {
                let tmp = path.with_extension("journal.tmp");
                let text = format!("{}{}", run_line(scope, run, 0), c.remaining_lines());
                let write = || -> io::Result<()> {
                    let mut f = File::create(&tmp)?;
                    f.write_all(text.as_bytes())?;
                    f.sync_data()?;
                    std::fs::rename(&tmp, &path)
                };
                write().map_err(|e| io_err(&path, "rewrite", &e))
            }
        }
    }
}

/// The length of the file up to and with its last newline.
fn whole_lines_len(path: &Path) -> io::Result<u64> {
    let bytes = std::fs::read(path)?;
    Ok(bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i as u64 + 1))
}

/// Creates `dir` (and its parents), readable by its owner only where it is new: a journal
/// names queues and holds digests of their messages.
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

    fn scope() -> Scope {
        Scope {
            broker: "127.0.0.1:5672".into(),
            vhost: "/".into(),
            queue: "orders.dead".into(),
            legacy_brokers: Vec::new(),
        }
    }

    #[test]
    fn a_journal_named_after_the_address_moves_to_the_clusters_name() {
        let dir = tempfile::tempdir().unwrap();
        let old = Scope {
            broker: "127.0.0.1:5672".into(),
            ..scope()
        };
        let new = Scope {
            broker: "cluster:rabbit@mq-1".into(),
            legacy_brokers: vec!["127.0.0.1:5672".into()],
            ..scope()
        };
        let old_path = path_in(dir.path(), &old).unwrap();
        std::fs::write(&old_path, run_line(&old, "r1", 1)).unwrap();
        let path = path_in(dir.path(), &new).unwrap();
        assert_ne!(path, old_path);
        assert!(path.exists() && !old_path.exists(), "moved");
        // Its run lines are the new scope's.
        assert_eq!(
            read(&path, &new).unwrap().unwrap().runs,
            vec!["r1".to_owned()]
        );
        // Through another address of the cluster: nothing to move, the same journal.
        let other = Scope {
            legacy_brokers: vec!["mq-2:5672".into()],
            ..new.clone()
        };
        assert_eq!(path_in(dir.path(), &other).unwrap(), path);
        // Another cluster's journal is not this one's.
        let elsewhere = Scope {
            broker: "cluster:rabbit@other".into(),
            legacy_brokers: vec!["mq-9:5672".into()],
            ..new
        };
        assert!(read(&path, &elsewhere).is_err());
    }

    #[test]
    fn file_names_are_readable_and_unique_per_scope() {
        let a = file_name(&scope());
        assert!(a.starts_with("replay-_-orders.dead-"), "{a}");
        assert!(a.ends_with(".journal"));
        let mut other = scope();
        other.broker = "127.0.0.1:5682".into();
        assert_ne!(a, file_name(&other));
    }

    #[test]
    fn a_journal_survives_a_cut_line_and_is_deleted_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("j.journal");
        let mut j = JournalFile::open(&path, &scope(), "r1", 1, &Boot::default()).unwrap();
        j.record("aa", "orders", "r1", 1);
        j.sync().unwrap();
        drop(j);
        // A crash in the middle of a line.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"copied\":\"b").unwrap();
        drop(f);
        let mut j2 = JournalFile::open(
            &path,
            &scope(),
            "r2",
            2,
            &Boot {
                started_ms: Some(5),
                pids: Default::default(),
            },
        )
        .unwrap();
        j2.record("cc", "orders", "r2", 1);
        j2.sync().unwrap();
        let mut read = read(&path, &scope()).unwrap().unwrap();
        assert_eq!(read.runs, vec!["r1".to_owned(), "r2".to_owned()]);
        assert_eq!(read.left(), 2);
        read.take("cc");
        j2.finish(&scope(), "r2", Some(&read)).unwrap();
        let kept = super::read(&path, &scope()).unwrap().unwrap();
        assert_eq!(kept.left(), 1, "the record not met is carried");
        let j3 = JournalFile::open(&path, &scope(), "r3", 3, &Boot::default()).unwrap();
        j3.finish(&scope(), "r3", None).unwrap();
        assert!(!path.exists());
        assert!(super::read(&path, &scope()).unwrap().is_none());
    }
}
