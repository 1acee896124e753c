//! Replaying from an export file (`--from-file`): every line checked before anything is
//! published, then each line through the same per-message step as a dead letter of q.dead.
//! The file is only read: nothing is removed from it, so no journal is kept.

use std::io::{BufRead, BufReader};
use std::path::Path;

use super::step::{Step, Stepper};
use super::{Pace, check_targets, paced_window};
use crate::broker::publish::{Publisher, fits_amqp};
use crate::broker::session::Session;
use crate::commands::signals::StopFlag;
use crate::dead::decode::Message;
use crate::dead::export::read_record;
use crate::dead::replay::{ReplayStamp, copy_id};
use crate::dead::report::ReplayReport;
use crate::error::{Error, Kind, Result};
use crate::output::progress::Progress;
use crate::output::time::now_secs;
use crate::settings::ReplaySettings;

pub(super) async fn from_file(
    session: &Session,
    s: &ReplaySettings,
    path: &Path,
    stop: &StopFlag,
    report: &mut ReplayReport,
    progress: &Progress,
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
        run: super::run_id(),
        time: now_secs(),
        from: path.display().to_string(),
    };
    let mut stepper = Stepper::new(s, &stamp);
    progress.set_length(total);
    // The token of a copy: its target, and whether its envelope's attempt was reset.
    let mut publisher: Option<Publisher<'_, (String, bool)>> = None;
    let mut pace = Pace::new(s.rate);
    for line in records(path)? {
        if stop.is_set() || stepper.at_limit() {
            break;
        }
        let (n, record) = line?;
        let mut message = record?;
        report.scanned += 1;
        let copy = match stepper.step(&mut message, false) {
            Step::Unmatched => {
                progress.inc(1);
                continue;
            }
            Step::Would { to, reset } => {
                report.would(&to, reset);
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
        pace.wait().await;
        if publisher.is_none() {
            let window = paced_window(s.rate, usize::from(s.peek.window));
            publisher = Some(Publisher::open(session, window, copy_id).await?);
        }
        let Some(publ) = publisher.as_mut() else {
            return Err(Error::internal("replay: no publisher"));
        };
        let token = (copy.queue.clone(), copy.token);
        for ((queue, reset), outcome) in publ.publish_many(vec![copy.with_token(token)]).await? {
            report.record(&queue, &outcome, reset);
            progress.inc(1);
        }
    }
    report.matched = stepper.matched;
    if let Some(mut publ) = publisher {
        for ((queue, reset), outcome) in publ.flush().await? {
            report.record(&queue, &outcome, reset);
            progress.inc(1);
        }
        publ.close().await;
    }
    progress.finish();
    report.interrupted = stop.is_set();
    if s.dry_run {
        check_targets(session, report).await;
    }
    Ok(())
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
