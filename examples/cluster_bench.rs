//! The replay bench on a private three-node cluster: `dead replay` of 100 000 persistent
//! messages against the management UI's "move messages" (a shovel), quorum queues led by node 1,
//! interleaved rounds (`examples/bench.rs replay`, `QUEUEY_BENCH_ROUNDS`). Figures in
//! docs/benchmarks.md.
//!
//!     cargo build --release --example bench --bin queuey
//!     cargo run --release --example cluster_bench
//!
//! The cluster is the node tests' (`tests/common/cluster.rs`, included here): three private
//! nodes of the test broker's RabbitMQ version (`QUEUEY_TEST_URL`, `QUEUEY_TEST_API_URL`) on
//! their fixed ports, taken under the same machine-wide lock, so it never runs beside
//! `cargo test --test nodes`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::process::{Command, ExitCode};

use common::cluster::Cluster;
use common::node::Node;

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bench = root.join("target/release/examples/bench");
    if !bench.exists() || !root.join("target/release/queuey").exists() {
        eprintln!(
            "cluster_bench runs the release builds of the bench and of queuey: build them first \
             with `cargo build --release --example bench --bin queuey`"
        );
        return ExitCode::FAILURE;
    }
    let _lock = Node::lock();
    let cluster = Cluster::start();
    for node in &cluster.nodes {
        node.plugins(&["enable", "rabbitmq_shovel"]);
    }
    // Enabled on every node above: the bench's own `rabbitmq-plugins` would reach another.
    let status = Command::new(&bench)
        .arg("replay")
        .current_dir(root)
        .env("QUEUEY_BENCH_URL", cluster.node(1).url())
        .env("QUEUEY_BENCH_API_URL", cluster.node(1).api_url())
        .env("QUEUEY_BENCH_QUEUE_TYPE", "quorum")
        .env("QUEUEY_BENCH_PLUGINS", "true")
        .status();
    match status {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => {
            eprintln!("the bench ({}) failed: {status}", bench.display());
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("the bench ({}) could not run: {e}", bench.display());
            ExitCode::FAILURE
        }
    }
}
