//! The operator's tools beyond the look and the replay, on real dead letters of a real
//! application on the queuey 1.1.0 library (`common::app`): payload filters (`--where`,
//! `--body-contains`).
//!
//! One test binary, a module per subject. Each test binds its own application slot (the list
//! is below, so that no two tests share one).
//!
//! | slot | test |
//! |------|------|
//! | 0 | `payload::where_selects_by_payload_in_ls_replay_and_purge` |

#[path = "../common/mod.rs"]
mod common;

mod payload;
