//! A small application on the real `queuey` library (1.1.0), one per test, on a queue of its
//! own: the producer of real dead letters, real hold queues and real replays for the live tests.
//!
//! # One queue name per test, with `const` job metadata
//!
//! `Job::QUEUE` and `Job::NAME` are associated consts and `QueueSet::name` returns
//! `&'static str`, while every test needs its own queue (`Broker::queue_name`, unique per run)
//! and tests of one binary run in parallel threads. The application is therefore generic over a
//! *slot*, a `const S: usize`: [`AppQueues<S>`] and every job type (`Flaky<S>`, `Doomed<S>`, ...)
//! carry it, so `Flaky<3>::QUEUE` is `AppQueues::<3>::Work`, whose name is read from slot 3 of a
//! process-wide table of [`OnceLock`]s. [`App::new`] binds the slot once to a leaked unique
//! name; binding a slot twice in one process panics, so two tests that picked the same slot fail
//! loudly instead of sharing a queue. Each test picks its own slot number (see the list in
//! `tests/live/main.rs`). This keeps the tests parallel, with no global lock and no name that
//! changes under a running worker; the price is a slot number per test, checked at run time.
//!
//! # The application
//!
//! One queue `q` ([`QueueConfig::new`]: durable, 10 priority levels, prefetch 16) with
//! [`RetryPolicy::fixed`]`(3, 1s)`: a retry waits one second in the real hold queue
//! `q.deferred.1000`. Job types, and what [`Mode::Normal`] does with them:
//!
//! | job type      | payload                   | handler (normal mode)                            | dead-letter cause |
//! |---------------|---------------------------|--------------------------------------------------|-------------------|
//! | `app.Flaky`   | `{"fail_until": n}`       | retryable failure while `attempt <= n`           | exhausted (n ≥ 3) |
//! | `app.Doomed`  | `{"why": ".."}`           | `JobError::fatal_msg(why)`                       | fatal             |
//! | `app.Orphan`  | `{"n": n}`                | none registered                                  | no handler        |
//! | `app.Strict`  | `{"n": n}` (required)     | succeeds; fed `{"wrong": "shape"}` it never runs | decode            |
//! | `app.Later`   | `{"n": n}`                | defers itself by 10 minutes (`q.deferred.600000`) | -                |
//!
//! plus a body that is not an envelope at all (`not json`), published straight to `q`, which the
//! real consumer forwards to `q.dead` as `malformed envelope`.
//!
//! [`Mode::FailOnceThenSucceed`] is the application after the fix an operator replays for:
//! every job fails retryably on its first handling in that run and succeeds on the next, and it
//! has handlers for every type it was sent: `app.Orphan` gets one, and `app.Strict` is handled
//! by [`Lenient`], a job type with the same name that takes any payload, so the
//! `{"wrong": "shape"}` job decodes this time. So every replayed job of every cause must come
//! back as attempt 1 of 3, go through the hold queue once, and succeed as attempt 2.
//!
//! Every handled delivery is recorded in a [`Log`] (job id, type, `ctx.attempt`,
//! `ctx.max_attempts`, outcome), and every job the worker gives up on through its
//! `on_dead_letter` hook (cause and reason as the worker decided them).
#![allow(dead_code)]

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use queuey_core::{
    DeadLetter, DeadLetterCause, Envelope, FnDeadLetterHook, Job, JobContext, JobError, JobHandler,
    Producer, QueueConfig, QueueSet, RetryPolicy, Worker, WorkerHandle, async_trait,
};
use queuey_rabbitmq::topology::{
    DEFAULT_DEAD_SUFFIX, DEFAULT_DEFERRED_SUFFIX, dead_queue_name, deferred_queue_name,
};
use queuey_rabbitmq::{RabbitMqBackend, RabbitMqOptions};
use serde::{Deserialize, Serialize};

use super::Broker;

/// How many slots (parallel applications) one test binary may use.
pub const SLOTS: usize = 24;

static NAMES: [OnceLock<&'static str>; SLOTS] = [const { OnceLock::new() }; SLOTS];

/// The retry policy of the application's queue: three attempts, one second apart.
pub const MAX_ATTEMPTS: u32 = 3;
pub const BACKOFF: Duration = Duration::from_secs(1);
/// The retry hold queue's TTL, from [`BACKOFF`].
pub const RETRY_HOLD_MS: u32 = 1_000;
/// How long `app.Later` defers itself, and its hold queue's TTL.
pub const DEFER: Duration = Duration::from_secs(600);
pub const DEFER_HOLD_MS: u32 = 600_000;

/// `Flaky::fail_until` for a job that never succeeds.
pub const ALWAYS: u32 = u32::MAX;
/// The body published to `q` that is not an envelope.
pub const MALFORMED_BODY: &[u8] = b"not json";
/// What `app.Doomed` says when it fails.
pub const FATAL_WHY: &str = "the card was declined";
/// The payload of the decode-error job: not the shape `app.Strict` wants.
pub fn wrong_shape() -> serde_json::Value {
    serde_json::json!({"wrong": "shape"})
}

/// The retryable error `app.Flaky` returns on `attempt`.
pub fn flaky_error(attempt: u32) -> String {
    format!("flaky: attempt {attempt} failed")
}

/// The queue set of slot `S`: one queue, named when the slot is bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppQueues<const S: usize> {
    Work,
}

impl<const S: usize> AppQueues<S> {
    const ALL: &'static [Self] = &[AppQueues::Work];
}

impl<const S: usize> QueueSet for AppQueues<S> {
    fn all() -> &'static [Self] {
        Self::ALL
    }

    fn name(&self) -> &'static str {
        NAMES[S]
            .get()
            .unwrap_or_else(|| panic!("app slot {S} is not bound: make an App::<{S}> first"))
    }

    fn config(&self) -> QueueConfig {
        QueueConfig::new(self.name()).retry(RetryPolicy::fixed(MAX_ATTEMPTS, BACKOFF))
    }
}

macro_rules! job {
    ($(#[$m:meta])* $ty:ident, $name:literal, { $($field:ident: $fty:ty),* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub struct $ty<const S: usize> {
            $(pub $field: $fty),*
        }

        impl<const S: usize> Job for $ty<S> {
            type Queue = AppQueues<S>;
            const NAME: &'static str = $name;
            const QUEUE: AppQueues<S> = AppQueues::Work;
        }
    };
}

job!(
    /// Fails retryably while `attempt <= fail_until` ([`ALWAYS`]: every time).
    Flaky, "app.Flaky", { fail_until: u32 }
);
job!(
    /// Fails fatally, saying `why`.
    Doomed, "app.Doomed", { why: String }
);
job!(
    /// No handler in [`Mode::Normal`].
    Orphan, "app.Orphan", { n: u32 }
);
job!(
    /// Requires `n`: `{"wrong": "shape"}` does not decode.
    Strict, "app.Strict", { n: u64 }
);
job!(
    /// Defers itself by [`DEFER`].
    Later, "app.Later", { n: u32 }
);

/// `app.Strict` as the fixed application reads it: any payload at all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Lenient<const S: usize>(pub serde_json::Value);

impl<const S: usize> Job for Lenient<S> {
    type Queue = AppQueues<S>;
    const NAME: &'static str = <Strict<S> as Job>::NAME;
    const QUEUE: AppQueues<S> = AppQueues::Work;
}

/// What the handlers do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The behaviours in the table of the module docs; no handler for `app.Orphan`.
    Normal,
    /// Every job fails retryably on its first handling in this run and succeeds on the next;
    /// a handler for every job type (`app.Strict` decoded as [`Lenient`]).
    FailOnceThenSucceed,
}

/// What a handler returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Succeeded,
    Retryable,
    Fatal,
    Deferred,
}

/// One handled delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handled {
    pub job_id: String,
    pub job_type: &'static str,
    pub attempt: u32,
    pub max_attempts: u32,
    pub outcome: Outcome,
}

/// One job the worker gave up on, as its `on_dead_letter` hook saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Died {
    pub job_id: String,
    pub job_type: String,
    pub cause: DeadLetterCause,
    pub reason: String,
    pub attempt: u32,
    pub max_attempts: Option<u32>,
}

#[derive(Debug, Default)]
struct LogInner {
    handled: Vec<Handled>,
    /// When each of `handled` finished.
    at: Vec<std::time::Instant>,
    died: Vec<Died>,
}

/// What one worker run did, readable while it runs.
#[derive(Debug, Clone, Default)]
pub struct Log(Arc<Mutex<LogInner>>);

impl Log {
    fn lock(&self) -> std::sync::MutexGuard<'_, LogInner> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Every handled delivery, in the order the handlers finished.
    pub fn handled(&self) -> Vec<Handled> {
        self.lock().handled.clone()
    }

    /// The handled deliveries of one job, in order.
    pub fn of(&self, job_id: &str) -> Vec<Handled> {
        self.lock()
            .handled
            .iter()
            .filter(|h| h.job_id == job_id)
            .cloned()
            .collect()
    }

    /// The time between one job's consecutive handlings (a retry waits in the hold queue
    /// `q.deferred.1000`, so never less than [`BACKOFF`]).
    pub fn gaps(&self, job_id: &str) -> Vec<Duration> {
        let inner = self.lock();
        let times: Vec<_> = inner
            .handled
            .iter()
            .zip(&inner.at)
            .filter(|(h, _)| h.job_id == job_id)
            .map(|(_, at)| *at)
            .collect();
        times.windows(2).map(|w| w[1] - w[0]).collect()
    }

    /// Every job given up on, in order.
    pub fn died(&self) -> Vec<Died> {
        self.lock().died.clone()
    }

    fn seen(&self, job_id: &str) -> bool {
        self.lock().handled.iter().any(|h| h.job_id == job_id)
    }

    fn record(&self, ctx: &JobContext, result: &Result<(), JobError>) {
        let outcome = match result {
            Ok(()) => Outcome::Succeeded,
            Err(JobError::Retryable(_)) => Outcome::Retryable,
            Err(JobError::Fatal(_)) => Outcome::Fatal,
            Err(JobError::Deferred { .. }) => Outcome::Deferred,
            Err(other) => panic!("a job error this application never returns: {other}"),
        };
        let mut inner = self.lock();
        inner.handled.push(Handled {
            job_id: ctx.job_id.to_string(),
            job_type: ctx.job_type,
            attempt: ctx.attempt,
            max_attempts: ctx.max_attempts,
            outcome,
        });
        inner.at.push(std::time::Instant::now());
    }
}

/// The one handler type: `normal` in [`Mode::Normal`], fail-once-then-succeed otherwise;
/// records every call.
struct AppHandler<J> {
    log: Log,
    mode: Mode,
    normal: fn(&J, &JobContext) -> Result<(), JobError>,
}

#[async_trait]
impl<J: Job> JobHandler for AppHandler<J> {
    type Job = J;

    async fn handle(&self, job: J, ctx: JobContext) -> Result<(), JobError> {
        let result = match self.mode {
            Mode::Normal => (self.normal)(&job, &ctx),
            Mode::FailOnceThenSucceed => {
                if self.log.seen(&ctx.job_id.to_string()) {
                    Ok(())
                } else {
                    Err(JobError::retryable_msg(format!(
                        "first handling in this run (attempt {})",
                        ctx.attempt
                    )))
                }
            }
        };
        self.log.record(&ctx, &result);
        result
    }
}

/// The ids of the dead letters [`App::make_dead_letters`] made, by cause, and of the deferred
/// job waiting in `q.deferred.600000`.
#[derive(Debug, Clone)]
pub struct DeadSet {
    pub exhausted: String,
    pub fatal: String,
    pub no_handler: String,
    pub decode: String,
    pub deferred: String,
}

/// How many dead letters [`App::make_dead_letters`] leaves in `q.dead` (the four causes with an
/// envelope, and the malformed body).
pub const DEAD_LETTERS: u32 = 5;

/// The application of slot `S` on one unique queue of `broker`.
pub struct App<'b, const S: usize> {
    pub broker: &'b Broker,
    /// The logical queue `q`.
    pub q: &'static str,
    /// `q.dead`.
    pub dead: String,
    backend: Arc<RabbitMqBackend>,
}

impl<'b, const S: usize> App<'b, S> {
    /// Binds slot `S` to a new unique queue name (`label` in it) and connects the producer's
    /// backend. Declares nothing: [`App::declare`] does, as `Producer::new` would in the
    /// application. Every queue the application may create (`q`, `q.dead`, both hold queues)
    /// is deleted when `broker` drops.
    pub fn new(broker: &'b Broker, label: &str) -> Self {
        let name: &'static str = Box::leak(broker.queue_name(label).into_boxed_str());
        if let Err(name) = NAMES[S].set(name) {
            panic!(
                "app slot {S} is already bound (to {:?}): give this test a slot of its own",
                NAMES[S].get().copied().unwrap_or(name)
            );
        }
        let dead = dead_queue_name(name, DEFAULT_DEAD_SUFFIX);
        broker.track_queue(&dead);
        for ttl in [RETRY_HOLD_MS, DEFER_HOLD_MS] {
            broker.track_queue(&deferred_queue_name(name, DEFAULT_DEFERRED_SUFFIX, ttl));
        }
        let backend = Arc::new(connect(broker, &format!("queuey test app {name}")));
        App {
            broker,
            q: name,
            dead,
            backend,
        }
    }

    /// The hold queue `q.deferred.{ttl_ms}`, named by the library.
    pub fn hold(&self, ttl_ms: u32) -> String {
        deferred_queue_name(self.q, DEFAULT_DEFERRED_SUFFIX, ttl_ms)
    }

    /// `Producer::new`: declares `q` and `q.dead` as the library does.
    pub fn try_declare(&self) -> queuey_core::Result<()> {
        self.broker
            .rt
            .block_on(Producer::<AppQueues<S>, _>::new(self.backend.clone()))
            .map(|_| ())
    }

    pub fn declare(&self) {
        self.try_declare()
            .unwrap_or_else(|e| panic!("the library declaring {}: {e}", self.q));
    }

    /// Enqueues `job` now (the queue must exist); returns its job id.
    pub fn enqueue<J: Job<Queue = AppQueues<S>>>(&self, job: &J) -> String {
        let producer = Producer::<AppQueues<S>, _>::new_undeclared(self.backend.clone());
        self.broker
            .rt
            .block_on(producer.enqueue(job))
            .unwrap_or_else(|e| panic!("enqueueing {} on {}: {e}", J::NAME, self.q))
            .to_string()
    }

    /// Publishes `envelope` through the library's backend (its properties and headers).
    pub fn publish_envelope(&self, envelope: &Envelope) {
        use queuey_core::Backend as _;
        self.broker
            .rt
            .block_on(self.backend.publish(envelope, None))
            .unwrap_or_else(|e| panic!("publishing an envelope to {}: {e}", self.q));
    }

    /// Publishes `body` straight to `q` with plain AMQP: not through the library.
    pub fn publish_raw(&self, body: &[u8]) {
        self.broker.publish(self.q, &[body], None);
    }

    /// Ready messages in `queue` (None when it does not exist).
    pub fn count(&self, queue: &str) -> Option<u32> {
        self.broker.message_count(queue)
    }

    /// Starts a worker on a connection of its own, handlers as `mode` says.
    pub fn start(&self, mode: Mode) -> Running<'b> {
        let log = Log::default();
        let backend = Arc::new(connect(
            self.broker,
            &format!("queuey test worker {}", self.q),
        ));
        let hook_log = log.clone();
        let builder = Worker::<AppQueues<S>, _>::builder(backend)
            .close_backend_on_shutdown(true)
            .on_dead_letter(FnDeadLetterHook::new(move |dead: DeadLetter| {
                let log = hook_log.clone();
                async move {
                    log.lock().died.push(Died {
                        job_id: dead.envelope.job_id.to_string(),
                        job_type: dead.envelope.job_type.clone(),
                        cause: dead.cause,
                        reason: dead.reason.clone(),
                        attempt: dead.envelope.attempt,
                        max_attempts: dead.max_attempts,
                    });
                }
            }))
            .handler(AppHandler::<Flaky<S>> {
                log: log.clone(),
                mode,
                normal: |job, ctx| {
                    if ctx.attempt <= job.fail_until {
                        Err(JobError::retryable_msg(flaky_error(ctx.attempt)))
                    } else {
                        Ok(())
                    }
                },
            })
            .handler(AppHandler::<Doomed<S>> {
                log: log.clone(),
                mode,
                normal: |job, _| Err(JobError::fatal_msg(job.why.clone())),
            })
            .handler(AppHandler::<Later<S>> {
                log: log.clone(),
                mode,
                normal: |_, _| Err(JobError::deferred_msg(DEFER, "rate limited")),
            });
        let builder = match mode {
            Mode::Normal => builder.handler(AppHandler::<Strict<S>> {
                log: log.clone(),
                mode,
                normal: |_, _| Ok(()),
            }),
            Mode::FailOnceThenSucceed => builder
                .handler(AppHandler::<Lenient<S>> {
                    log: log.clone(),
                    mode,
                    normal: |_, _| Ok(()),
                })
                .handler(AppHandler::<Orphan<S>> {
                    log: log.clone(),
                    mode,
                    normal: |_, _| Ok(()),
                }),
        };
        let worker = self
            .broker
            .rt
            .block_on(builder.build())
            .unwrap_or_else(|e| panic!("building the worker of {}: {e}", self.q));
        let handle = worker.handle();
        let task = self.broker.rt.spawn(worker.run());
        Running {
            broker: self.broker,
            queue: self.q,
            handle,
            task: Some(task),
            log,
        }
    }

    /// Real dead letters of every cause, and one job deferred by ten minutes: declares the
    /// queue, enqueues, runs the worker until `q.dead` holds [`DEAD_LETTERS`] messages and
    /// `q.deferred.600000` one, stops it. Returns the job ids; `q` is left empty.
    pub fn make_dead_letters(&self) -> DeadSet {
        self.declare();
        let exhausted = self.enqueue(&Flaky::<S> { fail_until: ALWAYS });
        let fatal = self.enqueue(&Doomed::<S> {
            why: FATAL_WHY.to_owned(),
        });
        let no_handler = self.enqueue(&Orphan::<S> { n: 1 });
        let wrong = Envelope::raw(<Strict<S> as Job>::NAME, self.q, wrong_shape());
        let decode = wrong.job_id.to_string();
        self.publish_envelope(&wrong);
        self.publish_raw(MALFORMED_BODY);
        let deferred = self.enqueue(&Later::<S> { n: 1 });

        let worker = self.start(Mode::Normal);
        let hold = self.hold(DEFER_HOLD_MS);
        worker.until(
            &format!(
                "{DEAD_LETTERS} dead letters in {} and one job in {hold}",
                self.dead
            ),
            Duration::from_secs(30),
            |log| {
                log.of(&exhausted).len() == MAX_ATTEMPTS as usize
                    && self.count(&self.dead) == Some(DEAD_LETTERS)
                    && self.count(&hold) == Some(1)
            },
        );
        worker.stop();
        assert_eq!(self.count(self.q), Some(0), "{} is left empty", self.q);
        DeadSet {
            exhausted,
            fatal,
            no_handler,
            decode,
            deferred,
        }
    }
}

impl<const S: usize> Drop for App<'_, S> {
    fn drop(&mut self) {
        use queuey_core::Backend as _;
        let _ = self.broker.rt.block_on(async {
            tokio::time::timeout(Duration::from_secs(10), self.backend.close()).await
        });
    }
}

/// A library backend on the test broker, named `name` in the management UI, that does not
/// reconnect: a dropped connection ends a worker's run with an error instead of a silent wait.
fn connect(broker: &Broker, name: &str) -> RabbitMqBackend {
    let options = RabbitMqOptions::default()
        .connection_name(name)
        .reconnect(None);
    broker
        .rt
        .block_on(async {
            tokio::time::timeout(
                Duration::from_secs(10),
                RabbitMqBackend::with_options(&broker.url, options),
            )
            .await
        })
        .unwrap_or_else(|_| panic!("{name}: connecting timed out"))
        .unwrap_or_else(|e| panic!("{name}: connecting: {e}"))
}

/// A worker running on the broker harness's runtime. Shut down (and its connection closed)
/// by [`Running::stop`], or on drop when a test fails first.
pub struct Running<'b> {
    broker: &'b Broker,
    queue: &'static str,
    handle: WorkerHandle,
    task: Option<tokio::task::JoinHandle<queuey_core::Result<()>>>,
    pub log: Log,
}

impl Running<'_> {
    /// Polls `done` (given the log) until it holds; fails the test after `deadline`, or at once
    /// when the worker stopped on its own.
    pub fn until(&self, what: &str, deadline: Duration, mut done: impl FnMut(&Log) -> bool) {
        let start = std::time::Instant::now();
        let mut stopped = false;
        let held = super::poll(deadline, Duration::from_millis(100), || {
            if done(&self.log) {
                return true;
            }
            stopped = self.task.as_ref().is_some_and(|t| t.is_finished());
            stopped
        });
        if held && !stopped {
            return;
        }
        let why = if stopped {
            "the worker stopped on its own"
        } else {
            "timed out"
        };
        panic!(
            "{why} after {:?} waiting for the worker of {} ({what}); it handled {:#?} and \
             gave up on {:#?}",
            start.elapsed(),
            self.queue,
            self.log.handled(),
            self.log.died()
        );
    }

    /// Asks the worker to stop, waits (10 s at most) for it to finish what it holds and close
    /// its connection, and returns the log. A worker that ended with an error fails the test.
    pub fn stop(mut self) -> Log {
        self.shutdown().unwrap_or_else(|e| panic!("{e}"));
        self.log.clone()
    }

    fn shutdown(&mut self) -> Result<(), String> {
        let Some(task) = self.task.take() else {
            return Ok(());
        };
        self.handle.shutdown();
        let queue = self.queue;
        match self
            .broker
            .rt
            .block_on(async { tokio::time::timeout(Duration::from_secs(10), task).await })
        {
            Err(_) => Err(format!("the worker of {queue} did not stop within 10s")),
            Ok(Err(e)) => Err(format!("the worker task of {queue} failed: {e}")),
            Ok(Ok(Err(e))) => Err(format!("the worker of {queue} ended with an error: {e}")),
            Ok(Ok(Ok(()))) => Ok(()),
        }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        if let Err(e) = self.shutdown()
            && !std::thread::panicking()
        {
            panic!("{e}");
        }
    }
}
