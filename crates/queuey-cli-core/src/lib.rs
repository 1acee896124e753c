//! The pure core of queuey: what it computes and decides, with no broker client, no HTTP
//! client, no command-line parser and no async runtime (its manifest has none of them: a leak
//! is a compile error). The `queuey-cli` crate on top talks to RabbitMQ, parses the command
//! line, runs the commands and renders their reports; it re-exports these modules under the
//! same names (`queuey_cli::dead`, `queuey_cli::plan`, ...).
//!
//! - [`topology`], [`queue`]: the broker queues of a logical queue, as the library names and
//!   declares them; [`name_owner`]: which logical queue owns a name two of them could claim;
//! - [`plan`]: live arguments against computed ones, the diff and the remedies; [`counts`]:
//!   what the broker counts of a live queue, as plain data;
//! - [`dead`]: dead-letter decoding, the envelope, filters, the export format, the replay's
//!   copy and its journal's format;
//! - [`message_size`]: the broker's `max_message_size`, probed and parsed from its refusal;
//! - [`endpoint`], [`tls_pem`]: where the broker is and how to reach it (parsed, not connected);
//! - [`duration`], [`redact`], [`shell`], [`sanitize`], [`suggest`], [`error`]: durations,
//!   passwords masked, shell quoting, outside text escaped, "did you mean", errors and exit
//!   codes; [`words`]: nouns and verbs that agree with a count.

pub mod cluster;
pub mod counts;
pub mod dead;
pub mod duration;
pub mod endpoint;
pub mod error;
pub mod message_size;
pub mod name_owner;
pub mod plan;
pub mod queue;
pub mod redact;
pub mod sanitize;
pub mod shell;
pub mod suggest;
pub mod tls_pem;
pub mod topology;
pub mod user_id;
pub mod words;
