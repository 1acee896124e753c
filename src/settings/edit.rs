//! `dead edit`'s settings.

use std::path::PathBuf;

use crate::cli::DeadEditArgs;
use crate::dead::edit::value_text;
use crate::dead::peek::PeekOptions;
use crate::dead::pointer::{Pointer, parse_assignment};
use crate::error::{Error, Result};
use crate::queue::QueueSettings;

use super::{TopologyFile, Which, peek_options, resolve_queue};

/// What `dead edit` does.
#[derive(Clone, Debug)]
pub struct EditSettings {
    pub queue: QueueSettings,
    pub which: Which,
    /// `--set`, in order, each value as the JSON text it is put in the body as; empty: the
    /// editor.
    pub sets: Vec<(Pointer, String)>,
    pub archive: Option<PathBuf>,
    pub yes: bool,
    /// `--allow-drop-head`: publish even where the copy may push out the target's oldest job.
    pub allow_drop_head: bool,
    pub peek: PeekOptions,
}

pub fn edit_settings(a: &DeadEditArgs, file: Option<&TopologyFile>) -> Result<EditSettings> {
    let which = match (a.position, &a.message_id) {
        (_, Some(id)) => Which::MessageId(id.clone()),
        (Some(0), None) => {
            return Err(Error::settings(
                "position 0: positions start at 1 (the head of q.dead)",
            ));
        }
        (Some(p), None) => Which::Position(p),
        (None, None) => return Err(Error::usage("give a POSITION or --message-id")),
    };
    let sets = a
        .set
        .iter()
        .map(|s| match (parse_assignment(s, false), s.split_once('=')) {
            (Ok((p, Some(_))), Some((_, v))) => Ok((p, value_text(v))),
            (Err(why), _) => Err(Error::settings(format!("invalid --set {s:?}: {why}"))),
            _ => Err(Error::settings(format!("invalid --set {s:?}: no value"))),
        })
        .collect::<Result<_>>()?;
    Ok(EditSettings {
        queue: resolve_queue(&a.queue.queue, &(&a.settings).into(), file)?,
        which,
        sets,
        archive: a.archive.clone(),
        yes: a.yes,
        allow_drop_head: a.allow_drop_head,
        peek: peek_options(&a.peek)?,
    })
}
