//! `dead replay --after D`: the copies wait in the hold queue the library itself uses for D,
//! declared with its arguments, and a real worker on the queuey library gets the jobs after D
//! and not before.

use std::time::{Duration, Instant};

use crate::common::app::{App, Mode, Outcome};
use crate::common::{Broker, json, run, stderr};

#[test]
fn replay_after_5s_reaches_the_worker_after_the_delay_and_not_before() {
    let broker = Broker::connect();
    let app = App::<16>::new(&broker, "after");
    let ids = app.make_dead_letters();
    let q = app.q;
    let hold = app.hold(5_000);
    broker.track_queue(&hold);
    let worker = app.start(Mode::FailOnceThenSucceed);

    // The dry run's table names the hold queue as the target, and says that the queue it
    // returns to exists (the hold queue itself is declared by the run).
    let out = run(&[
        "dead",
        "replay",
        q,
        "--message-id",
        &ids.exhausted,
        "--after",
        "5s",
        "--dry-run",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let table = out.stdout.clone();
    assert!(
        table.contains("returns to an existing queue") && table.contains(hold.as_str()),
        "{table}"
    );

    // A run that copies nothing says nothing of copies waiting.
    let out = run(&[
        "dead",
        "replay",
        q,
        "--message-id",
        "no-such-id",
        "--after",
        "5s",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = out.stdout.clone();
    assert!(!said.contains("hold queues"), "{said}");

    let t0 = Instant::now();
    let out = run(&[
        "dead",
        "replay",
        q,
        "--message-id",
        &ids.exhausted,
        "--after",
        "5s",
        "-o",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["moved"], 1, "{report:#}");
    assert_eq!(report["after"]["ttl_ms"], 5000);
    assert_eq!(report["targets"][0]["queue"], hold.as_str());
    // The hold queue is the library's for 5 s, with exactly its arguments.
    let live = broker.api_queue(&hold).expect("the hold queue exists");
    assert_eq!(
        live["arguments"],
        broker.api_classic_arguments(serde_json::json!({
            "x-message-ttl": 5000,
            "x-dead-letter-exchange": "",
            "x-dead-letter-routing-key": q,
            "x-expires": 10000,
        }))
    );
    // Not before the delay...
    while t0.elapsed() < Duration::from_millis(4_500) {
        assert!(
            worker.log.of(&ids.exhausted).is_empty(),
            "the job reached the worker after {:?}, before its 5 s",
            t0.elapsed()
        );
        // That the job does not come early is seen only by watching until its time.
        std::thread::sleep(Duration::from_millis(50));
    }
    // ...and after it: at attempt 1 of 3 (its retries back), then through the retry hold queue
    // to success.
    worker.until(
        "the replayed job to succeed",
        Duration::from_secs(30),
        |log| {
            log.of(&ids.exhausted)
                .iter()
                .any(|h| h.outcome == Outcome::Succeeded)
        },
    );
    let seen = worker.log.of(&ids.exhausted);
    assert_eq!(seen[0].attempt, 1, "{seen:?}");
    assert!(
        t0.elapsed() >= Duration::from_secs(5),
        "handled after {:?}",
        t0.elapsed()
    );

    // --after 1s lands in the hold queue the library retries through (q.deferred.1000): the
    // worker's own declare of it, for the job's retry, accepts queuey's.
    let out = run(&[
        "dead",
        "replay",
        q,
        "--message-id",
        &ids.fatal,
        "--after",
        "1s",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    worker.until(
        "the second job to succeed after its retry",
        Duration::from_secs(30),
        |log| {
            log.of(&ids.fatal)
                .iter()
                .any(|h| h.outcome == Outcome::Succeeded && h.attempt == 2)
        },
    );
    let log = worker.stop();
    assert!(log.died().is_empty(), "{:?}", log.died());

    // A queue to return to that does not exist: nothing is copied, the dead letter stays.
    let before = broker.count(&app.dead);
    let out = run(&[
        "dead",
        "replay",
        q,
        "--message-id",
        &ids.no_handler,
        "--after",
        "5s",
        "--to",
        "qy-test-no-such-queue",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let said = out.stdout.as_str();
    assert!(said.contains("; 1 failed and stays where it was"), "{said}");
    let out = run(&[
        "dead",
        "replay",
        q,
        "--message-id",
        &ids.no_handler,
        "--after",
        "5s",
        "--to",
        "qy-test-no-such-queue",
        "-o",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let failure = json(&out)["targets"][0]["failure"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(failure.contains("does not exist"), "{failure}");
    assert_eq!(broker.count(&app.dead), before);
    // Past the longest delay: refused before anything.
    let out = run(&["dead", "replay", q, "--after", "25d"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("MAX_DEFERRAL_MS"), "{}", stderr(&out));
}
