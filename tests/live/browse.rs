//! `queuey dead browse` on a pseudo-terminal, on the real broker: keys sent, screens read (a
//! vt100 parser), and q.dead counted before and after. However the screen ends (q, Ctrl-C,
//! SIGTERM, the terminal closed, kill -9), q.dead holds what it held, message for message, and
//! no consumer is left; the terminal is given back whenever the process could give it back. A
//! filter typed narrows the list and shows its `dead ls` command line; a replay from the screen
//! leaves what the same command line leaves, a purge of marked dead letters removes every one
//! with a marked message id and nothing else, an edit runs `dead edit` on the terminal and
//! comes back; without a terminal it refuses (exit 2).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::Path;
use std::time::{Duration, Instant};

use lapin::types::FieldTable;
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

use crate::common::{Broker, Queuey, code, dead_letters, stderr, wait_until};

/// Deadline of every wait on the screen or the process.
const WAIT: Duration = Duration::from_secs(30);

/// `queuey ARGS` on a pseudo-terminal of 80x24, its screen kept by a vt100 parser.
struct Tui {
    master: Option<Box<dyn MasterPty + Send>>,
    reader: Option<Box<dyn Read + Send>>,
    writer: Option<Box<dyn Write + Send>>,
    child: Box<dyn Child + Send + Sync>,
    parser: vt100::Parser,
}

impl Tui {
    fn spawn(dir: &Path, args: &[&str]) -> Tui {
        Tui::spawn_with(dir, args, &[])
    }

    /// [`Tui::spawn`] with more variables.
    fn spawn_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Tui {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: 24,
                cols: 80,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(assert_cmd::cargo::cargo_bin("queuey"));
        cmd.args(args);
        cmd.env_clear();
        // The same environment as every test's command, on a terminal.
        for (k, v) in Queuey::in_dir(dir).process().get_envs() {
            if let Some(v) = v {
                cmd.env(k, v);
            }
        }
        cmd.env("TERM", "xterm-256color");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.cwd(dir);
        let child = pair
            .slave
            .spawn_command(cmd)
            .expect("queuey on the terminal");
        drop(pair.slave);
        let fd = pair.master.as_raw_fd().expect("the master's fd");
        // Read without blocking, so that the test alone holds the master and can close it.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        Tui {
            reader: Some(pair.master.try_clone_reader().expect("a reader")),
            writer: Some(pair.master.take_writer().expect("a writer")),
            master: Some(pair.master),
            child,
            parser: vt100::Parser::new(
                NonZeroU16::new(24).expect("rows"),
                NonZeroU16::new(80).expect("columns"),
                0,
            ),
        }
    }

    fn pid(&self) -> i32 {
        self.child.process_id().expect("a pid") as i32
    }

    /// Reads what the terminal got so far into the screen.
    fn pump(&mut self) {
        let Some(reader) = self.reader.as_mut() else {
            return;
        };
        let mut buf = [0u8; 65536];
        loop {
            match reader.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => self.parser.process(&buf[..n]),
                Err(_) => return,
            }
        }
    }

    fn screen(&mut self) -> String {
        self.pump();
        self.parser.screen().contents()
    }

    /// Waits until the screen shows `text`, whole (a frame may reach the terminal in several
    /// writes: the screen is taken once it stays the same a moment), and returns it.
    fn wait_for(&mut self, text: &str) -> String {
        let start = Instant::now();
        let mut seen = String::new();
        loop {
            let screen = self.screen();
            if screen.contains(text) && screen == seen {
                return screen;
            }
            seen = screen.clone();
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("queuey ended ({status:?}) before showing {text:?}:\n{screen}");
            }
            assert!(
                start.elapsed() < WAIT,
                "the screen never showed {text:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// An action's key, its flags typed and Enter: its dry run shown, asking y/n (returned).
    fn dry_run(&mut self, key: &str, action: &str, flags: &str) -> String {
        self.send(key);
        self.wait_for(&format!("{action} flags"));
        self.send(&format!("{flags}\r"));
        self.wait_for("run it for real? y / n")
    }

    fn send(&mut self, keys: &str) {
        let w = self.writer.as_mut().expect("the terminal is open");
        w.write_all(keys.as_bytes()).expect("keys sent");
        w.flush().expect("keys flushed");
    }

    /// Waits for the process to end: its exit code, or the signal that ended it.
    fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let status = self.wait_exit_or_kill();
        status.unwrap_or_else(|| panic!("queuey did not end:\n{}", self.screen()))
    }

    /// The process's end, or `None` when it is still running at the deadline (then killed, so
    /// that no test leaves one behind).
    fn wait_exit_or_kill(&mut self) -> Option<portable_pty::ExitStatus> {
        let start = Instant::now();
        loop {
            self.pump();
            if let Some(status) = self.child.try_wait().expect("the child's status") {
                self.pump();
                return Some(status);
            }
            if start.elapsed() > WAIT {
                let _ = self.child.kill();
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether the terminal is as queuey found it: the main screen, the cursor shown, and the
    /// line discipline back (canonical input and echo: raw mode off).
    fn given_back(&mut self) -> bool {
        self.pump();
        let fd = self
            .master
            .as_ref()
            .and_then(|m| m.as_raw_fd())
            .expect("the terminal is open");
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        assert_eq!(unsafe { libc::tcgetattr(fd, &mut t) }, 0, "tcgetattr");
        let cooked = t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0;
        let s = self.parser.screen();
        cooked && !s.alternate_screen() && !s.hide_cursor()
    }

    /// Closes the terminal (a closed window, a lost ssh session): the kernel hangs it up.
    fn close(&mut self) {
        self.reader = None;
        self.writer = None;
        self.master = None;
    }
}

impl Drop for Tui {
    /// A failed test leaves no queuey running.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The ids in `queue` as a multiset (each id with how often it is there).
fn id_counts(broker: &Broker, queue: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for id in broker.ids(queue) {
        *out.entry(id).or_default() += 1;
    }
    out
}

/// How a test ends the screen.
#[derive(Clone, Copy, Debug)]
enum WayOut {
    Q,
    CtrlC,
    Sigterm,
    CloseTerminal,
    Kill9,
    /// A bug: the panic hook gives the terminal back before the message is printed.
    Panic,
}

/// A `q.dead` of `n` dead letters, classic or quorum (a delivery limit of 100: a look on 3.x
/// spends one delivery, and the test reads the queue itself a few times).
fn dead_queue(broker: &Broker, label: &str, n: usize, quorum: bool) -> (String, String) {
    if !quorum {
        return dead_letters(broker, label, n, None);
    }
    let (q, dead) = broker.quorum_dead_queue(label, 100);
    let ids: Vec<String> = (0..n).map(|i| format!("m-{i}")).collect();
    broker.publish_ids(&dead, &ids);
    (q, dead)
}

fn every_way_out_leaves_q_dead_as_it_was(quorum: bool) {
    let broker = Broker::connect();
    let (q, dead) = dead_queue(&broker, "browse-out", 20, quorum);
    let before = id_counts(&broker, &dead);
    let ready = before.values().sum::<usize>() as u32;
    let dir = tempfile::tempdir().expect("a directory");
    for way in [
        WayOut::Q,
        WayOut::CtrlC,
        WayOut::Sigterm,
        WayOut::CloseTerminal,
        WayOut::Kill9,
        WayOut::Panic,
    ] {
        let mut args = vec!["dead", "browse", q.as_str()];
        if quorum {
            args.push("--spend-delivery-budget");
        }
        let mut tui = Tui::spawn_with(dir.path(), &args, &[("QUEUEY_TEST_BROWSE_PANIC", "1")]);
        // The keys are the screen's last line: it is whole once they are there.
        let screen = tui.wait_for("E edit");
        assert!(
            screen.contains("20 of the 20 dead letters") && screen.contains("20 of 20 shown"),
            "{way:?}: the snapshot and the list:\n{screen}"
        );
        let status = match way {
            WayOut::Q => {
                tui.send("q");
                tui.wait_exit()
            }
            WayOut::CtrlC => {
                tui.send("\x03");
                tui.wait_exit()
            }
            WayOut::Sigterm => {
                unsafe { libc::kill(tui.pid(), libc::SIGTERM) };
                tui.wait_exit()
            }
            WayOut::CloseTerminal => {
                tui.close();
                tui.wait_exit()
            }
            WayOut::Kill9 => {
                unsafe { libc::kill(tui.pid(), libc::SIGKILL) };
                tui.wait_exit()
            }
            WayOut::Panic => {
                tui.send("!");
                tui.wait_exit()
            }
        };
        match way {
            WayOut::Q => assert_eq!(status.exit_code(), 0, "{way:?}"),
            WayOut::CtrlC | WayOut::Sigterm => assert_eq!(status.exit_code(), 130, "{way:?}"),
            WayOut::Panic => {
                assert_ne!(status.exit_code(), 0, "{way:?}");
                let screen = tui.screen();
                assert!(screen.contains("a panic on the screen"), "{screen}");
            }
            WayOut::CloseTerminal | WayOut::Kill9 => {}
        }
        if matches!(
            way,
            WayOut::Q | WayOut::CtrlC | WayOut::Sigterm | WayOut::Panic
        ) {
            assert!(tui.given_back(), "{way:?}: the terminal is given back");
        }
        assert_eq!(
            broker.ready_and_consumers(&dead),
            (ready, 0),
            "{way:?}: q.dead's ready count, and no consumer left"
        );
        assert_eq!(
            id_counts(&broker, &dead),
            before,
            "{way:?}: the same messages"
        );
    }
}

#[test]
fn every_way_out_leaves_a_classic_q_dead_as_it_was() {
    every_way_out_leaves_q_dead_as_it_was(false);
}

#[test]
fn every_way_out_leaves_a_quorum_q_dead_as_it_was() {
    every_way_out_leaves_q_dead_as_it_was(true);
}

#[test]
fn a_filter_typed_narrows_the_list_and_shows_its_command_line() {
    let broker = Broker::connect();
    let (q, _dead) = dead_letters(&broker, "browse-filter", 12, None);
    let dir = tempfile::tempdir().expect("a directory");
    let mut tui = Tui::spawn(dir.path(), &["dead", "browse", &q]);
    tui.wait_for("12 of 12 shown");
    tui.send("/--header tenant=acme");
    let screen = tui.wait_for("4 of 12 shown");
    assert!(
        screen.contains("$ queuey dead ls"),
        "the command line is shown:\n{screen}"
    );
    tui.send("\r");
    let screen = tui.wait_for("--header tenant=acme");
    assert!(screen.contains(r#"{"n":3}"#), "{screen}");
    assert!(!screen.contains(r#"{"n":1}"#), "{screen}");
    // A line that does not parse says why, and keeps the rows.
    tui.send("/ --cause tired");
    let screen = tui.wait_for("tired");
    assert!(screen.contains("4 of 12 shown"), "{screen}");
    assert!(screen.contains('✗'), "the error is shown:\n{screen}");
    tui.send("\x1b");
    tui.wait_for("filter: --header tenant=acme");
    // The filter exported: no dry run, the command's own summary.
    tui.send("Xacme.jsonl\r");
    let screen = tui.wait_for("[exit code 0]");
    assert!(screen.contains("--output-file acme.jsonl"), "{screen}");
    tui.send("\r");
    tui.send("q");
    assert_eq!(tui.wait_exit().exit_code(), 0);
    let lines = std::fs::read_to_string(dir.path().join("acme.jsonl")).expect("the export");
    assert_eq!(
        lines.lines().count(),
        4 + 1,
        "4 records and the end line:\n{lines}"
    );
}

#[test]
fn marked_dead_letters_are_purged_by_message_id_twins_included() {
    let broker = Broker::connect();
    let q = broker.queue_name("browse-marks");
    let dead = format!("{q}.dead");
    broker.declare(&dead, FieldTable::default());
    let ids: Vec<String> = ["a", "a", "b", "c", "d"].map(str::to_owned).to_vec();
    broker.publish_ids(&dead, &ids);
    let dir = tempfile::tempdir().expect("a directory");
    let mut tui = Tui::spawn(dir.path(), &["dead", "browse", &q]);
    tui.wait_for("5 of 5 shown");
    // The first a (the selection moves on to the second), then c.
    tui.send(" ");
    tui.send("jj ");
    let screen = tui.wait_for("select 3 dead letters");
    assert!(screen.contains("2 message ids marked"), "{screen}");
    let screen = tui.dry_run("P", "purge", "");
    assert!(screen.contains("--message-id a"), "{screen}");
    assert!(
        screen.contains("3 dead letters of"),
        "the dry run counts the twin:\n{screen}"
    );
    tui.send("y");
    tui.wait_for("2 of the 2 dead letters");
    tui.send("\rq");
    assert_eq!(tui.wait_exit().exit_code(), 0);
    assert_eq!(broker.ids(&dead), ["b", "d"]);
}

#[test]
fn a_replay_from_the_screen_leaves_what_the_command_line_leaves() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "browse-replay", 9, None);
    let (twin, twin_dead) = dead_letters(&broker, "browse-replay-twin", 9, None);
    for work in [&q, &twin] {
        broker.declare(work, FieldTable::default());
    }
    let dir = tempfile::tempdir().expect("a directory");
    let mut tui = Tui::spawn(dir.path(), &["dead", "browse", &q]);
    tui.wait_for("9 of 9 shown");
    tui.send("/--header tenant=globex\r");
    tui.wait_for("3 of 9 shown");
    let screen = tui.dry_run("R", "replay", "");
    assert!(screen.contains("--dry-run"), "{screen}");
    tui.send("y");
    let screen = tui.wait_for("replayed 3");
    assert!(screen.contains("[exit code 0]"), "{screen}");
    tui.send("\r");
    tui.wait_for("6 of the 6 dead letters");
    tui.send("q");
    assert_eq!(tui.wait_exit().exit_code(), 0);

    let out = Queuey::in_dir(dir.path())
        .args(["dead", "replay", &twin, "--header", "tenant=globex"])
        .run();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(id_counts(&broker, &dead), id_counts(&broker, &twin_dead));
    assert_eq!(id_counts(&broker, &q), id_counts(&broker, &twin));
    assert_eq!(broker.ready_and_consumers(&q).0, 3);
}

#[test]
fn without_a_terminal_it_refuses_and_names_dead_ls() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "browse-pipe", 2, None);
    let dir = tempfile::tempdir().expect("a directory");
    let out = Queuey::in_dir(dir.path())
        .args(["dead", "browse", &q])
        .run();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("queuey dead ls"), "{}", stderr(&out));
    // A screen has no JSON: `dead ls -o json` has.
    let out = Queuey::in_dir(dir.path())
        .args(["dead", "browse", &q, "-o", "json"])
        .run();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("-o json"), "{}", stderr(&out));
    assert_eq!(broker.ready_and_consumers(&dead), (2, 0));
}

#[test]
fn an_edit_from_the_screen_runs_dead_edit_on_the_terminal_and_comes_back() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "browse-edit", 3, None);
    broker.declare(&q, FieldTable::default());
    let dir = tempfile::tempdir().expect("a directory");
    let mut tui = Tui::spawn_with(
        dir.path(),
        &["dead", "browse", &q],
        &[("EDITOR", "sed -i s/0/7/"), ("VISUAL", "")],
    );
    tui.wait_for("3 of 3 shown");
    tui.send("E");
    let screen = tui.wait_for("[y/N]");
    assert!(
        screen.contains("--message-id m-0"),
        "the command line is shown:\n{screen}"
    );
    tui.send("y\r");
    tui.wait_for("press Enter to go back");
    tui.send("\r");
    let screen = tui.wait_for("2 of the 2 dead letters");
    assert!(screen.contains("edit: exit code 0"), "{screen}");
    tui.send("q");
    assert_eq!(tui.wait_exit().exit_code(), 0);
    assert!(tui.given_back(), "the terminal is given back");
    let ids: Vec<String> = broker.ids(&dead);
    assert_eq!(ids, ["m-1", "m-2"]);
    let bodies = broker.bodies(&q);
    assert_eq!(bodies.len(), 1, "{bodies:?}");
    assert!(bodies[0].contains('7'), "{bodies:?}");
}

#[test]
fn a_snapshot_cut_at_its_limit_says_so_and_leaves_the_rest() {
    let broker = Broker::connect();
    let (q, dead) = dead_letters(&broker, "browse-limit", 5, None);
    let before = id_counts(&broker, &dead);
    let dir = tempfile::tempdir().expect("a directory");
    let mut tui = Tui::spawn(dir.path(), &["dead", "browse", &q, "--limit", "2"]);
    let screen = tui.wait_for("2 of 2 shown");
    assert!(
        screen.contains("PARTIAL (cut at --limit 2): 2 of the 5 dead letters"),
        "{screen}"
    );
    tui.send("q");
    assert_eq!(tui.wait_exit().exit_code(), 0);
    assert_eq!(id_counts(&broker, &dead), before);
    assert_eq!(broker.ready_and_consumers(&dead), (5, 0));
}

/// A replay from the screen runs with the seconds counted on the status line, and stops as the
/// command stops on Ctrl-C: Esc stops it and the screen shows what it did (exit 130); Ctrl-C
/// stops it and ends the browser (exit 130), no replay left running behind it. Every dead
/// letter is in `q.dead` or `q` after each, none lost and no consumer left.
#[test]
fn a_replay_from_the_screen_stops_on_esc_or_ctrl_c_as_the_command_stops_and_loses_none() {
    let broker = Broker::connect();
    let n = 300;
    let (q, dead) = dead_letters(&broker, "browse-stop", n, None);
    broker.declare(&q, FieldTable::default());
    let before = id_counts(&broker, &dead);
    let dir = tempfile::tempdir().expect("a directory");
    let both = |broker: &Broker| {
        let mut all = id_counts(broker, &dead);
        for (id, k) in id_counts(broker, &q) {
            *all.entry(id).or_default() += k;
        }
        all
    };
    for (key, leaves) in [("\x1b", false), ("\x03", true)] {
        let in_q = broker.ready_and_consumers(&q).0;
        let mut tui = Tui::spawn(dir.path(), &["dead", "browse", &q]);
        tui.wait_for("E edit");
        // Paced: the replay of what is left takes many seconds.
        tui.dry_run("R", "replay", "--rate 20");
        tui.send("y");
        tui.wait_for("(Esc stops it)");
        // Some copies made, so that it is stopped mid-run.
        wait_until("the replay to copy some", WAIT, || {
            broker.ready_and_consumers(&q).0 >= in_q + 10
        });
        tui.send(key);
        if leaves {
            assert_eq!(tui.wait_exit().exit_code(), 130, "Ctrl-C ends the browser");
            assert!(tui.given_back(), "the terminal is given back");
        } else {
            let screen = tui.wait_for("[exit code 130]");
            assert!(screen.contains("dead replay"), "{screen}");
            tui.send("\rq");
            assert_eq!(tui.wait_exit().exit_code(), 0);
        }
        // The replay has ended with the browser. Watching that nothing more arrives in q (a
        // replay left running copies 20 a second): no condition can say that nothing will.
        let moved = broker.ready_and_consumers(&q).0;
        std::thread::sleep(Duration::from_millis(500));
        assert_eq!(
            broker.ready_and_consumers(&q).0,
            moved,
            "no replay runs on after the browser"
        );
        assert!(moved < n as u32, "stopped mid-run: {moved} of {n} in q");
        assert_eq!(broker.ready_and_consumers(&dead).1, 0, "no consumer left");
        let all = both(&broker);
        for (id, k) in &before {
            assert!(all.get(id).copied().unwrap_or(0) >= *k, "{id} lost");
        }
    }
}
