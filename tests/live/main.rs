//! The tests against the test broker (`QUEUEY_TEST_URL`, `QUEUEY_TEST_API_URL`), one binary, a
//! module per subject: `cargo test --test live replay::` runs one.
//!
//! Tests run side by side (the harness's threads): each works on queues, vhosts and users of
//! its own (`Broker::queue_name`, `common::unique`), never on a name another test could use.
//! The tests that start private nodes are in the `nodes` binary, so that they never run beside
//! these.
//!
//! The tests on a real application (`common::app`) each bind an application slot of their own
//! (binding one twice panics):
//!
//! | slot | test |
//! |------|------|
//! | 0-11 | the tests of `app`, one each (listed in `app.rs`) |
//! | 12 | `payload::where_selects_by_payload_in_ls_replay_and_purge` |
//! | 13 | `alerting::dead_check_exits_1_on_each_crossed_threshold_and_0_otherwise` |
//! | 14 | `alerting::prometheus_output_parses_with_labels_escaped` |
//! | 15 | `prune::prune_keeps_what_waits_and_what_the_topology_file_lists` |
//! | 16 | `later::replay_after_5s_reaches_the_worker_after_the_delay_and_not_before` |
//! | 17 | `repair::a_job_repaired_with_set_is_handled_by_the_real_worker` |
//! | 20 | `alerting::the_age_gate_sees_an_old_dead_letter_behind_a_young_head` |
//! | 21 | `alerting::a_dead_letter_without_a_time_at_the_head_never_makes_the_age_gate_hold` |
//! | 22 | `purge::purge_older_than_keeps_a_young_dead_letter_aged_by_its_enqueue` |
//! | 23 | `terminal::every_table_is_one_line_per_row_on_an_80_column_terminal` |

#[path = "../common/mod.rs"]
mod common;

mod alerting;
mod app;
mod browse;
mod connection;
mod dead;
mod hostile;
mod identical;
mod later;
mod limits;
mod output;
mod payload;
mod permissions;
mod prune;
mod purge;
mod repair;
mod replay;
mod terminal;
mod topology;
mod user_id;
