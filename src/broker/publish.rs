//! Publishing copies that must not be lost: publisher confirms, `mandatory`, and a window of
//! publishes in flight (never one round trip per message).
//!
//! A copy counts as delivered only when the broker confirmed it *and* did not return it: with
//! `mandatory`, an unroutable publish (no such queue) is still confirmed with an `Ack`, and the
//! message comes back in a `basic.return` sent just before that confirmation (docs/broker-notes.md).
//!
//! **lapin attaches a returned message to the wrong confirmation.** It queues `basic.return`s
//! and hands the oldest one to whichever pending confirmation it resolves next; a multiple ack
//! resolves many at once in `HashMap` order, so the return of copy 55 can arrive on the
//! confirmation of copy 52, and copy 55's own confirmation says `Ack(None)`. Trusting that
//! would ack the dead letter of a copy nothing received: a lost message (see
//! docs/broker-notes.md, lapin).
//!
//! So every copy carries an id of its own (the caller puts it in the headers and tells the
//! publisher how to read it back), and a copy's outcome is only decided once every confirmation
//! that could carry its return has been seen. Copies go out in batches of `window`:
//!
//! - batch m+2 is not published before every confirmation of batch m has resolved. A return is
//!   sent before its own copy's ack and handed to a confirmation of the first ack frame after
//!   it; that frame was sent before the broker saw any copy of batch m+2, so the return of a copy
//!   of batch m rides on a confirmation of batch m or m+1;
//! - so batch m is decided once batches m and m+1 have resolved: a copy is `Returned` when some
//!   return names its id, `Refused` when its own confirmation is a nack, `Delivered` otherwise.
//!
//! Two batches are in flight while a third fills, so publishing overlaps the wait for
//! confirmations (an fsync on the broker for persistent messages). A return that carries no
//! readable id makes every undecided copy `Unknown`: their dead letters stay (a duplicate at
//! worst, never a loss).
//!
//! **Lanes.** A publisher may spread its copies over several confirm-mode channels ("lanes"),
//! whole batches at a time, in turn: the broker runs each channel in a process of its own, so a
//! broker with idle cores may take copies from two channels faster than from one (on the 2-CPU
//! test machine it did not measurably: docs/benchmarks.md). Every rule above holds per lane (returns and confirmations are per channel), and the decisions are
//! handed back in the order the copies were given, whichever lane decided them first. What the
//! lanes give up is the copies' order in their queue: two lanes' batches arrive interleaved
//! (a copy lands at most the copies in flight away from its place). One lane keeps the order.

use std::collections::{BTreeMap, HashMap, VecDeque};

use lapin::options::{BasicPublishOptions, ConfirmSelectOptions};
use lapin::types::{AMQPValue, FieldTable, ShortString};
use lapin::{BasicProperties, Channel, Confirmation, PublisherConfirm};

use super::convert::{properties_from_amqp, properties_to_amqp};
use super::session::Session;
use crate::dead::copy_refusal::CopyRefusal;
use crate::dead::value::Properties;
use crate::error::{Error, Result};

pub use crate::dead::report::Outcome;

/// Reads a copy's id back from the properties of a returned message.
pub type IdOf = fn(&Properties) -> Option<u64>;

/// A copy to publish: to `queue` through the default exchange.
pub struct Copy<T> {
    pub queue: String,
    properties: BasicProperties,
    pub body: Vec<u8>,
    pub token: T,
    /// Readable back from `properties` by the publisher's `id_of`.
    pub id: u64,
}

impl<T> Copy<T> {
    /// A copy of `body` with `properties`; an error says why AMQP cannot carry them (a header
    /// value out of its range), checked now so that the caller can keep the original.
    pub fn new(
        queue: String,
        properties: &Properties,
        body: Vec<u8>,
        token: T,
        id: u64,
    ) -> std::result::Result<Copy<T>, String> {
        Ok(Copy {
            queue,
            properties: properties_to_amqp(properties)?,
            body,
            token,
            id,
        })
    }

    /// The `user_id` property the copy carries.
    pub fn user_id(&self) -> Option<&str> {
        self.properties.user_id().as_ref().map(ShortString::as_str)
    }

    /// The same copy with another token.
    pub fn with_token<U>(self, token: U) -> Copy<U> {
        Copy {
            queue: self.queue,
            properties: self.properties,
            body: self.body,
            token,
            id: self.id,
        }
    }
}

/// Whether AMQP can carry `properties` as a copy's: the error names a value it cannot (checked
/// before anything is published, for a whole export file).
pub fn fits_amqp(properties: &Properties) -> std::result::Result<(), String> {
    properties_to_amqp(properties).map(|_| ())
}

/// The bytes of a content header frame besides the properties: the frame's own header and end
/// octet (8), the class id, weight and body size (12).
const HEADER_FRAME_OVERHEAD: usize = 8 + 12;

/// The size of the content header frame that carries `properties`, as lapin encodes it.
fn header_frame_len(properties: &BasicProperties) -> usize {
    let encoded = cookie_factory::gen_simple(
        lapin::protocol::basic::gen_properties(properties),
        Vec::new(),
    );
    // Encoding into a Vec does not fail; were it to, the copy counts as too large (it stays).
    encoded.map_or(usize::MAX, |bytes| {
        bytes.len().saturating_add(HEADER_FRAME_OVERHEAD)
    })
}

/// At least the size of the content header frame that carries `properties`, counted without
/// encoding them (a copy's exact encoding, once per message, cost a replay 4% of its
/// instructions): every scalar as 8 bytes, the largest any takes, and every string, table and
/// array with a 4-byte length. Only a copy over the frame size by this count is encoded.
fn header_frame_bound(properties: &BasicProperties) -> usize {
    fn short(s: &Option<ShortString>) -> usize {
        s.as_ref().map_or(0, |s| 1 + s.as_str().len())
    }
    fn value(v: &AMQPValue) -> usize {
        1 + match v {
            AMQPValue::ShortString(s) => 4 + s.as_str().len(),
            AMQPValue::LongString(s) => 4 + s.as_bytes().len(),
            AMQPValue::ByteArray(b) => 4 + b.as_slice().len(),
            AMQPValue::FieldArray(a) => 4 + a.as_slice().iter().map(value).sum::<usize>(),
            AMQPValue::FieldTable(t) => table(t),
            _ => 8,
        }
    }
    fn table(t: &FieldTable) -> usize {
        4 + t
            .inner()
            .iter()
            .map(|(k, v)| 1 + k.as_str().len() + value(v))
            .sum::<usize>()
    }
    let p = properties;
    HEADER_FRAME_OVERHEAD
        + 2
        + [
            p.content_type(),
            p.content_encoding(),
            p.correlation_id(),
            p.reply_to(),
            p.expiration(),
            p.message_id(),
            p.kind(),
            p.user_id(),
            p.app_id(),
            p.cluster_id(),
        ]
        .into_iter()
        .map(short)
        .sum::<usize>()
        + 2 * 8
        + 8
        + p.headers().as_ref().map_or(0, table)
}

/// Why `copy` cannot go out on `session`'s connection, or `None`: its properties (the dead
/// letter's headers and what a replay adds to them) make a content header frame larger than
/// the frame size the connection negotiated. The broker answers such a frame by closing the
/// whole connection (`FRAME_ERROR`), so the copy is not published and its dead letter stays.
pub async fn frame_refusal<T>(session: &Session, copy: &Copy<T>) -> Result<Option<CopyRefusal>> {
    let frame_max = session.connection().await?.configuration().frame_max();
    Ok(too_large_for_frame(&copy.properties, frame_max))
}

fn too_large_for_frame(properties: &BasicProperties, frame_max: u32) -> Option<CopyRefusal> {
    if frame_max == 0 || header_frame_bound(properties) <= frame_max as usize {
        return None;
    }
    let len = header_frame_len(properties);
    (len > frame_max as usize).then_some(CopyRefusal::HeaderFrame { len, frame_max })
}

/// Polls every future once in order, then all until done: futures that act on their first
/// poll (lapin queues a publish's frames then) act in order, and wait together.
async fn join_in_order<F: std::future::Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<std::pin::Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => *output = Some(v),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

/// One published copy awaiting its decision.
struct Pending<T> {
    token: T,
    id: u64,
    confirm: Option<PublisherConfirm>,
    /// Once resolved: whether the broker acked it.
    acked: Option<bool>,
}

/// Publishes copies in overlapping, confirmed batches of `window`, over one or more lanes, and
/// hands back each copy's outcome in the order the copies were given.
pub struct Publisher<'a, T> {
    lanes: Vec<Lane<'a, (u64, T)>>,
    /// The lane being filled.
    next: usize,
    /// The number the next copy given gets, and the next one to hand back.
    given: u64,
    handed: u64,
    /// Decided copies waiting for an earlier copy's decision (another lane's).
    decided: BTreeMap<u64, (T, Outcome)>,
}

impl<'a, T> Publisher<'a, T> {
    /// A publisher on one channel: the copies reach their queues in the order given.
    pub async fn open(
        session: &'a Session,
        window: usize,
        id_of: IdOf,
    ) -> Result<Publisher<'a, T>> {
        Publisher::open_lanes(session, window, 1, id_of).await
    }

    /// A publisher on `lanes` channels of the session's connection, each publishing in batches
    /// of `window`.
    pub async fn open_lanes(
        session: &'a Session,
        window: usize,
        lanes: usize,
        id_of: IdOf,
    ) -> Result<Publisher<'a, T>> {
        let mut opened = Vec::with_capacity(lanes.max(1));
        for _ in 0..lanes.max(1) {
            opened.push(Lane::open(session, window, id_of).await?);
        }
        Ok(Publisher {
            lanes: opened,
            next: 0,
            given: 0,
            handed: 0,
            decided: BTreeMap::new(),
        })
    }

    /// Publishes copies to their queues through the default exchange, mandatory: a lane's
    /// batch at a time, lanes in turn. Returns the copies decided by now, in order.
    pub async fn publish_many(&mut self, copies: Vec<Copy<T>>) -> Result<Vec<(T, Outcome)>> {
        let mut copies = copies.into_iter().peekable();
        while copies.peek().is_some() {
            let lane = &mut self.lanes[self.next];
            let room = lane.room();
            let mut part = Vec::with_capacity(room);
            for c in copies.by_ref().take(room) {
                let n = self.given;
                self.given += 1;
                let token = c.token;
                part.push(Copy {
                    queue: c.queue,
                    properties: c.properties,
                    body: c.body,
                    token: (n, token),
                    id: c.id,
                });
            }
            let decided = lane.publish_many(part).await?;
            if lane.room() == lane.window {
                // The lane sealed its batch: the next batch goes to the next lane.
                self.next = (self.next + 1) % self.lanes.len();
            }
            self.decided
                .extend(decided.into_iter().map(|((n, t), o)| (n, (t, o))));
        }
        Ok(self.hand_back())
    }

    /// Waits for every copy in flight and decides them all.
    pub async fn flush(&mut self) -> Result<Vec<(T, Outcome)>> {
        for lane in &mut self.lanes {
            let decided = lane.flush().await?;
            self.decided
                .extend(decided.into_iter().map(|((n, t), o)| (n, (t, o))));
        }
        // Every lane's batches are sealed and decided: the next copy starts lane 0's batch.
        self.next = 0;
        Ok(self.hand_back())
    }

    /// The decided copies that no undecided copy precedes, in order.
    fn hand_back(&mut self) -> Vec<(T, Outcome)> {
        let mut out = Vec::new();
        while let Some(entry) = self.decided.first_entry() {
            if *entry.key() != self.handed {
                break;
            }
            out.push(entry.remove());
            self.handed += 1;
        }
        out
    }

    pub async fn close(self) {
        for lane in self.lanes {
            lane.close().await;
        }
    }
}

/// One confirm-mode channel publishing in overlapping, confirmed batches of `window`.
struct Lane<'a, T> {
    session: &'a Session,
    channel: Channel,
    window: usize,
    id_of: IdOf,
    /// Sealed batches not decided yet, oldest first; `filling` is the batch being published.
    sealed: VecDeque<Vec<Pending<T>>>,
    filling: Vec<Pending<T>>,
    /// Ids of copies that came back (from whichever confirmation carried them).
    returned: HashMap<u64, (u16, String)>,
    /// A return named no copy we know: no undecided copy may count as delivered.
    tainted: bool,
    /// The queues copies went to: a confirmation that waits is owed by them (their majority
    /// is watched, see `broker::watch`).
    targets: Vec<String>,
}

impl<'a, T> Lane<'a, T> {
    async fn open(session: &'a Session, window: usize, id_of: IdOf) -> Result<Lane<'a, T>> {
        let channel = session.channel().await?;
        channel
            .confirm_select(ConfirmSelectOptions::default())
            .await
            .map_err(|e| session.amqp_error(&e, "cannot enable publisher confirms"))?;
        Ok(Lane {
            session,
            channel,
            window: window.max(1),
            id_of,
            sealed: VecDeque::new(),
            filling: Vec::new(),
            returned: HashMap::new(),
            tainted: false,
            targets: Vec::new(),
        })
    }

    /// How many more copies the batch being filled takes before it is sealed.
    fn room(&self) -> usize {
        self.window - self.filling.len()
    }

    /// Publishes copies to their queues through the default exchange, mandatory, in order, without a round trip to lapin's I/O loop per copy:
    /// each `basic_publish` queues its frames on its first poll, and the first polls happen in
    /// order, so the frames go out in order. Returns the copies decided by now.
    async fn publish_many(&mut self, copies: Vec<Copy<T>>) -> Result<Vec<(T, Outcome)>> {
        let mut decided = Vec::new();
        let mut copies = copies.into_iter().peekable();
        while copies.peek().is_some() {
            if self.filling.is_empty() && self.sealed.len() >= 2 {
                // Starting batch m+2: batch m must have resolved entirely; then the batch
                // before it (m-1, resolved earlier) has every possible carrier resolved.
                let m = self.sealed.len() - 2;
                self.resolve(m).await?;
                if m >= 1 {
                    decided.extend(self.decide_oldest());
                }
            }
            let room = self.window - self.filling.len();
            // Bodies stay here while the publishes borrow them; properties move in.
            let mut bodies = Vec::with_capacity(room);
            let mut rest = Vec::with_capacity(room);
            let mut heads = Vec::with_capacity(room);
            for c in copies.by_ref().take(room) {
                let queue = ShortString::try_new(c.queue.as_str()).map_err(|_| {
                    Error::internal(format!("queue name over 255 bytes: {:?}", c.queue))
                })?;
                heads.push((queue, c.properties));
                if !self.targets.contains(&c.queue) {
                    self.targets.push(c.queue.clone());
                }
                bodies.push(c.body);
                rest.push((c.queue, c.token, c.id));
            }
            let sends = heads
                .into_iter()
                .zip(&bodies)
                .map(|((queue, properties), body)| {
                    self.channel.basic_publish(
                        "".into(),
                        queue,
                        BasicPublishOptions {
                            mandatory: true,
                            ..BasicPublishOptions::default()
                        },
                        body,
                        properties,
                    )
                })
                .collect();
            let confirms = join_in_order(sends).await;
            for ((queue, token, id), confirm) in rest.into_iter().zip(confirms) {
                let confirm = confirm.map_err(|e| {
                    self.session
                        .amqp_error(&e, &format!("cannot publish to queue {queue:?}"))
                })?;
                self.filling.push(Pending {
                    token,
                    id,
                    confirm: Some(confirm),
                    acked: None,
                });
            }
            if self.filling.len() >= self.window {
                self.sealed.push_back(std::mem::take(&mut self.filling));
            }
        }
        Ok(decided)
    }

    /// Waits for every copy in flight and decides them all.
    async fn flush(&mut self) -> Result<Vec<(T, Outcome)>> {
        if !self.filling.is_empty() {
            self.sealed.push_back(std::mem::take(&mut self.filling));
        }
        for i in 0..self.sealed.len() {
            self.resolve(i).await?;
        }
        let mut decided = Vec::new();
        while !self.sealed.is_empty() {
            decided.extend(self.decide_oldest());
        }
        self.returned.clear();
        self.tainted = false;
        Ok(decided)
    }

    /// Awaits every confirmation of sealed batch `index`, collecting the returns they carry.
    async fn resolve(&mut self, index: usize) -> Result<()> {
        let Some(batch) = self.sealed.get_mut(index) else {
            return Ok(());
        };
        for pending in batch.iter_mut() {
            let Some(confirm) = pending.confirm.take() else {
                continue;
            };
            let session = self.session;
            let targets: Vec<&str> = self.targets.iter().map(String::as_str).collect();
            let confirmation = session
                .owed(
                    "waiting for the broker to confirm copies",
                    &targets,
                    async {
                        confirm
                            .await
                            .map_err(|e| session.amqp_error(&e, "lost a publisher confirmation"))
                    },
                )
                .await?;
            let (acked, message) = match confirmation {
                Confirmation::Ack(m) => (true, m),
                Confirmation::Nack(m) => (false, m),
                Confirmation::NotRequested => (false, None),
            };
            pending.acked = Some(acked);
            if let Some(m) = message {
                match (self.id_of)(&properties_from_amqp(&m.delivery.properties)) {
                    Some(rid) => {
                        self.returned
                            .insert(rid, (m.reply_code, m.reply_text.as_str().to_owned()));
                    }
                    None => self.tainted = true,
                }
            }
        }
        Ok(())
    }

    /// Decides the oldest sealed batch (all its possible carriers must have resolved).
    fn decide_oldest(&mut self) -> Vec<(T, Outcome)> {
        let Some(batch) = self.sealed.pop_front() else {
            return Vec::new();
        };
        batch
            .into_iter()
            .map(|p| {
                let outcome = if p.acked != Some(true) {
                    Outcome::Refused
                } else if let Some((code, text)) = self.returned.remove(&p.id) {
                    Outcome::Returned { code, text }
                } else if self.tainted {
                    Outcome::Unknown
                } else {
                    Outcome::Delivered
                };
                (p.token, outcome)
            })
            .collect()
    }

    async fn close(self) {
        let _ = self.channel.close(200, "done".into()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::value::Value;

    fn with_header(bytes: usize) -> BasicProperties {
        let mut headers = crate::dead::value::Table::new();
        headers.insert("big".into(), Value::LongStr(vec![b'v'; bytes]));
        let properties = Properties {
            headers: Some(headers),
            ..Properties::default()
        };
        properties_to_amqp(&properties).expect("fits AMQP")
    }

    #[test]
    fn a_header_frame_is_measured_as_the_broker_counts_it() {
        // flags (2), table length (4), key (1 + 3), type (1), string length (4), the string.
        assert_eq!(
            header_frame_len(&with_header(10)),
            20 + 2 + 4 + 4 + 1 + 4 + 10
        );
        assert_eq!(header_frame_len(&BasicProperties::default()), 20 + 2);
    }

    #[test]
    fn a_copy_over_the_frame_size_is_refused_before_it_is_sent() {
        let fits = with_header(1000);
        let len = header_frame_len(&fits) as u32;
        assert_eq!(too_large_for_frame(&fits, len), None);
        assert_eq!(
            too_large_for_frame(&fits, len - 1),
            Some(CopyRefusal::HeaderFrame {
                len: len as usize,
                frame_max: len - 1
            }),
            "one byte over"
        );
        // The count that spares the encoding is never below the encoding.
        for n in [0, 10, 1000, 200_000] {
            let p = with_header(n);
            assert!(header_frame_bound(&p) >= header_frame_len(&p), "{n}");
        }
        let mut inner = FieldTable::default();
        for (i, v) in [
            AMQPValue::Boolean(true),
            AMQPValue::ShortShortInt(-1),
            AMQPValue::LongLongInt(i64::MIN),
            AMQPValue::Double(0.5),
            AMQPValue::DecimalValue(lapin::types::DecimalValue { scale: 2, value: 7 }),
            AMQPValue::Timestamp(1),
            AMQPValue::Void,
            AMQPValue::ByteArray(vec![0, 1, 2].into()),
            AMQPValue::FieldArray(vec![AMQPValue::LongInt(3), AMQPValue::Void].into()),
        ]
        .into_iter()
        .enumerate()
        {
            inner.insert(format!("k{i}").into(), v);
        }
        let mut headers = FieldTable::default();
        headers.insert("nested".into(), AMQPValue::FieldTable(inner));
        let every = BasicProperties::default()
            .with_headers(headers)
            .with_message_id("m".into())
            .with_priority(3)
            .with_delivery_mode(2)
            .with_timestamp(9)
            .with_app_id("app".into());
        assert!(header_frame_bound(&every) >= header_frame_len(&every));
        // A connection without a frame limit takes anything.
        assert_eq!(too_large_for_frame(&with_header(200_000), 0), None);
    }
}
