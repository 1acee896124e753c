//! The replay journal of one run, as the pipeline writes it: a record per confirmed copy
//! before its dead letter is acked, the count read so far, the records the broker has
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

    pub(super) fn record(&mut self, digest: &str, to: &str) -> Result<()> {
        self.open()?;
        if let Some(f) = self.file.as_mut() {
            f.record(digest, to, &self.run);
        }
        Ok(())
    }

    fn open(&mut self) -> Result<()> {
        if self.file.is_none() {
            self.file = Some(JournalFile::open(
                &self.path,
                &self.scope,
                &self.run,
                now_secs(),
                self.broker_started,
            )?);
        }
        Ok(())
    }

    pub(super) fn sync(&mut self) -> Result<()> {
        self.file.as_mut().map_or(Ok(()), JournalFile::sync)
    }

    /// Notes how many dead letters this run has read (see `dead::journal::read_line`).
    pub(super) fn read_so_far(&mut self, n: u64) -> Result<()> {
        self.open()?;
        if let Some(f) = self.file.as_mut() {
            f.read_so_far(n);
        }
        Ok(())
    }

    /// Cancels a record of this or an earlier run (see `dead::journal`).
    pub(super) fn settled(&mut self, digest: &str) -> Result<()> {
        self.open()?;
        if let Some(f) = self.file.as_mut() {
            f.settled(digest);
        }
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
