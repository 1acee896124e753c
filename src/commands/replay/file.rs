//! Replaying from an export file (`--from-file`): every line checked before anything is
//! published, then each line through the same per-message step as a dead letter of q.dead.
//!
//! Nothing is removed from the file, so a run that fails must not leave its rerun to copy again
//! the lines it copied: a journal of its own (the file's canonical path stands for the queue in
//! its scope) records each copy in doubt before it is published and each confirmed copy, by the
//! line's digest. A rerun reads the lines in the same order, so each record answers for the
//! first line of its digest not answered yet; it looks for the copies in doubt in their targets
//! first, as a rerun over q.dead does. The journal is kept when the run stops early (an error,
//! a signal: the rest of the file is still to replay) and deleted when it reaches its end or
//! its limit.

use std::cell::RefCell;
use std::io::{BufRead, BufReader};
use std::path::Path;

use super::journal::{InFlight, JournalSlot};
use super::step::{Step, Stepper};
use super::{Pace, Tally, check_targets, paced_window, publish_chunk};
use crate::broker::publish::{Copy, Outcome, Publisher, fits_amqp};
use crate::broker::session::Session;
use crate::clock::now_secs;
use crate::dead::decode::Message;
use crate::dead::export::read_record;
use crate::dead::journal::digest;
use crate::dead::replay::{ReplayStamp, copy_id};
use crate::dead::report::ReplayReport;
use crate::dead::room::Rooms;
use crate::error::{Error, Kind, Result};
use crate::output::Output;
use crate::output::progress::Progress;
use crate::settings::ReplaySettings;
use crate::signals::StopFlag;

/// The run over a file, what it shares between its lines.
struct FileRun<'a> {
    session: &'a Session,
    s: &'a ReplaySettings,
    journal: JournalSlot,
    publisher: Option<Publisher<'a, InFlight>>,
    tally: &'a Tally,
    /// The room in each target (see `dead::room`).
    rooms: RefCell<Rooms>,
    /// With `--after`: the hold queues declared so far (see `after`).
    holds: RefCell<std::collections::HashMap<String, Option<String>>>,
}

#[allow(clippy::too_many_arguments)]
pub(super) async fn from_file(
    session: &Session,
    s: &ReplaySettings,
    path: &Path,
    stop: &StopFlag,
    report: &mut ReplayReport,
    tally: &Tally,
    progress: &Progress,
    output: Output,
) -> Result<()> {
    report.source = path.display().to_string();
    // First pass: every line must be a valid record, or nothing is published.
    let mut total = 0u64;
    for line in records(path)? {
        line?.1.map_err(|e| {
            e.with_hint("nothing was replayed; the file must hold `queuey dead export` lines")
        })?;
        total += 1;
    }
    let stamp = ReplayStamp {
        run: crate::clock::unique_id(),
        time: now_secs(),
        from: path.display().to_string(),
    };
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    let scope =
        crate::live::scan::journal_scope(session, &format!("file:{}", canonical.display())).await;
    let (mut carried, journal) = super::carry::begin(
        session,
        s,
        scope,
        &stamp.run,
        crate::dead::journal::Boot::default(),
        "their lines are not copied again",
        output,
    )
    .await?;
    report.journal = Some(journal.path().display().to_string());
    let mut run = FileRun {
        session,
        s,
        journal,
        publisher: None,
        tally,
        rooms: RefCell::new(Rooms::new(
            &path.display().to_string(),
            s.allow_drop_head,
            s.dry_run,
        )),
        holds: RefCell::new(std::collections::HashMap::new()),
    };
    let mut stepper = Stepper::new(s, &stamp);
    progress.set_length(total);
    let mut pace = Pace::new(s.rate);
    // Copies go out in batches: one journal flush before each, one after its confirmations.
    let chunk = publish_chunk(s.rate);
    let mut batch: Vec<Copy<InFlight>> = Vec::with_capacity(chunk);
    for line in records(path)? {
        if stop.is_set() || stepper.at_limit() {
            break;
        }
        let (n, record) = line?;
        let mut message = record?;
        report.scanned += 1;
        let mut d = digest(&message.properties, &message.body);
        // Copied by a run that did not finish (before filters: the copy exists whatever this
        // run selects).
        if carried
            .take_dead_letter(&mut d, &message.properties, &message.body)
            .is_some()
        {
            report.already_copied += 1;
            progress.inc(1);
            continue;
        }
        let copy = match stepper.step(&mut message) {
            Step::Unmatched => {
                progress.inc(1);
                continue;
            }
            Step::Would { to, reset } => {
                match super::room::admit_with_return(
                    session,
                    s,
                    &run.rooms,
                    &to,
                    message.body.len(),
                )
                .await?
                {
                    None => report.would(&to, reset),
                    Some(why) => report.would_not_fit(&to, why),
                }
                progress.inc(1);
                continue;
            }
            Step::Cannot { why, .. } => {
                return Err(Error::new(
                    Kind::Usage,
                    format!("{} line {n}: {why}", path.display()),
                ));
            }
            Step::Copy(copy) => copy,
        };
        if let Some(why) =
            super::publishable::refusal(session, s, &copy, &run.holds, &run.rooms).await?
        {
            // Not published: the line stays to be replayed (the journal has no record of it).
            report.fail(&copy.queue, why);
            progress.inc(1);
            continue;
        }
        pace.wait().await;
        let token = InFlight {
            target: copy.queue.clone(),
            reset: copy.token,
            digest: d,
            copy: copy.id,
        };
        batch.push(copy.with_token(token));
        if batch.len() >= chunk {
            let decided = run.publish(std::mem::take(&mut batch)).await?;
            run.record(decided, report, progress)?;
        }
    }
    report.matched = stepper.matched;
    report.limit = s.limit;
    report.limit_reached = s.limit.is_some_and(|l| stepper.matched >= l);
    if !stop.is_set() {
        // Stopped by a signal, the batch not yet published stays unpublished (and unrecorded):
        // the rerun replays those lines.
        let decided = run.publish(batch).await?;
        run.record(decided, report, progress)?;
    }
    if let Some(mut publisher) = run.publisher.take() {
        let decided = publisher.flush().await?;
        run.record(decided, report, progress)?;
        publisher.close().await;
    }
    progress.finish();
    report.interrupted = stop.is_set();
    for (target, room) in run.rooms.borrow().reports() {
        report.set_room(target, room);
    }
    for (target, unread) in run.rooms.borrow().unread() {
        report.set_unread(&target, unread);
    }
    if s.dry_run {
        check_targets(session, s, report).await;
    } else if !report.interrupted {
        // The end of the file, or of --limit: the journal goes, but for records of lines past
        // the limit. Stopped by a signal, it stays: a rerun goes on where this run stopped.
        run.journal.finish(stepper.at_limit().then_some(&carried))?;
    }
    Ok(())
}

impl<'a> FileRun<'a> {
    /// Records `batch` in doubt (flushed to disk), then publishes it; returns the copies
    /// decided meanwhile.
    async fn publish(&mut self, batch: Vec<Copy<InFlight>>) -> Result<Vec<(InFlight, Outcome)>> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        self.journal.before_publish(&batch, None)?;
        if self.publisher.is_none() {
            let window = paced_window(self.s.rate, usize::from(self.s.peek.window));
            self.publisher = Some(Publisher::open(self.session, window, copy_id).await?);
        }
        let Some(publisher) = self.publisher.as_mut() else {
            return Err(Error::internal("replay: no publisher"));
        };
        publisher.publish_many(batch).await
    }

    /// Records each decided copy in the journal (flushed) and in the report.
    fn record(
        &mut self,
        decided: Vec<(InFlight, Outcome)>,
        report: &mut ReplayReport,
        progress: &Progress,
    ) -> Result<()> {
        self.journal.after_publish(&decided)?;
        for (t, outcome) in decided {
            self.rooms.borrow_mut().decided(&t.target);
            if outcome == Outcome::Refused && !self.rooms.borrow().refusal_explained(&t.target) {
                // A refusal that what the run read of the target does not explain: a limit
                // set since, which may have dead-lettered the copy while its line stays to
                // replay. A file run has no q.dead in hand to look in: the summary says so.
                report.dead_lettered_not_found += 1;
            }
            if outcome == Outcome::Delivered {
                Tally::add(&self.tally.copied, 1);
            }
            report.record(&t.target, &outcome, t.reset);
            progress.inc(1);
        }
        Ok(())
    }
}

/// The records of an export file with their line numbers, blank lines skipped: an error of
/// the outer `Result` is one reading the file, of the inner one a line that is not a record
/// (or whose message AMQP cannot carry).
fn records(path: &Path) -> Result<impl Iterator<Item = Result<(usize, Result<Message>)>>> {
    let file = std::fs::File::open(path).map_err(|e| {
        Error::io(
            format!("cannot read the export file {}", path.display()),
            &e,
        )
    })?;
    let path = path.to_owned();
    Ok(BufReader::new(file)
        .lines()
        .enumerate()
        .filter_map(move |(i, line)| {
            let n = i + 1;
            let line = match line {
                Ok(l) => l,
                Err(e) => {
                    return Some(Err(Error::io(
                        format!("cannot read {} line {n}", path.display()),
                        &e,
                    )));
                }
            };
            if line.trim().is_empty() {
                return None;
            }
            let record = parse_record(&line).map_err(|why| {
                Error::new(Kind::Usage, format!("{} line {n}: {why}", path.display()))
            });
            Some(Ok((n, record)))
        }))
}

/// One line of an export file as a message to replay: read by [`read_record`], and checked now
/// to fit AMQP, so that a bad line stops the run before anything is published.
fn parse_record(line: &str) -> std::result::Result<Message, String> {
    let message = read_record(line)?;
    fits_amqp(&message.properties)?;
    Ok(message)
}
