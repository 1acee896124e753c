//! Stopping long work cleanly: Ctrl-C (SIGINT), SIGTERM (what `kill`, systemd and Kubernetes
//! send) and SIGHUP (a closed terminal) all set the same flag. The work loops stop taking new
//! messages, finish what is in flight (confirm the copies sent, ack those confirmed), print
//! their summary and exit 130.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when a stop signal arrives.
#[derive(Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    pub fn set(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A flag set by SIGINT, SIGTERM or SIGHUP (from now on: their default action, ending the
/// process at once, is replaced).
pub fn stop_flag() -> StopFlag {
    let flag = StopFlag::default();
    let f = flag.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            f.set();
        }
    });
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        for kind in [SignalKind::terminate(), SignalKind::hangup()] {
            if let Ok(mut s) = signal(kind) {
                let f = flag.clone();
                tokio::spawn(async move {
                    if s.recv().await.is_some() {
                        f.set();
                    }
                });
            }
        }
    }
    flag
}
