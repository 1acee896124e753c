//! The operator's tools beyond the look and the replay, on real dead letters of a real
//! application on the queuey 1.1.0 library (`common::app`): payload filters (`--where`,
//! `--body-contains`), `dead check` and `-o prometheus`,
//! `holds prune`, `dead replay --after`.
//!
//! One test binary, a module per subject. Each test binds its own application slot (the list
//! is below, so that no two tests share one).
//!
//! | slot | test |
//! |------|------|
//! | 0 | `payload::where_selects_by_payload_in_ls_replay_and_purge` |
//! | 1 | `alerting::dead_check_exits_1_on_each_crossed_threshold_and_0_otherwise` |
//! | 2 | `alerting::prometheus_output_parses_with_labels_escaped` |
//! | 3 | `prune::prune_keeps_what_waits_and_what_the_topology_file_lists` |
//! | 4 | `later::replay_after_5s_reaches_the_worker_after_the_delay_and_not_before` |

#[path = "../common/mod.rs"]
mod common;

mod alerting;
mod later;
mod payload;
mod prune;
