//! Replaying from an export file (`--from-file`): every line checked before anything is
//! published, then each line through the same per-message step as a dead letter of q.dead, and
//! its copy through the same publish and settle stages (`publish_stage.rs`, `settle.rs`), with
//! a place in the same window; the settle stage has nothing to ack.
//!
//! Nothing is removed from the file, so a run that fails must not leave its rerun to copy again
//! the lines it copied: a journal of its own (the file's canonical path stands for the queue in
//! its scope) records each copy in doubt before it is published and each confirmed copy, by the
//! line's digest. A rerun reads the lines in the same order, so each record answers for the
//! first line of its digest not answered yet; it looks for the copies in doubt in their targets
//! first, as a rerun over q.dead does. The journal is kept when the run stops early (an error,
//! a signal: the rest of the file is still to replay) and deleted when it reaches its end or
//! its limit.
//!
//! Where it sits (`replay/mod.rs`): stages 1, 2 and 6 of a run with `--from-file`.

use std::io::{BufRead, BufReader};
use std::path::Path;

use tokio::sync::mpsc;

use super::ledger::InFlight;
use super::publish_stage::{Job, Publish, Token};
use super::settle::{Settle, Settler};
use super::step::{Step, Stepper};
use super::{Shared, Tally, check_targets};
use crate::broker::publish::fits_amqp;
use crate::broker::session::Session;
use crate::clock::now_secs;
use crate::dead::decode::Message;
use crate::dead::export::{EndLine, ExportLine, read_line};
use crate::dead::ledger::{Decision, Ledger, digest};
use crate::dead::replay::ReplayStamp;
use crate::dead::report::ReplayReport;
use crate::error::{Error, Kind, Result};
use crate::output::Output;
use crate::output::progress::Progress;
use crate::settings::ReplaySettings;
use crate::signals::StopFlag;

#[allow(clippy::too_many_arguments)]
pub(super) async fn from_file(
    session: &Session,
    settings: &ReplaySettings,
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
    let mut end: Option<EndLine> = None;
    for line in records(path)? {
        let (n, item) = line?;
        match item.map_err(|e| {
            e.with_hint("nothing was replayed; the file must hold `queuey dead export` lines")
        })? {
            Item::Record(_) => {
                total += 1;
                end = None;
            }
            Item::End(e) => end = Some(e),
            Item::CutShort => output.note(&cut_short_note(path, n)),
        }
    }
    report.file_complete = Some(end.as_ref().is_some_and(|e| e.finished));
    if let Some(note) = completeness_note(path, end.as_ref()) {
        output.note(&note);
    }
    let stamp = ReplayStamp {
        run: crate::clock::unique_id(),
        time: now_secs(),
        from: path.display().to_string(),
    };
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    let scope =
        crate::live::scan::ledger_scope(session, &format!("file:{}", canonical.display())).await;
    let (mut carried, journal) = super::open_ledger::begin(
        session,
        settings,
        scope,
        &stamp.run,
        crate::dead::ledger::Boot::default(),
        output,
    )
    .await?;
    report.journal = Some(journal.path().display().to_string());
    let source = path.display().to_string();
    let shared = Shared::new(session, settings, stop, tally, journal, &source);
    progress.set_length(total);
    let window = shared.window.size();
    let (job_tx, job_rx) = mpsc::channel::<Job>(window);
    let (settle_tx, settle_rx) = mpsc::channel::<Settle>(window.saturating_mul(4));
    let reader = LineReader {
        shared: &shared,
        stepper: Stepper::new(settings, &stamp),
        carried: &mut carried,
        jobs: job_tx,
        settle: settle_tx.clone(),
        report: ReplayReport::new(settings.dry_run),
    };
    let publish = Publish::new(&shared, session, settle_tx);
    // No acks: the settle stage frees each line's place and counts it, in order.
    let settler = Settler::new(None, &shared, progress, false);
    let (read, published, settled) = tokio::join!(
        reader.run(path),
        publish.run(job_rx),
        settler.run(settle_rx)
    );
    let errors = [
        read.as_ref().err(),
        published.as_ref().err(),
        settled.result.as_ref().err(),
    ];
    if let Some(e) = super::first_error(errors) {
        return Err(e);
    }
    let (lines, matched, at_limit) = read?;
    let outcomes = published?;
    report.scanned += lines.scanned;
    report.already_copied += lines.already_copied;
    report.absorb(lines);
    report.dead_lettered_not_found += outcomes.dead_lettered_not_found;
    report.absorb(outcomes);
    report.matched = matched;
    report.limit = settings.limit;
    report.limit_reached = at_limit;
    progress.finish();
    report.interrupted = stop.is_set();
    for (target, room) in shared.rooms.borrow().reports() {
        report.set_room(target, room);
    }
    for (target, unread) in shared.rooms.borrow().unread() {
        report.set_unread(&target, unread);
    }
    if settings.dry_run {
        check_targets(session, settings, report).await;
    } else if !report.interrupted {
        // The end of the file, or of --limit: the journal goes, but for records of lines past
        // the limit. Stopped by a signal, it stays: a rerun goes on where this run stopped.
        shared
            .journal
            .into_inner()
            .finish(at_limit.then_some(&carried))?;
    }
    Ok(())
}

/// The read stage of a file: each line decided by the per-message step, as a dead letter of
/// q.dead is, its copy passed on to the publish stage with a place in the window.
struct LineReader<'a, 'r> {
    shared: &'a Shared<'a>,
    stepper: Stepper<'a>,
    /// What unfinished earlier runs left (see `dead::ledger`).
    carried: &'r mut Ledger,
    jobs: mpsc::Sender<Job<'a>>,
    settle: mpsc::Sender<Settle<'a>>,
    /// Lines read, failures to build a copy, and with --dry-run what would move, per target.
    report: ReplayReport,
}

impl<'a> LineReader<'a, '_> {
    /// Reads the lines until the end, `--limit`, a stop signal or a failure; returns what it
    /// counted, how many lines matched, and whether `--limit` ended it.
    async fn run(mut self, path: &Path) -> Result<(ReplayReport, u64, bool)> {
        let sh = self.shared;
        let settings = sh.settings;
        for line in records(path)? {
            if sh.stop.is_set() || self.stepper.at_limit() {
                break;
            }
            let (n, item) = line?;
            let mut message = match item? {
                Item::Record(m) => m,
                Item::End(_) | Item::CutShort => continue,
            };
            self.report.scanned += 1;
            let d = digest(&message.properties, &message.body);
            // Copied by a run that did not finish (before filters: the copy exists whatever
            // this run selects). A file's line is never removed: every certain copy answers
            // for one.
            let decision = self.carried.decide_line(&d);
            if decision == Decision::AlreadyCopied {
                self.report.already_copied += 1;
                self.stepper.already_copied();
                self.counted().await?;
                continue;
            }
            // A copy of a line that an earlier run may have copied (its copy in doubt not
            // found, or not looked for) may be a second one: counted when it is published; a
            // line not published gives that record back to the next line of its content.
            let may_duplicate = decision
                == Decision::Copy {
                    may_duplicate: true,
                };
            let step = self.stepper.step(&mut message);
            if !matches!(step, Step::Copy(_)) {
                self.carried.undecide(&d, decision);
            }
            let copy = match step {
                Step::Unmatched => {
                    self.counted().await?;
                    continue;
                }
                Step::Would { to, reset } => {
                    let claimed = message.properties.user_id.as_deref();
                    let user_id = match settings.strip_user_id {
                        true => None,
                        false => super::publishable::user_id_refusal(sh.session, claimed).await?,
                    };
                    let refusal = match user_id {
                        Some(why) => Some(why),
                        None => {
                            super::admit::admit_with_return(
                                sh.session,
                                settings,
                                &sh.rooms,
                                &to,
                                message.body.len(),
                            )
                            .await?
                        }
                    };
                    match refusal {
                        None => self.report.would(&to, reset),
                        Some(why) => self.report.would_not_fit(&to, why.to_string()),
                    }
                    self.counted().await?;
                    continue;
                }
                Step::Cannot { to, why } => {
                    // As from q.dead: this one is not copied (its line stays; nothing is
                    // removed from a file) and the others go on.
                    self.report
                        .fail(&to, format!("line {n}: cannot copy the message: {why}"));
                    self.counted().await?;
                    continue;
                }
                Step::Copy(copy) => copy,
            };
            if let Some(why) =
                super::publishable::refusal(sh.session, settings, &copy, &sh.holds, &sh.rooms)
                    .await?
            {
                // Not published: the line stays to be replayed (the ledger has no record).
                self.carried.undecide(&d, decision);
                self.report.fail(&copy.queue, why.to_string());
                self.counted().await?;
                continue;
            }
            let weight = sh.window.weight(&copy.body);
            let in_flight = InFlight {
                target: copy.queue.clone(),
                reset: copy.token,
                digest: d,
                copy: copy.id,
                may_duplicate,
                message_id: may_duplicate
                    .then(|| message.properties.message_id.clone())
                    .flatten(),
            };
            let Some(place) = sh.window.admit(weight).await else {
                // The publish stage stopped; its error is what gets reported.
                break;
            };
            let token = Token {
                tag: 0,
                copy: in_flight,
                place,
            };
            if self
                .jobs
                .send(Job::Copy(copy.with_token(token)))
                .await
                .is_err()
            {
                break;
            }
        }
        Ok((self.report, self.stepper.matched, self.stepper.at_limit()))
    }

    /// A line settled here (not copied): counted by the settle stage, in its turn.
    async fn counted(&self) -> Result<()> {
        self.settle
            .send(Settle::Counted)
            .await
            .map_err(|_| Error::internal("replay: the settle stage stopped"))
    }
}

/// A line of an export file.
// The record is the common case: boxing it would cost an allocation per line.
#[allow(clippy::large_enum_variant)]
enum Item {
    Record(Message),
    /// The end line (`dead export --output-file`, `dead purge --archive`).
    End(EndLine),
    /// The last line, without a newline at its end, and not a whole record: a write cut short.
    CutShort,
}

/// The note on a last line cut short (it is left out).
fn cut_short_note(path: &Path, n: usize) -> String {
    let file = path.display();
    format!(
        "{file} line {n}, the last, is cut short (no newline at its end: a write cut off by a \
         kill or a crash) and is not a whole record: it is left out, the lines before it are \
         read. Its dead letter was not lost: an export only reads, and a purge removes a dead \
         letter only once its line is on disk, so it is still in the dead-letter queue (for a \
         purge archive, the same `dead purge` with the same --archive finishes the purge and \
         drops the line; `head -n {} {file}` leaves it out of a copy)",
        n.saturating_sub(1),
    )
}

/// What the file says of its own completeness, when it is not a finished run's.
fn completeness_note(path: &Path, end: Option<&EndLine>) -> Option<String> {
    let file = path.display();
    match end {
        Some(e) if e.finished => None,
        Some(e) if e.command == "purge" => Some(format!(
            "{file} ends with the end line of a purge of {} that stopped early ({}): it holds \
             the {} dead letters that purge removed",
            e.queue,
            e.why.as_deref().unwrap_or("no reason given"),
            e.records
        )),
        Some(e) => Some(format!(
            "{file} is INCOMPLETE: its end line says the {} of {} stopped early ({}); it holds \
             {} of its dead letters, the others were not read",
            e.command,
            e.queue,
            e.why.as_deref().unwrap_or("no reason given"),
            e.records
        )),
        None => Some(format!(
            "{file} has no end line: if `dead export --output-file` or `dead purge --archive` \
             wrote it, that run did not end (killed, or the machine stopped) and the file may be \
             INCOMPLETE; the same purge with the same --archive finishes an unfinished purge. \
             Files of `dead edit`, of `dead export` to standard output, and of a queuey without \
             end lines have none"
        )),
    }
}

/// The lines of an export file with their line numbers, blank lines skipped: an error of the
/// outer `Result` is one reading the file, of the inner one a line that is not a record (or
/// whose message AMQP cannot carry). A last line without a newline at its end that is not a
/// whole record is [`Item::CutShort`], not an error: a write cut short by a crash.
fn records(path: &Path) -> Result<impl Iterator<Item = Result<(usize, Result<Item>)>>> {
    let file = std::fs::File::open(path).map_err(|e| {
        Error::io(
            format!("cannot read the export file {}", path.display()),
            &e,
        )
    })?;
    let path = path.to_owned();
    let mut reader = BufReader::new(file);
    let mut n = 0usize;
    Ok(std::iter::from_fn(move || {
        loop {
            let mut bytes = Vec::new();
            n += 1;
            match reader.read_until(b'\n', &mut bytes) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    return Some(Err(Error::io(
                        format!("cannot read {} line {n}", path.display()),
                        &e,
                    )));
                }
            }
            let whole = bytes.last() == Some(&b'\n');
            let parsed = match std::str::from_utf8(&bytes) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => parse_line(line.trim_end_matches(['\n', '\r'])),
                Err(e) => Err(format!("not UTF-8: {e}")),
            };
            let item = match parsed {
                Ok(item) => Ok(item),
                Err(_) if !whole => Ok(Item::CutShort),
                Err(why) => Err(Error::new(
                    Kind::Usage,
                    format!("{} line {n}: {why}", path.display()),
                )),
            };
            return Some(Ok((n, item)));
        }
    }))
}

/// One line of an export file: a record to replay, read by [`read_line`] and checked now to
/// fit AMQP, so that a bad line stops the run before anything is published; or the end line.
fn parse_line(line: &str) -> std::result::Result<Item, String> {
    match read_line(line)? {
        ExportLine::Record(message) => {
            fits_amqp(&message.properties)?;
            Ok(Item::Record(message))
        }
        ExportLine::End(end) => Ok(Item::End(end)),
    }
}
