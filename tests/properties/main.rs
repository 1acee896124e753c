//! Property tests of the pure core (proptest), with the queuey library as the oracle where it
//! has one: a module per subject. No broker.
//!
//! A case that fails is saved beside its module's file (`envelope.rs` →
//! `envelope.proptest-regressions`) and run again first by every later run.

mod dead_letters;
mod envelope;
mod header_keys;
mod payload_filters;
mod plan;
mod sanitize;
mod simulation;
mod timestamps;
mod topology;
