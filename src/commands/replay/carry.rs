//! What a run carries over from an unfinished one: the journal's records (counted again when
//! the broker restarted since, as its acks may be lost), and its copies in doubt looked for.

use super::doubt::resolve_doubts;
use super::journal::JournalSlot;
use crate::broker::session::Session;
use crate::dead::journal::{Boot, Scope, Unfinished};
use crate::error::Result;
use crate::journal_file;
use crate::output::{Output, plural};
use crate::settings::ReplaySettings;

/// Opens the journal of a run over `scope` (a dead-letter queue, or a file): reads what an
/// unfinished earlier run left, counts again the records of acks a broker restart may have
/// lost, says what it carries (`carried_are`: what becomes of them), and looks for its copies
/// in doubt in their targets. Returns the records carried and this run's journal.
pub(super) async fn begin(
    session: &Session,
    s: &ReplaySettings,
    scope: Scope,
    run: &str,
    boot: Boot,
    carried_are: &str,
    output: Output,
) -> Result<(Unfinished, JournalSlot)> {
    let path = match &s.journal {
        Some(p) => p.clone(),
        None => journal_file::default_path(&scope)?,
    };
    let mut carried = journal_file::read(&path, &scope)?.unwrap_or_default();
    // The acks an earlier run saw processed may have been lost with the node.
    carried.revive_after_restart(&boot);
    if carried.left() > 0 {
        output.note(&format!(
            "the journal {} of an unfinished replay records {}: {carried_are}",
            path.display(),
            plural(carried.left(), "confirmed copy")
        ));
    }
    let mut journal = JournalSlot::new(path, scope, run.to_owned(), boot);
    resolve_doubts(session, s, &mut carried, &mut journal, output).await?;
    Ok((carried, journal))
}
