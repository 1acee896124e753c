//! The ledger's lines: each written by one function (`*_line`, flushed to disk by the caller
//! before the step it announces) and read back as one type, [`Line`] (see the table in
//! `ledger.rs`).

use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};

use super::{Boot, LEDGER_FORMAT, Scope};

/// What a run does to `q.dead` (the `op` of its run line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Replay,
    Purge,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Replay => "replay",
            Op::Purge => "purge",
        }
    }
}

/// The line that opens a run's part of the ledger (with its newline).
pub fn run_line(op: Op, scope: &Scope, run: &str, started: u64) -> String {
    let mut line = json!({
        "format": LEDGER_FORMAT,
        "op": op.name(),
        "run": run,
        "started": started,
        "broker": scope.broker,
        "vhost": scope.vhost,
        "queue": scope.queue,
    })
    .to_string();
    line.push('\n');
    line
}

/// A copy's line: `doubt` before it is published, `copied` once it is confirmed.
#[derive(Serialize)]
struct CopyLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    doubt: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    copied: Option<&'a str>,
    to: &'a str,
    run: &'a str,
    copy: u64,
    /// A copy the rule made of a dead letter an unfinished run may have copied already.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    may_duplicate: bool,
}

/// The line recording copy number `copy` of the run `run`, of the dead letter `digest`, to `to`,
/// as about to be published: in doubt until a `copied`, `undone`, `found` or `missed` line
/// settles it.
pub fn doubt_line(digest: &str, to: &str, run: &str, copy: u64) -> String {
    json_line(&CopyLine {
        doubt: Some(digest),
        copied: None,
        to,
        run,
        copy,
        may_duplicate: false,
    })
}

/// The line recording that copy number `copy` of the run `run` is confirmed in `to`: from now
/// on its dead letter may be acked at any moment. `may_duplicate`: the rule made it although
/// an unfinished run may have copied that dead letter already (a later run that ends counts
/// it in its report, for the run that made it may not live to).
pub fn copied_line(digest: &str, to: &str, run: &str, copy: u64, may_duplicate: bool) -> String {
    json_line(&CopyLine {
        doubt: None,
        copied: Some(digest),
        to,
        run,
        copy,
        may_duplicate,
    })
}

/// The line saying that copy number `copy` of the run `run` is certainly not in its target: it
/// was returned or refused.
pub fn undone_line(run: &str, copy: u64) -> String {
    json_line(&json!({"undone": copy, "run": run}))
}

/// The line saying that a rerun did not find in its target the copy `copy` of the run `run`
/// (in doubt), of a dead letter of `digest`. That dead letter was never acked and is copied
/// again; the copy may still arrive (on a cluster, a leader of the target that was frozen or
/// without its majority takes it once it runs again), so the new copy may be a second one.
pub fn missed_line(digest: &str, run: &str, copy: u64) -> String {
    json_line(&json!({"missed": digest, "run": run, "copy": copy}))
}

/// The line saying that a rerun found in its target the copy `copy` of the run `run` (in
/// doubt), of a dead letter of `digest`: that dead letter was never acked. Without a run, a
/// record carried into a new ledger.
pub fn found_line(digest: &str, run: Option<(&str, u64)>) -> String {
    match run {
        Some((run, copy)) => json_line(&json!({"found": digest, "run": run, "copy": copy})),
        None => json_line(&json!({"found": digest})),
    }
}

/// The line that uses up one record granted by the rule, before the ack it allows.
pub fn claimed_line(digest: &str) -> String {
    json_line(&json!({"claimed": digest}))
}

/// A replay's last line when its connection failed: it sent (or tried to send) the acks of its
/// copies up to number `n`, and will send no more. Its copies after `n` that are confirmed
/// (`copied`) have dead letters that were never acked.
pub fn acked_through_line(run: &str, n: u64) -> String {
    json_line(&json!({"acked_through": n, "run": run}))
}

/// A purge's mark: the first `n` records of its archive may be acked from now on, of which
/// `may_duplicate` were written since the last mark although an unfinished purge may have
/// archived their dead letters already.
pub fn acking_line(n: u64, may_duplicate: u64) -> String {
    if may_duplicate == 0 {
        json_line(&json!({"acking": n}))
    } else {
        json_line(&json!({"acking": n, "may_duplicate": may_duplicate}))
    }
}

/// The line saying that the broker processed the ack of a dead letter of `digest`.
pub fn settled_line(digest: &str) -> String {
    json_line(&json!({"settled": digest}))
}

/// `value` as one JSON line, with its newline.
fn json_line(value: &impl Serialize) -> String {
    // Serialising strings and numbers cannot fail.
    let mut line = serde_json::to_string(value).unwrap_or_default();
    line.push('\n');
    line
}

/// The line saying which start of the broker the run saw (see [`Boot`]); nothing when it knows
/// nothing of it.
pub fn boot_line(boot: &Boot) -> String {
    let mut j = serde_json::Map::new();
    if let Some(ms) = boot.started_ms {
        j.insert("broker_started_ms".into(), ms.into());
    }
    if !boot.pids.is_empty() {
        j.insert(
            "node_pids".into(),
            Json::Object(
                boot.pids
                    .iter()
                    .map(|(n, p)| (n.clone(), Json::from(p.as_str())))
                    .collect(),
            ),
        );
    }
    if j.is_empty() {
        return String::new();
    }
    let mut line = Json::Object(j).to_string();
    line.push('\n');
    line
}

/// One line of a ledger, by the key that says what it is (the one reading of what the
/// `*_line` functions write). A key whose value has another type does not make the line that
/// kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Run {
        op: Option<Op>,
        scope: Scope,
        run: String,
    },
    Boot(Boot),
    Doubt {
        digest: String,
        to: String,
        run: String,
        copy: u64,
    },
    Copied {
        digest: String,
        to: String,
        run: String,
        copy: u64,
        may_duplicate: bool,
    },
    Undone {
        run: String,
        copy: u64,
    },
    Missed {
        digest: String,
        run: String,
        copy: u64,
    },
    Found {
        digest: String,
        doubt: Option<(String, u64)>,
    },
    Claimed(String),
    AckedThrough {
        run: String,
        n: u64,
    },
    Acking {
        n: u64,
        may_duplicate: u64,
    },
    Settled(String),
}

/// The fields a ledger line may carry, each as JSON (its type is checked where it is read).
#[derive(Deserialize)]
struct Fields {
    doubt: Option<Json>,
    copied: Option<Json>,
    undone: Option<Json>,
    missed: Option<Json>,
    found: Option<Json>,
    claimed: Option<Json>,
    acking: Option<Json>,
    acked_through: Option<Json>,
    settled: Option<Json>,
    format: Option<Json>,
    op: Option<Json>,
    run: Option<Json>,
    to: Option<Json>,
    copy: Option<Json>,
    broker: Option<Json>,
    vhost: Option<Json>,
    queue: Option<Json>,
    broker_started_ms: Option<Json>,
    node_pids: Option<Json>,
    may_duplicate: Option<Json>,
}

impl Line {
    /// Reads one line; the error says why it is not a ledger line.
    pub fn parse(text: &str) -> Result<Line, String> {
        let f: Fields =
            serde_json::from_str(text).map_err(|e| format!("is not a ledger line ({e})"))?;
        let text_of = |v: &Option<Json>| v.as_ref().and_then(Json::as_str).map(str::to_owned);
        let number = |v: &Option<Json>| v.as_ref().and_then(Json::as_u64);
        let run = text_of(&f.run);
        let to = text_of(&f.to).unwrap_or_default();
        let copy = number(&f.copy);
        let numbered = |what: &str| -> Result<(String, u64), String> {
            match (&run, copy) {
                (Some(r), Some(c)) => Ok((r.clone(), c)),
                _ => Err(format!("is a {what} line without its run and copy number")),
            }
        };
        if let Some(digest) = text_of(&f.doubt) {
            let (run, copy) = numbered("doubt")?;
            return Ok(Line::Doubt {
                digest,
                to,
                run,
                copy,
            });
        }
        if let Some(digest) = text_of(&f.copied) {
            let (run, copy) = numbered("copied")?;
            return Ok(Line::Copied {
                digest,
                to,
                run,
                copy,
                may_duplicate: f.may_duplicate.as_ref().and_then(Json::as_bool) == Some(true),
            });
        }
        if let Some(copy) = number(&f.undone) {
            return Ok(Line::Undone {
                run: run.unwrap_or_default(),
                copy,
            });
        }
        if let Some(digest) = text_of(&f.missed) {
            let (run, copy) = numbered("missed")?;
            return Ok(Line::Missed { digest, run, copy });
        }
        if let Some(digest) = text_of(&f.found) {
            return Ok(Line::Found {
                digest,
                doubt: run.zip(copy),
            });
        }
        if let Some(digest) = text_of(&f.claimed) {
            return Ok(Line::Claimed(digest));
        }
        if let Some(n) = number(&f.acked_through) {
            return Ok(Line::AckedThrough {
                run: run.unwrap_or_default(),
                n,
            });
        }
        if let Some(n) = number(&f.acking) {
            return Ok(Line::Acking {
                n,
                may_duplicate: number(&f.may_duplicate).unwrap_or(0),
            });
        }
        if let Some(digest) = text_of(&f.settled) {
            return Ok(Line::Settled(digest));
        }
        if f.broker_started_ms.is_some() || f.node_pids.as_ref().is_some_and(Json::is_object) {
            return Ok(Line::Boot(Boot {
                started_ms: number(&f.broker_started_ms),
                pids: f
                    .node_pids
                    .as_ref()
                    .and_then(Json::as_object)
                    .into_iter()
                    .flatten()
                    .filter_map(|(node, pid)| Some((node.clone(), pid.as_str()?.to_owned())))
                    .collect(),
            }));
        }
        if f.format.as_ref().and_then(Json::as_str) == Some(LEDGER_FORMAT) {
            let op = match f.op.as_ref().and_then(Json::as_str) {
                Some("replay") => Some(Op::Replay),
                Some("purge") => Some(Op::Purge),
                _ => None,
            };
            return Ok(Line::Run {
                op,
                scope: Scope {
                    broker: text_of(&f.broker).unwrap_or_default(),
                    vhost: text_of(&f.vhost).unwrap_or_default(),
                    queue: text_of(&f.queue).unwrap_or_default(),
                },
                run: run.unwrap_or_default(),
            });
        }
        Err(format!("is not a ledger line (format {LEDGER_FORMAT})"))
    }
}
