//! The tests that break a broker, on private RabbitMQ nodes of the test broker's version
//! (`common::node`, `common::cluster`), one binary: the broker failing under a replay
//! (`faults`), a node of a three-node cluster killed (`cluster`), a quorum queue without its
//! majority (`majority`), TLS (`tls`). The shared test broker is never touched. A binary of its
//! own, so that its tests never run beside the `live` binary's; within it, each test takes the
//! machine-wide lock of the private nodes first (`Node::lock`), so that they run one at a time.

#[path = "../common/mod.rs"]
mod common;

mod cluster;
mod faults;
mod majority;
mod tls;
