//! The ledger of one replay run, as the pipeline writes it (see `dead::ledger` for the format
//! and the rule a rerun follows): a `doubt` per copy before it is published, a `copied` per
//! confirmed copy before its dead letter is acked, a `claimed` before the ack of a dead letter
//! the rule let go without a copy, and `settled` once the broker processed acks. The one
//! writer is [`LedgerSlot`], owned by the run and lent to each stage in turn.
//!
//! Where it sits (`replay/mod.rs`): opened at stage 1, written at stages 4 and 5, finished at 6.

use std::path::{Path, PathBuf};

use crate::broker::publish::{Copy, Outcome};
use crate::clock::now_secs;
use crate::dead::ledger::{Boot, Ledger, Op, Scope};
use crate::error::Result;
use crate::ledger_file::LedgerFile;

/// What a run keeps of each copy until it is decided, for the ledger and the report, from a
/// queue and from a file alike.
pub(super) struct InFlight {
    pub(super) target: String,
    /// Its dead letter's (or line's) digest, for the ledger.
    pub(super) digest: String,
    /// Its number in this run (0 when nothing is copied).
    pub(super) copy: u64,
    /// Its envelope's attempt was set back to 1.
    pub(super) reset: bool,
    /// An unfinished run may have copied a dead letter of this content already, and the rule
    /// could not prove it: this copy may be a second one (counted in the report if
    /// confirmed), named by its dead letter's message id (`None`: it has none).
    pub(super) may_duplicate: bool,
    pub(super) message_id: Option<String>,
}

/// How a possible duplicate is named in the report: its dead letter's message id, else
/// `sha256:` and the start of its digest.
pub(super) fn duplicate_name(message_id: Option<&str>, digest: &str) -> String {
    match message_id {
        Some(id) => id.to_owned(),
        None => format!("sha256:{}", &digest[..digest.len().min(16)]),
    }
}

/// A copy's token, which holds what the ledger needs of it.
pub(super) trait Journaled {
    fn in_flight(&self) -> &InFlight;
}

impl Journaled for InFlight {
    fn in_flight(&self) -> &InFlight {
        self
    }
}

/// The ledger of this run, opened on its first line.
pub(super) struct LedgerSlot {
    path: PathBuf,
    scope: Scope,
    run: String,
    /// Which start of the broker this run sees.
    boot: Boot,
    file: Option<LedgerFile>,
}

impl LedgerSlot {
    /// The loss-safety rule's first half, the same for a queue and a file: before a batch is
    /// published, each copy recorded in doubt, then the ledger flushed to disk. Whatever fails
    /// from then on, a rerun knows which copies may be in their targets.
    pub(super) fn before_publish<T: Journaled>(&mut self, copies: &[Copy<T>]) -> Result<()> {
        for c in copies {
            let t = c.token.in_flight();
            let (file, run) = self.file()?;
            file.doubt(&t.digest, &t.target, run, c.id);
        }
        self.sync()
    }

    /// Its second half: each decided copy recorded (confirmed, or certainly not in its
    /// target), then the ledger flushed to disk, before any dead letter (or line) it answers
    /// for is acked (or counted done). An `Unknown` copy stays in doubt.
    pub(super) fn after_publish<T: Journaled>(&mut self, decided: &[(T, Outcome)]) -> Result<()> {
        for (t, outcome) in decided {
            let t = t.in_flight();
            let (file, run) = self.file()?;
            match outcome {
                Outcome::Delivered => {
                    file.copied(&t.digest, &t.target, run, t.copy, t.may_duplicate);
                }
                Outcome::Returned { .. } | Outcome::Refused => file.undone(run, t.copy),
                Outcome::Unknown => {}
            }
        }
        self.sync()
    }

    /// The ledger at `path` of the run `run`; the file is made on the first line.
    pub(super) fn new(path: PathBuf, scope: Scope, run: String, boot: Boot) -> LedgerSlot {
        LedgerSlot {
            path,
            scope,
            run,
            boot,
            file: None,
        }
    }

    /// The ledger's file.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Records what a look in the target found of an earlier run's copy in doubt, of a dead
    /// letter of `digest`: `found` there, or not there yet (it may still arrive).
    pub(super) fn resolved(
        &mut self,
        run: &str,
        copy: u64,
        digest: &str,
        found: bool,
    ) -> Result<()> {
        let (file, _) = self.file()?;
        if found {
            file.found(digest, run, copy);
        } else {
            file.missed(digest, run, copy);
        }
        Ok(())
    }

    /// Uses up the record the rule granted for a dead letter of `digest` (before its ack:
    /// [`LedgerSlot::sync`] first).
    pub(super) fn claimed(&mut self, digest: &str) -> Result<()> {
        self.file()?.0.claimed(digest);
        Ok(())
    }

    /// The broker processed the ack of a dead letter of `digest`.
    pub(super) fn settled(&mut self, digest: &str) -> Result<()> {
        self.file()?.0.settled(digest);
        Ok(())
    }

    /// The file, opened (with this run's line) on first use, and this run's id.
    fn file(&mut self) -> Result<(&mut LedgerFile, &str)> {
        if self.file.is_none() {
            self.file = Some(LedgerFile::open(
                &self.path,
                Op::Replay,
                &self.scope,
                &self.run,
                now_secs(),
                &self.boot,
            )?);
        }
        match self.file.as_mut() {
            Some(f) => Ok((f, &self.run)),
            None => Err(crate::error::Error::internal("replay: no ledger file")),
        }
    }

    pub(super) fn sync(&mut self) -> Result<()> {
        self.file.as_mut().map_or(Ok(()), LedgerFile::sync)
    }

    /// The run ended cleanly, every ack taken: the ledger goes, but for what earlier runs left
    /// that this run did not meet (`carried`, when it stopped before the end).
    pub(super) fn finish(self, carried: Option<&Ledger>) -> Result<()> {
        let file = match self.file {
            Some(f) => f,
            None if self.path.exists() => LedgerFile::open(
                &self.path,
                Op::Replay,
                &self.scope,
                &self.run,
                now_secs(),
                &Boot::default(),
            )?,
            None => return Ok(()),
        };
        file.finish(Op::Replay, &self.scope, &self.run, carried)
    }
}
