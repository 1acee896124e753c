//! `queuey dead browse`: the dead letters of a queue on a full-screen terminal. A snapshot is
//! read with the look of `dead ls` ([`snapshot`]) and the connection closed, so the open
//! screen holds nothing; `r` reads a new one. Actions run queuey itself ([`children`]) with the
//! command line the screen shows, its dry run first.

mod children;
mod snapshot;

use std::io::{self, IsTerminal};
use std::time::Duration;

use crate::clock::now_secs;
use crate::endpoint::ConnectionSettings;
use crate::error::{Error, ExitCode, Kind, Result};
use crate::output::Output;
use crate::output::browse::draw::{Theme, draw};
use crate::output::browse::keys::{Action, Effect, Leave, Overlay, on_key, outcome};
use crate::output::browse::state::Browse;
use crate::output::browse::terminal::{Input, Screen, next_input};
use crate::settings::BrowseSettings;
use crate::settings::browse::filter_from_words;
use crate::shell::{dead_ls_command, split};
use crate::signals::{StopFlag, stop_flag};

/// How often the screen looks for a key, a signal, and redraws (the snapshot's age).
const TICK: Duration = Duration::from_millis(100);

pub async fn run(
    connection: &ConnectionSettings,
    settings: &BrowseSettings,
    output: Output,
) -> Result<ExitCode> {
    if output.format != crate::output::Format::Table {
        return Err(
            Error::usage("`queuey dead browse` is a screen, without -o").with_hint(format!(
                "`{} -o json` gives the same dead letters as JSON",
                dead_ls_command(&settings.queue)
            )),
        );
    }
    if !(io::stdin().is_terminal() && io::stdout().is_terminal()) {
        return Err(Error::usage(
            "`queuey dead browse` needs a terminal: its standard input and output are not one",
        )
        .with_hint(format!(
            "`{}` lists the dead letters on a pipe (with the same filters, and -o json)",
            dead_ls_command(&settings.queue)
        )));
    }
    let stop = stop_flag();
    let mut b = Browse::new(
        settings.queue.clone(),
        settings.peek_words.clone(),
        filter_from_words,
        &settings.filter_words,
    );
    // The first snapshot on the terminal as it is: Ctrl-C stops it as it stops `dead ls`.
    output.note(&format!(
        "reading {} (the look of dead ls: every message returned in place)",
        crate::output::sanitize::sanitize(&settings.queue.dead_queue())
    ));
    let (entries, info) = snapshot::take(
        connection,
        &settings.queue,
        settings.peek,
        settings.limit,
        &stop,
    )
    .await?;
    if stop.is_set() {
        output.warn(&format!(
            "interrupted by {} while reading: every message it held is back, nothing removed",
            stop.signal().unwrap_or("a signal")
        ));
        return Ok(ExitCode::Interrupted);
    }
    b.set_snapshot(entries, info, now_secs());
    let mut screen = Screen::take().map_err(|e| terminal_error(&e))?;
    let code = browse(&mut screen, &mut b, connection, settings, &stop).await;
    drop(screen);
    if let Some(signal) = stop.signal() {
        output.note(&format!(
            "stopped by {signal}: the browser held no dead letter (each snapshot returned \
             every one it read)"
        ));
    }
    code
}

fn terminal_error(e: &io::Error) -> Error {
    Error::io("cannot use the terminal", e)
}

/// The screen's loop, until a key or a signal ends it.
async fn browse(
    screen: &mut Screen,
    b: &mut Browse,
    connection: &ConnectionSettings,
    settings: &BrowseSettings,
    stop: &StopFlag,
) -> Result<ExitCode> {
    let theme = Theme::from_env();
    let watch = Watch { stop, theme };
    let mut overlay = Overlay::None;
    let mut scroll = 0u16;
    loop {
        if stop.is_set() {
            return Ok(ExitCode::Interrupted);
        }
        let now = now_secs();
        screen
            .terminal
            .draw(|f| draw(f, b, &overlay, scroll, now, theme))
            .map_err(|e| terminal_error(&e))?;
        let input = next_input(TICK).map_err(|e| terminal_error(&e))?;
        // Lets the signal handlers run between keys.
        tokio::task::yield_now().await;
        let Input::Key(key) = input else { continue };
        panic_for_tests(key);
        match on_key(b, &mut overlay, key, &mut scroll, now) {
            Effect::None => {}
            Effect::Leave(Leave::Quit) => return Ok(ExitCode::Ok),
            Effect::Leave(Leave::Interrupted) => return Ok(ExitCode::Interrupted),
            Effect::Refresh => {
                if refresh(screen, b, connection, settings, stop, theme).await? {
                    return Ok(ExitCode::Interrupted);
                }
            }
            Effect::Prepare { action, typed } => {
                let (shown, leave) = prepare(screen, b, settings, action, &typed, watch).await?;
                if leave {
                    return Ok(ExitCode::Interrupted);
                }
                overlay = shown;
            }
            Effect::Run { action, args } => {
                let (shown, code, leave) =
                    run_shown(screen, b, settings, action, &args, watch).await?;
                if leave {
                    return Ok(ExitCode::Interrupted);
                }
                if refresh(screen, b, connection, settings, stop, theme).await? {
                    return Ok(ExitCode::Interrupted);
                }
                b.status = Some(format!(
                    "{}: exit code {}; the list is a new snapshot",
                    action.name(),
                    exit_text(code)
                ));
                overlay = shown;
            }
            Effect::Edit => {
                let args = b.action_args(Action::Edit, &[]).1;
                screen.suspend();
                let code = children::run_on_terminal(settings, &args);
                screen.resume().map_err(|e| terminal_error(&e))?;
                if refresh(screen, b, connection, settings, stop, theme).await? {
                    return Ok(ExitCode::Interrupted);
                }
                b.status = Some(format!(
                    "edit: exit code {}; the list is a new snapshot",
                    exit_text(code)
                ));
            }
        }
    }
}

/// For the test that the terminal is given back on a panic: with `QUEUEY_TEST_BROWSE_PANIC`
/// set, `!` panics.
fn panic_for_tests(key: ratatui::crossterm::event::KeyEvent) {
    if key.code == ratatui::crossterm::event::KeyCode::Char('!')
        && std::env::var_os("QUEUEY_TEST_BROWSE_PANIC").is_some()
    {
        panic!("QUEUEY_TEST_BROWSE_PANIC: a panic on the screen, as asked");
    }
}

/// Runs `queuey ARGS` for `action`, the screen saying so meanwhile: what it printed and its
/// exit code, as the overlay that shows them, and whether Ctrl-C asked to leave the browser.
async fn run_shown(
    screen: &mut Screen,
    b: &mut Browse,
    settings: &BrowseSettings,
    action: Action,
    args: &[String],
    watch: Watch<'_>,
) -> Result<(Overlay, Option<i32>, bool)> {
    let ran = run_watched(screen, b, settings, args, watch).await?;
    let shown = Overlay::Output {
        title: format!("dead {}", action.name()),
        text: outcome(args, &ran.printed, ran.code),
    };
    Ok((shown, ran.code, ran.leave))
}

/// What the screen needs while a command runs: the stop flag (a signal to the browser stops
/// the command too) and the colours.
#[derive(Clone, Copy)]
struct Watch<'a> {
    stop: &'a StopFlag,
    theme: Theme,
}

/// A command the screen ran: what it printed, its exit code (`None`: a signal ended it), and
/// whether Ctrl-C stopped it (the browser then ends, as Ctrl-C ends it at any other time).
struct Ran {
    printed: String,
    code: Option<i32>,
    leave: bool,
}

/// Runs `queuey ARGS` with no terminal, the status line counting the seconds. Esc stops it as
/// Ctrl-C stops the command on a terminal (SIGINT: it settles what it holds, says so and exits
/// 130), and so do Ctrl-C (then the browser ends) and a signal to the browser. A command
/// stopped keeps every guarantee of its own Ctrl-C: the screen shows what it did.
async fn run_watched(
    screen: &mut Screen,
    b: &mut Browse,
    settings: &BrowseSettings,
    args: &[String],
    watch: Watch<'_>,
) -> Result<Ran> {
    let line = crate::output::browse::state::command_text(args);
    let mut running = match children::start(settings, args) {
        Ok(running) => running,
        Err(e) => {
            return Ok(Ran {
                printed: format!("cannot run queuey: {e}"),
                code: Some(-1),
                leave: false,
            });
        }
    };
    let started = std::time::Instant::now();
    let (mut stopped_by, mut leave) = (None::<&str>, false);
    loop {
        if let Some((printed, code)) = running.ended() {
            return Ok(Ran {
                printed,
                code,
                leave: leave || watch.stop.is_set(),
            });
        }
        if stopped_by.is_none() && watch.stop.is_set() {
            running.interrupt();
            stopped_by = Some(watch.stop.signal().unwrap_or("a signal"));
        }
        b.status = Some(match stopped_by {
            None => format!(
                "running, {} s (Esc stops it): $ {line}",
                started.elapsed().as_secs()
            ),
            Some(by) => format!("stopping ({by}), it settles what it holds: $ {line}"),
        });
        redraw(screen, b, &Overlay::None, watch.theme)?;
        match next_input(TICK) {
            Ok(Input::Key(k)) if stopped_by.is_none() => {
                if let Some(stop) = stop_key(k) {
                    running.interrupt();
                    stopped_by = Some(stop.name);
                    leave |= stop.leave;
                }
            }
            Ok(_) => {}
            // The terminal is gone: the command is stopped and waited for as it is dropped.
            Err(e) => return Err(terminal_error(&e)),
        }
        // Lets the signal handlers run.
        tokio::task::yield_now().await;
    }
}

/// An exit code as the status line says it (`None`: a signal ended the command).
fn exit_text(code: Option<i32>) -> String {
    code.map_or("none (a signal)".to_owned(), |c| c.to_string())
}

fn redraw(screen: &mut Screen, b: &Browse, overlay: &Overlay, theme: Theme) -> Result<()> {
    let now = now_secs();
    screen
        .terminal
        .draw(|f| draw(f, b, overlay, 0, now, theme))
        .map(|_| ())
        .map_err(|e| terminal_error(&e))
}

/// The action's command on the selection with the flags typed: its dry run, shown for a y/n,
/// or (export) the command itself, shown with what it printed; and whether Ctrl-C asked to
/// leave the browser while it ran.
async fn prepare(
    screen: &mut Screen,
    b: &mut Browse,
    settings: &BrowseSettings,
    action: Action,
    typed: &str,
    watch: Watch<'_>,
) -> Result<(Overlay, bool)> {
    let typed = match split(typed) {
        Ok(words) => words,
        Err(e) => {
            b.status = Some(format!("{}: {e}; nothing done", action.name()));
            return Ok((Overlay::None, false));
        }
    };
    let (dry, real) = b.action_args(action, &typed);
    let Some(dry) = dry else {
        let (shown, code, leave) = run_shown(screen, b, settings, action, &real, watch).await?;
        b.status = Some(format!("{}: exit code {}", action.name(), exit_text(code)));
        return Ok((shown, leave));
    };
    let ran = run_watched(screen, b, settings, &dry, watch).await?;
    let mut shown = format!(
        "{}\n\n{}\n",
        b.selection_text(),
        outcome(&dry, &ran.printed, ran.code)
    );
    if ran.code != Some(0) {
        let how = if ran.code == Some(130) {
            "was stopped"
        } else {
            "failed"
        };
        b.status = Some(format!(
            "{}: the dry run {how}; nothing done",
            action.name()
        ));
        let shown = Overlay::Output {
            title: format!("dead {} --dry-run", action.name()),
            text: shown,
        };
        return Ok((shown, ran.leave));
    }
    b.status = Some(format!(
        "{}: dry run done; y runs it for real, n cancels",
        action.name()
    ));
    shown.push_str(&format!(
        "\ny runs, n cancels:\n$ {}",
        crate::output::browse::state::command_text(&real)
    ));
    let confirm = Overlay::Confirm {
        action,
        args: real,
        shown,
    };
    Ok((confirm, ran.leave))
}

/// A key that stops work the screen waits on (a snapshot being read, a command running): Esc
/// stops it, Ctrl-C stops it and then ends the browser.
struct StopKey {
    name: &'static str,
    leave: bool,
}

fn stop_key(key: ratatui::crossterm::event::KeyEvent) -> Option<StopKey> {
    use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
        Some(StopKey {
            name: "Ctrl-C",
            leave: true,
        })
    } else if key.code == KeyCode::Esc {
        Some(StopKey {
            name: "Esc",
            leave: false,
        })
    } else {
        None
    }
}

/// A new snapshot in place of the old one, the screen saying so meanwhile; Esc stops it (what
/// it read is kept, said partial), Ctrl-C and the signals too, and then the browser ends:
/// `true`. An error (the broker gone) is said on the screen, and the old snapshot kept.
async fn refresh(
    screen: &mut Screen,
    b: &mut Browse,
    connection: &ConnectionSettings,
    settings: &BrowseSettings,
    stop: &StopFlag,
    theme: Theme,
) -> Result<bool> {
    b.status = Some(format!(
        "reading {} (the look of dead ls; Esc stops it)…",
        crate::output::sanitize::sanitize(&settings.queue.dead_queue())
    ));
    redraw(screen, b, &Overlay::None, theme)?;
    let local = StopFlag::default();
    let mut leave = false;
    let watch = async {
        loop {
            if let Some(signal) = stop.signal() {
                local.set_by(signal);
            } else if stop.is_set() {
                local.set_by("a signal");
            }
            match next_input(Duration::ZERO) {
                Ok(Input::Key(k)) => {
                    if let Some(stop) = stop_key(k) {
                        leave |= stop.leave;
                        local.set_by(stop.name);
                    }
                }
                Ok(Input::Redraw) => {}
                Err(_) => local.set_by("a closed terminal"),
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let taken = tokio::select! {
        taken = snapshot::take(connection, &settings.queue, settings.peek, settings.limit, &local) => taken,
        () = watch => unreachable!("the watch loops until the snapshot is taken"),
    };
    match taken {
        Ok((entries, info)) => {
            b.set_snapshot(entries, info, now_secs());
            b.status = None;
        }
        Err(e) if e.kind == Kind::BrokenPipe => return Err(e),
        Err(e) => {
            b.status = Some(format!(
                "no new snapshot: {}",
                crate::output::for_stderr(&e.to_string()).replace('\n', " ")
            ));
        }
    }
    Ok(leave || stop.is_set())
}
