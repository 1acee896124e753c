//! Feeds arbitrary bytes as a message body through what queuey does with a queuey envelope:
//! decoding it as the library does, and the replay's reset of its `attempt`. Nothing may panic,
//! and a body that decodes must still decode after the reset, on attempt 1, with every other
//! field as it was.
//!
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run envelope_body -- -max_total_time=600`
#![no_main]

use libfuzzer_sys::fuzz_target;
use queuey_cli::dead::envelope::{decode, with_first_attempt};

fuzz_target!(|body: &[u8]| {
    let Some(before) = decode(body) else {
        let _ = with_first_attempt(body);
        return;
    };
    let reset = with_first_attempt(body).expect("a decoded envelope has one top-level attempt");
    let after = decode(&reset).expect("the reset body still decodes");
    assert_eq!(after.attempt, 1);
    assert_eq!(after.job_id, before.job_id);
    assert_eq!(after.job_type, before.job_type);
    assert_eq!(after.queue, before.queue);
    assert_eq!(after.enqueued_at_ms, before.enqueued_at_ms);
    assert_eq!(after.deferrals, before.deferrals);
    assert_eq!(after.priority, before.priority);
    assert_eq!(after.correlation_id, before.correlation_id);
});
