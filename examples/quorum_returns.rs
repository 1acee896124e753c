//! A broker experiment, no queuey in it: does a quorum queue keep every ack a channel sent
//! before it closed?
//!
//!     cargo run --release --example quorum_returns -- URL RUNS MODE [N [ROUND [LAG [DELAY_MS|consumers]]]]
//!
//! Each run declares a fresh quorum queue, publishes N messages (3 000), and reads them as a
//! queuey peek does: consumers chained on one channel, a prefetch of ROUND (128) each, the
//! next one asked for ahead at a lower priority, each cancelled once its round has arrived.
//! The messages numbered below 300 or divisible by 3 are acked, as a filtered replay acks the
//! dead letters it moved: the first stretch by one multiple ack, then one by one, each round's
//! acks sent LAG rounds later (0), as a pipeline's are. At the end (MODE):
//! - `per-round`: the kept deliveries returned by one multiple nack per round;
//! - `one`: returned by one `basic.nack(0, multiple)`;
//! - `all`: every message acked one by one, nothing kept, no nack;
//!
//! then the channel is closed DELAY_MS (0) later, or with `consumers` once a passive declare
//! every 2 ms counts no consumer on the queue, and the queue read out: a run is clean when it
//! holds exactly the messages not acked, each once.
//!
//! Found with it (docs/broker-notes.md): on 3.10.8 and 4.3.6 the channel's quorum-queue
//! client holds settlements back while 32 of its commands wait for the queue's log, and drops
//! them when the channel closes first: the acked messages come back.

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use lapin::options::{
    BasicAckOptions, BasicCancelOptions, BasicConsumeOptions, BasicNackOptions,
    BasicPublishOptions, BasicQosOptions, ConfirmSelectOptions, QueueDeclareOptions,
    QueueDeleteOptions,
};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties, Consumer};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// One experiment's settings (see the module's doc).
#[derive(Clone, Copy)]
struct Setup {
    per_round: bool,
    all: bool,
    n: u64,
    round: u16,
    lag: usize,
    close_delay: u64,
    /// Instead of a fixed delay: close once the queue counts no consumer (a cancelled quorum
    /// consumer stays in the queue's count until what was checked out to it is settled).
    barrier: bool,
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "URL RUNS per-round|one|all [N [ROUND [LAG [DELAY_MS]]]]";
    let url = args.get(1).cloned().ok_or(usage)?;
    let runs: u32 = args.get(2).map_or(Ok(10), |s| s.parse())?;
    let mode = args.get(3).cloned().ok_or(usage)?;
    let setup = Setup {
        per_round: mode == "per-round",
        all: mode == "all",
        n: args.get(4).map_or(Ok(3000), |s| s.parse())?,
        round: args.get(5).map_or(Ok(128), |s| s.parse())?,
        lag: args.get(6).map_or(Ok(0), |s| s.parse())?,
        close_delay: match args.get(7).map(String::as_str) {
            Some("consumers") | None => 0,
            Some(s) => s.parse()?,
        },
        barrier: args.get(7).is_some_and(|s| s == "consumers"),
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let conn = Connection::connect(&url, ConnectionProperties::default()).await?;
        let mut bad = 0;
        for run in 0..runs {
            let outcome = one_run(&conn, run, setup).await?;
            if !outcome.is_empty() {
                bad += 1;
            }
            println!(
                "run {run}: {}",
                if outcome.is_empty() {
                    "clean".into()
                } else {
                    outcome
                }
            );
        }
        let close = if setup.barrier {
            "closed once no consumer was counted".to_owned()
        } else {
            format!("closed {} ms later", setup.close_delay)
        };
        println!(
            "{mode}, lag {}, {close}: {bad} of {runs} runs not clean (N {}, rounds of {})",
            setup.lag, setup.n, setup.round
        );
        Ok(())
    })
}

/// The queue's ready messages and consumers, by a passive declare.
async fn counts(ch: &Channel, queue: &str) -> Res<(u32, u32)> {
    let q = ch
        .queue_declare(
            queue.into(),
            QueueDeclareOptions {
                passive: true,
                ..QueueDeclareOptions::default()
            },
            FieldTable::default(),
        )
        .await?;
    Ok((q.message_count(), q.consumer_count()))
}

async fn one_run(conn: &Connection, run: u32, setup: Setup) -> Res<String> {
    let Setup {
        per_round,
        all,
        n,
        round,
        lag,
        close_delay,
        barrier,
    } = setup;
    let queue = format!("exp.quorum-returns.{}.{run}", std::process::id());
    let setup = conn.create_channel().await?;
    let mut qargs = FieldTable::default();
    qargs.insert(
        "x-queue-type".into(),
        AMQPValue::LongString("quorum".into()),
    );
    setup
        .queue_declare(
            queue.as_str().into(),
            QueueDeclareOptions {
                durable: true,
                ..QueueDeclareOptions::default()
            },
            qargs,
        )
        .await?;
    setup
        .confirm_select(ConfirmSelectOptions::default())
        .await?;
    for i in 0..n {
        setup
            .basic_publish(
                "".into(),
                queue.as_str().into(),
                BasicPublishOptions::default(),
                i.to_string().as_bytes(),
                BasicProperties::default().with_delivery_mode(2),
            )
            .await?;
    }
    setup.wait_for_confirms().await?;

    let ch = conn.create_channel().await?;
    ch.basic_qos(round, BasicQosOptions { global: false })
        .await?;
    // tag -> (round, body index); acked ones removed.
    let mut held: BTreeMap<u64, (u32, u64)> = BTreeMap::new();
    let mut acked: HashSet<u64> = HashSet::new();
    let mut received = 0u64;
    // Acks wait `lag` rounds, as a pipeline's do; before the first kept message one multiple
    // ack settles every delivery up to the last moved one, as queuey's settle stage does.
    let mut to_ack: std::collections::VecDeque<Vec<u64>> = Default::default();
    let mut keep_seen = false;
    let mut last_moved: Option<u64> = None;
    let mut consumers: std::collections::VecDeque<(Consumer, u32)> = Default::default();
    let mut asked = 0u32;
    let ask = async |ch: &Channel, asked: &mut u32| -> Res<(Consumer, u32)> {
        let mut a = FieldTable::default();
        a.insert(
            "x-priority".into(),
            AMQPValue::LongInt(1_000_000 - *asked as i32),
        );
        let c = ch
            .basic_consume(
                queue.as_str().into(),
                "".into(),
                BasicConsumeOptions::default(),
                a,
            )
            .await?;
        *asked += 1;
        Ok((c, *asked))
    };
    let rounds_needed = n.div_ceil(u64::from(round)) as u32;
    consumers.push_back(ask(&ch, &mut asked).await?);
    while received < n {
        if consumers.len() < 2 && asked < rounds_needed {
            consumers.push_back(ask(&ch, &mut asked).await?);
        }
        let Some((mut c, r)) = consumers.pop_front() else {
            break;
        };
        let mut got = Vec::new();
        while got.len() < usize::from(round) && received + (got.len() as u64) < n {
            match tokio::time::timeout(Duration::from_secs(15), c.next()).await {
                Ok(Some(Ok(d))) => got.push(d),
                other => {
                    return Err(format!(
                        "round {r}: {:?}",
                        other.map(|o| o.map(|x| x.map(|_| ())))
                    )
                    .into());
                }
            }
        }
        ch.basic_cancel(c.tag(), BasicCancelOptions::default())
            .await?;
        while let Ok(Some(Ok(d))) = tokio::time::timeout(Duration::from_secs(5), c.next()).await {
            got.push(d);
        }
        let mut this_round = Vec::new();
        for d in got {
            received += 1;
            let idx: u64 = std::str::from_utf8(&d.data)?.parse()?;
            if all {
                this_round.push(d.delivery_tag);
                acked.insert(idx);
            } else if idx < 300 || idx.is_multiple_of(3) {
                if keep_seen {
                    this_round.push(d.delivery_tag);
                } else {
                    last_moved = Some(d.delivery_tag);
                }
                acked.insert(idx);
            } else {
                if !keep_seen {
                    keep_seen = true;
                    if let Some(t) = last_moved.take() {
                        ch.basic_ack(t, BasicAckOptions { multiple: true }).await?;
                    }
                }
                held.insert(d.delivery_tag, (r, idx));
            }
        }
        to_ack.push_back(this_round);
        while to_ack.len() > lag {
            for t in to_ack.pop_front().unwrap_or_default() {
                ch.basic_ack(t, BasicAckOptions::default()).await?;
            }
        }
    }
    for t in to_ack.into_iter().flatten() {
        ch.basic_ack(t, BasicAckOptions::default()).await?;
    }
    if let Some(t) = last_moved {
        ch.basic_ack(t, BasicAckOptions { multiple: true }).await?;
    }
    for (c, _) in consumers {
        ch.basic_cancel(c.tag(), BasicCancelOptions::default())
            .await?;
    }
    let mut nacks: Vec<u64> = Vec::new();
    if per_round {
        let mut last_round = None;
        for (&tag, &(r, _)) in &held {
            match nacks.last_mut() {
                Some(last) if last_round == Some(r) => *last = tag,
                _ => nacks.push(tag),
            }
            last_round = Some(r);
        }
    }
    if !all {
        nacks.push(0);
    }
    for tag in &nacks {
        ch.basic_nack(
            *tag,
            BasicNackOptions {
                multiple: true,
                requeue: true,
            },
        )
        .await?;
    }
    tokio::time::sleep(Duration::from_millis(close_delay)).await;
    let mut waited = None;
    if barrier {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2) {
            let (_, consumers) = counts(&setup, &queue).await?;
            if consumers == 0 {
                waited = Some(start.elapsed());
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        if waited.is_none() {
            return Ok("the queue still counted consumers after 2 s".into());
        }
    }
    ch.close(200, "done".into()).await?;

    // Read the queue out once the count is stable.
    let expected = n - acked.len() as u64;
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut count = 0;
    while Instant::now() < deadline {
        count = u64::from(counts(&setup, &queue).await?.0);
        if count >= expected {
            tokio::time::sleep(Duration::from_millis(500)).await;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let reader = conn.create_channel().await?;
    reader.basic_qos(1000, BasicQosOptions::default()).await?;
    let mut c = reader
        .basic_consume(
            queue.as_str().into(),
            "".into(),
            BasicConsumeOptions {
                no_ack: true,
                ..Default::default()
            },
            FieldTable::default(),
        )
        .await?;
    let mut seen: BTreeMap<u64, u32> = BTreeMap::new();
    while let Ok(Some(Ok(d))) = tokio::time::timeout(Duration::from_secs(2), c.next()).await {
        let idx: u64 = std::str::from_utf8(&d.data)?.parse()?;
        *seen.entry(idx).or_default() += 1;
    }
    reader.close(200, "done".into()).await?;
    setup
        .queue_delete(queue.as_str().into(), QueueDeleteOptions::default())
        .await?;
    setup.close(200, "done".into()).await?;
    let resurrected = seen.keys().filter(|i| acked.contains(i)).count();
    let early = seen
        .keys()
        .filter(|i| acked.contains(i) && **i < 300)
        .count();
    let span = seen
        .keys()
        .filter(|i| acked.contains(i))
        .fold(None, |s: Option<(u64, u64)>, &i| {
            Some(s.map_or((i, i), |(a, b)| (a.min(i), b.max(i))))
        });
    let twice = seen.values().filter(|&&k| k > 1).count();
    let missing = (0..n)
        .filter(|i| !acked.contains(i) && !seen.contains_key(i))
        .count();
    let mut out = String::new();
    if let Some(w) = waited {
        println!(
            "run {run}: no consumer counted {:.1} ms after the last ack",
            w.as_secs_f64() * 1000.0
        );
    }
    if resurrected + twice + missing > 0 {
        out = format!(
            "count {count} expected {expected}: {resurrected} acked came back ({early} of the multiple ack's, indexes {span:?}), {twice} twice, {missing} missing (nacks {})",
            nacks.len()
        );
    }
    Ok(out)
}
