//! Broker timestamps: written and read back, and a parser that never panics.

use proptest::prelude::*;
use queuey_cli::output::time::{format_utc, parse_timestamp};

proptest! {
    #[test]
    fn broker_timestamps_round_trip(secs in 0i64..=253_402_300_799) {
        let ms = secs * 1000;
        prop_assert_eq!(parse_timestamp(&format_utc(ms)), Some(ms));
        let iso = format_utc(ms).replace('Z', ".000+00:00");
        prop_assert_eq!(parse_timestamp(&iso), Some(ms));
    }

    #[test]
    fn the_timestamp_parser_never_panics(s in "\\PC{0,40}", t in "[0-9T:. +Z-]{0,32}") {
        let _ = parse_timestamp(&s);
        let _ = parse_timestamp(&t);
    }
}
