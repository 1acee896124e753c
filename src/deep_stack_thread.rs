//! Stacks deep enough for any message the broker sends.
//!
//! AMQP field tables and arrays nest, and the AMQP client's parser (on its own I/O thread,
//! `lapin-io-loop`) and queuey's decoding, display, digest and export all recurse once per
//! level. A content header may take the connection's whole frame (131072 bytes by default):
//! room for 26 000 nested arrays at 5 bytes each, and RabbitMQ takes such a header from any
//! publisher; on the default stacks (2 MiB for a spawned thread, 8 MiB for the main one) a few
//! hundred levels overflow the stack of the thread that decodes it (see docs/broker-notes.md,
//! Connections, TLS and deep headers). So every thread queuey and its
//! client start gets [`STACK_BYTES`]: address space reserved, of which only what a thread uses
//! is ever committed.

use crate::error::ExitCode;

/// The stack of every thread: what the deepest header of a 131072-byte frame needs, with room
/// to spare (an unoptimised build, whose frames are largest, takes about 10 KiB a level in the
/// client's parser).
pub const STACK_BYTES: usize = 512 << 20;

/// Runs `work` on a thread with a stack of [`STACK_BYTES`], after making that the size of every
/// thread started without a size of its own (the AMQP client's: `RUST_MIN_STACK`, unless the
/// environment sets it). Where no such thread can be had, `work` runs here, as before.
pub fn run_on_deep_stacks(work: fn() -> ExitCode) -> ExitCode {
    if std::env::var_os("RUST_MIN_STACK").is_none() {
        // SAFETY: called first in `main`, while no other thread exists to read the
        // environment. std reads RUST_MIN_STACK once, at the first thread started without a
        // size, which is the one joined here; the variable is then taken out again, so that
        // the processes queuey starts (the editor of `dead edit`) get the environment as given.
        unsafe { std::env::set_var("RUST_MIN_STACK", STACK_BYTES.to_string()) };
        let _ = std::thread::spawn(|| ()).join();
        unsafe { std::env::remove_var("RUST_MIN_STACK") };
    }
    match std::thread::Builder::new()
        .name("queuey".to_owned())
        .stack_size(STACK_BYTES)
        .spawn(work)
    {
        Ok(thread) => thread
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        Err(_) => work(),
    }
}
