//! The browser without a terminal or a broker: its state from keys, and its screen drawn on
//! ratatui's test backend at 80x24 (the smallest it promises) and larger.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::draw::{Theme, draw};
use super::keys::{Action, Effect, Leave, Overlay, on_key};
use super::state::{Browse, Entry, GroupBy, SnapshotInfo};
use crate::dead::decode::{self, Message};
use crate::dead::value::{Properties, Value};
use crate::settings::browse::filter_from_words;

const NOW: u64 = 1_800_000_000;

fn entry(position: u64, id: Option<&str>, cause_reason: &str, tenant: &str) -> Entry {
    let headers = [
        ("x-original-queue", Value::LongStr(b"shop.orders".to_vec())),
        (
            "x-death-reason",
            Value::LongStr(cause_reason.as_bytes().to_vec()),
        ),
        ("x-attempts", Value::U32(3)),
        ("tenant", Value::LongStr(tenant.as_bytes().to_vec())),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let message = Message {
        properties: Properties {
            message_id: id.map(str::to_owned),
            content_type: Some("application/json".to_owned()),
            headers: Some(headers),
            ..Properties::default()
        },
        // A stranger's escape sequence after the JSON: the body is text then.
        body: format!("{{\"order\":{position}}}\u{1b}[2J").into_bytes(),
        ..Message::default()
    };
    let queue = queue();
    let dead_letter = decode::decode(&message, &queue.name, &queue.options);
    Entry {
        position,
        preview: decode::job_preview(&message.body, &dead_letter, 60),
        message,
        dead_letter,
    }
}

fn queue() -> crate::queue::QueueSettings {
    crate::settings::resolve_queue("shop.orders", &Default::default(), None).expect("a queue")
}

/// Six dead letters: two exhausted of acme, a fatal one of globex, two twins sharing a message
/// id, one without a message id.
fn browse() -> Browse {
    let mut b = Browse::new(queue(), vec![], filter_from_words, &[]);
    let exhausted = "max attempts (3) exhausted after attempt 3: gateway timed out";
    let entries = vec![
        entry(1, Some("a"), exhausted, "acme"),
        entry(2, Some("b"), exhausted, "acme"),
        entry(3, Some("c"), "fatal error: refused", "globex"),
        entry(4, Some("twin"), exhausted, "globex"),
        entry(5, Some("twin"), exhausted, "globex"),
        entry(6, None, "fatal error: refused", "acme"),
    ];
    let info = SnapshotInfo {
        queue: "shop.orders.dead".to_owned(),
        queue_type: "classic".to_owned(),
        taken_at: NOW - 5,
        depth_at_start: 6,
        scanned: 6,
        ..SnapshotInfo::default()
    };
    b.set_snapshot(entries, info, NOW);
    b
}

fn key(b: &mut Browse, overlay: &mut Overlay, code: KeyCode) -> Effect {
    let mut scroll = 0;
    on_key(
        b,
        overlay,
        KeyEvent::new(code, KeyModifiers::NONE),
        &mut scroll,
        NOW,
    )
}

fn typed(b: &mut Browse, overlay: &mut Overlay, text: &str) {
    for c in text.chars() {
        key(b, overlay, KeyCode::Char(c));
    }
}

fn screen(b: &Browse, overlay: &Overlay, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal
        .draw(|f| draw(f, b, overlay, 0, NOW, Theme { colour: false }))
        .expect("drawn");
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buffer[(x, y)].symbol().to_owned())
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_screen_fits_80x24_with_the_list_the_groups_and_the_dead_letter_whole() {
    let b = browse();
    let shown = screen(&b, &Overlay::None, 80, 24);
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 24);
    assert!(
        lines[0].starts_with("complete: 6 of the 6 dead letters in shop.orders.dead, snapshot 5s"),
        "{shown}"
    );
    assert!(
        lines[2].starts_with("$ queuey dead ls shop.orders"),
        "{shown}"
    );
    assert!(shown.contains("exhausted"), "{shown}");
    assert!(
        shown.contains("    4 exhausted"),
        "the groups by cause:\n{shown}"
    );
    assert!(
        shown.contains("Message 1 of 6 in shop.orders.dead"),
        "the detail:\n{shown}"
    );
    assert!(shown.contains("6 of 6 shown"), "{shown}");
    assert!(
        lines[23].starts_with("? help q quit"),
        "the keys at the bottom:\n{shown}"
    );
    assert!(lines[23].ends_with("E edit"), "every key fits:\n{shown}");
    // What came from the broker is escaped as `dead show` escapes it.
    assert!(!shown.contains('\u{1b}'), "{shown}");
    assert!(shown.contains("{\"order\":1}\\x1b[2J"), "{shown}");
    for size in [(120, 40), (200, 60)] {
        let big = screen(&b, &Overlay::None, size.0, size.1);
        assert!(big.contains("Message 1 of 6"), "{big}");
    }
    let help = screen(&b, &Overlay::Help, 80, 24);
    assert!(help.contains("--older-than"), "{help}");
}

#[test]
fn a_filter_typed_narrows_the_rows_and_an_error_keeps_them() {
    let mut b = browse();
    let mut overlay = Overlay::None;
    key(&mut b, &mut overlay, KeyCode::Char('/'));
    assert!(matches!(overlay, Overlay::Filter { .. }));
    typed(&mut b, &mut overlay, "--header tenant=acme");
    assert_eq!(b.rows.len(), 3);
    assert_eq!(
        b.ls_command_line(),
        "queuey dead ls shop.orders --header tenant=acme"
    );
    key(&mut b, &mut overlay, KeyCode::Enter);
    assert_eq!(overlay, Overlay::None);
    key(&mut b, &mut overlay, KeyCode::Char('/'));
    typed(&mut b, &mut overlay, " --cause tired");
    assert!(
        b.filter_error
            .as_deref()
            .is_some_and(|e| e.contains("tired"))
    );
    assert_eq!(b.rows.len(), 3, "the rows stay");
    let shown = screen(&b, &overlay, 80, 24);
    assert!(shown.contains("✗"), "{shown}");
    key(&mut b, &mut overlay, KeyCode::Esc);
    assert_eq!(b.filter_text, "--header tenant=acme");
    assert_eq!(b.filter_error, None);
}

#[test]
fn groups_count_what_the_filter_keeps_and_enter_filters_by_one() {
    let mut b = browse();
    let mut overlay = Overlay::None;
    assert_eq!(b.groups[0].value.as_deref(), Some("exhausted"));
    assert_eq!(b.groups[0].count, 4);
    key(&mut b, &mut overlay, KeyCode::Tab);
    assert_eq!(b.group_by, GroupBy::JobType);
    key(&mut b, &mut overlay, KeyCode::Tab);
    assert_eq!(b.group_by, GroupBy::Origin);
    key(&mut b, &mut overlay, KeyCode::Tab);
    key(&mut b, &mut overlay, KeyCode::Char('g'));
    key(&mut b, &mut overlay, KeyCode::Down);
    key(&mut b, &mut overlay, KeyCode::Enter);
    assert_eq!(b.filter_text, "--cause fatal");
    assert_eq!(b.rows.len(), 2);
    assert_eq!(b.groups.len(), 1);
}

#[test]
fn marks_select_by_message_id_and_count_every_twin() {
    let mut b = browse();
    let mut overlay = Overlay::None;
    key(&mut b, &mut overlay, KeyCode::End);
    key(&mut b, &mut overlay, KeyCode::Char(' '));
    assert!(b.marks.is_empty());
    assert!(
        b.status
            .as_deref()
            .is_some_and(|s| s.contains("no message id"))
    );
    key(&mut b, &mut overlay, KeyCode::Up);
    key(&mut b, &mut overlay, KeyCode::Char(' '));
    key(&mut b, &mut overlay, KeyCode::Home);
    key(&mut b, &mut overlay, KeyCode::Char(' '));
    assert_eq!(b.marks.len(), 2);
    assert_eq!(b.marked_count(), 3, "the twins are two dead letters");
    assert!(
        b.selection_text().contains("select 3 dead letters"),
        "{}",
        b.selection_text()
    );
    let (dry, real) = b.action_args(Action::Replay, &["--to".to_owned(), "x".to_owned()]);
    assert_eq!(
        dry.expect("a dry run"),
        [
            "dead",
            "replay",
            "shop.orders",
            "--message-id",
            "a",
            "--message-id",
            "twin",
            "--to",
            "x",
            "--dry-run"
        ]
    );
    assert_eq!(real.last().map(String::as_str), Some("x"));
    let (dry, real) = b.action_args(Action::Purge, &[]);
    assert!(dry.is_some_and(|d| d.last().map(String::as_str) == Some("--dry-run")));
    assert_eq!(real.last().map(String::as_str), Some("--yes"));
    key(&mut b, &mut overlay, KeyCode::Char('c'));
    assert!(b.marks.is_empty());
    let (dry, real) = b.action_args(Action::Export, &["out.jsonl".to_owned()]);
    assert_eq!(dry, None);
    assert_eq!(
        real,
        [
            "dead",
            "export",
            "shop.orders",
            "--output-file",
            "out.jsonl"
        ]
    );
}

#[test]
fn edit_takes_a_unique_message_id_else_the_position() {
    let mut b = browse();
    let mut overlay = Overlay::None;
    assert_eq!(
        b.edit_args(),
        ["dead", "edit", "shop.orders", "--message-id", "a"]
    );
    for _ in 0..3 {
        key(&mut b, &mut overlay, KeyCode::Down);
    }
    assert_eq!(
        b.edit_args(),
        ["dead", "edit", "shop.orders", "4"],
        "a twin"
    );
    assert_eq!(key(&mut b, &mut overlay, KeyCode::Char('E')), Effect::Edit);
}

#[test]
fn actions_ask_for_their_flags_and_keys_leave() {
    let mut b = browse();
    let mut overlay = Overlay::None;
    key(&mut b, &mut overlay, KeyCode::Char('R'));
    assert!(matches!(
        overlay,
        Overlay::Prompt {
            action: Action::Replay,
            ..
        }
    ));
    let shown = screen(&b, &overlay, 80, 24);
    assert!(
        shown.contains("every dead letter (no filter): 6"),
        "{shown}"
    );
    typed(&mut b, &mut overlay, "--after 5m");
    assert_eq!(
        key(&mut b, &mut overlay, KeyCode::Enter),
        Effect::Prepare {
            action: Action::Replay,
            typed: "--after 5m".to_owned()
        }
    );
    assert_eq!(
        key(&mut b, &mut overlay, KeyCode::Char('q')),
        Effect::Leave(Leave::Quit)
    );
    assert_eq!(
        key(&mut b, &mut overlay, KeyCode::Esc),
        Effect::Leave(Leave::Quit)
    );
    let mut scroll = 0;
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(
        on_key(&mut b, &mut overlay, ctrl_c, &mut scroll, NOW),
        Effect::Leave(Leave::Interrupted)
    );
    // A filter that does not parse: no action on it.
    b.filter_text = "--cause".to_owned();
    b.reparse();
    key(&mut b, &mut overlay, KeyCode::Char('P'));
    assert_eq!(overlay, Overlay::None);
    assert!(
        b.status
            .as_deref()
            .is_some_and(|s| s.contains("does not parse"))
    );
}

#[test]
fn a_partial_snapshot_says_why() {
    let mut b = browse();
    b.info.depth_at_start = 20_000;
    b.info.scanned = 10_000;
    b.info.cut_at = Some(10_000);
    let line = b.info.summary(NOW);
    assert!(
        line.starts_with("PARTIAL (cut at --limit 10000): 10000 of the 20000"),
        "{line}"
    );
    assert!(!line.contains("complete"), "{line}");
    assert!(
        b.selection_text()
            .contains("the command reads the whole queue")
    );
    b.info.cut_at = None;
    b.info.cut_at_bytes = Some(256 << 20);
    let line = b.info.summary(NOW);
    assert!(
        line.starts_with("PARTIAL (cut at 256 MiB of bodies): "),
        "{line}"
    );
    b.info.cut_at_bytes = None;
    b.info.interrupted = Some("Esc".to_owned());
    assert!(b.info.summary(NOW).starts_with("PARTIAL (stopped by Esc)"));
    // What the look said is behind `?`.
    b.info.notes = vec!["a quorum queue with a delivery limit of 20: ...".to_owned()];
    assert!(b.info.summary(NOW).ends_with("; 1 note (?)"));
    let help = screen(&b, &Overlay::Help, 120, 50);
    assert!(
        help.contains("a quorum queue with a delivery limit of 20"),
        "{help}"
    );
}

#[test]
fn the_dead_letter_scrolls_to_its_last_line_and_no_further() {
    let mut b = browse();
    let mut overlay = Overlay::None;
    let first = screen(&b, &overlay, 80, 24);
    assert!(first.contains("#1 (1/"), "{first}");
    key(&mut b, &mut overlay, KeyCode::Char('d'));
    key(&mut b, &mut overlay, KeyCode::Char('d'));
    let scrolled = screen(&b, &overlay, 80, 24);
    assert!(scrolled.contains("#1 (11/"), "{scrolled}");
    for _ in 0..100 {
        key(&mut b, &mut overlay, KeyCode::Char('d'));
    }
    let lines = b.detail.borrow().as_ref().map_or(0, |(_, l)| l.len());
    assert_eq!(usize::from(b.detail_scroll), lines - 1);
    key(&mut b, &mut overlay, KeyCode::Char('u'));
    assert_eq!(usize::from(b.detail_scroll), lines - 6);
}

#[test]
fn the_help_fits_an_80_column_frame_without_wrapping() {
    // The help is drawn in a bordered frame: 78 columns inside it on an 80-column terminal.
    for line in super::draw::HELP.lines() {
        assert!(
            unicode_width::UnicodeWidthStr::width(line) <= 78,
            "a help line wider than 78 columns wraps mid-sentence: {line:?}"
        );
    }
}
