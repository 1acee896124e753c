//! The replay journal of one run, as the pipeline writes it: a record per copy in doubt before
//! it is published, per confirmed copy before its dead letter is acked, the count read so far, the records the broker has
//! processed acks for, and its end (see `dead::journal` for the format and what a rerun does).

use std::path::PathBuf;

use crate::dead::journal::{Scope, Unfinished};
use crate::error::Result;
use crate::journal_file::JournalFile;
use crate::output::time::now_secs;

/// The journal of this run, opened on its first record.
pub(super) struct JournalSlot {
    path: PathBuf,
    scope: Scope,
    run: String,
    /// When the broker node started, as this run sees it.
    broker_started: Option<u64>,
    file: Option<JournalFile>,
}

impl JournalSlot {
    /// The journal at `path` of the run `run`; the file is made on the first record.
    pub(super) fn new(
        path: PathBuf,
        scope: Scope,
        run: String,
        broker_started: Option<u64>,
    ) -> JournalSlot {
        JournalSlot {
            path,
            scope,
            run,
            broker_started,
            file: None,
        }
    }

    /// Records this run's copy number `copy` as confirmed.
    pub(super) fn record(&mut self, digest: &str, to: &str, copy: u64) -> Result<()> {
        let run = self.run.clone();
        self.file()?.record(digest, to, &run, copy);
        Ok(())
    }

    /// Records this run's copy number `copy` as about to be published: in doubt.
    pub(super) fn doubt(&mut self, digest: &str, to: &str, copy: u64) -> Result<()> {
        let run = self.run.clone();
        self.file()?.doubt(digest, to, &run, copy);
        Ok(())
    }

    /// Records that this run's copy number `copy` is certainly not in its target.
    pub(super) fn undone(&mut self, copy: u64) -> Result<()> {
        let run = self.run.clone();
        self.file()?.undone(&run, copy);
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
        let file = self.file()?;
        match found {
            Some((digest, to)) => file.record(digest, to, run, copy),
            None => file.undone(run, copy),
        }
        Ok(())
    }

    /// The file, opened (with this run's line) on first use.
    fn file(&mut self) -> Result<&mut JournalFile> {
        if let Some(f) = self.file.take() {
            return Ok(self.file.insert(f));
        }
        let f = JournalFile::open(
            &self.path,
            &self.scope,
            &self.run,
            now_secs(),
            self.broker_started,
        )?;
        Ok(self.file.insert(f))
    }

    pub(super) fn sync(&mut self) -> Result<()> {
        self.file.as_mut().map_or(Ok(()), JournalFile::sync)
    }

    /// Notes how many dead letters this run has read (see `dead::journal::read_line`).
    pub(super) fn read_so_far(&mut self, n: u64) -> Result<()> {
        self.file()?.read_so_far(n);
        Ok(())
    }

    /// Cancels a record of this or an earlier run (see `dead::journal`).
    pub(super) fn settled(&mut self, digest: &str) -> Result<()> {
        self.file()?.settled(digest);
        Ok(())
    }

    /// The run ended cleanly, every ack taken: the journal goes, but for the records of
    /// earlier runs this run did not meet (`carried`, when it stopped before the end).
    pub(super) fn finish(self, carried: Option<&Unfinished>) -> Result<()> {
        let file = match self.file {
            Some(f) => f,
            None if self.path.exists() => {
                JournalFile::open(&self.path, &self.scope, &self.run, now_secs(), None)?
            }
            None => return Ok(()),
        };
        file.finish(&self.scope, &self.run, carried)
    }
}
