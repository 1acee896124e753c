//! Durations as humans write them (`30s`, `1h30m`, `250ms`, `29.2s`) and back.
//!
//! Pure. queuey's own parser rather than a crate's: it takes decimal fractions (`29.2s`, which
//! the seed's example uses), refuses a bare number (is `30` seconds or milliseconds?), and never
//! overflows: the sum is kept in `u128` nanoseconds and checked against `Duration::MAX`.

use std::time::Duration;

const NANOS_PER_UNIT: &[(&[&str], u128)] = &[
    (&["ns", "nsec"], 1),
    (&["us", "µs", "usec"], 1_000),
    (&["ms", "msec", "millis"], 1_000_000),
    (&["s", "sec", "secs", "second", "seconds"], 1_000_000_000),
    (
        &["m", "min", "mins", "minute", "minutes"],
        60 * 1_000_000_000,
    ),
    (&["h", "hr", "hrs", "hour", "hours"], 3_600 * 1_000_000_000),
    (&["d", "day", "days"], 86_400 * 1_000_000_000),
    (&["w", "week", "weeks"], 7 * 86_400 * 1_000_000_000),
];

/// Parses a human duration: one or more `<number><unit>` parts, optionally separated by spaces,
/// each number an integer or a decimal (`1h30m`, `1h 30m`, `29.2s`, `250ms`, `7d`).
pub fn parse_duration(input: &str) -> Result<Duration, String> {
    let text = input.trim();
    if text.is_empty() {
        return Err("empty duration; write it like 30s, 1h30m or 250ms".to_owned());
    }
    let mut total: u128 = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, after) = rest.split_at(number_len);
        let after = after.trim_start();
        if number.is_empty() {
            return Err(format!(
                "invalid duration {input:?}: expected a number at {rest:?} (write it like 30s, 1h30m or 250ms)"
            ));
        }
        let unit_len = after
            .find(|c: char| c.is_ascii_digit() || c == '.' || c.is_whitespace())
            .unwrap_or(after.len());
        let (unit, after_unit) = after.split_at(unit_len);
        if unit.is_empty() {
            return Err(format!(
                "invalid duration {input:?}: {number:?} has no unit (write e.g. {number}s or {number}ms)"
            ));
        }
        let scale = NANOS_PER_UNIT
            .iter()
            .find(|(names, _)| names.contains(&unit))
            .map(|(_, scale)| *scale)
            .ok_or_else(|| {
                format!(
                    "invalid duration {input:?}: unknown unit {unit:?} (use ms, s, m, h, d or w)"
                )
            })?;
        let nanos = scaled(number, scale)
            .ok_or_else(|| format!("invalid duration {input:?}: bad number {number:?}"))?;
        total = total
            .checked_add(nanos)
            .ok_or_else(|| format!("duration {input:?} is too long"))?;
        rest = after_unit.trim_start();
    }
    let secs = u64::try_from(total / 1_000_000_000)
        .map_err(|_| format!("duration {input:?} is too long"))?;
    // The remainder of a division by 10^9 always fits u32.
    let nanos = u32::try_from(total % 1_000_000_000).unwrap_or(0);
    Ok(Duration::new(secs, nanos))
}

/// `number` (digits with at most one `.`) times `scale` nanoseconds, truncated to whole
/// nanoseconds; `None` when the number is malformed or the product overflows.
fn scaled(number: &str, scale: u128) -> Option<u128> {
    let (whole, fraction) = match number.split_once('.') {
        Some((w, f)) => (w, f),
        None => (number, ""),
    };
    if (whole.is_empty() && fraction.is_empty()) || fraction.contains('.') {
        return None;
    }
    let whole: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut nanos = whole.checked_mul(scale)?;
    // Digits past the 38th cannot matter at nanosecond resolution and would overflow 10^k.
    let fraction = &fraction[..fraction.len().min(30)];
    if !fraction.is_empty() {
        let digits: u128 = fraction.parse().ok()?;
        let denominator = 10u128.checked_pow(u32::try_from(fraction.len()).ok()?)?;
        nanos = nanos.checked_add(digits.checked_mul(scale)? / denominator)?;
    }
    Some(nanos)
}

/// Formats whole milliseconds the way [`parse_duration`] reads them: `30s`, `1h30m`,
/// `24d20h31m23s647ms`, `0ms`.
pub fn format_millis(ms: impl Into<u64>) -> String {
    let ms: u64 = ms.into();
    if ms == 0 {
        return "0ms".to_owned();
    }
    const PARTS: &[(&str, u64)] = &[
        ("d", 86_400_000),
        ("h", 3_600_000),
        ("m", 60_000),
        ("s", 1_000),
        ("ms", 1),
    ];
    let mut rest = ms;
    let mut out = String::new();
    for (unit, size) in PARTS {
        let n = rest / size;
        if n > 0 {
            out.push_str(&format!("{n}{unit}"));
            rest %= size;
        }
    }
    out
}

/// An age for tables: the two most significant units of whole seconds (`3d4h`, `5m12s`, `40s`).
pub fn format_age(secs: u64) -> String {
    const PARTS: &[(&str, u64)] = &[("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)];
    let mut out = String::new();
    let mut rest = secs;
    let mut shown = 0;
    for (unit, size) in PARTS {
        let n = rest / size;
        if n > 0 || (shown > 0 && shown < 2) {
            if n > 0 {
                out.push_str(&format!("{n}{unit}"));
            }
            shown += 1;
            rest %= size;
        }
        if shown == 2 {
            break;
        }
    }
    if out.is_empty() { "0s".to_owned() } else { out }
}

/// Formats a duration at millisecond resolution, rounding sub-millisecond parts up so that a
/// non-zero duration never prints as `0ms`.
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_nanos().div_ceil(1_000_000);
    format_millis(u64::try_from(ms).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_what_humans_write() {
        assert_eq!(parse_duration("30s"), Ok(ms(30_000)));
        assert_eq!(parse_duration("1h30m"), Ok(ms(5_400_000)));
        assert_eq!(parse_duration("1h 30m"), Ok(ms(5_400_000)));
        assert_eq!(parse_duration("250ms"), Ok(ms(250)));
        assert_eq!(parse_duration("29.2s"), Ok(ms(29_200)));
        assert_eq!(parse_duration(".5s"), Ok(ms(500)));
        assert_eq!(parse_duration("7d"), Ok(ms(7 * 86_400_000)));
        assert_eq!(parse_duration("2w"), Ok(ms(14 * 86_400_000)));
        assert_eq!(parse_duration("1.5h"), Ok(ms(5_400_000)));
        assert_eq!(parse_duration("0s"), Ok(Duration::ZERO));
        assert_eq!(parse_duration("10 minutes"), Ok(ms(600_000)));
        assert_eq!(parse_duration("1500us"), Ok(Duration::from_micros(1500)));
        assert_eq!(parse_duration(" 5s "), Ok(ms(5000)));
    }

    #[test]
    fn refuses_what_is_ambiguous_or_wrong() {
        for bad in [
            "", "30", "s", "1x", "1..5s", ".s", "1h-30m", "-5s", "abc", "5s3",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad:?} should be refused");
        }
        let err = parse_duration("30").unwrap_err();
        assert!(err.contains("no unit"), "{err}");
    }

    #[test]
    fn never_overflows() {
        assert!(parse_duration("99999999999999999999999999999999999999999w").is_err());
        assert!(parse_duration("40000000000000w").is_err());
        assert!(parse_duration("584942417356w").is_ok());
        assert!(parse_duration("1.00000000000000000000000000000000000000000001s").is_ok());
    }

    #[test]
    fn ages() {
        assert_eq!(format_age(0), "0s");
        assert_eq!(format_age(40), "40s");
        assert_eq!(format_age(312), "5m12s");
        assert_eq!(format_age(3 * 86_400 + 4 * 3_600 + 59), "3d4h");
        assert_eq!(format_age(86_400 + 30), "1d");
    }

    #[test]
    fn formats_and_round_trips() {
        assert_eq!(format_millis(30_000u64), "30s");
        assert_eq!(format_millis(5_400_000u64), "1h30m");
        assert_eq!(format_millis(2_147_483_647u64), "24d20h31m23s647ms");
        assert_eq!(format_millis(0u64), "0ms");
        for n in [1, 999, 1000, 61_001, 86_400_000, 4_294_967_295] {
            assert_eq!(parse_duration(&format_millis(n)), Ok(ms(n)));
        }
        assert_eq!(format_duration(Duration::from_nanos(1)), "1ms");
    }
}
