//! The terminal the browser takes: raw mode and the alternate screen, given back (raw mode off,
//! the screen before it, the cursor shown) however the browser ends: a key, a signal, an error
//! or a panic (the panic hook gives it back before the message is printed, so that the message
//! is readable). Only kill -9 leaves it taken (`reset` gives it back).

use std::io::{self, Stdout};
use std::sync::Once;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{self, Event, KeyEvent, KeyEventKind};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// The terminal, taken; given back when dropped.
pub struct Screen {
    pub terminal: Term,
}

static PANIC_HOOK: Once = Once::new();

impl Screen {
    pub fn take() -> io::Result<Screen> {
        PANIC_HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                give_back();
                previous(info);
            }));
        });
        let terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
        let mut screen = Screen { terminal };
        screen.resume()?;
        Ok(screen)
    }

    /// Gives the terminal back for a while (an editor runs on it).
    pub fn suspend(&mut self) {
        give_back();
    }

    /// Takes it again, and draws the whole screen anew (a new terminal draws every cell:
    /// `Terminal::clear` would ask the terminal where its cursor is, and not every terminal
    /// answers).
    pub fn resume(&mut self) -> io::Result<()> {
        enable_raw_mode()?;
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            Hide,
            Clear(ClearType::All)
        )?;
        self.terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
        Ok(())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        give_back();
    }
}

/// Raw mode off, the screen before, the cursor shown: each step tried, whatever failed before
/// (a terminal that is gone fails them all, and nothing is left to give back).
fn give_back() {
    let _ = disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, Show);
}

/// What the terminal said within `wait`.
#[derive(Debug)]
pub enum Input {
    Key(KeyEvent),
    /// A resize, or nothing: draw again.
    Redraw,
}

/// The next key pressed within `wait`; an error when the terminal is gone (hung up: closed,
/// or its session lost).
///
/// The terminal is asked first whether it hung up: the terminal library reads a hung-up
/// terminal's end of input again and again without returning, and would never let the screen
/// end.
pub fn next_input(wait: Duration) -> io::Result<Input> {
    ready(Duration::ZERO)?;
    // Keys read already and not yet handed on first, then the terminal.
    let pressed = event::poll(Duration::ZERO)? || (ready(wait)? && event::poll(Duration::ZERO)?);
    if !pressed {
        return Ok(Input::Redraw);
    }
    Ok(match event::read()? {
        Event::Key(key) if key.kind != KeyEventKind::Release => Input::Key(key),
        _ => Input::Redraw,
    })
}

/// Whether standard input has something to read within `wait`, or an error when the terminal
/// hung up.
fn ready(wait: Duration) -> io::Result<bool> {
    let mut fd = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: libc::POLLIN,
        revents: 0,
    };
    let millis = libc::c_int::try_from(wait.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: one pollfd, alive for the call.
    let n = unsafe { libc::poll(&mut fd, 1, millis) };
    if n < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::Interrupted {
            Ok(false)
        } else {
            Err(e)
        };
    }
    if fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
        return Err(io::Error::new(
            io::ErrorKind::BrokenPipe,
            "the terminal hung up",
        ));
    }
    Ok(n > 0)
}
