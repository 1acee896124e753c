//! What each key does on the browser's screen: it changes the state, or asks the command for
//! an effect (a new snapshot, a command of queuey to run, the end).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::state::{Browse, Focus, command_text};

/// What the screen can do to the dead letters, each through the command of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Replay,
    Purge,
    Export,
    Edit,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Replay => "replay",
            Action::Purge => "purge",
            Action::Export => "export",
            Action::Edit => "edit",
        }
    }

    /// What the flags line of the action asks for.
    pub fn prompt(self) -> &'static str {
        match self {
            Action::Replay => "replay flags (--to QUEUE, --after 5m; Enter: to their queues)",
            Action::Purge => "purge flags (--archive FILE; Enter: none)",
            Action::Export => "export file (Enter: dead-letters.jsonl)",
            Action::Edit => "",
        }
    }

    /// Whether it runs `--dry-run` first and asks before it runs for real.
    pub fn asks(self) -> bool {
        matches!(self, Action::Replay | Action::Purge)
    }
}

/// A dialog over the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    None,
    Help,
    /// The filter line is being typed; Esc gives back `before`.
    Filter {
        before: String,
    },
    /// The flags of an action being typed.
    Prompt {
        action: Action,
        text: String,
    },
    /// A dry run's outcome, and the command that runs for real on `y`.
    Confirm {
        action: Action,
        args: Vec<String>,
        shown: String,
    },
    /// A command's outcome.
    Output {
        title: String,
        text: String,
    },
}

/// How the screen ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// `q`, Esc: exit 0.
    Quit,
    /// Ctrl-C: exit 130, as a look stopped by it.
    Interrupted,
}

/// What the command must do after a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    Leave(Leave),
    Refresh,
    /// Run the action's command (its dry run first when it asks) with these flags typed.
    Prepare {
        action: Action,
        typed: String,
    },
    /// Run this command for real (confirmed).
    Run {
        action: Action,
        args: Vec<String>,
    },
    /// `dead edit` of the selected dead letter, on the terminal.
    Edit,
}

/// Lines scrolled by `d` and `u` in the detail pane and in a dialog.
const SCROLL: u16 = 5;

/// Does what `key` does at `now` (the filter's ages are of then); `scroll` is the dialog's.
pub fn on_key(
    b: &mut Browse,
    overlay: &mut Overlay,
    key: KeyEvent,
    scroll: &mut u16,
    now: u64,
) -> Effect {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && key.code == KeyCode::Char('c') {
        return Effect::Leave(Leave::Interrupted);
    }
    match overlay {
        Overlay::None => {}
        Overlay::Help => {
            match key.code {
                KeyCode::Down | KeyCode::Char('j' | 'd') => *scroll = scroll.saturating_add(1),
                KeyCode::Up | KeyCode::Char('k' | 'u') => *scroll = scroll.saturating_sub(1),
                _ => {
                    *overlay = Overlay::None;
                    *scroll = 0;
                }
            }
            return Effect::None;
        }
        Overlay::Filter { before } => {
            match key.code {
                KeyCode::Enter => *overlay = Overlay::None,
                KeyCode::Esc => {
                    b.filter_text = std::mem::take(before);
                    *overlay = Overlay::None;
                }
                KeyCode::Backspace => {
                    b.filter_text.pop();
                }
                KeyCode::Char('u') if ctrl => b.filter_text.clear(),
                KeyCode::Char(c) if !ctrl => b.filter_text.push(c),
                _ => return Effect::None,
            }
            // Filtered as it is typed; a line that does not parse keeps the rows.
            if b.reparse() {
                b.apply(now);
            }
            return Effect::None;
        }
        Overlay::Prompt { action, text } => {
            match key.code {
                KeyCode::Enter => {
                    let effect = Effect::Prepare {
                        action: *action,
                        typed: std::mem::take(text),
                    };
                    *overlay = Overlay::None;
                    return effect;
                }
                KeyCode::Esc => *overlay = Overlay::None,
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Char('u') if ctrl => text.clear(),
                KeyCode::Char(c) if !ctrl => text.push(c),
                _ => {}
            }
            return Effect::None;
        }
        Overlay::Confirm { action, args, .. } => {
            let effect = match key.code {
                KeyCode::Char('y' | 'Y') => Effect::Run {
                    action: *action,
                    args: std::mem::take(args),
                },
                KeyCode::Down | KeyCode::Char('j' | 'd') => {
                    *scroll = scroll.saturating_add(1);
                    return Effect::None;
                }
                KeyCode::Up | KeyCode::Char('k' | 'u') => {
                    *scroll = scroll.saturating_sub(1);
                    return Effect::None;
                }
                _ => {
                    b.status = Some(format!("{}: nothing done", action.name()));
                    Effect::None
                }
            };
            *overlay = Overlay::None;
            *scroll = 0;
            return effect;
        }
        Overlay::Output { .. } => {
            match key.code {
                KeyCode::Down | KeyCode::Char('j' | 'd') => *scroll = scroll.saturating_add(1),
                KeyCode::Up | KeyCode::Char('k' | 'u') => *scroll = scroll.saturating_sub(1),
                _ => {
                    *overlay = Overlay::None;
                    *scroll = 0;
                }
            }
            return Effect::None;
        }
    }
    b.status = None;
    let page = 10;
    match key.code {
        KeyCode::Char('q') | KeyCode::Esc => return Effect::Leave(Leave::Quit),
        KeyCode::Char('?') => *overlay = Overlay::Help,
        KeyCode::Char('/') => {
            *overlay = Overlay::Filter {
                before: b.filter_text.clone(),
            }
        }
        KeyCode::Char('r') => return Effect::Refresh,
        KeyCode::Tab => b.cycle_grouping(),
        KeyCode::Left | KeyCode::Char('h') => b.focus = Focus::Groups,
        KeyCode::Right | KeyCode::Char('l') => b.focus = Focus::List,
        KeyCode::Char('g') => {
            b.focus = match b.focus {
                Focus::List => Focus::Groups,
                Focus::Groups => Focus::List,
            }
        }
        KeyCode::Enter if b.focus == Focus::Groups => b.filter_by_group(now),
        KeyCode::Up | KeyCode::Char('k') => b.move_by(-1),
        KeyCode::Down | KeyCode::Char('j') => b.move_by(1),
        KeyCode::PageUp => b.move_by(-page),
        KeyCode::PageDown => b.move_by(page),
        KeyCode::Home => b.move_by(isize::MIN / 2),
        KeyCode::End => b.move_by(isize::MAX / 2),
        KeyCode::Char('d') => {
            // No further than the page's last line, once it has been drawn.
            let last = b
                .detail
                .borrow()
                .as_ref()
                .map_or(0, |(_, l)| l.len().saturating_sub(1));
            let last = u16::try_from(last).unwrap_or(u16::MAX);
            b.detail_scroll = b.detail_scroll.saturating_add(SCROLL).min(last);
        }
        KeyCode::Char('u') => b.detail_scroll = b.detail_scroll.saturating_sub(SCROLL),
        KeyCode::Char(' ') => b.toggle_mark(),
        KeyCode::Char('c') => b.marks.clear(),
        KeyCode::Char('R') => return prompt(b, overlay, Action::Replay),
        KeyCode::Char('P') => return prompt(b, overlay, Action::Purge),
        KeyCode::Char('X') => return prompt(b, overlay, Action::Export),
        KeyCode::Char('E') => {
            return if b.current().is_some() {
                Effect::Edit
            } else {
                b.status = Some("no dead letter selected to edit".to_owned());
                Effect::None
            };
        }
        _ => {}
    }
    Effect::None
}

/// Opens an action's flags line, unless the selection cannot be acted on.
fn prompt(b: &mut Browse, overlay: &mut Overlay, action: Action) -> Effect {
    if let Some(why) = b.cannot_act() {
        b.status = Some(why);
        return Effect::None;
    }
    *overlay = Overlay::Prompt {
        action,
        text: String::new(),
    };
    Effect::None
}

impl Browse {
    /// Why no action can run on the selection now, if it cannot.
    pub fn cannot_act(&self) -> Option<String> {
        if self.marks.is_empty()
            && let Some(e) = &self.filter_error
        {
            return Some(format!(
                "the filter line does not parse ({e}): fix it first"
            ));
        }
        None
    }

    /// The arguments of `action` on the selection with the flags `typed` (already split), and
    /// the dry run first when it asks: (dry run, for real).
    pub fn action_args(
        &self,
        action: Action,
        typed: &[String],
    ) -> (Option<Vec<String>>, Vec<String>) {
        let q = self.queue.name.as_str();
        let mut extra = self.selection_words();
        match action {
            Action::Export => {
                let file = typed
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "dead-letters.jsonl".to_owned());
                extra.extend(["--output-file".to_owned(), file]);
                extra.extend(typed.iter().skip(1).cloned());
                (None, self.command(&["dead", "export", q], &extra))
            }
            Action::Replay | Action::Purge => {
                extra.extend(typed.iter().cloned());
                let name = action.name();
                let mut dry = extra.clone();
                dry.push("--dry-run".to_owned());
                let mut real = extra;
                if action == Action::Purge {
                    real.push("--yes".to_owned());
                }
                (
                    Some(self.command(&["dead", name, q], &dry)),
                    self.command(&["dead", name, q], &real),
                )
            }
            Action::Edit => (None, self.edit_args()),
        }
    }

    /// `dead edit` of the selected dead letter: by its message id when it has one and no
    /// other dead letter of the snapshot shares it (the first with that id is edited), else
    /// by its position when the snapshot was taken.
    pub fn edit_args(&self) -> Vec<String> {
        let q = self.queue.name.as_str();
        let Some(e) = self.current() else {
            return Vec::new();
        };
        let shared = |id: &String| {
            self.entries
                .iter()
                .filter(|o| o.dead_letter.message_id.as_ref() == Some(id))
                .count()
                > 1
        };
        match &e.dead_letter.message_id {
            Some(id) if !shared(id) => self.command(
                &["dead", "edit", q],
                &["--message-id".to_owned(), id.clone()],
            ),
            _ => self.command(&["dead", "edit", q, &e.position.to_string()], &[]),
        }
    }
}

/// The text of a command that ran: its command line, what it printed, and its exit code.
pub fn outcome(args: &[String], printed: &str, code: Option<i32>) -> String {
    let code = code.map_or("ended by a signal".to_owned(), |c| format!("exit code {c}"));
    // queuey escapes what it prints from the broker; what is left that a terminal acts on
    // (a colour code, a carriage return) is shown escaped rather than acted on.
    let printed: String = printed
        .trim_end()
        .chars()
        .map(|c| {
            if c.is_control() && c != '\n' {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    format!("$ {}\n{printed}\n[{code}]", command_text(args))
}
