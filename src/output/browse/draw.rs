//! The browser's screen: the snapshot's state and the filter line at the top, the list, the
//! counts by group beside the selected dead letter whole (`dead show`'s page), the keys at the
//! bottom, and the dialogs over them. Everything from the broker is escaped before it is drawn
//! (`dead ls`'s and `dead show`'s own rendering).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table, TableState, Wrap};

use super::keys::Overlay;
use super::state::{Browse, Focus};
use crate::dead::decode::AgeFrom;
use crate::duration::format_age;
use crate::output::sanitize::sanitize;
use crate::output::show::{ShowLayout, attempts_text, render_show};
use crate::output::table::Fit;

/// Colours, or none (`NO_COLOR`): then only reverse video and bold mark what is selected.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    pub colour: bool,
}

impl Theme {
    /// Colours unless `NO_COLOR` is set to anything but the empty string (no-color.org).
    pub fn from_env() -> Theme {
        Theme {
            colour: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }

    fn fg(self, c: Color) -> Style {
        if self.colour {
            Style::default().fg(c)
        } else {
            Style::default()
        }
    }

    fn selected(self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }

    fn heading(self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }
}

/// The keys, one line at the bottom (80 columns: the groups' keys are in their title and `?`).
pub const FOOTER: [(&str, &str); 9] = [
    ("?", "help"),
    ("q", "quit"),
    ("/", "filter"),
    ("r", "refresh"),
    ("space", "mark"),
    ("R", "replay"),
    ("P", "purge"),
    ("X", "export"),
    ("E", "edit"),
];

/// The keys, whole, for `?`.
pub const HELP: &str = "\
Keys
  Up/Down j/k    move in the list or the groups (PgUp/PgDn, Home/End too)
  d / u          scroll the selected dead letter down / up
  /              type the filter: the filter flags of `dead ls`, such as
                 --cause C --job-type T --original-queue Q --attempts 3..
                 --older-than 1h --where /payload/id=42 --body-contains X
                 --header NAME=TEXT --message-id ID --reason R; Enter keeps
                 it, Esc gives back the one before, Ctrl-U clears it
  Tab            count by cause, job type, origin
  g, Left/Right  to the groups / back to the list
  Enter          (in the groups) filter by the selected group
  space          mark or unmark the selected dead letter (by message id)
  c              clear the marks
  R  replay      the marked dead letters, else those of the filter: runs
  P  purge       `queuey dead replay|purge ... --dry-run`, shows it, asks y/n
  X  export      `queuey dead export ... --output-file FILE`
  E  edit        `queuey dead edit` of the selected one, in $VISUAL/$EDITOR
  r              a new snapshot (the screen holds no message meanwhile)
  q, Esc         leave (exit 0); Ctrl-C leaves with exit 130
Actions run queuey itself, with the command line shown; Esc stops one as
Ctrl-C stops the command; its output and exit code are shown. Marks select
by --message-id: the dead letters sharing a marked id are all selected.";

pub fn draw(frame: &mut Frame, b: &Browse, overlay: &Overlay, scroll: u16, now: u64, theme: Theme) {
    // Two fifths of what the lines above and below leave to the list, the rest to the groups
    // and the dead letter whole.
    let middle = frame.area().height.saturating_sub(5);
    let list_height = (middle * 2 / 5).max(middle.min(4));
    let [top, list, bottom, status, footer] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(list_height),
        Constraint::Length(middle - list_height),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    draw_top(frame, b, overlay, top, now, theme);
    draw_list(frame, b, list, now, theme);
    let groups_width = (bottom.width / 4).clamp(18, 30);
    let [groups, detail] =
        Layout::horizontal([Constraint::Length(groups_width), Constraint::Fill(1)]).areas(bottom);
    draw_groups(frame, b, groups, theme);
    draw_detail(frame, b, detail, now, theme);
    let status_text = b.status.clone().unwrap_or_else(|| {
        let marks = if b.marks.is_empty() {
            String::new()
        } else {
            format!(", {}", b.selection_text())
        };
        format!("{} of {} shown{marks}", b.rows.len(), b.entries.len())
    });
    frame.render_widget(
        Paragraph::new(status_text).style(theme.fg(Color::Yellow)),
        status,
    );
    frame.render_widget(
        Paragraph::new(Line::from(
            FOOTER
                .iter()
                .flat_map(|(key, what)| {
                    [
                        Span::styled(*key, Style::default().add_modifier(Modifier::BOLD)),
                        Span::styled(format!(" {what} "), theme.fg(Color::DarkGray)),
                    ]
                })
                .collect::<Vec<_>>(),
        )),
        footer,
    );
    draw_overlay(frame, b, overlay, scroll, now, theme);
}

fn draw_top(frame: &mut Frame, b: &Browse, overlay: &Overlay, area: Rect, now: u64, theme: Theme) {
    let [summary, filter, command] = Layout::vertical([Constraint::Length(1); 3]).areas(area);
    frame.render_widget(
        Paragraph::new(b.info.summary(now)).style(theme.heading()),
        summary,
    );
    let editing = matches!(overlay, Overlay::Filter { .. });
    let mut spans = vec![
        Span::styled(
            if editing { "filter> " } else { "filter: " },
            theme.heading(),
        ),
        Span::raw(sanitize(&b.filter_text)),
    ];
    if editing {
        spans.push(Span::styled(
            "_",
            Style::default().add_modifier(Modifier::SLOW_BLINK),
        ));
    }
    if let Some(e) = &b.filter_error {
        spans.push(Span::styled(
            format!("  ✗ {}", sanitize(e)),
            theme.fg(Color::Red).add_modifier(Modifier::BOLD),
        ));
    } else if b.filter_text.trim().is_empty() && !editing {
        spans.push(Span::styled(
            "(none: / to type one)",
            theme.fg(Color::DarkGray),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), filter);
    frame.render_widget(
        Paragraph::new(format!("$ {}", b.ls_command_line())).style(theme.fg(Color::Green)),
        command,
    );
}

fn draw_list(frame: &mut Frame, b: &Browse, area: Rect, now: u64, theme: Theme) {
    let header = Row::new([
        "  #",
        "cause",
        "job type",
        "att",
        "origin",
        "age",
        "payload / body",
    ])
    .style(theme.heading());
    let rows = b.rows.iter().map(|&i| {
        let e = &b.entries[i];
        let dl = &e.dead_letter;
        let marked = dl
            .message_id
            .as_ref()
            .is_some_and(|id| b.marks.contains(id));
        let age = match dl.age(now) {
            Some((secs, AgeFrom::Enqueued)) => format!("{}*", format_age(secs)),
            Some((secs, _)) => format_age(secs),
            None => "-".to_owned(),
        };
        let row = Row::new([
            Cell::from(format!("{}{}", if marked { "*" } else { " " }, e.position)),
            Cell::from(dl.cause.as_str()),
            Cell::from(sanitize(dl.job_type.as_deref().unwrap_or("-"))),
            Cell::from(attempts_text(dl)),
            Cell::from(sanitize(&dl.original_queue)),
            Cell::from(age),
            Cell::from(sanitize(&e.preview)),
        ]);
        if marked {
            row.style(theme.fg(Color::Magenta).add_modifier(Modifier::BOLD))
        } else {
            row
        }
    });
    let widths = [
        Constraint::Length(6),
        Constraint::Length(10),
        Constraint::Length(16),
        Constraint::Length(5),
        Constraint::Length(14),
        Constraint::Length(5),
        Constraint::Fill(1),
    ];
    let title = format!(
        " dead letters{} ",
        if b.focus == Focus::List { " *" } else { "" }
    );
    let table = Table::new(rows, widths)
        .header(header)
        .block(Block::default().borders(Borders::TOP).title(title))
        .row_highlight_style(theme.selected());
    let mut state = TableState::default().with_selected((!b.rows.is_empty()).then_some(b.selected));
    frame.render_stateful_widget(table, area, &mut state);
    if b.rows.is_empty() {
        let inner = Rect {
            y: area.y.saturating_add(2),
            height: area.height.saturating_sub(2),
            ..area
        };
        let why = if b.entries.is_empty() {
            "q.dead held no dead letter when the snapshot was taken (r: a new one)"
        } else {
            "the filter matches none of the snapshot"
        };
        frame.render_widget(Paragraph::new(why), inner);
    }
}

fn draw_groups(frame: &mut Frame, b: &Browse, area: Rect, theme: Theme) {
    let focused = b.focus == Focus::Groups;
    let lines: Vec<Line> = b
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let value = g.value.as_deref().map_or("(none)".to_owned(), sanitize);
            let line = Line::from(format!("{:>5} {value}", g.count));
            if focused && i == b.group_selected {
                line.style(theme.selected())
            } else {
                line
            }
        })
        .collect();
    // Keeps the selected group in sight.
    let visible = area.height.saturating_sub(1) as usize;
    let skip = if focused {
        b.group_selected.saturating_sub(visible.saturating_sub(1))
    } else {
        0
    };
    let title = format!(
        " by {} (Tab){} ",
        b.group_by.label(),
        if focused { " *" } else { "" }
    );
    frame.render_widget(
        Paragraph::new(Text::from(lines))
            .scroll((skip as u16, 0))
            .block(
                Block::default()
                    .borders(Borders::TOP | Borders::RIGHT)
                    .title(title),
            ),
        area,
    );
}

fn draw_detail(frame: &mut Frame, b: &Browse, area: Rect, now: u64, _theme: Theme) {
    let Some(&index) = b.rows.get(b.selected) else {
        frame.render_widget(Block::default().borders(Borders::TOP), area);
        return;
    };
    let e = &b.entries[index];
    // `dead show`'s page, rendered once a second at most (a body may be megabytes), and only
    // the lines in sight handed on.
    let key = (index, area.width, now);
    let mut cache = b.detail.borrow_mut();
    if cache.as_ref().is_none_or(|(k, _)| *k != key) {
        let layout = ShowLayout {
            fit: Fit::Width(usize::from(area.width.max(20))),
            ..ShowLayout::whole()
        };
        let page = render_show(
            &b.info.queue,
            e.position,
            b.info.depth_at_start,
            &e.message,
            &e.dead_letter,
            now,
            &layout,
        );
        *cache = Some((key, page.text.lines().map(str::to_owned).collect()));
    }
    let lines = cache.as_ref().map_or(&[][..], |(_, l)| l.as_slice());
    let first = usize::from(b.detail_scroll).min(lines.len().saturating_sub(1));
    let shown: Vec<Line> = lines
        .iter()
        .skip(first)
        .take(usize::from(area.height))
        .map(|l| Line::from(l.as_str()))
        .collect();
    let title = format!(
        " #{} ({}/{} lines, d/u scroll) ",
        e.position,
        first + 1,
        lines.len()
    );
    frame.render_widget(
        Paragraph::new(Text::from(shown))
            .block(Block::default().borders(Borders::TOP).title(title)),
        area,
    );
}

/// A box `percent` of the screen's width and height, centred.
fn centred(area: Rect, width_percent: u16, height_percent: u16) -> Rect {
    let w = (area.width * width_percent / 100).max(area.width.min(40));
    let h = (area.height * height_percent / 100).max(area.height.min(7));
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

fn draw_overlay(
    frame: &mut Frame,
    b: &Browse,
    overlay: &Overlay,
    scroll: u16,
    now: u64,
    theme: Theme,
) {
    let area = frame.area();
    let (title, text, size) = match overlay {
        Overlay::None | Overlay::Filter { .. } => return,
        Overlay::Help => {
            // The keys, then what the look said about this snapshot.
            let mut text = format!("{HELP}\n\nThis snapshot\n  {}", b.info.summary(now));
            for note in &b.info.notes {
                text.push_str(&format!("\n  {}", sanitize(note)));
            }
            (
                " keys (j/k scroll, any other key closes) ".to_owned(),
                text,
                (100, 100),
            )
        }
        Overlay::Prompt { action, text } => (
            format!(" {} (Enter runs, Esc cancels) ", action.name()),
            format!(
                "{}\non: {}\n\n> {}_",
                action.prompt(),
                b.selection_text(),
                sanitize(text)
            ),
            (90, 40),
        ),
        Overlay::Confirm { action, shown, .. } => (
            format!(" {}: run it for real? y / n ", action.name()),
            shown.clone(),
            (96, 90),
        ),
        Overlay::Output { title, text } => (
            format!(" {title} (any key closes) "),
            text.clone(),
            (96, 90),
        ),
    };
    let rect = centred(area, size.0, size.1);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0))
            .block(Block::bordered().title(title).title_style(theme.heading())),
        rect,
    );
}
