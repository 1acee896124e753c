//! Time as queuey shows it: the broker's wall-clock timestamps (`idle_since`) read, times
//! printed in UTC, and the one clock read of a run's `now`.
//!
//! RabbitMQ 3.10 prints `idle_since` as `2026-11-29T13:59:29.881+00:00` (ISO 8601, milliseconds,
//! an offset); older brokers printed `2026-11-29 13:59:29` (UTC, no offset). Both are read into
//! milliseconds since the Unix epoch. No time zone database is needed: only numeric offsets
//! occur. The civil-date arithmetic is Howard Hinnant's `days_from_civil`, in integers.

/// Milliseconds since 1970-01-01T00:00:00Z of a broker timestamp, `None` when it is not one.
pub fn parse_timestamp(text: &str) -> Option<i64> {
    let t = text.trim();
    let b = t.as_bytes();
    if b.len() < 19 {
        return None;
    }
    let num = |range: std::ops::Range<usize>| -> Option<i64> {
        let s = t.get(range)?;
        if s.bytes().all(|c| c.is_ascii_digit()) {
            s.parse().ok()
        } else {
            None
        }
    };
    if b[4] != b'-' || b[7] != b'-' || !(b[10] == b'T' || b[10] == b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    if second > 60 {
        return None;
    }
    let mut rest = &t[19..];
    let mut millis = 0i64;
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        // The first three digits are milliseconds; further digits are dropped.
        let ms_text: String = frac[..digits]
            .chars()
            .chain("000".chars())
            .take(3)
            .collect();
        millis = ms_text.parse().ok()?;
        rest = &frac[digits..];
    }
    let offset_minutes = match rest {
        "" | "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let body = &rest[1..];
            let (h, m) = match body.len() {
                5 if body.as_bytes()[2] == b':' => (body.get(0..2)?, body.get(3..5)?),
                4 => (body.get(0..2)?, body.get(2..4)?),
                2 => (body, "00"),
                _ => return None,
            };
            let h: i64 = h.parse().ok()?;
            let m: i64 = m.parse().ok()?;
            if h > 23 || m > 59 {
                return None;
            }
            sign * (h * 60 + m)
        }
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset_minutes * 60;
    Some(seconds * 1_000 + millis)
}

/// `2026-11-29T13:59:29Z` for milliseconds since the epoch (seconds precision).
pub fn format_utc(millis: i64) -> String {
    let secs = millis.div_euclid(1_000);
    let days = secs.div_euclid(86_400);
    let in_day = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        in_day / 3_600,
        in_day % 3_600 / 60,
        in_day % 60
    )
}

/// The last second of the year 9999: later, a time is shown as its number.
const LAST_SECOND_OF_9999: u64 = 253_402_300_799;

/// Seconds since the epoch as `2026-11-29 13:57:32 UTC` (proleptic Gregorian, no leap seconds):
/// death times and message timestamps in `dead show` and `dead ls`. A time past the year 9999
/// (a forged or mistyped header: `u64::MAX`) is shown as its number, not as a date it is not
/// (it was clamped to `i64::MAX` seconds, a date in the year 292277026596).
pub fn utc_time(secs: u64) -> String {
    if secs > LAST_SECOND_OF_9999 {
        return format!("{secs} s after the epoch (past the year 9999)");
    }
    let secs = i64::try_from(secs).unwrap_or(i64::MAX);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let in_day = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        in_day / 3_600,
        in_day % 3_600 / 60,
        in_day % 60
    )
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_times() {
        assert_eq!(utc_time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_time(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_time(1_795_960_652), "2026-11-29 13:57:32 UTC");
        assert_eq!(utc_time(LAST_SECOND_OF_9999), "9999-12-31 23:59:59 UTC");
        assert_eq!(
            utc_time(LAST_SECOND_OF_9999 + 1),
            "253402300800 s after the epoch (past the year 9999)"
        );
        assert_eq!(
            utc_time(u64::MAX),
            "18446744073709551615 s after the epoch (past the year 9999)"
        );
    }

    #[test]
    fn reads_the_formats_rabbitmq_prints() {
        // 2026-11-29T13:59:29.881Z
        let expected = 1_795_960_769_881;
        assert_eq!(
            parse_timestamp("2026-11-29T13:59:29.881+00:00"),
            Some(expected)
        );
        assert_eq!(parse_timestamp("2026-11-29T13:59:29.881Z"), Some(expected));
        assert_eq!(parse_timestamp("2026-11-29 13:59:29"), Some(expected - 881));
        assert_eq!(
            parse_timestamp("2026-11-29T14:59:29.881+01:00"),
            Some(expected)
        );
        assert_eq!(parse_timestamp("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_timestamp("2026-11-29T13:59:29.8+00:00"),
            Some(expected - 81)
        );
    }

    #[test]
    fn refuses_what_is_not_a_timestamp() {
        for bad in [
            "",
            "yesterday",
            "2026-13-01 00:00:00",
            "2026-11-29T13:59",
            "2026-11-29T13:59:29.+00:00",
            "2026-11-29T13:59:29 CET",
            "２０２６-11-29T13:59:29Z",
        ] {
            assert_eq!(parse_timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn formats_and_round_trips() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(1_795_960_769_881), "2026-11-29T13:59:29Z");
        for ms in [0, 951_782_400_000, 4_102_444_800_000, 1_709_164_800_000] {
            assert_eq!(parse_timestamp(&format_utc(ms)), Some(ms));
        }
    }
}
