//! The replay journal of one run, as the pipeline writes it: a record per copy in doubt before
//! it is published, per confirmed copy before its dead letter is acked, the count read so far,
//! the records the broker has processed acks for, and its end (see `dead::journal` for the
//! format and what a rerun does).

use std::path::{Path, PathBuf};

use crate::broker::publish::{Copy, Outcome};
use crate::clock::now_secs;
use crate::dead::journal::{Boot, Scope, Unfinished};
use crate::error::Result;
use crate::journal_file::JournalFile;

/// What a run keeps of each copy until it is decided, for the journal and the report, from a
/// queue and from a file alike.
pub(super) struct InFlight {
    pub(super) target: String,
    /// Its dead letter's (or line's) digest, for the journal.
    pub(super) digest: String,
    /// Its number in this run (0 when nothing is copied).
    pub(super) copy: u64,
    /// Its envelope's attempt was set back to 1.
    pub(super) reset: bool,
}

/// A copy's token, which holds what the journal needs of it.
pub(super) trait Journaled {
    fn in_flight(&self) -> &InFlight;
}

impl Journaled for InFlight {
    fn in_flight(&self) -> &InFlight {
        self
    }
}

/// The journal of this run, opened on its first record.
pub(super) struct JournalSlot {
    path: PathBuf,
    scope: Scope,
    run: String,
    /// Which start of the broker this run sees.
    boot: Boot,
    file: Option<JournalFile>,
}

impl JournalSlot {
    /// The loss-safety rule's first half, the same for a queue and a file: before a batch is
    /// published, each copy recorded in doubt (and, from a queue, how many dead letters were
    /// read so far: `read`), then the journal flushed to disk. Whatever fails from then on, a
    /// rerun knows which copies may be in their targets, and looks for them there.
    pub(super) fn before_publish<T: Journaled>(
        &mut self,
        copies: &[Copy<T>],
        read: Option<u64>,
    ) -> Result<()> {
        for c in copies {
            let t = c.token.in_flight();
            self.doubt(&t.digest, &t.target, c.id)?;
        }
        if let Some(n) = read {
            self.read_so_far(n)?;
        }
        self.sync()
    }

    /// Its second half: each decided copy recorded, then the journal flushed to disk, before
    /// any dead letter (or line) it answers for is acked (or counted done).
    pub(super) fn after_publish<T: Journaled>(&mut self, decided: &[(T, Outcome)]) -> Result<()> {
        for (t, outcome) in decided {
            let t = t.in_flight();
            self.decided(&t.digest, &t.target, t.copy, outcome)?;
        }
        self.sync()
    }

    /// The journal at `path` of the run `run`; the file is made on the first record.
    pub(super) fn new(path: PathBuf, scope: Scope, run: String, boot: Boot) -> JournalSlot {
        JournalSlot {
            path,
            scope,
            run,
            boot,
            file: None,
        }
    }

    /// The journal's file.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Records this run's copy number `copy` as about to be published: in doubt.
    pub(super) fn doubt(&mut self, digest: &str, to: &str, copy: u64) -> Result<()> {
        let (file, run) = self.file()?;
        file.doubt(digest, to, run, copy);
        Ok(())
    }

    /// Records what became of this run's copy number `copy`: confirmed, or certainly not in
    /// its target (returned, or refused). An `Unknown` copy stays in doubt.
    pub(super) fn decided(
        &mut self,
        digest: &str,
        to: &str,
        copy: u64,
        outcome: &Outcome,
    ) -> Result<()> {
        let (file, run) = self.file()?;
        match outcome {
            Outcome::Delivered => file.record(digest, to, run, copy),
            Outcome::Returned { .. } | Outcome::Refused => file.undone(run, copy),
            Outcome::Unknown => {}
        }
        Ok(())
    }

    /// Records what a look in the target found of an earlier run's copy in doubt: `found`
    /// there (a confirmed copy of `digest` in `to`), or certainly not.
    pub(super) fn resolved(
        &mut self,
        run: &str,
        copy: u64,
        found: Option<(&str, &str)>,
    ) -> Result<()> {
        let (file, _) = self.file()?;
        match found {
            Some((digest, to)) => file.record(digest, to, run, copy),
            None => file.undone(run, copy),
        }
        Ok(())
    }

    /// The file, opened (with this run's line) on first use, and this run's id.
    fn file(&mut self) -> Result<(&mut JournalFile, &str)> {
        if self.file.is_none() {
            self.file = Some(JournalFile::open(
                &self.path,
                &self.scope,
                &self.run,
                now_secs(),
                &self.boot,
            )?);
        }
        match self.file.as_mut() {
            Some(f) => Ok((f, &self.run)),
            None => Err(crate::error::Error::internal("replay: no journal file")),
        }
    }

    pub(super) fn sync(&mut self) -> Result<()> {
        self.file.as_mut().map_or(Ok(()), JournalFile::sync)
    }

    /// Notes how many dead letters this run has read (see `dead::journal::read_line`).
    pub(super) fn read_so_far(&mut self, n: u64) -> Result<()> {
        self.file()?.0.read_so_far(n);
        Ok(())
    }

    /// Cancels a record of this or an earlier run (see `dead::journal`).
    pub(super) fn settled(&mut self, digest: &str) -> Result<()> {
        self.file()?.0.settled(digest);
        Ok(())
    }

    /// The run ended cleanly, every ack taken: the journal goes, but for the records of
    /// earlier runs this run did not meet (`carried`, when it stopped before the end).
    pub(super) fn finish(self, carried: Option<&Unfinished>) -> Result<()> {
        let file = match self.file {
            Some(f) => f,
            None if self.path.exists() => JournalFile::open(
                &self.path,
                &self.scope,
                &self.run,
                now_secs(),
                &Boot::default(),
            )?,
            None => return Ok(()),
        };
        file.finish(&self.scope, &self.run, carried)
    }
}
