//! queuey against a real application on the real `queuey` library (`common::app`): the topology
//! the library declares, the dead letters its worker writes for every cause, and what its worker
//! does with what `dead replay` gives back.
//!
//! First the harness itself: the dead letters of every cause, exactly as the library writes
//! them.
//!
//! Each test has an application of its own, on a slot of its own (see `common::app`):
//!
//! | slot | test |
//! |------|------|
//! | 2 | `the_application_writes_real_dead_letters_with_the_library_headers` |
//! | 9 | `the_application_worker_reports_every_cause` |

mod common;

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use common::app::{
    ALWAYS, App, BACKOFF, DEAD_LETTERS, DEFER_HOLD_MS, Died, FATAL_WHY, Flaky, Handled,
    MALFORMED_BODY, MAX_ATTEMPTS, Mode, Outcome, flaky_error, wrong_shape,
};
use common::{Broker, long_str, table};
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

// ---- the harness itself: real dead letters, exactly as the library writes them ----------

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
    assert_eq!(app.count(&app.dead), Some(1));
    assert_eq!(app.count(app.q), Some(0));
}
