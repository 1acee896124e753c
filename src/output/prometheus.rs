//! `-o prometheus`: gauges in the Prometheus text exposition format (version 0.0.4), for
//! node_exporter's textfile collector or a scrape wrapper.
//!
//! Commands hand over plain families of samples; the official `prometheus-client` crate writes
//! them (HELP and TYPE lines, label values escaped as the format requires: `\`, `"` and a
//! newline), so queuey never formats the exposition by hand. A family without samples is left
//! out: an unknown value is absent, never a made-up zero. (The crate ends every HELP text with a
//! full stop: the texts here have none.)

use prometheus_client::encoding::prometheus_text;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use std::sync::atomic::AtomicU64;

use crate::error::{Error, Result};

/// Every metric queuey writes starts with this.
pub const PREFIX: &str = "queuey";

/// One gauge and its samples.
#[derive(Clone, Debug, PartialEq)]
pub struct GaugeFamily {
    /// Without the `queuey_` prefix.
    pub name: &'static str,
    pub help: &'static str,
    pub samples: Vec<Sample>,
}

/// One sample: its labels (`vhost`, `queue`, ...) and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub labels: Vec<(&'static str, String)>,
    pub value: f64,
}

impl GaugeFamily {
    pub fn new(name: &'static str, help: &'static str) -> GaugeFamily {
        GaugeFamily {
            name,
            help,
            samples: Vec::new(),
        }
    }

    /// The age of the oldest dead letter, which `status -o prometheus` and `dead check -o
    /// prometheus` both export: one name and one help text.
    pub fn oldest_age() -> GaugeFamily {
        GaugeFamily::new(
            "dead_letter_oldest_age_seconds",
            "Age of the oldest dead letter in q.dead, since its death, else since its job was enqueued",
        )
    }

    /// A lower bound of that age, which `status` and `dead check` both export: the oldest age
    /// known, also when some dead letters have none (no x-death, timestamp or envelope) or were
    /// not read. An alert on it never fires wrongly; the exact gauge is then left out.
    pub fn oldest_age_at_least() -> GaugeFamily {
        GaugeFamily::new(
            "dead_letter_oldest_age_at_least_seconds",
            "The oldest dead letter in q.dead is at least this old: the oldest age known, also when some dead letters have no time or were not read",
        )
    }

    /// Adds a sample when `value` is known.
    pub fn add(&mut self, labels: Vec<(&'static str, String)>, value: Option<f64>) {
        if let Some(value) = value {
            self.samples.push(Sample { labels, value });
        }
    }
}

/// The `vhost` and `queue` labels of a logical queue.
pub fn queue_labels(vhost: &str, queue: &str) -> Vec<(&'static str, String)> {
    vec![("vhost", vhost.to_owned()), ("queue", queue.to_owned())]
}

type Labels = Vec<(String, String)>;

/// The exposition of `families`, in their order.
pub fn render(families: &[GaugeFamily]) -> Result<String> {
    let mut registry = Registry::with_prefix(PREFIX);
    for f in families.iter().filter(|f| !f.samples.is_empty()) {
        let family = Family::<Labels, Gauge<f64, AtomicU64>>::default();
        for s in &f.samples {
            let labels: Labels = s
                .labels
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect();
            family.get_or_create(&labels).set(s.value);
        }
        registry.register(f.name, f.help, family);
    }
    let mut out = String::new();
    prometheus_text::encode(&mut out, &registry)
        .map_err(|e| Error::internal(format!("cannot encode the Prometheus metrics: {e}")))?;
    Ok(out)
}

/// Prints the exposition on stdout.
pub fn print(families: &[GaugeFamily]) -> Result<()> {
    let text = render(families)?;
    let mut out = std::io::stdout().lock();
    std::io::Write::write_all(&mut out, text.as_bytes()).map_err(super::stdout_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_render_with_help_type_and_escaped_labels_and_unknowns_left_out() {
        let mut depth = GaugeFamily::new("dead_letters", "Dead letters in q.dead");
        depth.add(queue_labels("/", "a\"b\\c\nd"), Some(3.0));
        let mut age = GaugeFamily::new("dead_letter_oldest_age_seconds", "Age");
        age.add(queue_labels("/", "x"), None);
        let text = render(&[depth, age]).unwrap();
        assert!(
            text.contains("# HELP queuey_dead_letters Dead letters in q.dead.\n"),
            "{text}"
        );
        assert!(
            text.contains("# TYPE queuey_dead_letters gauge\n"),
            "{text}"
        );
        assert!(
            text.contains(r#"queuey_dead_letters{vhost="/",queue="a\"b\\c\nd"} 3"#),
            "{text}"
        );
        assert!(!text.contains("oldest"), "no sample, no family: {text}");
    }
}
