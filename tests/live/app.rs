//! queuey against a real application on the real `queuey` library (`common::app`): the topology
//! the library declares, the dead letters its worker writes for every cause, and what its worker
//! does with what `dead replay` gives back.
//!
//! Each test has an application of its own, on a slot of its own (see `common::app`):
//!
//! | slot | test |
//! |------|------|
//! | 0 | `verify_is_in_sync_with_what_the_library_declares` |
//! | 1 | `the_library_accepts_what_declare_created` |
//! | 2 | `the_application_writes_real_dead_letters_with_the_library_headers` |
//! | 3 | `verify_and_holds_ls_see_the_live_application` |
//! | 4 | `dead_ls_names_the_cause_of_every_real_dead_letter` |
//! | 5 | `dead_ls_groups_real_dead_letters_by_cause` |
//! | 6 | `replayed_jobs_start_again_at_attempt_one_on_the_real_worker` |
//! | 7 | `replay_keep_attempts_gives_the_worker_the_attempt_it_died_on` |
//! | 8 | `a_replayed_copy_is_the_same_envelope_at_attempt_one` |
//! | 9 | `the_application_worker_reports_every_cause` |
//! | 10, 11 | `in_a_quorum_default_vhost_only_the_refused_priorities_are_not_in_sync` |

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use crate::common::app::{
    ALWAYS, App, BACKOFF, DEAD_LETTERS, DEFER_HOLD_MS, DeadSet, Died, FATAL_WHY, Flaky, Handled,
    MALFORMED_BODY, MAX_ATTEMPTS, Mode, Outcome, RETRY_HOLD_MS, flaky_error, wrong_shape,
};
use crate::common::{Broker, Queuey, eventually, json, long_str, run, stderr, stdout, table};
use lapin::BasicProperties;
use lapin::types::{AMQPValue, FieldTable};
use queuey_core::{DeadLetterCause, Envelope};
use serde_json::{Value as Json, json};

const FLAKY: &str = "app.Flaky";
const DOOMED: &str = "app.Doomed";
const ORPHAN: &str = "app.Orphan";
const STRICT: &str = "app.Strict";
const LATER: &str = "app.Later";

/// The reasons the library's worker writes (queuey-core `worker.rs`), for this application.
fn exhausted_reason(attempt: u32, error: &str) -> String {
    format!("max attempts ({MAX_ATTEMPTS}) exhausted after attempt {attempt}: {error}")
}
fn fatal_reason() -> String {
    format!("fatal error: {FATAL_WHY}")
}
fn no_handler_reason() -> String {
    format!("no handler for job type `{ORPHAN}`")
}
/// `decode error: ` + queuey-core's `Error::Serde` (`serialization error: ...`) around serde's
/// own message for `{"wrong": "shape"}` read as `app.Strict { n: u64 }`.
fn decode_reason() -> String {
    "decode error: serialization error: missing field `n`".to_owned()
}
const MALFORMED_REASON: &str = "malformed envelope";

/// The headers of a message, as [`show`] renders them.
fn headers(props: &BasicProperties) -> BTreeMap<String, String> {
    show(&props.headers().clone().unwrap_or_default())
}

/// A header table as `name -> Type(value)`, strings as text: compared exactly (the AMQP type
/// included) and readable when an assertion fails.
fn show(t: &FieldTable) -> BTreeMap<String, String> {
    t.inner()
        .iter()
        .map(|(k, v)| {
            let v = match v {
                AMQPValue::LongString(s) => {
                    format!("LongString({:?})", String::from_utf8_lossy(s.as_bytes()))
                }
                other => format!("{other:?}"),
            };
            (k.to_string(), v)
        })
        .collect()
}

/// Exactly the headers the library writes on a dead letter of an envelope
/// (queuey-rabbitmq `codec::dead_letter_headers`).
fn library_dead_headers(
    q: &str,
    reason: &str,
    attempt: u32,
    deferrals: u32,
) -> BTreeMap<String, String> {
    show(&table(vec![
        ("x-attempt", AMQPValue::LongUInt(attempt)),
        ("x-deferrals", AMQPValue::LongUInt(deferrals)),
        ("x-death-reason", long_str(reason)),
        ("x-original-queue", long_str(q)),
        ("x-attempts", AMQPValue::LongUInt(attempt)),
    ]))
}

/// Reads `q.dead` with the broker harness: the envelopes by job id, and the bodies that are not
/// envelopes.
#[allow(clippy::type_complexity)]
fn read_dead(
    broker: &Broker,
    dead: &str,
) -> (
    HashMap<String, (Envelope, BasicProperties)>,
    Vec<(Vec<u8>, BasicProperties)>,
) {
    let mut envelopes = HashMap::new();
    let mut others = Vec::new();
    for (body, props) in broker.snapshot(dead) {
        match Envelope::from_bytes(&body) {
            Ok(env) => {
                let id = env.job_id.to_string();
                assert!(
                    envelopes.insert(id.clone(), (env, props)).is_none(),
                    "job {id} is twice in {dead}"
                );
            }
            Err(_) => others.push((body, props)),
        }
    }
    (envelopes, others)
}

fn handled(job_id: &str, job_type: &'static str, attempt: u32, outcome: Outcome) -> Handled {
    Handled {
        job_id: job_id.to_owned(),
        job_type,
        attempt,
        max_attempts: MAX_ATTEMPTS,
        outcome,
    }
}

// ---- the harness itself: real dead letters, exactly as the library writes them ------------------

#[test]
fn the_application_writes_real_dead_letters_with_the_library_headers() {
    let broker = Broker::connect();
    let app = App::<2>::new(&broker, "self-test");
    let ids = app.make_dead_letters();
    let q = app.q;

    let (envelopes, others) = read_dead(&broker, &app.dead);
    assert_eq!(envelopes.len() + others.len(), DEAD_LETTERS as usize);

    let expect: [(&str, &str, u32, String, Json); 4] = [
        (
            &ids.exhausted,
            FLAKY,
            3,
            exhausted_reason(3, &flaky_error(3)),
            json!({"fail_until": ALWAYS}),
        ),
        (
            &ids.fatal,
            DOOMED,
            1,
            fatal_reason(),
            json!({"why": FATAL_WHY}),
        ),
        (
            &ids.no_handler,
            ORPHAN,
            1,
            no_handler_reason(),
            json!({"n": 1}),
        ),
        (&ids.decode, STRICT, 1, decode_reason(), wrong_shape()),
    ];
    for (id, job_type, attempt, reason, payload) in expect {
        let (env, props) = envelopes
            .get(id)
            .unwrap_or_else(|| panic!("no dead letter of {job_type} ({id}) in {}", app.dead));
        assert_eq!(env.job_type, job_type);
        assert_eq!(env.queue, q);
        assert_eq!(env.attempt, attempt, "{job_type}");
        assert_eq!(env.deferrals, 0);
        assert_eq!(env.priority, 0);
        assert_eq!(env.correlation_id, None);
        assert_eq!(env.payload, payload);
        // Exactly the library's headers: no x-death (the worker publishes a fresh message; the
        // broker's x-death from the retry hold queue stays behind), nothing else.
        assert_eq!(
            headers(props),
            library_dead_headers(q, &reason, attempt, 0),
            "{job_type}"
        );
        assert_eq!(
            props.content_type().as_ref().map(|s| s.as_str()),
            Some("application/json")
        );
        assert_eq!(*props.delivery_mode(), Some(2));
        assert_eq!(props.message_id().as_ref().map(|s| s.as_str()), Some(id));
        assert_eq!(props.kind().as_ref().map(|s| s.as_str()), Some(job_type));
        assert_eq!(*props.priority(), Some(0));
        assert!(props.expiration().is_none());
    }

    // The body that was never an envelope: forwarded verbatim, with only reason and origin.
    assert_eq!(others.len(), 1, "one malformed body");
    let (body, props) = &others[0];
    assert_eq!(body.as_slice(), MALFORMED_BODY);
    assert_eq!(
        headers(props),
        show(&table(vec![
            ("x-death-reason", long_str(MALFORMED_REASON)),
            ("x-original-queue", long_str(q)),
        ]))
    );
    assert_eq!(*props.delivery_mode(), Some(2));
    assert!(props.message_id().is_none());
    assert!(props.content_type().is_none());

    // The deferred job waits in the live hold queue of ten minutes, at the top priority, its
    // attempt untouched.
    let hold = app.hold(DEFER_HOLD_MS);
    let held = broker.snapshot(&hold);
    assert_eq!(held.len(), 1, "one job waits in {hold}");
    let (body, props) = &held[0];
    let env = Envelope::from_bytes(body).expect("the held job is an envelope");
    assert_eq!(env.job_id.to_string(), ids.deferred);
    assert_eq!(env.job_type, LATER);
    assert_eq!((env.attempt, env.deferrals, env.priority), (1, 1, 10));
    assert_eq!(
        headers(props),
        show(&table(vec![
            ("x-attempt", AMQPValue::LongUInt(1)),
            ("x-deferrals", AMQPValue::LongUInt(1)),
        ]))
    );
    assert!(
        props.expiration().is_none(),
        "the hold queue times the wait"
    );
    let live = broker.api_queue(&hold).expect("the hold queue exists");
    assert_eq!(live["arguments"]["x-message-ttl"], DEFER_HOLD_MS);
    assert_eq!(live["arguments"]["x-dead-letter-routing-key"], q);
    assert_eq!(live["arguments"]["x-expires"], 2 * DEFER_HOLD_MS);
}

/// What the worker of [`App::make_dead_letters`] did, as its log tells it: the same run the
/// self-test checks on the broker.
#[test]
fn the_application_worker_reports_every_cause() {
    let broker = Broker::connect();
    let app = App::<9>::new(&broker, "worker-log");
    app.declare();
    let exhausted = app.enqueue(&Flaky::<9> { fail_until: ALWAYS });
    let recovers = app.enqueue(&Flaky::<9> { fail_until: 1 });
    let worker = app.start(Mode::Normal);
    worker.until(
        "the always-failing job dead and the flaky one done",
        Duration::from_secs(30),
        |log| log.of(&exhausted).len() == 3 && log.of(&recovers).len() == 2,
    );
    // The worker logs an outcome as it settles the delivery; the broker counts the ack and the
    // dead letter a moment later (seen failing on a loaded machine when read at once). Read
    // while the worker still runs: a shutdown may close its connection before its last ack is
    // out, and the broker then gives that delivery back to q (seen once on 4.3.6).
    crate::common::eventually(
        "one dead letter in q.dead and none in q",
        Duration::from_secs(30),
        || (app.count(&app.dead) == Some(1) && app.count(app.q) == Some(0)).then_some(()),
    );
    let log = worker.stop();
    assert_eq!(
        log.of(&exhausted),
        (1..=3)
            .map(|a| handled(&exhausted, FLAKY, a, Outcome::Retryable))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        log.of(&recovers),
        vec![
            handled(&recovers, FLAKY, 1, Outcome::Retryable),
            handled(&recovers, FLAKY, 2, Outcome::Succeeded),
        ]
    );
    for gap in log.gaps(&exhausted).into_iter().chain(log.gaps(&recovers)) {
        assert!(gap >= BACKOFF, "a retry came back after {gap:?}");
    }
    assert_eq!(
        log.died(),
        vec![Died {
            job_id: exhausted.clone(),
            job_type: FLAKY.to_owned(),
            cause: DeadLetterCause::Exhausted,
            reason: exhausted_reason(3, &flaky_error(3)),
            attempt: 3,
            max_attempts: Some(MAX_ATTEMPTS),
        }]
    );
}

// ---- the topology: the library and queuey agree -------------------------------------------------

#[test]
fn verify_is_in_sync_with_what_the_library_declares() {
    let broker = Broker::connect();
    let app = App::<0>::new(&broker, "lib-first");
    app.declare();
    assert_eq!(app.count(app.q), Some(0));
    assert_eq!(app.count(&app.dead), Some(0));

    // No flags: queuey's defaults are the library's defaults.
    run(&["verify", app.q]).expect_code(0);
}

#[test]
fn the_library_accepts_what_declare_created() {
    let broker = Broker::connect();
    let app = App::<1>::new(&broker, "cli-first");
    run(&["declare", app.q]).expect_code(0);
    assert_eq!(app.count(app.q), Some(0), "declare created q");
    assert_eq!(app.count(&app.dead), Some(0), "declare created q.dead");

    // Producer::new redeclares q and q.dead with the library's arguments: the broker refuses
    // (PRECONDITION_FAILED) unless they are equivalent to what queuey created.
    if let Err(e) = app.try_declare() {
        panic!("the library cannot declare over what `queuey declare` created: {e}");
    }
    app.enqueue(&Flaky::<1> { fail_until: 0 });
    broker.wait_for_count(app.q, 1);
    run(&["verify", app.q]).expect_code(0);
}

// ---- verify and holds ls on the live application ------------------------------------------------

#[test]
fn verify_and_holds_ls_see_the_live_application() {
    let broker = Broker::connect();
    let app = App::<3>::new(&broker, "holds");
    let _ids = app.make_dead_letters();
    let hold = app.hold(DEFER_HOLD_MS);

    // The management API reports a new queue's counts a few seconds late (`null` until then,
    // and so is a total over a hold queue not yet reported), and an emptied queue's a few
    // seconds late too: the retry hold queue the last retries went through may still be
    // listed with the message it no longer holds (seen on 4.3.6: a total of 2).
    let doc = eventually(
        &format!("holds ls to report one message in {hold}, none elsewhere, and every count"),
        Duration::from_secs(30),
        || {
            let doc = run(&["holds", "ls", app.q, "-o", "json"]).report();
            let waiting = doc["hold_queues"]
                .as_array()
                .expect("hold_queues")
                .iter()
                .any(|h| h["name"] == hold.as_str() && h["messages"] == 1)
                && doc["totals"]["messages"] == 1
                && doc["totals"]["consumers"].is_u64();
            waiting.then_some(doc)
        },
    );
    assert_eq!(doc["queue"], app.q);
    assert_eq!(doc["bad_names"], json!([]));
    let holds = doc["hold_queues"].as_array().unwrap();
    for h in holds {
        // The retry hold queue (idle, x-expires 2 s) may or may not still be there.
        let name = h["name"].as_str().unwrap();
        assert!(
            name == hold || name == app.hold(RETRY_HOLD_MS),
            "an unexpected hold queue: {h}"
        );
        assert_eq!(h["arguments_ok"], true, "{h}");
        assert_eq!(h["differences"], json!([]), "{h}");
        assert_eq!(h["consumers"], 0, "{h}");
    }
    let long = holds.iter().find(|h| h["name"] == hold.as_str()).unwrap();
    assert_eq!(long["ttl_ms"], DEFER_HOLD_MS);
    assert_eq!(long["messages"], 1);
    assert_eq!(doc["totals"]["messages"], 1);

    // And the whole live topology, hold queues included, is what queuey computes.
    run(&["verify", app.q]).expect_code(0);
}

// ---- dead ls: the cause of every real dead letter -----------------------------------------------

/// The fields of a `dead ls` record that speak of the library.
fn project(record: &Json) -> Json {
    let mut out = serde_json::Map::new();
    for key in [
        "reason",
        "cause",
        "attempts",
        "original_queue",
        "job_type",
        "job_id",
        "message_id",
    ] {
        // A missing field shows as such in the comparison, beside every other difference.
        let value = record
            .get(key)
            .cloned()
            .unwrap_or_else(|| json!("<absent>"));
        out.insert(key.to_owned(), value);
    }
    Json::Object(out)
}

/// What `dead ls` must say about each dead letter of [`App::make_dead_letters`], by job id
/// (`malformed` for the body that is not an envelope).
fn expected_records(q: &str, ids: &DeadSet) -> BTreeMap<String, Json> {
    let record = |id: &str, cause: &str, reason: String, attempts: u32, job_type: &str| {
        (
            id.to_owned(),
            json!({
                "reason": reason,
                "cause": cause,
                "attempts": attempts,
                "original_queue": q,
                "job_type": job_type,
                "job_id": id,
                "message_id": id,
            }),
        )
    };
    BTreeMap::from([
        record(
            &ids.exhausted,
            "exhausted",
            exhausted_reason(3, &flaky_error(3)),
            3,
            FLAKY,
        ),
        record(&ids.fatal, "fatal", fatal_reason(), 1, DOOMED),
        record(
            &ids.no_handler,
            "no-handler",
            no_handler_reason(),
            1,
            ORPHAN,
        ),
        record(&ids.decode, "decode", decode_reason(), 1, STRICT),
        (
            "malformed".to_owned(),
            json!({
                "reason": MALFORMED_REASON,
                "cause": "malformed",
                "attempts": null,
                "original_queue": q,
                "job_type": null,
                "job_id": null,
                "message_id": null,
            }),
        ),
    ])
}

#[test]
fn dead_ls_names_the_cause_of_every_real_dead_letter() {
    let broker = Broker::connect();
    let app = App::<4>::new(&broker, "dead-ls");
    let ids = app.make_dead_letters();
    let before = broker.bodies(&app.dead);

    let doc = run(&["dead", "ls", app.q, "-o", "json", "--limit", "0"]).report();
    let messages = doc["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), DEAD_LETTERS as usize, "{doc}");
    let mut seen = BTreeMap::new();
    for m in messages {
        let key = m["job_id"].as_str().unwrap_or("malformed").to_owned();
        assert_eq!(m["problems"], json!([]), "{m}");
        assert!(seen.insert(key, project(m)).is_none(), "twice: {m}");
    }
    assert_eq!(seen, expected_records(app.q, &ids));

    // A peek: the same messages in the same order.
    assert_eq!(broker.bodies(&app.dead), before);
}

#[test]
fn dead_ls_groups_real_dead_letters_by_cause() {
    let broker = Broker::connect();
    let app = App::<5>::new(&broker, "group");
    app.make_dead_letters();

    let doc = run(&["dead", "ls", app.q, "--group-by", "cause", "-o", "json"]).report();
    let mut causes = BTreeMap::new();
    for g in doc["groups"].as_array().expect("groups") {
        let cause = g["key"]["cause"]
            .as_str()
            .unwrap_or_else(|| panic!("a group without a cause key: {g}"))
            .to_owned();
        let count = g["count"].as_u64().expect("count");
        assert!(causes.insert(cause, count).is_none(), "twice: {g}");
    }
    assert_eq!(
        causes,
        BTreeMap::from(
            ["decode", "exhausted", "fatal", "malformed", "no-handler"].map(|c| (c.to_owned(), 1))
        )
    );
    // The library writes no death time: the ages of its dead letters are since their job was
    // enqueued, marked `*` and said under the table (the malformed body has no age at all).
    let out = run(&["dead", "ls", app.q, "--group-by", "cause"]).expect_code(0);
    let table = stdout(&out);
    let exhausted = table
        .lines()
        .find(|l| l.contains(" exhausted "))
        .unwrap_or_else(|| panic!("an exhausted row: {table}"));
    assert!(exhausted.contains("s* "), "{exhausted}");
    assert!(
        stderr(&out).contains("age*: since the job was enqueued"),
        "{}",
        stderr(&out)
    );
}

// ---- replay, and the real worker after it -------------------------------------------------------

/// `dead replay` every cause, then the fixed application: each job is handled again from
/// attempt 1 of 3, retried once through the hold queue and done at attempt 2; the body that is
/// not an envelope goes back to q.dead, as the worker forwards it again.
///
/// The replay is not filtered: the application after the fix has a handler for `app.Orphan`
/// and reads `app.Strict` leniently (see `common::app`), which is the usual reason an operator
/// replays the no-handler and decode dead letters at all.
#[test]
fn replayed_jobs_start_again_at_attempt_one_on_the_real_worker() {
    let broker = Broker::connect();
    let app = App::<6>::new(&broker, "replay");
    let ids = app.make_dead_letters();

    let report = run(&["dead", "replay", app.q, "-o", "json"]).report();
    assert_eq!(report["moved"], DEAD_LETTERS, "{report}");
    assert_eq!(report["failed"], 0, "{report}");
    broker.wait_for_count(&app.dead, 0);
    broker.wait_for_count(app.q, DEAD_LETTERS);

    let jobs = [
        (&ids.exhausted, FLAKY),
        (&ids.fatal, DOOMED),
        (&ids.no_handler, ORPHAN),
        (&ids.decode, STRICT),
    ];
    let worker = app.start(Mode::FailOnceThenSucceed);
    worker.until(
        "every replayed job to succeed and the malformed body to be back in q.dead",
        Duration::from_secs(30),
        |log| {
            // Fail at once rather than at the deadline: nothing may die in this run.
            assert_eq!(log.died(), vec![], "a replayed job was given up on");
            jobs.iter().all(|(id, _)| log.of(id).len() == 2)
                && app.count(&app.dead) == Some(1)
                && app.count(app.q) == Some(0)
        },
    );
    let log = worker.stop();

    for (id, job_type) in jobs {
        assert_eq!(
            log.of(id),
            vec![
                handled(id, job_type, 1, Outcome::Retryable),
                handled(id, job_type, 2, Outcome::Succeeded),
            ],
            "{job_type}"
        );
        // Attempt 2 came back through the retry hold queue, after its TTL.
        let gaps = log.gaps(id);
        assert!(gaps[0] >= BACKOFF, "{job_type} retried after {gaps:?}");
    }
    assert_eq!(log.handled().len(), 2 * jobs.len(), "{:#?}", log.handled());
    assert_eq!(log.died(), vec![], "nothing was given up on");

    let (envelopes, others) = read_dead(&broker, &app.dead);
    assert!(envelopes.is_empty(), "{envelopes:?}");
    assert_eq!(others.len(), 1);
    assert_eq!(others[0].0.as_slice(), MALFORMED_BODY);
    assert_eq!(
        headers(&others[0].1),
        show(&table(vec![
            ("x-death-reason", long_str(MALFORMED_REASON)),
            ("x-original-queue", long_str(app.q)),
        ]))
    );
    assert_eq!(
        app.count(&app.hold(DEFER_HOLD_MS)),
        Some(1),
        "still waiting"
    );
}

/// `--keep-attempts`: the copy keeps the attempt it died on, so the worker sees attempt 3 of 3
/// and gives up at its first failure (it would have succeeded on a second handling).
#[test]
fn replay_keep_attempts_gives_the_worker_the_attempt_it_died_on() {
    let broker = Broker::connect();
    let app = App::<7>::new(&broker, "keep");
    app.declare();
    let id = app.enqueue(&Flaky::<7> { fail_until: ALWAYS });
    let worker = app.start(Mode::Normal);
    worker.until("the job to die", Duration::from_secs(30), |_| {
        app.count(&app.dead) == Some(1)
    });
    worker.stop();

    run(&["dead", "replay", app.q, "--keep-attempts"]).expect_code(0);
    broker.wait_for_count(&app.dead, 0);

    let worker = app.start(Mode::FailOnceThenSucceed);
    worker.until("the job to die again", Duration::from_secs(30), |log| {
        // Fail at once rather than at the deadline if the copy came back at another attempt.
        let attempts: Vec<u32> = log.handled().iter().map(|h| h.attempt).collect();
        assert!(attempts.iter().all(|&a| a == 3), "handled at {attempts:?}");
        !log.died().is_empty() && app.count(&app.dead) == Some(1)
    });
    let log = worker.stop();
    let error = "first handling in this run (attempt 3)";
    assert_eq!(
        log.handled(),
        vec![handled(&id, FLAKY, 3, Outcome::Retryable)]
    );
    assert_eq!(
        log.died(),
        vec![Died {
            job_id: id.clone(),
            job_type: FLAKY.to_owned(),
            cause: DeadLetterCause::Exhausted,
            reason: exhausted_reason(3, error),
            attempt: 3,
            max_attempts: Some(MAX_ATTEMPTS),
        }]
    );
    let (envelopes, _) = read_dead(&broker, &app.dead);
    let (env, props) = &envelopes[&id];
    assert_eq!(env.attempt, 3);
    assert_eq!(
        headers(props),
        library_dead_headers(app.q, &exhausted_reason(3, error), 3, 0)
    );
}

/// The body of a replayed copy, read from q before any worker consumes it: the library decodes
/// it as the dead letter's envelope with `attempt` back at 1 and nothing else changed, and the
/// `x-attempt` header says 1 as well.
#[test]
fn a_replayed_copy_is_the_same_envelope_at_attempt_one() {
    let broker = Broker::connect();
    let app = App::<8>::new(&broker, "copy");
    app.make_dead_letters();
    let (dead, malformed) = read_dead(&broker, &app.dead);
    assert_eq!(dead.len(), 4);
    assert_eq!(malformed.len(), 1);

    run(&["dead", "replay", app.q]).expect_code(0);
    broker.wait_for_count(app.q, DEAD_LETTERS);

    let mut copies = 0;
    let mut bodies = Vec::new();
    for (body, props) in broker.snapshot(app.q) {
        let Ok(env) = Envelope::from_bytes(&body) else {
            bodies.push(body);
            continue;
        };
        let id = env.job_id.to_string();
        let (was, dead_props) = dead
            .get(&id)
            .unwrap_or_else(|| panic!("a copy of no dead letter: {env:?}"));
        let mut want = was.clone();
        want.attempt = 1;
        assert_eq!(env, want, "the copy of {} ({id})", was.job_type);
        assert_eq!(
            headers(&props).get("x-attempt").map(String::as_str),
            Some("LongUInt(1)"),
            "{}: {:?}",
            was.job_type,
            headers(&props)
        );
        assert_eq!(props.message_id(), dead_props.message_id());
        assert_eq!(props.kind(), dead_props.kind());
        copies += 1;
    }
    assert_eq!(copies, 4);
    assert_eq!(bodies, vec![MALFORMED_BODY.to_vec()]);
}

// ---- a vhost whose default queue type is quorum -------------------------------------------------

/// A vhost whose default queue type is quorum (RabbitMQ's `default_queue_type`, the same rule on
/// 3.10.8 and 4.3.6): every queue declared without `x-queue-type` is a quorum queue there, as
/// the library declares `q.dead`, its hold queues and `q`, and a quorum queue refuses
/// `x-max-priority`, so the library's default `q` (10 priorities) cannot be declared at all. queuey
/// computes those queues as quorum queues, finds them in sync, and names the one real problem:
/// the refused priorities, whose way out is priorities off, never a queue deleted. (4.x lists
/// `x-queue-type` among the arguments of every queue: read as the type, never as drift.)
#[test]
fn in_a_quorum_default_vhost_only_the_refused_priorities_are_not_in_sync() {
    let admin = Broker::connect();
    let vhost = crate::common::unique("quorum-default");
    admin.create_vhost_with_default_type(&vhost, "quorum");
    let test: lapin::uri::AMQPUri = crate::common::test_url().parse().unwrap();
    let (name, password) = (
        test.authority.userinfo.username.clone(),
        test.authority.userinfo.password.clone(),
    );
    admin.grant(&name, &vhost);
    let url = crate::common::url_for(&vhost, &name, &password);
    let broker = Broker::connect_to(&url);
    let app = App::<10>::new(&broker, "qdefault");
    let run_in = |args: &[&str]| -> crate::common::Run {
        Queuey::new().env("QUEUEY_URL", &url).args(args).run()
    };

    // The library's own declaration is refused by the broker, and declares nothing.
    let err = app
        .try_declare()
        .expect_err("a quorum q with x-max-priority");
    assert!(err.to_string().contains("x-max-priority"), "{err}");
    assert_eq!(app.count(app.q), None);
    assert_eq!(app.count(&app.dead), None);

    // verify names the refusal and its way out; the notes say why the queues are quorum.
    let out = run_in(&["verify", app.q, "-o", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    let l = &doc["logical_queues"][0];
    assert_eq!(l["status"], "refused", "{doc}");
    let (work, dead) = (&l["queues"][0], &l["queues"][1]);
    assert_eq!(
        (&work["queue_type"], &dead["queue_type"]),
        (&"quorum".into(), &"quorum".into())
    );
    assert_eq!(work["status"], "refused");
    assert_eq!(work["differences"][0]["field"], "x-max-priority");
    assert_eq!(work["differences"][0]["kind"], "refused");
    assert_eq!(dead["status"], "create");
    let remedies = l["remedies"].to_string();
    assert!(remedies.contains("--max-priority 0"), "{remedies}");
    assert!(!remedies.contains("delete"), "{remedies}");
    assert!(doc["notes"].to_string().contains("is quorum"), "{doc}");

    // declare changes nothing, and says so.
    let out = run_in(&["declare", app.q]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("--max-priority 0") && !err.contains("delete_queue"),
        "{err}"
    );
    assert_eq!(
        app.count(&app.dead),
        None,
        "nothing created beside a refusal"
    );

    // With priorities off, as the application must run: created, both quorum.
    let out = run_in(&["declare", app.q, "--max-priority", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for q in [app.q, app.dead.as_str()] {
        let live = broker.api_queue(q).expect("created");
        assert_eq!(live["type"], "quorum", "{q}: {live}");
    }
    // A hold queue as the library declares it (no x-queue-type): quorum there too.
    let hold = app.hold(DEFER_HOLD_MS);
    broker.declare(
        &hold,
        table(vec![
            (
                "x-message-ttl",
                lapin::types::AMQPValue::LongLongInt(DEFER_HOLD_MS.into()),
            ),
            ("x-dead-letter-exchange", long_str("")),
            ("x-dead-letter-routing-key", long_str(app.q)),
            (
                "x-expires",
                lapin::types::AMQPValue::LongLongInt(2 * i64::from(DEFER_HOLD_MS)),
            ),
        ]),
    );
    assert_eq!(
        broker.api_queue(&hold).expect("the hold queue")["type"],
        "quorum"
    );

    // The library's default q is still refused, and that is all that differs: q.dead and the
    // hold queue are in sync.
    let out = run_in(&["verify", app.q, "-o", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let doc = json(&out);
    let l = &doc["logical_queues"][0];
    assert_eq!(l["status"], "refused");
    let (work, dead) = (&l["queues"][0], &l["queues"][1]);
    assert_eq!(work["status"], "refused");
    let fields: Vec<&str> = work["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["x-max-priority"], "{work}");
    assert_eq!(dead["status"], "in_sync", "{dead}");
    let holds = &l["hold_queues"]["queues"];
    assert_eq!(holds[0]["status"], "in_sync", "{holds}");
    assert_eq!(holds[0]["queue_type"], "quorum");

    // With the application's settings (priorities off): in sync, every queue named quorum.
    let out = run_in(&["verify", app.q, "--max-priority", "0"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    for role in [
        "work queue (quorum)",
        "dead-letter queue (quorum)",
        "hold queue (10m, quorum)",
    ] {
        assert!(text.contains(role), "{role}: {text}");
    }
    let out = run_in(&["status", app.q, "--max-priority", "0", "-o", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = json(&out);
    let l = &doc["logical_queues"][0];
    assert_eq!(
        (&l["work"]["type"], &l["dead"]["type"]),
        (&"quorum".into(), &"quorum".into())
    );
    assert_eq!(l["hold_queues"]["types"], serde_json::json!(["quorum"]));
    assert_eq!(l["drift"], false);
    let out = run_in(&["status", app.q, "--max-priority", "0"]);
    let text = stdout(&out);
    assert!(
        text.contains("consumers (quorum)") && text.contains("hold queue (quorum)"),
        "{text}"
    );
    let out = run_in(&["holds", "ls", app.q]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("| quorum "), "{}", stdout(&out));
    // Without the management API neither a queue's type nor the vhost's default can be read:
    // `status` names no type rather than the classic it would compute.
    let out = run_in(&[
        "status",
        app.q,
        "--max-priority",
        "0",
        "--api-url",
        "http://127.0.0.1:1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("0 messages ready, 0 consumers") && !text.contains("(classic)"),
        "{text}"
    );
    // Nor `verify`: the queues are quorum, and it says it did not read their type.
    let out = run_in(&[
        "verify",
        app.q,
        "--max-priority",
        "0",
        "--api-url",
        "http://127.0.0.1:1",
    ]);
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("work queue (type not read without the management API)")
            && text.contains("dead-letter queue (type not read without the management API)")
            && !text.contains("classic"),
        "{text}"
    );

    // Without the management API, the refusal comes from the broker itself, in its words: the
    // same answer, and nothing created beside it.
    let fresh = App::<11>::new(&broker, "qdefault-amqp");
    let out = run_in(&["declare", fresh.q, "--api-url", "http://127.0.0.1:1"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("--max-priority 0"), "{err}");
    assert_eq!(fresh.count(fresh.q), None);
    assert_eq!(
        fresh.count(&fresh.dead),
        None,
        "nothing created beside the refusal"
    );
    // A missing q would be quorum here, of the vhost's default type: without the API, `status`
    // and `verify` do not call it classic.
    let out = run_in(&["status", fresh.q, "--api-url", "http://127.0.0.1:1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("missing: `") && !text.contains("classic"),
        "{text}"
    );
    let out = run_in(&["verify", fresh.q, "--api-url", "http://127.0.0.1:1"]);
    let text = stdout(&out);
    assert!(
        text.contains("work queue (type not read without the management API)")
            && !text.contains("classic"),
        "{text}"
    );
}
