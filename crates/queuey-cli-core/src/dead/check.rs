//! PURE: `dead check`'s thresholds, and whether what was measured crosses them.
//!
//! A threshold holds while its value is at most its limit; it is crossed above it. A value that
//! could not be measured (the age of a quorum `q.dead` that queuey was not allowed to peek, a
//! head with no time in it, a rate the management API does not give) is reported unknown and
//! crosses nothing: queuey never guesses it, and says why.

use std::time::Duration;

use serde::Serialize;

/// The limits asked for; at least one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thresholds {
    /// `--max-count`: dead letters (matching the filters).
    pub max_count: Option<u64>,
    /// `--max-age`: the oldest dead letter's age.
    pub max_age: Option<Duration>,
    /// `--max-rate`: dead letters arriving per second.
    pub max_rate: Option<f64>,
}

impl Thresholds {
    pub fn is_empty(&self) -> bool {
        self.max_count.is_none() && self.max_age.is_none() && self.max_rate.is_none()
    }
}

/// Where the oldest dead letter's age comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum AgeReading {
    /// `q.dead` (or, with filters, what matches) is empty: no age, nothing old.
    Empty,
    /// Seconds, since the death (`death`) or since the job was enqueued (`enqueued`).
    Known { seconds: u64, since: String },
    /// Not measured, and why.
    Unknown { why: String },
}

/// One threshold's verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// `max-count`, `max-age` or `max-rate`.
    pub threshold: &'static str,
    /// The value measured; `None` when unknown (or, for the age, when q.dead is empty).
    pub value: Option<f64>,
    pub limit: f64,
    pub crossed: bool,
    /// Said beside the value: where the age or the rate comes from, or why it is unknown.
    pub note: Option<String>,
}

/// What one queue's check measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    pub count: u64,
    pub age: Option<AgeReading>,
    /// Dead letters per second, and where the figure comes from; `Err` says why it is unknown.
    pub rate: Option<Result<(f64, String), String>>,
}

/// The verdict of each threshold asked for, in the order count, age, rate.
pub fn judge(t: &Thresholds, m: &Measured) -> Vec<Verdict> {
    let mut out = Vec::new();
    if let Some(limit) = t.max_count {
        out.push(Verdict {
            threshold: "max-count",
            value: Some(m.count as f64),
            limit: limit as f64,
            crossed: m.count > limit,
            note: None,
        });
    }
    if let Some(limit) = t.max_age {
        let limit = limit.as_secs_f64();
        let (value, note) = match &m.age {
            Some(AgeReading::Known { seconds, since }) => {
                (Some(*seconds as f64), Some(format!("since {since}")))
            }
            Some(AgeReading::Empty) => (None, Some("no dead letters".to_owned())),
            Some(AgeReading::Unknown { why }) => (None, Some(format!("unknown: {why}"))),
            None => (None, Some("unknown: not measured".to_owned())),
        };
        out.push(Verdict {
            threshold: "max-age",
            crossed: value.is_some_and(|v| v > limit),
            value,
            limit,
            note,
        });
    }
    if let Some(limit) = t.max_rate {
        let (value, note) = match &m.rate {
            Some(Ok((rate, from))) => (Some(*rate), Some(from.clone())),
            Some(Err(why)) => (None, Some(format!("unknown: {why}"))),
            None => (None, Some("unknown: not measured".to_owned())),
        };
        out.push(Verdict {
            threshold: "max-rate",
            crossed: value.is_some_and(|v| v > limit),
            value,
            limit,
            note,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_threshold_is_crossed_only_above_its_limit_and_never_by_an_unknown() {
        let t = Thresholds {
            max_count: Some(3),
            max_age: Some(Duration::from_secs(60)),
            max_rate: Some(0.5),
        };
        let at_limit = Measured {
            count: 3,
            age: Some(AgeReading::Known {
                seconds: 60,
                since: "death".into(),
            }),
            rate: Some(Ok((0.5, "publish".into()))),
        };
        let v = judge(&t, &at_limit);
        assert_eq!(
            v.iter().map(|v| v.threshold).collect::<Vec<_>>(),
            ["max-count", "max-age", "max-rate"]
        );
        assert!(v.iter().all(|v| !v.crossed), "{v:?}");
        let above = Measured {
            count: 4,
            age: Some(AgeReading::Known {
                seconds: 61,
                since: "death".into(),
            }),
            rate: Some(Ok((0.6, "publish".into()))),
        };
        assert!(judge(&t, &above).iter().all(|v| v.crossed));
        let unknown = Measured {
            count: 0,
            age: Some(AgeReading::Unknown {
                why: "quorum".into(),
            }),
            rate: Some(Err("no statistics".into())),
        };
        let v = judge(&t, &unknown);
        assert!(v.iter().all(|v| !v.crossed));
        assert_eq!(v[1].value, None);
        assert_eq!(v[1].note.as_deref(), Some("unknown: quorum"));
        let empty = Measured {
            age: Some(AgeReading::Empty),
            ..Measured::default()
        };
        assert_eq!(
            judge(&t, &empty)[1].note.as_deref(),
            Some("no dead letters")
        );
        assert!(judge(&Thresholds::default(), &above).is_empty());
        assert!(Thresholds::default().is_empty());
        assert!(
            !Thresholds {
                max_rate: Some(1.0),
                ..Thresholds::default()
            }
            .is_empty()
        );
    }
}
