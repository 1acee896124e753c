//! queuey's benchmarks against a real broker. Not a test: it prints figures for the README.
//!
//!     cargo run --release --example bench            # everything
//!     cargo run --release --example bench -- ls      # dead ls --group-by only
//!     cargo run --release --example bench -- replay  # replay vs the broker's shovel only
//!     cargo run --release --example bench -- million # ls and replay of a million dead letters
//!     cargo run --release --example bench -- memory  # peak RSS of looks and replay, 1 MiB bodies
//!     cargo run --release --example bench -- channels # one queue's intake by channels/connections
//!     cargo run --release --example bench -- fleet   # declare/verify/status --all over 300 and 1000 queues
//!     cargo run --release --example bench -- fill Q.dead Q 1000 512   # test data only
//!
//! 1. `dead ls --group-by reason` over 10 000 and 100 000 dead letters of 1 KiB: wall time and
//!    peak RSS (from GNU time), which must stay flat as the queue grows.
//! 2. `dead replay` of 100 000 persistent 512-byte messages against the broker's own
//!    "move messages" (a dynamic shovel with src-delete-after=queue-length and
//!    ack-mode=on-confirm, prefetch 1000, as the management UI creates it) and the same shovel
//!    over the network, in interleaved rounds (QUEUEY_BENCH_ROUNDS, default 3): the medians,
//!    their ratios, and the rate of the timed fills as the ceiling. The shovel plugin is
//!    enabled if it is not.
//!
//! Uses QUEUEY_BENCH_URL / QUEUEY_BENCH_API_URL (default: the local broker as guest),
//! QUEUEY_BENCH_PLUGINS (the broker's `rabbitmq-plugins`, default the machine's) and the
//! release binary `target/release/queuey` (built first if missing). Against the 4.3 node:
//!
//!     QUEUEY_BENCH_URL=amqp://guest:guest@127.0.0.1:5674/%2f \
//!     QUEUEY_BENCH_API_URL=http://127.0.0.1:15674 \
//!     QUEUEY_BENCH_PLUGINS="scripts/rabbitmq4.sh plugins" \
//!     cargo run --release --example bench -- replay
//!
//! `QUEUEY_BENCH_BROKER_CPUS=0` runs the replay comparison as production does, the broker on
//! CPUs of its own: the broker's process (found by its AMQP port) is pinned to that CPU list
//! with `taskset` for the bench, and queuey to the other CPUs; the broker's CPU time for each
//! move is reported either way (from /proc). With QUEUEY_BENCH_QUEUE_TYPE=quorum, a fifth
//! mover is `dead replay --quorum-at-risk 256` (QUEUEY_BENCH_QUORUM_AT_RISK sets another).
//!
//! On a private three-node cluster with quorum queues led by node 1
//! (QUEUEY_BENCH_QUEUE_TYPE=quorum): `cargo build --release --example bench --bin queuey`,
//! then `cargo run --release --example cluster_bench` (examples/cluster_bench.rs).

use std::process::Command;
use std::time::{Duration, Instant};

use lapin::options::{
    BasicPublishOptions, ConfirmSelectOptions, QueueDeclareOptions, QueueDeleteOptions,
};
use lapin::types::{AMQPValue, FieldArray, FieldTable, LongString};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties};

const REASONS: [&str; 4] = ["rejected", "expired", "maxlen", "delivery_limit"];
/// What a queuey 1.x worker writes in x-death-reason.
const APP_REASONS: [&str; 4] = [
    "max attempts (3) exhausted after attempt 3: upstream timeout",
    "fatal error: card declined",
    "no handler for job type `bench::Gone`",
    "decode error: missing field `to`",
];

fn url() -> String {
    std::env::var("QUEUEY_BENCH_URL")
        .unwrap_or_else(|_| "amqp://guest:guest@127.0.0.1:5672/%2f".into())
}

fn api() -> String {
    std::env::var("QUEUEY_BENCH_API_URL").unwrap_or_else(|_| "http://127.0.0.1:15672".into())
}

/// `QUEUEY_BENCH_QUEUE_TYPE=quorum` declares the bench's queues as quorum queues (a cluster's
/// kind: led by the node the bench connects to); by default they are classic.
fn queue_arguments() -> FieldTable {
    let mut args = FieldTable::default();
    if let Ok(t) = std::env::var("QUEUEY_BENCH_QUEUE_TYPE") {
        args.insert("x-queue-type".into(), s(&t));
    }
    args
}

fn s(v: &str) -> AMQPValue {
    AMQPValue::LongString(LongString::from(v))
}

async fn declare(ch: &Channel, name: &str) {
    if let Err(e) = ch
        .queue_delete(name.into(), QueueDeleteOptions::default())
        .await
    {
        eprintln!("deleting {name} before declaring it: {e}");
    }
    ch.queue_declare(
        name.into(),
        QueueDeclareOptions {
            durable: true,
            ..QueueDeclareOptions::default()
        },
        queue_arguments(),
    )
    .await
    .expect("declare");
}

/// Fills `queue` with `n` persistent dead letters of about `size` bytes, confirmed in pipelined
/// batches: three in four as a queuey 1.x application writes them (a JSON envelope on attempt
/// 3, the library's headers and reasons, no x-death), one in four as the broker dead-letters a
/// message (x-death).
async fn fill(ch: &Channel, queue: &str, original: &str, n: usize, size: usize) {
    fill_range(ch, queue, original, 0..n, size).await;
}

/// [`fill`] of the messages numbered `range`, so that several channels can share a fill.
async fn fill_range(
    ch: &Channel,
    queue: &str,
    original: &str,
    range: std::ops::Range<usize>,
    size: usize,
) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let mut pending = Vec::with_capacity(2000);
    for i in range {
        let mut headers = FieldTable::default();
        let job_id = format!("67e55044-10b1-426f-9247-{i:012x}");
        let (body, props) = if i % 4 == 3 {
            let reason = REASONS[(i / 4) % REASONS.len()];
            let mut entry = FieldTable::default();
            entry.insert("queue".into(), s(original));
            entry.insert("reason".into(), s(reason));
            entry.insert("count".into(), AMQPValue::LongLongInt(1));
            entry.insert("time".into(), AMQPValue::Timestamp(now / 1000));
            entry.insert("exchange".into(), s(""));
            entry.insert(
                "routing-keys".into(),
                AMQPValue::FieldArray(FieldArray::from(vec![s(original)])),
            );
            headers.insert(
                "x-death".into(),
                AMQPValue::FieldArray(FieldArray::from(vec![AMQPValue::FieldTable(entry)])),
            );
            (vec![b'x'; size], BasicProperties::default())
        } else {
            let reason = APP_REASONS[(i / 4) % APP_REASONS.len()];
            headers.insert("x-attempt".into(), AMQPValue::LongUInt(3));
            headers.insert("x-deferrals".into(), AMQPValue::LongUInt(0));
            headers.insert("x-death-reason".into(), s(reason));
            headers.insert("x-original-queue".into(), s(original));
            headers.insert("x-attempts".into(), AMQPValue::LongUInt(3));
            let head = format!(
                "{{\"job_id\":\"{job_id}\",\"job_type\":\"bench::Job\",\"queue\":\"{original}\",\"attempt\":3,\"enqueued_at_ms\":{now},\"deferrals\":0,\"priority\":0,\"payload\":{{\"pad\":\""
            );
            let mut body = head.into_bytes();
            body.resize(size.saturating_sub(3).max(body.len()), b'x');
            body.extend_from_slice(b"\"}}");
            let props = BasicProperties::default()
                .with_content_type("application/json".into())
                .with_type("bench::Job".into())
                .with_priority(0);
            (body, props)
        };
        let props = props
            .with_delivery_mode(2)
            .with_message_id(job_id.into())
            .with_headers(headers);
        pending.push(
            ch.basic_publish(
                "".into(),
                queue.into(),
                BasicPublishOptions::default(),
                &body,
                props,
            )
            .await
            .expect("publish"),
        );
        if pending.len() >= 2000 {
            for c in pending.drain(..) {
                c.await.expect("confirm");
            }
        }
    }
    for c in pending {
        c.await.expect("confirm");
    }
}

async fn count(conn: &Connection, queue: &str) -> u32 {
    let ch = conn.create_channel().await.expect("channel");
    let q = ch
        .queue_declare(
            queue.into(),
            QueueDeclareOptions {
                passive: true,
                ..QueueDeclareOptions::default()
            },
            FieldTable::default(),
        )
        .await
        .expect("passive declare");
    let _ = ch.close(200, "ok".into()).await;
    q.message_count()
}

fn queuey() -> String {
    if let Ok(bin) = std::env::var("QUEUEY_BENCH_BIN") {
        return bin;
    }
    let bin = "target/release/queuey";
    if !std::path::Path::new(bin).exists() {
        let ok = Command::new("cargo")
            .args(["build", "--release"])
            .status()
            .expect("cargo")
            .success();
        assert!(ok, "cargo build --release failed");
    }
    bin.to_owned()
}

/// Runs queuey under GNU time: (wall seconds, peak RSS in KiB, stdout).
fn timed(args: &[&str]) -> (f64, u64, String) {
    let (wall, rss, _, out) = timed_on(args, None);
    (wall, rss, out)
}

/// [`timed`], on the CPUs `cpus` (taskset) if given; also queuey's user + system CPU seconds.
fn timed_on(args: &[&str], cpus: Option<&str>) -> (f64, u64, f64, String) {
    let mut cmd = match cpus {
        Some(cpus) => {
            let mut c = Command::new("taskset");
            c.args(["-c", cpus, "/usr/bin/time"]);
            c
        }
        None => Command::new("/usr/bin/time"),
    };
    let out = cmd
        .args(["-f", "%e %M %U %S"])
        .arg(queuey())
        .args(args)
        .env("QUEUEY_URL", url())
        .env("QUEUEY_API_URL", api())
        .output()
        .expect("/usr/bin/time (GNU time)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "queuey {args:?} failed: {stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    let mut parts = last.split_whitespace();
    let wall: f64 = parts
        .next()
        .and_then(|v| v.parse().ok())
        .expect("wall time");
    let rss: u64 = parts.next().and_then(|v| v.parse().ok()).expect("max RSS");
    let cpu: f64 = parts.filter_map(|v| v.parse::<f64>().ok()).sum();
    (
        wall,
        rss,
        cpu,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn http(method: &str, path: &str, body: Option<&str>) -> u16 {
    let mut cmd = Command::new("curl");
    cmd.args([
        "-s",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code}",
        "-u",
        "guest:guest",
        "-X",
        method,
    ])
    .arg(format!("{}{path}", api()));
    if let Some(b) = body {
        cmd.args(["-H", "content-type: application/json", "-d", b]);
    }
    let out = cmd.output().expect("curl");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(0)
}

/// Times `dead ls q --group-by reason` over the `n` dead letters of `q.dead`, checking that it
/// scanned them all and left them all there; returns the wall time and peak RSS in KiB.
async fn timed_group_by(conn: &Connection, q: &str, n: usize) -> (f64, u64) {
    let (wall, rss, out) = timed(&["dead", "ls", q, "--group-by", "reason", "-q", "-o", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        doc["scanned"].as_u64(),
        Some(n as u64),
        "scanned everything"
    );
    // The broker counts the requeued messages as ready again only as it processes the return:
    // at a million that takes a while after queuey has ended.
    let dead = format!("{q}.dead");
    let deadline = std::time::Instant::now() + Duration::from_secs(600);
    while (count(conn, &dead).await as usize) < n && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    assert_eq!(
        count(conn, &dead).await as usize,
        n,
        "peeking changed nothing"
    );
    (wall, rss)
}

async fn bench_ls(conn: &Connection) {
    println!("\n### dead ls --group-by reason (1 KiB dead letters)\n");
    println!("| dead letters | wall time | peak RSS | scanned/s |");
    println!("|---:|---:|---:|---:|");
    for n in [10_000usize, 100_000] {
        let q = format!("bench-ls-{n}");
        let dead = format!("{q}.dead");
        let ch = confirm_channel(conn).await;
        declare(&ch, &dead).await;
        fill(&ch, &dead, &q, n, 1024).await;
        let (wall, rss) = timed_group_by(conn, &q, n).await;
        println!(
            "| {n} | {wall:.2} s | {:.1} MB | {:.0} |",
            rss as f64 / 1024.0,
            n as f64 / wall
        );
        let _ = ch
            .queue_delete(dead.as_str().into(), QueueDeleteOptions::default())
            .await;
    }
}

/// One million dead letters of 1 KiB: `dead ls --group-by reason`, then `dead replay` of all of
/// them, each with its wall time and peak RSS, which must be no higher than at 100 000.
async fn bench_million(conn: &Connection) {
    let n = 1_000_000usize;
    println!("\n### one million dead letters of 1 KiB\n");
    println!("| command | wall time | messages/s | peak RSS |");
    println!("|---|---:|---:|---:|");
    let (q, dead) = ("bench-million", "bench-million.dead");
    let ch = confirm_channel(conn).await;
    declare(&ch, dead).await;
    declare(&ch, q).await;
    fill(&ch, dead, q, n, 1024).await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let (wall, rss) = timed_group_by(conn, q, n).await;
    println!(
        "| `dead ls --group-by reason` | {wall:.1} s | {:.0} | {:.1} MB |",
        n as f64 / wall,
        rss as f64 / 1024.0
    );
    let (wall, rss, out) = timed(&["dead", "replay", q, "-q", "-o", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["moved"].as_u64(), Some(n as u64), "moved everything");
    assert_eq!(count(conn, q).await as usize, n, "every copy arrived");
    assert_eq!(count(conn, dead).await, 0, "every dead letter acked");
    println!(
        "| `dead replay` | {wall:.1} s | {:.0} | {:.1} MB |",
        n as f64 / wall,
        rss as f64 / 1024.0
    );
    for name in [dead, q] {
        let _ = ch
            .queue_delete(name.into(), QueueDeleteOptions::default())
            .await;
    }
}

/// Peak memory of the looks and of a replay over 2000 dead letters of 1 MiB (2 GB of bodies):
/// bounded by the peek's byte budget (64 MiB in flight), not by the window of 4000 messages.
async fn bench_memory(conn: &Connection) {
    let n: usize = std::env::var("QUEUEY_BENCH_MEMORY_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    println!("\n### peak RSS over {n} dead letters of 1 MiB\n");
    println!("| command | wall time | peak RSS |");
    println!("|---|---:|---:|");
    let q = "bench-memory";
    let dead = "bench-memory.dead";
    let ch = confirm_channel(conn).await;
    declare(&ch, dead).await;
    declare(&ch, q).await;
    fill(&ch, dead, q, n, 1 << 20).await;
    let settle = async |what: &str| {
        let deadline = Instant::now() + Duration::from_secs(120);
        while (count(conn, dead).await as usize) < n && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        assert_eq!(
            count(conn, dead).await as usize,
            n,
            "{what} changed nothing"
        );
    };
    settle("the fill").await;
    let file = std::env::temp_dir().join("queuey-bench-memory.jsonl");
    let file = file.to_str().expect("a UTF-8 temp dir");
    let last = n.to_string();
    let looks: [(&str, Vec<&str>); 3] = [
        (
            "dead ls --limit 0",
            vec!["dead", "ls", q, "--limit", "0", "-q", "-o", "json"],
        ),
        ("dead show (the last)", vec!["dead", "show", q, &last, "-q"]),
        (
            "dead export",
            vec!["dead", "export", q, "--output-file", file, "-q"],
        ),
    ];
    for (what, args) in looks {
        let (wall, rss, out) = timed(&args);
        // A look that stops short is a finding, not a reason to stop the bench.
        let mut short = String::new();
        if what.starts_with("dead ls") {
            let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
            let scanned = doc["scanned"].as_u64().unwrap_or(0);
            if scanned != n as u64 {
                short = format!(" (scanned {scanned} of {n})");
            }
        }
        settle(what).await;
        println!(
            "| `{what}`{short} | {wall:.1} s | {:.1} MB |",
            rss as f64 / 1024.0
        );
    }
    let _ = std::fs::remove_file(file);
    let (wall, rss, out) = timed(&["dead", "replay", q, "-q", "-o", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["moved"].as_u64(), Some(n as u64), "moved everything");
    println!(
        "| `dead replay` | {wall:.1} s | {:.1} MB |",
        rss as f64 / 1024.0
    );
    for name in [dead, q] {
        let _ = ch
            .queue_delete(name.into(), QueueDeleteOptions::default())
            .await;
    }
}

/// The movers compared by the replay benchmark.
#[derive(Clone, Copy, PartialEq)]
enum Mover {
    ShovelDirect,
    ShovelNetwork,
    /// `dead replay`: one channel, the copies in q.dead's order.
    Queuey,
    /// `dead replay --channels 2`.
    QueueyTwoChannels,
    /// `dead replay --quorum-at-risk N`, N from QUEUEY_BENCH_QUORUM_AT_RISK (a quorum q.dead).
    QueueyAtRisk,
}

impl Mover {
    fn label(self) -> String {
        match self {
            Mover::ShovelDirect => {
                "shovel, direct connection (the management UI's \"move messages\")".into()
            }
            Mover::ShovelNetwork => "shovel, network connection".into(),
            Mover::Queuey => {
                "queuey dead replay (one channel; confirms + mandatory, ack after confirm)".into()
            }
            Mover::QueueyTwoChannels => "queuey dead replay --channels 2".into(),
            Mover::QueueyAtRisk => {
                format!("queuey dead replay --quorum-at-risk {}", quorum_at_risk())
            }
        }
    }
}

/// One move: its wall time, queuey's peak RSS in KiB, and how long filling the queue took.
struct Moved {
    wall: f64,
    rss: Option<u64>,
    fill: f64,
    /// CPU seconds the broker's process spent during the move, and queuey's own (user +
    /// system), if known.
    broker_cpu: Option<f64>,
    client_cpu: Option<f64>,
}

/// `QUEUEY_BENCH_QUORUM_AT_RISK`: the `--quorum-at-risk` of the fifth mover, 256 by default
/// (the default before 2026-12-04; queuey's own is 2048).
fn quorum_at_risk() -> String {
    std::env::var("QUEUEY_BENCH_QUORUM_AT_RISK").unwrap_or_else(|_| "256".into())
}

/// The broker's OS process: the one listening on the AMQP port of QUEUEY_BENCH_URL (`ss`).
fn broker_pid() -> Option<u32> {
    let port = url::Url::parse(&url()).ok()?.port().unwrap_or(5672);
    let out = Command::new("ss")
        .args(["-ltnpH", &format!("sport = :{port}")])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let at = text.find("pid=")? + 4;
    text[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// CPU seconds (user + system) process `pid` has used, from /proc (clock ticks of 1/100 s).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// `QUEUEY_BENCH_BROKER_CPUS`: the CPU list the broker is pinned to, and the other CPUs, for
/// queuey.
fn cpu_split() -> Option<(String, String)> {
    let broker = std::env::var("QUEUEY_BENCH_BROKER_CPUS").ok()?;
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mine: Vec<usize> = broker
        .split(',')
        .filter_map(|c| c.trim().parse().ok())
        .collect();
    let rest: Vec<String> = (0..all)
        .filter(|c| !mine.contains(c))
        .map(|c| c.to_string())
        .collect();
    assert!(
        !mine.is_empty() && !rest.is_empty(),
        "QUEUEY_BENCH_BROKER_CPUS={broker}: give a comma-separated list leaving CPUs to queuey"
    );
    Some((broker, rest.join(",")))
}

/// The broker pinned to some CPUs for the bench; every CPU is its again when this is dropped,
/// a failed bench included.
struct Pinned(u32);

impl Pinned {
    fn new(pid: u32, cpus: &str) -> Pinned {
        assert!(
            pin_broker(pid, cpus),
            "taskset could not pin the broker (pid {pid}) to CPUs {cpus}"
        );
        Pinned(pid)
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        let all = std::thread::available_parallelism().map_or(1, |n| n.get());
        if !pin_broker(self.0, &format!("0-{}", all - 1)) {
            eprintln!(
                "taskset could not give the broker (pid {}) every CPU again",
                self.0
            );
        }
    }
}

/// Pins every thread of the broker's process to `cpus` (`taskset -a`): whether it could.
fn pin_broker(pid: u32, cpus: &str) -> bool {
    Command::new("taskset")
        .args(["-a", "-p", "-c", cpus, &pid.to_string()])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Moves `n` fresh dead letters with `mover`. The fill that comes first is itself timed: a
/// network client publishing the same persistent messages with confirms, pipelined, nothing
/// else. No mover that publishes over the network can beat that rate.
async fn move_once(
    conn: &Connection,
    mover: Mover,
    n: usize,
    broker: Option<u32>,
    cpus: Option<&str>,
) -> Moved {
    let (q, target) = ("bench-replay", "bench-replay-target");
    let dead = format!("{q}.dead");
    // A channel of this move's own: a delete the broker refused at the end of the move before
    // (seen once on a 3.10.8 quorum queue) closes its channel, and must not end the bench.
    let own = confirm_channel(conn).await;
    let ch = &own;
    declare(ch, &dead).await;
    declare(ch, target).await;
    let filling = Instant::now();
    fill(ch, &dead, target, n, 512).await;
    let fill_secs = filling.elapsed().as_secs_f64();
    // Let the broker settle after the fill (queue index writes) before timing anything.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let broker_before = broker.and_then(cpu_seconds);
    let result = if matches!(
        mover,
        Mover::Queuey | Mover::QueueyTwoChannels | Mover::QueueyAtRisk
    ) {
        let at_risk = quorum_at_risk();
        let mut args = vec!["dead", "replay", q, "-q", "-o", "json"];
        match mover {
            Mover::QueueyTwoChannels => args.extend(["--channels", "2"]),
            Mover::QueueyAtRisk => args.extend(["--quorum-at-risk", at_risk.as_str()]),
            _ => {}
        }
        let (wall, rss, cpu, out) = timed_on(&args, cpus);
        let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(
            doc["moved"].as_u64(),
            Some(n as u64),
            "moved everything: {doc}"
        );
        (wall, Some(rss), Some(cpu))
    } else {
        let uri = if mover == Mover::ShovelDirect {
            "amqp://".to_owned()
        } else {
            network_uri()
        };
        let value = format!(
            r#"{{"value":{{"src-protocol":"amqp091","src-uri":"{uri}","src-queue":"{dead}","src-prefetch-count":1000,"src-delete-after":"queue-length","dest-protocol":"amqp091","dest-uri":"{uri}","dest-queue":"{target}","dest-add-forward-headers":false,"ack-mode":"on-confirm"}}}}"#
        );
        let start = Instant::now();
        let status = http("PUT", "/api/parameters/shovel/%2F/bench-move", Some(&value));
        assert!(
            (200..300).contains(&status),
            "creating the shovel answered {status}"
        );
        while (count(conn, target).await as usize) < n {
            assert!(
                start.elapsed() < Duration::from_secs(900),
                "the shovel did not finish"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let wall = start.elapsed().as_secs_f64();
        let _ = http("DELETE", "/api/parameters/shovel/%2F/bench-move", None);
        (wall, None, None)
    };
    let broker_cpu = broker
        .and_then(cpu_seconds)
        .zip(broker_before)
        .map(|(after, before)| after - before);
    assert_eq!(
        count(conn, target).await as usize,
        n,
        "every message arrived"
    );
    for q in [dead.as_str(), target] {
        if let Err(e) = ch
            .queue_delete(q.into(), QueueDeleteOptions::default())
            .await
        {
            eprintln!("deleting {q} after the move: {e}");
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    Moved {
        wall: result.0,
        rss: result.1,
        fill: fill_secs,
        broker_cpu,
        client_cpu: result.2,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `dead replay` against the broker's own shovel, in interleaved rounds: the broker's speed
/// drifts from minute to minute on a small machine, so each round runs every mover once, in
/// a rotating order, and the medians are compared.
async fn bench_replay(conn: &Connection) {
    let n = 100_000usize;
    let rounds: usize = std::env::var("QUEUEY_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    println!(
        "\n### dead replay vs the broker's shovel \"move messages\" ({n} persistent 512-byte messages, {rounds} rounds)\n"
    );
    // The broker's own CLI: the machine's `rabbitmq-plugins` reaches only the machine's node
    // (for the 4.3 node: QUEUEY_BENCH_PLUGINS="scripts/rabbitmq4.sh plugins").
    let plugins =
        std::env::var("QUEUEY_BENCH_PLUGINS").unwrap_or_else(|_| "rabbitmq-plugins".into());
    let mut words = plugins.split_whitespace();
    let enabled = Command::new(words.next().unwrap_or("rabbitmq-plugins"))
        .args(words)
        .args(["enable", "rabbitmq_shovel"])
        .output();
    let enabled = enabled.is_ok_and(|o| o.status.success());
    if !enabled || http("GET", "/api/overview", None) != 200 {
        eprintln!(
            "cannot enable rabbitmq_shovel with `{plugins}` (QUEUEY_BENCH_PLUGINS); skipping the comparison"
        );
        return;
    }
    std::thread::sleep(Duration::from_secs(2));
    let mut movers = vec![
        Mover::ShovelDirect,
        Mover::ShovelNetwork,
        Mover::Queuey,
        Mover::QueueyTwoChannels,
    ];
    if std::env::var("QUEUEY_BENCH_QUEUE_TYPE").is_ok_and(|t| t == "quorum") {
        movers.push(Mover::QueueyAtRisk);
    }
    let broker = broker_pid();
    let split = cpu_split();
    let _pinned = split.as_ref().map(|(broker_cpus, client_cpus)| {
        let pid = broker.expect("the broker's process (ss -ltnp), to pin it");
        println!("The broker (pid {pid}) on CPUs {broker_cpus}, queuey on CPUs {client_cpus}.\n");
        Pinned::new(pid, broker_cpus)
    });
    let client_cpus = split.as_ref().map(|(_, c)| c.as_str());
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); movers.len()];
    let mut broker_cpu: Vec<Vec<f64>> = vec![Vec::new(); movers.len()];
    let mut client_cpu: Vec<Vec<f64>> = vec![Vec::new(); movers.len()];
    let mut publish_rates = Vec::new();
    let mut rss = Vec::new();
    for round in 0..rounds {
        for k in 0..movers.len() {
            let i = (round + k) % movers.len();
            let moved = move_once(conn, movers[i], n, broker, client_cpus).await;
            broker_cpu[i].extend(moved.broker_cpu);
            client_cpu[i].extend(moved.client_cpu);
            let rate = n as f64 / moved.wall;
            eprintln!(
                "round {}: {}: {:.2} s, {rate:.0}/s (the fill before it: {:.0}/s)",
                round + 1,
                movers[i].label(),
                moved.wall,
                n as f64 / moved.fill
            );
            rates[i].push(rate);
            publish_rates.push(n as f64 / moved.fill);
            rss.extend(moved.rss);
        }
    }
    // Each round's ratio to the direct shovel of the same round as well: the broker's speed
    // drifts between rounds more than between the movers of one round.
    let direct = &rates[0];
    println!(
        "| mover | messages/s, median | each round | / direct shovel, median of the rounds' ratios | broker CPU s, median | queuey CPU s, median |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    let cpu = |v: &Vec<f64>| {
        if v.is_empty() {
            "-".to_owned()
        } else {
            format!("{:.1}", median(v.clone()))
        }
    };
    for (i, mover) in movers.iter().enumerate() {
        let each: Vec<String> = rates[i].iter().map(|r| format!("{r:.0}")).collect();
        let m = median(rates[i].clone());
        let ratios: Vec<f64> = rates[i].iter().zip(direct).map(|(r, d)| r / d).collect();
        println!(
            "| {} | {m:.0} | {} | {:.2}x | {} | {} |",
            mover.label(),
            each.join(", "),
            median(ratios),
            cpu(&broker_cpu[i]),
            cpu(&client_cpu[i])
        );
    }
    let ceiling = median(publish_rates.clone());
    println!(
        "| publishing the same messages on one channel, nothing else (the fills) | {ceiling:.0} | {} fills | {:.2}x |",
        publish_rates.len(),
        ceiling / median(direct.clone())
    );
    let peak = rss.iter().copied().max().unwrap_or(0);
    println!(
        "\nqueuey's peak RSS over the rounds: {:.1} MB",
        peak as f64 / 1024.0
    );
}

/// How fast one queue takes the same persistent messages from a network client publishing over
/// one channel, several channels of one connection, or several connections: the ceiling of a
/// mover that publishes over the network, in each layout (interleaved rounds, medians).
async fn bench_channels() {
    let n = 100_000usize;
    let rounds: usize = std::env::var("QUEUEY_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    // (connections, channels on each)
    let layouts = [(1usize, 1usize), (1, 2), (1, 4), (2, 1), (4, 1)];
    println!(
        "\n### one queue taking {n} persistent 512-byte messages from a confirmed publisher, by layout ({rounds} rounds)\n"
    );
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); layouts.len()];
    for round in 0..rounds {
        for k in 0..layouts.len() {
            let i = (round + k) % layouts.len();
            let (conns, per) = layouts[i];
            let mut connections = Vec::new();
            for _ in 0..conns {
                connections.push(
                    Connection::connect(&url(), ConnectionProperties::default())
                        .await
                        .expect("connection"),
                );
            }
            let mut channels = Vec::new();
            for c in &connections {
                for _ in 0..per {
                    let ch = confirm_channel(c).await;
                    channels.push(ch);
                }
            }
            let target = "bench-channels-target";
            declare(&channels[0], target).await;
            tokio::time::sleep(Duration::from_secs(2)).await;
            let parts = channels.len();
            let start = Instant::now();
            let fills = channels.iter().enumerate().map(|(j, ch)| {
                fill_range(
                    ch,
                    target,
                    "bench-channels",
                    j * n / parts..(j + 1) * n / parts,
                    512,
                )
            });
            futures_util::future::join_all(fills).await;
            let rate = n as f64 / start.elapsed().as_secs_f64();
            eprintln!(
                "round {}: {conns} connection(s) x {per} channel(s): {rate:.0}/s",
                round + 1
            );
            rates[i].push(rate);
            assert_eq!(count(&connections[0], target).await as usize, n);
            let _ = channels[0]
                .queue_delete(target.into(), QueueDeleteOptions::default())
                .await;
            for c in connections {
                let _ = c.close(200, "done".into()).await;
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
        }
    }
    println!("| connections x channels | messages/s, median | each round |");
    println!("|---|---:|---:|");
    for (i, (conns, per)) in layouts.iter().enumerate() {
        let each: Vec<String> = rates[i].iter().map(|r| format!("{r:.0}")).collect();
        println!(
            "| {conns} x {per} | {:.0} | {} |",
            median(rates[i].clone()),
            each.join(", ")
        );
    }
}

/// `verify --all`, `status --all` and `declare --all` over a topology file of `n` logical queues
/// (each with its `q` and `q.dead` declared), as a CI gate over a whole fleet runs them.
fn bench_fleet() {
    println!("\n### a fleet of logical queues in one queuey.toml\n");
    println!(
        "| logical queues | `declare --all` (creating) | `declare --all` (in sync) | `verify --all` | `status --all` |"
    );
    println!("|---:|---:|---:|---:|---:|");
    for n in [300usize, 1000] {
        let dir =
            std::env::temp_dir().join(format!("queuey-bench-fleet-{n}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let names: Vec<String> = (0..n).map(|i| format!("bench-fleet.{n}.q{i:04}")).collect();
        let mut toml = String::new();
        for (i, name) in names.iter().enumerate() {
            toml.push_str(&format!("[queues.\"{name}\"]\n"));
            if i % 3 == 0 {
                toml.push_str("message_ttl = \"1h\"\n");
            }
        }
        let config = dir.join("queuey.toml");
        std::fs::write(&config, toml).expect("writing queuey.toml");
        let config = config.to_string_lossy().into_owned();
        let run = |args: &[&str]| -> f64 {
            let mut all = args.to_vec();
            all.extend(["--config", config.as_str(), "-o", "json"]);
            timed(&all).0
        };
        let create = run(&["declare", "--all"]);
        let again = run(&["declare", "--all"]);
        let verify = run(&["verify", "--all"]);
        let status = run(&["status", "--all"]);
        println!("| {n} | {create:.2} s | {again:.2} s | {verify:.2} s | {status:.2} s |");
        for name in &names {
            for q in [name.clone(), format!("{name}.dead")] {
                http(
                    "DELETE",
                    &format!("/api/queues/%2f/{}", q.replace('/', "%2f")),
                    None,
                );
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The benchmark broker's AMQP URL with its host, for a shovel that connects over the network.
fn network_uri() -> String {
    url()
}

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "all".into());
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let conn = Connection::connect(
            &url(),
            ConnectionProperties::default().with_connection_name("queuey bench".into()),
        )
        .await
        .expect("a broker to benchmark against (QUEUEY_BENCH_URL)");
        let version = Command::new("curl")
            .args(["-s", "-u", "guest:guest"])
            .arg(format!("{}/api/overview", api()))
            .output()
            .ok()
            .and_then(|o| serde_json::from_slice::<serde_json::Value>(&o.stdout).ok())
            .and_then(|v| v["rabbitmq_version"].as_str().map(str::to_owned))
            .unwrap_or_default();
        println!(
            "RabbitMQ {version}, {} CPUs",
            std::thread::available_parallelism().map_or(0, |n| n.get())
        );
        if what == "fill" {
            // bench fill <dead queue> <original queue> <count> <size>: test data, nothing timed.
            let a: Vec<String> = std::env::args().skip(2).collect();
            let ch = confirm_channel(&conn).await;
            declare(&ch, &a[0]).await;
            fill(
                &ch,
                &a[0],
                &a[1],
                a[2].parse().expect("count"),
                a[3].parse().expect("size"),
            )
            .await;
        }
        if what == "all" || what == "ls" {
            bench_ls(&conn).await;
        }
        if what == "all" || what == "replay" {
            bench_replay(&conn).await;
        }
        if what == "memory" {
            bench_memory(&conn).await;
        }
        if what == "channels" {
            bench_channels().await;
        }
        if what == "all" || what == "fleet" {
            bench_fleet();
        }
        if what == "all" || what == "million" {
            bench_million(&conn).await;
        }
        let _ = conn.close(200, "bench done".into()).await;
    });
}

/// A channel of `conn` in confirm mode.
async fn confirm_channel(conn: &Connection) -> Channel {
    let ch = conn.create_channel().await.expect("channel");
    ch.confirm_select(ConfirmSelectOptions::default())
        .await
        .expect("confirms");
    ch
}
