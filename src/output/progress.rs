//! Progress of long work on stderr: an indicatif bar on a terminal, nothing on a pipe or with
//! `--quiet`.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Output;

/// A progress bar that is only drawn where a human watches.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar counting to `len` (`None`: a spinner), labelled `what`.
    pub fn new(output: Output, len: Option<u64>, what: &str) -> Progress {
        Progress::build(output, len, what, true)
    }

    fn build(output: Output, len: Option<u64>, what: &str, shown: bool) -> Progress {
        if output.quiet || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let target = if shown {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(len, target);
        // `{rate}` rather than indicatif's `{per_sec}`, which prints four decimals.
        let style = ProgressStyle::with_template(
            "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} {rate} {msg}",
        )
        .map(|s| {
            s.with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&super::rate_text(state.per_sec()));
                },
            )
        })
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_prefix(what.to_owned());
        if shown {
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        Progress { bar: Some(bar) }
    }

    pub fn inc(&self, n: u64) {
        if let Some(b) = &self.bar {
            b.inc(n);
        }
    }

    /// A bar whose length is not known yet: drawn from [`Progress::set_length`] on.
    pub fn pending(output: Output, what: &str) -> Progress {
        Progress::build(output, Some(0), what, false)
    }

    /// Sets the length of a [`Progress::pending`] bar, and starts drawing it.
    pub fn set_length(&self, n: u64) {
        if let Some(b) = &self.bar {
            b.set_length(n);
            b.set_draw_target(ProgressDrawTarget::stderr());
            b.enable_steady_tick(Duration::from_millis(200));
        }
    }

    /// Runs `f` (which prints to stderr) with the bar hidden, so that the line is not drawn
    /// over.
    pub fn suspend(&self, f: impl FnOnce()) {
        match &self.bar {
            Some(b) => b.suspend(f),
            None => f(),
        }
    }

    pub fn set_message(&self, text: String) {
        if let Some(b) = &self.bar {
            b.set_message(text);
        }
    }

    /// Removes the bar so that the summary prints on a clean line.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
