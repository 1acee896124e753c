//! The browser's snapshot: the look of `dead ls` (`with_dead_peek`, every message held then
//! returned in place, messages on their last delivery of a quorum queue replaced as they
//! arrive), kept in memory with each message whole, and the connection closed once it is read:
//! between snapshots the screen holds nothing of q.dead.

use std::sync::{Arc, Mutex};

use crate::broker::peek::Delivered;
use crate::broker::session::Session;
use crate::clock::now_secs;
use crate::commands::look::Looked;
use crate::dead::decode;
use crate::dead::filter::Filter;
use crate::dead::peek::PeekOptions;
use crate::endpoint::ConnectionSettings;
use crate::error::Result;
use crate::live::scan::{explain_missing, next_matching};
use crate::live::unreadable::with_dead_peek;
use crate::output::browse::state::{Entry, SnapshotInfo};
use crate::output::notes::crash_cost;
use crate::output::progress::Progress;
use crate::output::{Format, Output};
use crate::queue::QueueSettings;
use crate::signals::StopFlag;

/// The most body bytes a snapshot holds: past them it stops reading and says it was cut, as
/// `--limit` cuts it by count (a q.dead of large bodies would otherwise fill memory).
pub const SNAPSHOT_MAX_BODY_BYTES: u64 = 256 << 20;

/// Reads q.dead from its head, at most `limit` dead letters, until `stop` is set. What the
/// session and the look would say on stderr is kept for the screen instead.
pub async fn take(
    connection: &ConnectionSettings,
    queue: &QueueSettings,
    peek: PeekOptions,
    limit: Option<u64>,
    stop: &StopFlag,
) -> Result<(Vec<Entry>, SnapshotInfo)> {
    let notes: Arc<Mutex<Vec<String>>> = Arc::default();
    let kept = Arc::clone(&notes);
    let session =
        Session::new(connection.clone(), "dead browse")?.with_notes(Arc::new(move |text: &str| {
            if let Ok(mut n) = kept.lock() {
                n.push(text.to_owned());
            }
        }));
    let dead = queue.dead_queue();
    let now = now_secs();
    // No progress bar: the screen is the terminal's.
    let quiet = Output {
        format: Format::Table,
        quiet: true,
        wide: false,
    };
    let mut entries = Vec::new();
    let mut body_bytes = 0u64;
    let peeked = with_dead_peek(&session, &dead, peek, async |p| {
        p.stop_on(stop);
        let crash_cost = p.kind.closes_count.then(|| {
            crash_cost(
                p.queue_name(),
                p.kind.delivery_limit.unwrap_or(0),
                p.kind.returns_count,
                p.exposure(),
            )
        });
        let progress = Progress::new(quiet, None, "");
        let everything = Filter::default();
        while let Some((
            Delivered {
                position, message, ..
            },
            dl,
        )) = next_matching(p, queue, &everything, now, &progress).await?
        {
            body_bytes = body_bytes.saturating_add(message.body.len() as u64);
            entries.push(Entry {
                position,
                preview: decode::job_preview(&message.body, &dl, 60),
                message,
                dead_letter: dl,
            });
            if limit.is_some_and(|l| entries.len() as u64 >= l)
                || body_bytes >= SNAPSHOT_MAX_BODY_BYTES
            {
                break;
            }
        }
        Ok((Looked::of(p), p.kind.queue_type.clone(), crash_cost))
    })
    .await;
    let (looked, queue_type, crash_cost) = match peeked {
        Ok(v) => v,
        Err(e) => return Err(explain_missing(&session, queue, e).await),
    };
    session.close().await;
    let mut notes = notes.lock().map(|n| n.clone()).unwrap_or_default();
    notes.extend(crash_cost);
    let info = SnapshotInfo {
        queue: dead,
        queue_type,
        taken_at: now,
        depth_at_start: looked.target,
        scanned: looked.scanned,
        cut_at: limit.filter(|&l| {
            !looked.interrupted && looked.scanned < looked.target && entries.len() as u64 >= l
        }),
        cut_at_bytes: (!looked.interrupted
            && looked.scanned < looked.target
            && body_bytes >= SNAPSHOT_MAX_BODY_BYTES)
            .then_some(SNAPSHOT_MAX_BODY_BYTES),
        interrupted: looked
            .interrupted
            .then(|| stop.signal().unwrap_or("a key").to_owned()),
        held_elsewhere: looked.held_elsewhere,
        rescued: looked.rescued,
        notes,
    };
    Ok((entries, info))
}
