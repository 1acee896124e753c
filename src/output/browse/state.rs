//! The browser's state, without I/O: the snapshot's dead letters, the filter line and the rows
//! it keeps, the selection, the marks (by message id), the counts by cause, job type or origin,
//! and the command line each view and action stands for. Keys change it ([`super::keys`]);
//! [`super::draw`] shows it.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::dead::decode::{DeadLetter, Message};
use crate::dead::filter::Filter;
use crate::dead::peek::HeldElsewhere;
use crate::queue::QueueSettings;
use crate::shell::{command_line, split};

/// One dead letter of the snapshot.
#[derive(Debug)]
pub struct Entry {
    pub position: u64,
    pub message: Message,
    pub dead_letter: DeadLetter,
    /// The start of the body (of the job's payload for an envelope), as `dead ls` shows it.
    pub preview: String,
}

/// How a snapshot's look went, for the screen to say (as `dead ls`'s notes say it).
#[derive(Clone, Debug, Default)]
pub struct SnapshotInfo {
    /// The dead-letter queue read (q.dead).
    pub queue: String,
    pub queue_type: String,
    /// When it was read (seconds since the epoch).
    pub taken_at: u64,
    /// Messages q.dead held when the look began.
    pub depth_at_start: u64,
    pub scanned: u64,
    /// `--limit` cut it: more were there.
    pub cut_at: Option<u64>,
    /// The bodies it holds reached this many bytes: more were there (the screen keeps each
    /// dead letter whole, so its memory is bounded by bytes as well as by count).
    pub cut_at_bytes: Option<u64>,
    /// The signal or key that stopped the look before its end.
    pub interrupted: Option<String>,
    pub held_elsewhere: Option<HeldElsewhere>,
    /// Messages on their last delivery the look replaced by copies.
    pub rescued: u64,
    /// What the look said (the address it used, what a crash would cost).
    pub notes: Vec<String>,
}

impl SnapshotInfo {
    /// Whether the snapshot holds every message q.dead held when it was taken.
    pub fn complete(&self) -> bool {
        self.scanned >= self.depth_at_start && self.held_elsewhere.is_none()
    }

    /// One line: what the snapshot holds of q.dead, and why it is partial when it is.
    pub fn summary(&self, now: u64) -> String {
        // Whether it is whole first: a narrow terminal cuts the line's end.
        let mut partial = Vec::new();
        if let Some(why) = &self.interrupted {
            partial.push(format!("stopped by {why}"));
        } else if let Some(limit) = self.cut_at {
            partial.push(format!("cut at --limit {limit}"));
        } else if let Some(bytes) = self.cut_at_bytes {
            partial.push(format!("cut at {} MiB of bodies", bytes >> 20));
        }
        if let Some(h) = self.held_elsewhere {
            let n = h.messages.map_or("some".to_owned(), |n| n.to_string());
            partial.push(format!(
                "{n} held by {} other consumer(s), not read",
                h.consumers
            ));
        }
        let state = if partial.is_empty() && self.complete() {
            "complete".to_owned()
        } else if partial.is_empty() {
            "PARTIAL".to_owned()
        } else {
            format!("PARTIAL ({})", partial.join(", "))
        };
        let age = crate::duration::format_age(now.saturating_sub(self.taken_at));
        let mut text = format!(
            "{state}: {} of the {} in {}, snapshot {age} old ({})",
            self.scanned,
            crate::words::plural(self.depth_at_start, "dead letter"),
            crate::output::sanitize::sanitize(&self.queue),
            self.queue_type
        );
        if self.rescued > 0 {
            text.push_str(&format!(
                "; {} on their last delivery republished (moved to the back)",
                self.rescued
            ));
        }
        if !self.notes.is_empty() {
            text.push_str(&format!(
                "; {} (?)",
                crate::words::plural(self.notes.len() as u64, "note")
            ));
        }
        text
    }
}

/// What the side panel counts by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupBy {
    Cause,
    JobType,
    Origin,
}

impl GroupBy {
    pub fn next(self) -> GroupBy {
        match self {
            GroupBy::Cause => GroupBy::JobType,
            GroupBy::JobType => GroupBy::Origin,
            GroupBy::Origin => GroupBy::Cause,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            GroupBy::Cause => "cause",
            GroupBy::JobType => "job type",
            GroupBy::Origin => "origin",
        }
    }

    /// The filter flag that selects one group.
    pub fn flag(self) -> &'static str {
        match self {
            GroupBy::Cause => "--cause",
            GroupBy::JobType => "--job-type",
            GroupBy::Origin => "--original-queue",
        }
    }

    /// The group of `dl`: `None` for a dead letter without a job type (no flag selects those).
    pub fn value(self, dl: &DeadLetter) -> Option<String> {
        match self {
            GroupBy::Cause => Some(dl.cause.as_str().to_owned()),
            GroupBy::JobType => dl.job_type.clone(),
            GroupBy::Origin => Some(dl.original_queue.clone()),
        }
    }
}

/// One group of the side panel: its value (`None`: no job type) and how many rows it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub value: Option<String>,
    pub count: usize,
}

/// Where the arrow keys go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    List,
    Groups,
}

/// The filter line's parser: the filter flags of `dead ls`, or what is wrong with them.
pub type ParseFilter = fn(&[String]) -> Result<Filter, String>;

/// The whole state of the screen but its dialogs.
pub struct Browse {
    pub queue: QueueSettings,
    /// Peek flags the commands it shows and runs need (`--spend-delivery-budget`, ...).
    pub peek_words: Vec<String>,
    pub entries: Vec<Entry>,
    pub info: SnapshotInfo,
    parse: ParseFilter,
    /// The filter line as typed.
    pub filter_text: String,
    /// Its words and filter when it parses, else what is wrong (the rows stay as they were).
    pub filter_words: Vec<String>,
    filter: Filter,
    pub filter_error: Option<String>,
    /// Indexes into `entries` of the rows the filter keeps, in q.dead's order.
    pub rows: Vec<usize>,
    /// Index into `rows`.
    pub selected: usize,
    /// Marked dead letters, by message id.
    pub marks: BTreeSet<String>,
    pub group_by: GroupBy,
    pub groups: Vec<Group>,
    pub group_selected: usize,
    pub focus: Focus,
    /// Lines of the detail pane scrolled past.
    pub detail_scroll: u16,
    /// A line for the status bar (the last action's outcome, a refusal).
    pub status: Option<String>,
    /// The detail pane's lines, by (entry, width, second): see `draw`.
    pub detail: RefCell<Option<DetailKey>>,
}

/// The detail pane's page: for which entry, width and second, and its lines.
pub type DetailKey = ((usize, u16, u64), Vec<String>);

impl Browse {
    pub fn new(
        queue: QueueSettings,
        peek_words: Vec<String>,
        parse: ParseFilter,
        filter_words: &[String],
    ) -> Browse {
        let mut b = Browse {
            queue,
            peek_words,
            entries: Vec::new(),
            info: SnapshotInfo::default(),
            parse,
            filter_text: command_line(filter_words),
            filter_words: Vec::new(),
            filter: Filter::default(),
            filter_error: None,
            rows: Vec::new(),
            selected: 0,
            marks: BTreeSet::new(),
            group_by: GroupBy::Cause,
            groups: Vec::new(),
            group_selected: 0,
            focus: Focus::List,
            detail_scroll: 0,
            status: None,
            detail: RefCell::new(None),
        };
        b.reparse();
        b
    }

    /// A new snapshot: the filter applied again, the selection kept on the same position
    /// where it still is, marks of dead letters no longer there dropped.
    pub fn set_snapshot(&mut self, entries: Vec<Entry>, info: SnapshotInfo, now: u64) {
        let position = self.current().map(|e| e.position);
        self.entries = entries;
        self.info = info;
        self.detail.replace(None);
        let ids: BTreeSet<&str> = self
            .entries
            .iter()
            .filter_map(|e| e.dead_letter.message_id.as_deref())
            .collect();
        self.marks.retain(|m| ids.contains(m.as_str()));
        self.apply(now);
        if let Some(p) = position {
            self.selected = self
                .rows
                .iter()
                .position(|&i| self.entries[i].position >= p)
                .unwrap_or(self.rows.len().saturating_sub(1));
        }
    }

    /// Reads the filter line again; a line that does not parse leaves the rows as they were.
    pub fn reparse(&mut self) -> bool {
        let parsed = split(&self.filter_text).and_then(|w| (self.parse)(&w).map(|f| (w, f)));
        match parsed {
            Ok((words, filter)) => {
                self.filter_words = words;
                self.filter = filter;
                self.filter_error = None;
                true
            }
            Err(e) => {
                self.filter_error = Some(e);
                false
            }
        }
    }

    /// Keeps the rows the filter matches at `now`, and counts their groups.
    pub fn apply(&mut self, now: u64) {
        self.rows = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| self.filter.matches(&e.dead_letter, &e.message, now))
            .map(|(i, _)| i)
            .collect();
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
        self.detail_scroll = 0;
        self.count_groups();
    }

    fn count_groups(&mut self) {
        let mut counts: BTreeMap<Option<String>, usize> = BTreeMap::new();
        for &i in &self.rows {
            *counts
                .entry(self.group_by.value(&self.entries[i].dead_letter))
                .or_default() += 1;
        }
        let mut groups: Vec<Group> = counts
            .into_iter()
            .map(|(value, count)| Group { value, count })
            .collect();
        groups.sort_by(|a, b| b.count.cmp(&a.count).then(a.value.cmp(&b.value)));
        self.groups = groups;
        self.group_selected = self.group_selected.min(self.groups.len().saturating_sub(1));
    }

    pub fn cycle_grouping(&mut self) {
        self.group_by = self.group_by.next();
        self.group_selected = 0;
        self.count_groups();
    }

    /// Narrows the filter to the selected group: its flag replaces any of the same name.
    pub fn filter_by_group(&mut self, now: u64) {
        let Some(group) = self.groups.get(self.group_selected) else {
            return;
        };
        let Some(value) = group.value.clone() else {
            self.status = Some(format!(
                "no filter flag selects dead letters without a {}",
                self.group_by.label()
            ));
            return;
        };
        let flag = self.group_by.flag();
        let mut words = Vec::new();
        let mut rest = self.filter_words.iter();
        while let Some(w) = rest.next() {
            if w == flag {
                rest.next();
            } else if !w.starts_with(&format!("{flag}=")) {
                words.push(w.clone());
            }
        }
        words.extend([flag.to_owned(), value]);
        self.filter_text = command_line(&words);
        if self.reparse() {
            self.apply(now);
        }
        self.focus = Focus::List;
    }

    pub fn current(&self) -> Option<&Entry> {
        self.rows.get(self.selected).map(|&i| &self.entries[i])
    }

    pub fn move_by(&mut self, delta: isize) {
        match self.focus {
            Focus::List => {
                let last = self.rows.len().saturating_sub(1);
                self.selected = self.selected.saturating_add_signed(delta).min(last);
                self.detail_scroll = 0;
            }
            Focus::Groups => {
                let last = self.groups.len().saturating_sub(1);
                self.group_selected = self.group_selected.saturating_add_signed(delta).min(last);
            }
        }
    }

    /// Marks or unmarks the selected dead letter (by its message id; one without cannot be
    /// marked, and the status line says so).
    pub fn toggle_mark(&mut self) {
        let Some(entry) = self.current() else {
            return;
        };
        match entry.dead_letter.message_id.clone() {
            Some(id) => {
                if !self.marks.remove(&id) {
                    self.marks.insert(id);
                }
                self.move_by(1);
            }
            None => {
                self.status = Some(
                    "this dead letter has no message id, so it cannot be marked: an action \
                     on it can only run on a filter"
                        .to_owned(),
                );
            }
        }
    }

    /// How many dead letters of the snapshot the marks select: every one with a marked
    /// message id (twins are two messages, and `--message-id` takes both).
    pub fn marked_count(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| {
                e.dead_letter
                    .message_id
                    .as_ref()
                    .is_some_and(|id| self.marks.contains(id))
            })
            .count()
    }

    /// The filter words an action takes: `--message-id` for each mark when there are marks,
    /// else the filter line's.
    pub fn selection_words(&self) -> Vec<String> {
        if self.marks.is_empty() {
            return self.filter_words.clone();
        }
        self.marks
            .iter()
            .flat_map(|id| ["--message-id".to_owned(), id.clone()])
            .collect()
    }

    /// What the selection is, in words, with how many dead letters of the snapshot it
    /// matches (never fewer than q.dead has: identical ones each count).
    pub fn selection_text(&self) -> String {
        if self.marks.is_empty() {
            let what = if self.filter_words.is_empty() {
                "every dead letter (no filter)".to_owned()
            } else {
                "the dead letters the filter matches".to_owned()
            };
            let cut = if self.info.complete() {
                ""
            } else {
                ", the snapshot being partial; the command reads the whole queue"
            };
            return format!("{what}: {} in the snapshot{cut}", self.rows.len());
        }
        format!(
            "{} marked by message id, which select {} of the snapshot",
            crate::words::plural(self.marks.len() as u64, "message id"),
            crate::words::plural(self.marked_count() as u64, "dead letter")
        )
    }

    /// The arguments of `queuey WORDS... EXTRA... <peek flags> <suffixes>`: a command the
    /// screen shows and runs, reading q.dead as the snapshot did.
    pub fn command(&self, words: &[&str], extra: &[String]) -> Vec<String> {
        let mut all: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
        all.extend(extra.iter().cloned());
        all.extend(self.peek_words.iter().cloned());
        let options = &self.queue.options;
        if options.dead_suffix != crate::topology::DEFAULT_DEAD_SUFFIX {
            all.extend(["--dead-suffix".to_owned(), options.dead_suffix.clone()]);
        }
        if options.deferred_suffix != crate::topology::DEFAULT_DEFERRED_SUFFIX {
            all.extend([
                "--deferred-suffix".to_owned(),
                options.deferred_suffix.clone(),
            ]);
        }
        all
    }

    /// `queuey dead ls q <filter> <peek flags>`: what the list shows, to paste.
    pub fn ls_command_line(&self) -> String {
        command_text(&self.command(&["dead", "ls", &self.queue.name], &self.filter_words))
    }
}

/// `args` as a command line to paste, `queuey` first.
pub fn command_text(args: &[String]) -> String {
    let mut words = vec!["queuey".to_owned()];
    words.extend(args.iter().cloned());
    command_line(&words)
}
