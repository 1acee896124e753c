//! Stopping long work cleanly: Ctrl-C (SIGINT), SIGTERM (what `kill`, systemd and Kubernetes
//! send) and SIGHUP (a closed terminal) all set the same flag. The work loops stop taking new
//! messages, settle what they hold (a replay confirms the copies sent and acks those confirmed;
//! a look returns every message it holds), print their summary and exit 130.
//!
//! A leaf: the commands install the handlers, and the broker layer's reads wait on the flag
//! beside the broker, so that a signal is heard even while the broker is silent.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use tokio::sync::Notify;

/// Set when a stop signal arrives.
#[derive(Clone, Default)]
pub struct StopFlag(Arc<Inner>);

#[derive(Default)]
struct Inner {
    set: AtomicBool,
    notify: Notify,
    /// The first signal's name (`SIGINT`, ...), to say what stopped the work.
    signal: OnceLock<&'static str>,
}

impl StopFlag {
    pub fn is_set(&self) -> bool {
        self.0.set.load(Ordering::SeqCst)
    }

    pub fn set(&self) {
        self.0.set.store(true, Ordering::SeqCst);
        self.0.notify.notify_waiters();
    }

    /// Sets the flag, remembering the signal that set it first.
    pub fn set_by(&self, signal: &'static str) {
        let _ = self.0.signal.set(signal);
        self.set();
    }

    /// The signal that set the flag, if a signal did.
    pub fn signal(&self) -> Option<&'static str> {
        self.0.signal.get().copied()
    }

    /// Returns once the flag is set (at once if it already is).
    pub async fn stopped(&self) {
        loop {
            // Created before the check: `notify_waiters` wakes a `Notified` from its creation.
            let notified = self.0.notify.notified();
            if self.is_set() {
                return;
            }
            notified.await;
        }
    }
}

/// A flag set by SIGINT, SIGTERM or SIGHUP (from now on: their default action, ending the
/// process at once, is replaced).
pub fn stop_flag() -> StopFlag {
    let flag = StopFlag::default();
    // Each handler is installed here, before the command goes on, not when a spawned task is
    // first polled: a signal landing between the two would end the process by its default
    // action with deliveries in hand.
    #[cfg(not(unix))]
    {
        let f = flag.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                f.set_by("SIGINT");
            }
        });
    }
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        for (kind, name) in [
            (SignalKind::interrupt(), "SIGINT"),
            (SignalKind::terminate(), "SIGTERM"),
            (SignalKind::hangup(), "SIGHUP"),
        ] {
            if let Ok(mut s) = signal(kind) {
                let f = flag.clone();
                tokio::spawn(async move {
                    if s.recv().await.is_some() {
                        f.set_by(name);
                    }
                });
            }
        }
    }
    flag
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn stopped_returns_once_set_and_remembers_the_first_signal() {
        let flag = StopFlag::default();
        assert!(!flag.is_set());
        assert_eq!(flag.signal(), None);
        let waiter = {
            let flag = flag.clone();
            tokio::spawn(async move { flag.stopped().await })
        };
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        flag.set_by("SIGTERM");
        flag.set_by("SIGINT");
        tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
            .await
            .expect("stopped() returns once the flag is set")
            .expect("the waiter ran");
        assert!(flag.is_set());
        assert_eq!(flag.signal(), Some("SIGTERM"));
        // Already set: at once.
        flag.stopped().await;
    }

    /// A signal that lands as soon as the flag exists (no await between, so no spawned task
    /// has run yet) sets the flag and does not end the process.
    #[cfg(unix)]
    #[tokio::test]
    async fn a_signal_right_after_the_flag_is_made_is_heard() {
        let flag = stop_flag();
        // SAFETY: raise only sends a signal to this thread; the handler above is in place.
        assert_eq!(unsafe { libc::raise(libc::SIGINT) }, 0);
        tokio::time::timeout(std::time::Duration::from_secs(5), flag.stopped())
            .await
            .expect("SIGINT sets the flag");
        assert_eq!(flag.signal(), Some("SIGINT"));
    }
}
