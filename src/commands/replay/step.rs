//! The per-message step of a replay, the same for a dead-letter queue and an export file:
//! decode the dead letter, apply the filters, find its target, and make its copy (or, with
//! `--dry-run`, say what a real run would do).
//!
//! Where it sits (`replay/mod.rs`): stage 2, called by both readers for each dead letter.

use crate::broker::publish::Copy;
use crate::dead::decode::{self, DeadLetter, Message};
use crate::dead::replay::{
    CopyBody, ReplayStamp, replay_body, replay_properties, restore_properties, target,
};
use crate::queue::MAX_QUEUE_NAME_BYTES;
use crate::settings::ReplaySettings;

/// What the step decided for one dead letter.
// Boxing the large variant would cost an allocation per message; the small ones are rare.
#[allow(clippy::large_enum_variant)]
pub(super) enum Step {
    /// The filters do not select it: it stays.
    Unmatched,
    /// With `--dry-run`: a real run would copy it to `to`; `reset`: setting its envelope's
    /// attempt back to 1.
    Would { to: String, reset: bool },
    /// No copy can be made (`why`): it stays.
    Cannot { to: String, why: String },
    /// Its copy, to publish; the token says whether the envelope's attempt was set back to 1.
    Copy(Copy<bool>),
}

/// Takes dead letters one at a time and numbers the copies of a run.
pub(super) struct Stepper<'a> {
    settings: &'a ReplaySettings,
    stamp: &'a ReplayStamp,
    /// The time the filters compare ages with: the run's start.
    now: u64,
    /// Dead letters the filters selected so far (the last one's copy number).
    pub(super) matched: u64,
    /// Dead letters an earlier run had copied, removed by this one without a new copy: they
    /// count towards `--limit` too (the run takes them out of q.dead).
    already: u64,
    /// The logical queue's dead-letter queue, which no copy goes into, but a restore's.
    dead: String,
    /// `--from-file F --to q.dead`: the dead letters go back as they were (their death record
    /// and attempts kept).
    restore: bool,
}

impl<'a> Stepper<'a> {
    pub(super) fn new(settings: &'a ReplaySettings, stamp: &'a ReplayStamp) -> Stepper<'a> {
        Stepper {
            settings,
            stamp,
            now: stamp.time,
            matched: 0,
            already: 0,
            dead: settings.queue.dead_queue(),
            restore: settings.from_file.is_some()
                && settings.to.as_deref() == Some(&settings.queue.dead_queue()),
        }
    }

    pub(super) fn stamp(&self) -> &ReplayStamp {
        self.stamp
    }

    /// Whether `--limit` is reached: by dead letters the filters selected, and those an
    /// earlier run had copied (see [`Stepper::already_copied`]).
    pub(super) fn at_limit(&self) -> bool {
        self.settings
            .limit
            .is_some_and(|l| self.matched.saturating_add(self.already) >= l)
    }

    /// Counts a dead letter an earlier run had copied, which this run removes without a new
    /// copy and without looking at the filters: after a run that failed at an unreadable
    /// message, `--limit N` (N the deliveries before it) must stop before that message
    /// whether or not the failed run's acks arrived.
    pub(super) fn already_copied(&mut self) {
        self.already += 1;
    }

    /// Decides `message`. Its body goes to the copy.
    pub(super) fn step(&mut self, message: &mut Message) -> Step {
        let settings = self.settings;
        let dl = decode::decode(message, &settings.queue.name, &settings.queue.options);
        if !settings.filter.matches(&dl, message, self.now) {
            return Step::Unmatched;
        }
        self.matched += 1;
        let original = target(&dl, settings.to.as_deref());
        if original == self.dead && !self.restore {
            // Its headers name the dead-letter queue as where it came from (a tool that
            // moved it there, or a hand-made header): a copy would only go to the back of
            // that queue, without the headers that say why it died.
            return Step::Cannot {
                to: original,
                why: format!(
                    "its original queue is {} itself: a copy would only move it to its back, \
                     without its death headers (use --to to name the queue it belongs in)",
                    self.dead
                ),
            };
        }
        let to = super::after::hold_target(settings, original);
        if settings.dry_run {
            let reset = !settings.keep_attempts
                && !self.restore
                && dl.envelope.as_ref().is_some_and(|e| e.attempt != 1);
            return Step::Would { to, reset };
        }
        let raw = std::mem::take(&mut message.body);
        if self.restore {
            let mut properties =
                restore_properties(&message.properties, &dl, self.stamp, self.matched);
            if settings.strip_user_id {
                properties.user_id = None;
            }
            return match Copy::new(to.clone(), &properties, raw, false, self.matched) {
                Ok(copy) => Step::Copy(copy),
                Err(why) => Step::Cannot { to, why },
            };
        }
        match copy_of(raw, message, &dl, &to, self.stamp, self.matched, settings) {
            Ok(copy) => Step::Copy(copy),
            Err(why) => Step::Cannot { to, why },
        }
    }
}

/// The replayed copy of `message` (whose body is `raw`), going to `to` and numbered `copy`; an
/// error says why no copy can be made. `settings` says whether the attempt is kept and the
/// `user_id` dropped.
fn copy_of(
    raw: Vec<u8>,
    message: &Message,
    dl: &DeadLetter,
    to: &str,
    stamp: &ReplayStamp,
    copy: u64,
    settings: &ReplaySettings,
) -> Result<Copy<bool>, String> {
    if to.len() > MAX_QUEUE_NAME_BYTES {
        return Err(format!(
            "its original queue name is {} bytes; AMQP queue names hold at most \
             {MAX_QUEUE_NAME_BYTES} (use --to)",
            to.len()
        ));
    }
    let body = replay_body(raw, dl, settings.keep_attempts)?;
    let mut properties =
        replay_properties(&message.properties, dl, stamp, copy, body.first_attempt());
    if settings.strip_user_id {
        // `--strip-user-id`: the broker takes the copy from any user.
        properties.user_id = None;
    }
    let reset = matches!(body, CopyBody::Reset { .. });
    Copy::new(to.to_owned(), &properties, body.into_bytes(), reset, copy)
}
