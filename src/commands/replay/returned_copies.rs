//! The refused copies a `reject-publish-dlx` target dead-letters back into q.dead, found behind
//! everything the run read and removed: each is a double of a dead letter that stayed.
//!
//! Where it sits (`replay/mod.rs`): stage 6 of a run from q.dead; `dead edit` uses it too.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::broker::peek::{Delivered, Peek};
use crate::dead::replay::replay_mark;
use crate::dead::report::ReplayReport;
use crate::error::Result;

/// How long a run looks for refused copies coming back into q.dead.
const RETURN_WAIT: Duration = Duration::from_secs(5);

/// Removes from q.dead the refused copies the broker dead-lettered back into it. They arrived
/// behind everything the run read, so the peek reads on, past its end, as many messages as
/// copies are missing, until all are found or [`RETURN_WAIT`] has passed. Each one found (this
/// run's copy, by its run id and copy number, refused: `refused`) is a double of a dead letter
/// that stayed, and is acked; anything else read so is held and returned with the rest.
pub(in crate::commands) async fn remove_returned(
    p: &mut Peek<'_>,
    run: &str,
    refused: &mut HashMap<u64, String>,
    report: &mut ReplayReport,
) -> Result<()> {
    let deadline = Instant::now() + RETURN_WAIT;
    while !refused.is_empty() && Instant::now() < deadline {
        p.read_arrived_since(refused.len() as u64);
        let mut read_any = false;
        while let Some(Delivered {
            tag,
            mut message,
            last_delivery,
            ..
        }) = p.next().await?
        {
            read_any = true;
            let mine = replay_mark(&message.properties)
                .filter(|(r, _)| *r == run)
                .and_then(|(_, copy)| refused.remove(&copy));
            match mine {
                Some(target) => {
                    p.ack(tag).await?;
                    report.dead_lettered_back(&target);
                }
                None if last_delivery => p.rescue(tag, &mut message).await?,
                None => {}
            }
            if refused.is_empty() {
                break;
            }
        }
        if !refused.is_empty() && !read_any {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    Ok(())
}
