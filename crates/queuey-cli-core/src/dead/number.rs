//! JSON numbers compared exactly, as their text writes them: `--where` selects dead letters
//! (and `dead purge --where` removes them) by a number in the body, and serde_json reads an
//! integer beyond 64 bits, or a decimal of more digits than a double holds, as the nearest
//! double, so `123456789012345678901234567890` would equal `123456789012345678901234567891`.
//! Here a number is its decimal value: sign, significant digits and exponent, so `42`, `42.0`
//! and `4.2e1` are one value, and `-0` is `0`. (The number's text is found by
//! [`super::json_text::value_at`].)

/// A JSON number's exact decimal value: `digits` × 10^`exponent`, `digits` without leading or
/// trailing zeros (empty for zero, whose sign is dropped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decimal {
    negative: bool,
    digits: String,
    exponent: i64,
}

impl Decimal {
    /// The value of a JSON number literal (RFC 8259's grammar), `None` for any other text.
    pub fn parse(text: &str) -> Option<Decimal> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let (mantissa, exponent) = match rest.find(['e', 'E']) {
            Some(i) => {
                let e = &rest[i + 1..];
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                (&rest[..i], e.parse::<i64>().ok()?)
            }
            None => (rest, 0),
        };
        let (int, frac) = match mantissa.split_once('.') {
            Some((i, f)) if !f.is_empty() => (i, f),
            Some(_) => return None,
            None => (mantissa, ""),
        };
        let plain = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int.is_empty() || !plain(int) || !plain(frac) || (int.len() > 1 && int.starts_with('0'))
        {
            return None;
        }
        let all = format!("{int}{frac}");
        let significant = all.trim_start_matches('0');
        let trimmed = significant.trim_end_matches('0');
        if trimmed.is_empty() {
            return Some(Decimal {
                negative: false,
                digits: String::new(),
                exponent: 0,
            });
        }
        let dropped = (significant.len() - trimmed.len()) as i64;
        let exponent = exponent
            .checked_sub(frac.len() as i64)?
            .checked_add(dropped)?;
        Some(Decimal {
            negative,
            digits: trimmed.to_owned(),
            exponent,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        Decimal::parse(text).unwrap_or_else(|| panic!("{text} is a number"))
    }

    #[test]
    fn one_value_however_written() {
        assert_eq!(d("42"), d("42.0"));
        assert_eq!(d("42"), d("4.2e1"));
        assert_eq!(d("42"), d("420E-1"));
        assert_eq!(d("0"), d("-0"));
        assert_eq!(d("0"), d("0.000e5"));
        assert_eq!(d("-1.5"), d("-15e-1"));
        assert_ne!(d("1.5"), d("-1.5"));
        assert_ne!(
            d("123456789012345678901234567890"),
            d("123456789012345678901234567891")
        );
        assert_ne!(d("0.1"), d("0.1000000000000000055511151231257827"));
    }

    #[test]
    fn only_json_numbers() {
        for text in [
            "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1_000", "NaN", "1 2",
        ] {
            assert!(Decimal::parse(text).is_none(), "{text:?}");
        }
    }

    #[test]
    fn the_text_at_a_pointer() {
        use crate::dead::json_text::value_at;
        let raw_at = |body: &[u8], tokens: &[String]| {
            value_at(std::str::from_utf8(body).ok()?, tokens).map(str::to_owned)
        };
        let body =
            br#"{"a": {"big": 123456789012345678901234567890, "l": [1, 2.50]}, "a": {"big": 7}}"#;
        let t = |p: &[&str]| raw_at(body, &p.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(t(&["a", "big"]).as_deref(), Some("7"), "the last member");
        let body = br#"{"a": {"big": 123456789012345678901234567890, "l": [1, 2.50]}}"#;
        let t = |p: &[&str]| raw_at(body, &p.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
        assert_eq!(
            t(&["a", "big"]).as_deref(),
            Some("123456789012345678901234567890")
        );
        assert_eq!(t(&["a", "l", "1"]).as_deref(), Some("2.50"));
        assert_eq!(t(&["a", "l", "01"]), None);
        assert_eq!(t(&["a", "l", "2"]), None);
        assert_eq!(t(&["a", "x"]), None);
        assert_eq!(raw_at(b"not json", &[]), None);
    }
}
