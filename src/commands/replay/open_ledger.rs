//! What a run carries over from an unfinished one: its ledger read (acks a node restart may
//! have lost counted as acks in doubt again), and its copies in doubt looked for in their
//! targets (`--look-in-targets`) or given up (their dead letters are copied again).
//!
//! Where it sits (`replay/mod.rs`): stage 1, before anything is read.

use super::doubt::resolve_doubts;
use super::ledger::LedgerSlot;
use crate::broker::session::Session;
use crate::dead::ledger::{Boot, Ledger, Scope};
use crate::error::Result;
use crate::ledger_file;
use crate::output::{Output, plural};
use crate::settings::ReplaySettings;

/// Opens the ledger of a run over `scope` (a dead-letter queue, or a file): reads what an
/// unfinished earlier run left, says what it carries, and settles its copies in doubt. Returns
/// what is carried and this run's ledger.
pub(super) async fn begin(
    session: &Session,
    settings: &ReplaySettings,
    scope: Scope,
    run: &str,
    boot: Boot,
    output: Output,
) -> Result<(Ledger, LedgerSlot)> {
    let path = match &settings.journal {
        Some(p) => p.clone(),
        None => ledger_file::default_path(&scope)?,
    };
    let mut carried = ledger_file::read(&path, &scope)?.unwrap_or_default();
    // The acks an earlier run saw processed may have been lost with the node: possible
    // duplicates again (never a claim: see `dead::ledger`).
    carried.revive_after_restart(&boot);
    if !carried.is_empty() {
        output.note(&format!(
            "the ledger {} of an unfinished replay records {} whose dead letters may have been \
             acked, {} whose dead letters were not, and {} in doubt: this run loses none of \
             them, and counts the ones it may copy twice",
            path.display(),
            plural(carried.maybe_acked(), "confirmed copy"),
            carried.unacked(),
            plural(carried.doubts() + carried.uncertain(), "copy"),
        ));
    }
    let mut ledger = LedgerSlot::new(path, scope, run.to_owned(), boot);
    resolve_doubts(session, settings, &mut carried, &mut ledger, output).await?;
    Ok((carried, ledger))
}
