//! `queuey dead edit <QUEUE> (POSITION | --message-id ID)`: repair one dead letter and retry it.
//!
//! The order of work is what makes a loss impossible. The dead letter is found by a peek and
//! held unacknowledged on the peek's channel from then on. Its queue's room is judged as a
//! replay's (`dead::target_room`): a copy that would not fit, or into a queue whose length limits
//! cannot be read, is not published (unless `--allow-drop-head`, where it may push out the
//! queue's oldest job). Then, and only in this order:
//! (1) the original is appended to an archive in the export format, and the file and its
//! directory are flushed to disk; (2) the edited copy is published to its original queue,
//! confirmed and `mandatory`, and must come back delivered (not returned, not refused); (3) the
//! original is acked. A crash before (3) closes the channel, and the broker returns the held
//! original to q.dead: at worst the copy is in its queue and the original in q.dead too, never
//! neither. (Tests stop it between the steps with `QUEUEY_TEST_EDIT_PAUSE`, see [`pause`].)

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::broker::message_size;
use crate::broker::peek::Peek;
use crate::broker::permissions::WriteCheck;
use crate::broker::publish::{Copy, Outcome, Publisher, frame_refusal};
use crate::broker::session::Session;
use crate::clock::now_secs;
use crate::dead::copy_refusal::CopyRefusal;
use crate::dead::decode::{self, Message};
use crate::dead::edit::{Edited, apply_sets, check_edited, finish, line_diff, pretty};
use crate::dead::export::export_record;
use crate::dead::peek::PeekOptions;
use crate::dead::replay::{ReplayStamp, copy_id, replay_properties, set_attempt_header, target};
use crate::dead::report::ReplayReport;
use crate::dead::target_room::{Check, Rooms};
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Kind, Result};
use crate::live::scan::explain_missing;
use crate::live::unreadable::with_dead_peek;
use crate::output::sanitize::{sanitize, sanitize_message};
use crate::output::{self, Format, Output};
use crate::settings::{EditSettings, Which};

/// What `dead edit` did.
#[derive(Debug, Default, Serialize)]
pub struct EditReport {
    pub queue: String,
    pub position: u64,
    pub message_id: Option<String>,
    /// Where the edited copy went (its original queue).
    pub target: String,
    /// `published` (the copy confirmed, the original acked), `unchanged` or `declined`
    /// (nothing done, exit 9).
    pub outcome: &'static str,
    /// The archive that holds the original.
    pub archive: Option<String>,
    /// The attempt the published envelope carries (1, unless the edit set it), also its
    /// `x-attempt` header; `null` when the body is no queuey envelope.
    pub attempt: Option<u32>,
    /// The diff shown: lines with `- `, `+ ` or two spaces.
    pub diff: Vec<String>,
}

/// For the tests that act between the steps: with `QUEUEY_TEST_EDIT_PAUSE` naming a step
/// (`found`, `archived`, `published`), queuey says so on stderr after that step and waits a
/// minute (`QUEUEY_TEST_EDIT_PAUSE_SECS` seconds), holding the original, to be killed there or
/// to meet what the test changed meanwhile. Not for use outside tests.
fn pause(step: &str) {
    if std::env::var("QUEUEY_TEST_EDIT_PAUSE").is_ok_and(|s| s == step) {
        eprintln!("queuey test hook: paused after {step}");
        let secs = std::env::var("QUEUEY_TEST_EDIT_PAUSE_SECS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60);
        std::thread::sleep(std::time::Duration::from_secs(secs));
    }
}

pub async fn run(
    connection: &ConnectionSettings,
    settings: &EditSettings,
    output: Output,
) -> Result<ExitCode> {
    let session = super::session(connection, "dead edit", output)?;
    if let WriteCheck::Unanswered(unchecked) = session.check_write_permission("dead edit").await? {
        output.warn(&unchecked.to_string());
    }
    let dead = settings.queue.dead_queue();
    let options = PeekOptions {
        auto_rescue: false,
        ..settings.peek
    };
    let done = with_dead_peek(&session, &dead, options, async |p| {
        let mut found = None;
        while let Some(mut d) = p.next().await? {
            let hit = match &settings.which {
                Which::Position(n) => d.position == *n,
                Which::MessageId(id) => d.message.properties.message_id.as_deref() == Some(id),
            };
            if hit {
                found = Some(d);
                break;
            }
            if d.last_delivery {
                // Kept, and returning it would end it: replace it by a fresh copy.
                p.rescue(d.tag, &mut d.message).await?;
            }
            if matches!(settings.which, Which::Position(n) if d.position >= n) {
                break;
            }
        }
        let Some(d) = found else {
            return Ok(None);
        };
        if d.last_delivery {
            return Err(Error::new(
                Kind::BrokerRefused,
                format!(
                    "the dead letter at position {} of {dead:?} is on its last delivery of a \
                     quorum queue: holding it while it is edited would risk it",
                    d.position
                ),
            )
            .with_hint("raise the delivery limit of q.dead with a policy, then edit it"));
        }
        pause("found");
        let run = format!("edit-{}", crate::clock::unique_id());
        let report = edit_held(
            &session, settings, &dead, d.position, &d.message, &run, output,
        )
        .await?;
        if report.outcome == REFUSED {
            return Err(refused_copy(p, &run, &report, settings).await?);
        }
        if report.outcome == "published" {
            p.ack(d.tag).await?;
        }
        Ok(Some(report))
    })
    .await;
    let done = match done {
        Ok(v) => v,
        Err(e) => {
            let e = explain_missing(&session, &settings.queue, e).await;
            session.close().await;
            return Err(e);
        }
    };
    session.close().await;
    let Some(report) = done else {
        let what = match &settings.which {
            Which::Position(n) => format!("no message at position {n} in {dead:?}"),
            Which::MessageId(id) => format!("no message with message id {id:?} in {dead:?}"),
        };
        return Err(Error::new(Kind::MessageNotFound, what).with_hint(format!(
            "`{}` lists what is there",
            crate::shell::dead_ls_command(&settings.queue)
        )));
    };
    match output.format {
        Format::Json => output::print_json(&report)?,
        _ => output::print(match report.outcome {
            "published" => format!(
                "published the edited copy to {}{} and removed the original from {}; the \
                 original is archived in {}",
                sanitize(&report.target),
                attempt_note(report.attempt),
                sanitize(&report.queue),
                sanitize(report.archive.as_deref().unwrap_or("?"))
            ),
            "unchanged" => "unchanged: nothing published, the dead letter stays".to_owned(),
            _ => "declined: nothing published, the dead letter stays".to_owned(),
        })?,
    }
    Ok(if report.outcome == "published" {
        ExitCode::Ok
    } else {
        ExitCode::Declined
    })
}

/// The outcome of an edit whose copy the broker refused (nack): never printed, the caller
/// turns it into the error (see [`refused_copy`]).
const REFUSED: &str = "refused";

/// The edited copy was refused (nack). A target that dead-letters what it refuses
/// (`reject-publish-dlx`) may have sent it into q.dead, beside its original (held here, and
/// staying): the job twice there. Its copy is looked for past the end of q.dead, by `run` (5 s
/// at most, as a replay looks for its refused copies) and removed. The error says which.
async fn refused_copy(
    p: &mut Peek<'_>,
    run: &str,
    report: &EditReport,
    settings: &EditSettings,
) -> Result<Error> {
    let mut refused = HashMap::from([(1u64, report.target.clone())]);
    let mut found = ReplayReport::default();
    super::replay::remove_returned(p, run, &mut refused, &mut found).await?;
    let what = format!(
        "the edited copy to {:?} was refused by the broker (nack)",
        report.target
    );
    let error = if refused.is_empty() {
        Error::new(
            Kind::BrokerRefused,
            format!(
                "{what}, which dead-lettered it into {:?}: queuey removed it there; the \
                 original stays in {:?}",
                report.queue, report.queue
            ),
        )
        .with_hint(format!(
            "{:?} is full (a length limit): make room there, then edit again",
            report.target
        ))
    } else {
        let mut find = vec![
            "dead",
            "ls",
            settings.queue.name.as_str(),
            "--cause",
            "maxlen",
        ];
        match report.message_id.as_deref() {
            Some(id) => find.extend(["--message-id", id]),
            None => find.extend(["--header", "x-queuey-last-replay"]),
        }
        Error::new(
            Kind::BrokerRefused,
            format!("{what}; the original stays in {:?}", report.queue),
        )
        .with_hint(format!(
            "if {:?} dead-letters what it refuses (reject-publish-dlx) into {:?}, the edited \
             copy may be there too (not found within 5 s), the job twice: `{}` lists it",
            report.target,
            report.queue,
            crate::shell::queuey_command(&find, &settings.queue)
        ))
    };
    Ok(error)
}

/// The edit of one held dead letter, up to its copy confirmed (the caller acks the original);
/// a copy the broker refused is the outcome [`REFUSED`]. `run` is the edit's id, which the
/// copy carries (`x-queuey-last-replay`).
async fn edit_held(
    session: &Session,
    settings: &EditSettings,
    dead: &str,
    position: u64,
    message: &Message,
    run: &str,
    output: Output,
) -> Result<EditReport> {
    let dl = decode::decode(message, &settings.queue.name, &settings.queue.options);
    let mut report = EditReport {
        queue: dead.to_owned(),
        position,
        message_id: message.properties.message_id.clone(),
        target: target(&dl, None),
        ..EditReport::default()
    };
    let before = pretty(&message.body).map_err(|why| {
        Error::usage(format!(
            "the dead letter at position {position} of {dead:?} cannot be edited: {why}; dead \
             edit edits JSON bodies"
        ))
        .with_hint(
            "`queuey dead show` prints it; `dead export` and `dead replay --from-file` move it",
        )
    })?;
    let refused = |why: String| {
        Error::usage(format!(
            "the edit of the dead letter at position {position} of {dead:?} is refused: {why}; \
             nothing published, the dead letter stays"
        ))
    };
    let Edited { body, attempt } = if settings.sets.is_empty() {
        match edit_in_editor(&message.body, &before)? {
            Some(edited) => edited,
            None => {
                report.outcome = "unchanged";
                return Ok(report);
            }
        }
    } else {
        let edited = apply_sets(&message.body, &settings.sets).map_err(|why| {
            Error::usage(format!(
                "--set on the dead letter at position {position}: {why}"
            ))
        })?;
        finish(&message.body, edited).map_err(refused)?
    };
    report.attempt = attempt;
    let after = pretty(&body).map_err(|why| refused(format!("the edited body: {why}")))?;
    report.diff = line_diff(&before, &after);
    if before == after {
        report.outcome = "unchanged";
        return Ok(report);
    }
    if output.format != Format::Json || !settings.yes {
        for line in &report.diff {
            // A diff line is JSON text, where a backslash always starts a JSON escape: kept as
            // it is (`"\u00e9"` shows as written), while a bidi or other invisible character
            // still shows as a `\u{..}` escape, which no JSON text can hold.
            eprintln!("{}", sanitize_message(line));
        }
    }
    if !settings.yes {
        if !io::stdin().is_terminal() {
            return Err(Error::usage(format!(
                "refusing to publish the edited dead letter without confirmation: standard \
                 input is not a terminal; nothing changed in {dead:?}"
            ))
            .with_hint("pass --yes to edit from a script"));
        }
        if !super::purge::confirm(&format!(
            "Publish this to {}{} and remove the original from {}? [y/N] ",
            sanitize(&report.target),
            attempt_note(report.attempt),
            sanitize(dead)
        ))? {
            report.outcome = "declined";
            return Ok(report);
        }
    }
    // The target's room: a copy that does not fit (or whose target's limits cannot be read)
    // would push out the target's oldest job or be refused; nothing is archived or published.
    if let Some(why) = room_refusal(session, settings, dead, &report.target, body.len()).await? {
        return Err(Error::new(Kind::BrokerRefused, why.to_string()).with_hint(
            "nothing was archived or published: edit it again once the target has room (its \
             consumers take jobs) or its limit is raised",
        ));
    }
    // (1) The original, archived and on disk.
    let archive = archive_path(settings, dead)?;
    let record = export_record(dead, session.vhost(), position, message, &dl);
    append_synced(&archive, &record)?;
    report.archive = Some(archive.display().to_string());
    pause("archived");
    // (2) The edited copy, confirmed and routed.
    let stamp = ReplayStamp {
        run: run.to_owned(),
        time: now_secs(),
        from: dead.to_owned(),
    };
    let mut properties = replay_properties(&message.properties, &dl, &stamp, 1, false);
    if let Some(n) = attempt {
        set_attempt_header(&mut properties, n);
    }
    let copy = Copy::new(report.target.clone(), &properties, body, 1u64, 1)
        .map_err(|why| Error::usage(format!("cannot copy the dead letter: {why}")))?;
    if let Some(why) = frame_refusal(session, &copy).await? {
        return Err(Error::usage(format!("cannot copy the dead letter: {why}")));
    }
    // A body over the broker's max_message_size would close the publisher's channel: the
    // original stays, and the error names the limit.
    if let Some(why) = message_size::refusal(session, copy.body.len()).await? {
        return Err(Error::new(
            Kind::BrokerRefused,
            format!("cannot copy the dead letter: {why}; the original stays in {dead:?}"),
        ));
    }
    // So would a user_id of another user's, unless the connection's user is an impersonator.
    if let Some(refused) = crate::broker::user_id::refusal(session, copy.user_id()).await? {
        let hint = crate::user_id::hint(&refused.claimed, &refused.user, None);
        let why = CopyRefusal::UserId {
            refused,
            flag: None,
        };
        return Err(Error::new(
            Kind::BrokerRefused,
            format!("cannot copy the dead letter: {why}; the original stays in {dead:?}"),
        )
        .with_hint(hint));
    }
    let mut publisher = Publisher::open(session, 1, copy_id).await?;
    let mut decided = publisher.publish_many(vec![copy]).await?;
    decided.extend(publisher.flush().await?);
    publisher.close().await;
    match decided.first().map(|(_, o)| o) {
        Some(Outcome::Delivered) => {}
        Some(Outcome::Refused) => {
            report.outcome = REFUSED;
            return Ok(report);
        }
        other => {
            let why = match other {
                Some(Outcome::Returned { text, .. }) => format!("returned: {text}"),
                _ => "not confirmed".to_owned(),
            };
            return Err(Error::new(
                Kind::BrokerRefused,
                format!(
                    "the edited copy to {:?} was {why}; the original stays in {dead:?}",
                    report.target
                ),
            ));
        }
    }
    pause("published");
    report.outcome = "published";
    Ok(report)
}

/// " (attempt N)" for a body that is an envelope.
fn attempt_note(attempt: Option<u32>) -> String {
    attempt.map_or_else(String::new, |n| format!(" (attempt {n})"))
}

/// Why the edited copy of `bytes` must not go to `target` (see `dead::target_room`: the rules
/// of a replay's copies), `None` when it may.
async fn room_refusal(
    session: &Session,
    settings: &EditSettings,
    dead: &str,
    target: &str,
    bytes: usize,
) -> Result<Option<CopyRefusal>> {
    let (known, _) = crate::broker::limits::learn(session, target).await?;
    let mut rooms = Rooms::new(dead, settings.allow_drop_head, true);
    rooms.learned(target, known);
    let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
    Ok(
        match rooms.check(target, bytes, std::time::Instant::now()) {
            Check::Full(why) => Some(CopyRefusal::NoRoom(
                why.replace("the copy", "the edited copy"),
            )),
            _ => None,
        },
    )
}

/// Opens the editor on `before` until the text is JSON (and an envelope stays one), or the
/// operator gives up. `None`: unchanged, or given up on a terminal. Without a terminal to ask
/// on, an edit that cannot be published is refused (exit 2).
fn edit_in_editor(original: &[u8], before: &str) -> Result<Option<Edited>> {
    let editor = std::env::var("VISUAL")
        .ok()
        .filter(|e| !e.trim().is_empty())
        .or_else(|| {
            std::env::var("EDITOR")
                .ok()
                .filter(|e| !e.trim().is_empty())
        })
        .ok_or_else(|| {
            Error::usage("dead edit opens $VISUAL or $EDITOR, and neither is set")
                .with_hint("set one (EDITOR=vi), or give the change with --set POINTER=VALUE")
        })?;
    let path = std::env::temp_dir().join(format!("queuey-edit-{}.json", std::process::id()));
    let io_error = |e: io::Error| Error::io(format!("cannot write {}", path.display()), &e);
    std::fs::write(&path, format!("{before}\n")).map_err(io_error)?;
    let result = loop {
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("{editor} \"$1\""))
            .arg("sh")
            .arg(&path)
            .status()
            .map_err(|e| Error::io(format!("cannot run the editor {editor:?}"), &e))?;
        if !status.success() {
            break Err(Error::usage(format!(
                "the editor {editor:?} failed ({status}): nothing changed"
            )));
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::io(format!("cannot read {}", path.display()), &e))?;
        if text.trim_end() == before.trim_end() {
            break Ok(None);
        }
        match check_edited(&text).and_then(|body| finish(original, body)) {
            Ok(edited) => break Ok(Some(edited)),
            Err(why) if !io::stdin().is_terminal() => {
                break Err(Error::usage(format!(
                    "the edit is refused: {why}; nothing published, the dead letter stays"
                )));
            }
            Err(why) => {
                eprintln!("{}", sanitize(&why));
                if !super::purge::confirm("Edit again? [y/N] ")? {
                    break Ok(None);
                }
            }
        }
    };
    let _ = std::fs::remove_file(&path);
    result
}

/// `--archive`, else a new file in the state directory's `edits/`.
fn archive_path(settings: &EditSettings, dead: &str) -> Result<PathBuf> {
    if let Some(path) = &settings.archive {
        return Ok(path.clone());
    }
    let dir = crate::ledger_file::state_dir()
        .ok_or_else(|| {
            Error::usage("no state directory for the archive: neither XDG_STATE_HOME nor HOME")
                .with_hint("pass --archive FILE")
        })?
        .join("edits");
    std::fs::create_dir_all(&dir)
        .map_err(|e| Error::io(format!("cannot create {}", dir.display()), &e))?;
    let safe: String = dead
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let millis = crate::clock::now_millis().unwrap_or(0);
    Ok(dir.join(format!("{safe}-{millis}-{}.jsonl", std::process::id())))
}

/// Appends one record to `path` and flushes the file and its directory to disk.
fn append_synced(path: &Path, record: &serde_json::Value) -> Result<()> {
    let failed =
        |e: io::Error| Error::io(format!("cannot write the archive {}", path.display()), &e);
    let mut file = crate::output::file::private_options()
        .create(true)
        .append(true)
        .open(path)
        .map_err(failed)?;
    let mut line = crate::output::json::to_string(record)
        .map_err(|e| Error::internal(format!("cannot encode the archive record: {e}")))?
        .into_bytes();
    line.push(b'\n');
    file.write_all(&line).map_err(failed)?;
    file.sync_all().map_err(failed)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        File::open(dir).and_then(|d| d.sync_all()).map_err(failed)?;
    }
    Ok(())
}
