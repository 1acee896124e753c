//! A small application on the real `queuey` library (1.1.0), to see queuey at work on the dead
//! letters such an application makes. Not part of queuey: it is what the README's tour runs.
//!
//!     cargo run --example demo_app                 # make dead letters on `shop.orders`
//!     cargo run --example demo_app -- work         # run the worker once the bug is fixed
//!
//! `make` declares `shop.orders` (and `shop.orders.dead`) as the library does, enqueues orders
//! and runs the worker until they settle: some exhaust their three attempts (1 s apart, through
//! the hold queue `shop.orders.deferred.1000`), one fails fatally, one has a job type no handler
//! takes, one body is not an envelope at all, and one job defers itself by ten minutes (it waits
//! in `shop.orders.deferred.600000`). `work` runs a worker in which the upstream works again:
//! every job succeeds at its first attempt, and it prints the attempt each job arrived on.
//!
//! Uses QUEUEY_URL (default: the local broker as guest).

use std::sync::Arc;
use std::time::Duration;

use lapin::options::BasicPublishOptions;
use lapin::{BasicProperties, Connection, ConnectionProperties};
use queuey::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Queues)]
#[queues(prefix = "shop")]
enum ShopQueues {
    #[queue(retry(max_attempts = 3, backoff = "fixed", delay = "1s"))]
    Orders,
}

/// Charges a card through an upstream that times out while it is down.
#[derive(Debug, Serialize, Deserialize, Job)]
#[job(name = "shop.ChargeCard", queue = ShopQueues::Orders)]
struct ChargeCard {
    order: u32,
    cents: u64,
}

/// Ships an order; the carrier refuses an unknown address for good.
#[derive(Debug, Serialize, Deserialize, Job)]
#[job(name = "shop.ShipOrder", queue = ShopQueues::Orders)]
struct ShipOrder {
    order: u32,
    address: String,
}

/// A job type this build of the worker no longer handles.
#[derive(Debug, Serialize, Deserialize, Job)]
#[job(name = "shop.SendFax", queue = ShopQueues::Orders)]
struct SendFax {
    order: u32,
}

/// Asks the carrier for a pickup slot; rate-limited, so it defers itself.
#[derive(Debug, Serialize, Deserialize, Job)]
#[job(name = "shop.BookPickup", queue = ShopQueues::Orders)]
struct BookPickup {
    order: u32,
}

struct Charge {
    upstream_up: bool,
}

#[async_trait]
impl JobHandler for Charge {
    type Job = ChargeCard;
    async fn handle(&self, job: ChargeCard, ctx: JobContext) -> Result<(), JobError> {
        println!(
            "charge order {} (attempt {} of {})",
            job.order, ctx.attempt, ctx.max_attempts
        );
        if self.upstream_up {
            Ok(())
        } else {
            Err(JobError::retryable_msg("payment gateway timed out"))
        }
    }
}

struct Ship;

#[async_trait]
impl JobHandler for Ship {
    type Job = ShipOrder;
    async fn handle(&self, job: ShipOrder, _: JobContext) -> Result<(), JobError> {
        Err(JobError::fatal_msg(format!(
            "carrier refused address {:?}",
            job.address
        )))
    }
}

struct Pickup;

#[async_trait]
impl JobHandler for Pickup {
    type Job = BookPickup;
    async fn handle(&self, _: BookPickup, _: JobContext) -> Result<(), JobError> {
        Err(JobError::deferred_msg(
            Duration::from_secs(600),
            "carrier API: 429, retry after 10 minutes",
        ))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::var("QUEUEY_URL")
        .unwrap_or_else(|_| "amqp://guest:guest@127.0.0.1:5672/%2f".to_owned());
    let work = std::env::args().nth(1).as_deref() == Some("work");
    let backend = Arc::new(RabbitMqBackend::connect(&url).await?);
    let producer = Producer::<ShopQueues, _>::new(backend.clone()).await?;
    let name = ShopQueues::Orders.name();
    let dead = format!("{name}.dead");
    let amqp = Connection::connect(&url, ConnectionProperties::default()).await?;
    let channel = amqp.create_channel().await?;
    let depth = |queue: String| {
        let channel = channel.clone();
        async move {
            channel
                .queue_declare(
                    queue.as_str().into(),
                    lapin::options::QueueDeclareOptions {
                        passive: true,
                        ..Default::default()
                    },
                    Default::default(),
                )
                .await
                .map(|q| q.message_count())
                .unwrap_or(0)
        }
    };

    let mut builder = Worker::<ShopQueues, _>::builder(backend.clone())
        .handler(Charge { upstream_up: work })
        .handler(Ship)
        .handler(Pickup);
    if !work {
        let before = depth(dead.clone()).await;
        for order in 1001..=1004 {
            producer.enqueue(&ChargeCard { order, cents: 1999 }).await?;
        }
        producer
            .enqueue(&ShipOrder {
                order: 1005,
                address: "Nowhere 0".into(),
            })
            .await?;
        producer.enqueue(&SendFax { order: 1006 }).await?;
        producer.enqueue(&BookPickup { order: 1007 }).await?;
        channel
            .basic_publish(
                "".into(),
                name.into(),
                BasicPublishOptions::default(),
                b"order=1008&sku=KB-87",
                BasicProperties::default().with_delivery_mode(2),
            )
            .await?
            .await?;
        let worker = builder.build().await?;
        let handle = worker.handle();
        let running = tokio::spawn(worker.run());
        // Four exhausted, one fatal, one without a handler, one malformed.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while depth(dead.clone()).await < before + 7 {
            if tokio::time::Instant::now() > deadline {
                return Err("the dead letters did not arrive within 60 s".into());
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        handle.shutdown();
        running.await??;
        println!("{} dead letters in {dead}", depth(dead.clone()).await);
    } else {
        builder = builder.close_backend_on_shutdown(true);
        let worker = builder.build().await?;
        let handle = worker.handle();
        let running = tokio::spawn(worker.run());
        // Until q has been empty for a second.
        let mut idle = 0;
        while idle < 5 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            idle = if depth(name.to_owned()).await == 0 {
                idle + 1
            } else {
                0
            };
        }
        handle.shutdown();
        running.await??;
    }
    Ok(())
}
