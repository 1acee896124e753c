//! PURE: one logical queue (`q`, `q.dead` and its hold queues) with the settings that shape its
//! broker queues, and the rules a logical queue's name must follow.

use std::path::PathBuf;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::topology::{self, QueueConfig, RabbitMqOptions};

/// The longest queue name AMQP carries (a short string).
pub const MAX_QUEUE_NAME_BYTES: usize = 255;

/// One logical queue with everything that shapes its broker queues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueSettings {
    pub name: String,
    pub config: QueueConfig,
    pub options: RabbitMqOptions,
    /// Set when a topology file is in use and does not list this queue: its settings then come
    /// from the file's `[defaults]` and queuey's defaults, which is usually a typo in the name.
    pub unlisted: Option<Unlisted>,
    /// The logical queues of the topology (the topology file's, and the command line's), this
    /// one possibly among them: a queue another owns is never taken for one of this queue's hold
    /// queues ([`QueueSettings::claimed_elsewhere`]). One list shared by every queue of a run:
    /// a copy per queue made a topology of 1 000 queues hold a million siblings (106 MB).
    pub siblings: Arc<Vec<Sibling>>,
}

/// Another logical queue of the same topology, with the suffixes that name its queues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sibling {
    pub name: String,
    pub options: RabbitMqOptions,
}

impl QueueSettings {
    pub fn dead_queue(&self) -> String {
        self.options.dead_queue(&self.name)
    }
}

/// A queue name the topology file in use does not list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unlisted {
    /// The topology file.
    pub file: PathBuf,
    /// The listed names nearest to it (a typo's intended name), nearest first.
    pub near: Vec<String>,
}

impl Unlisted {
    /// `not in queuey.toml`, naming the file as the user knows it.
    pub fn not_in(&self) -> String {
        format!("not in {}", self.file.display())
    }

    /// One sentence on what an unlisted `name` gets, with the listed names it is near.
    pub fn explain(&self, name: &str) -> String {
        let mut text = format!(
            "{name:?} is {}: it gets the file's [defaults] and queuey's defaults",
            self.not_in()
        );
        if !self.near.is_empty() {
            let near: Vec<String> = self.near.iter().map(|n| format!("{n:?}")).collect();
            text.push_str(&format!("; did you mean {}?", near.join(" or ")));
        }
        text
    }
}

/// A logical queue name must make valid broker queue names for `q`, `q.dead` and every hold
/// queue: at most 255 bytes each, not empty, not in the broker's reserved `amq.` namespace.
pub fn validate_queue_name(name: &str, options: &RabbitMqOptions) -> Result<()> {
    if name.is_empty() {
        return Err(Error::settings(
            "invalid queue name \"\": it must not be empty",
        ));
    }
    if name.starts_with("amq.") {
        return Err(Error::settings(format!(
            "invalid queue name {name:?}: names starting with \"amq.\" are reserved by RabbitMQ \
             (it refuses them with 403 ACCESS_REFUSED)"
        )));
    }
    check_no_cr_lf("queue name", name)?;
    let longest_hold = topology::longest_deferred_queue_name(name, options);
    let dead = options.dead_queue(name);
    for (what, derived) in [
        ("", name),
        ("its dead-letter queue ", &dead),
        ("its longest hold queue ", &longest_hold),
    ] {
        if derived.len() > MAX_QUEUE_NAME_BYTES {
            return Err(Error::settings(format!(
                "invalid queue name {:?}: {what}name is {} bytes long, and AMQP allows at most \
                 {MAX_QUEUE_NAME_BYTES} (the longest derived name is {} bytes; keep the queue \
                 name to {} bytes)",
                truncate_for_message(name),
                derived.len(),
                longest_hold.len().max(dead.len()),
                MAX_QUEUE_NAME_BYTES
                    .saturating_sub(longest_hold.len().max(dead.len()) - name.len()),
            )));
        }
    }
    Ok(())
}

/// A queue name given with `--to`: what AMQP and RabbitMQ accept.
pub fn validate_target_queue(name: &str) -> Result<()> {
    if name.is_empty() || name.len() > MAX_QUEUE_NAME_BYTES {
        return Err(Error::settings(format!(
            "invalid --to {:?}: a queue name is 1 to {MAX_QUEUE_NAME_BYTES} bytes",
            truncate_for_message(name)
        )));
    }
    check_no_cr_lf("--to", name)
}

/// RabbitMQ removes carriage returns and line feeds from the name of a queue it declares
/// (`rabbit_channel` strips them: see docs/broker-notes.md, Declaring and the management API),
/// so a name with
/// one names no queue the broker can hold: every declare would "create" it, and nothing would
/// ever find it.
fn check_no_cr_lf(what: &str, name: &str) -> Result<()> {
    if name.contains(['\r', '\n']) {
        let stripped: String = name.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
        return Err(Error::settings(format!(
            "invalid {what} {:?}: it holds a line break, which RabbitMQ removes from queue names \
             (it would declare {:?})",
            truncate_for_message(name),
            truncate_for_message(&stripped)
        )));
    }
    Ok(())
}

fn truncate_for_message(name: &str) -> String {
    if name.chars().count() > 40 {
        format!("{}…", name.chars().take(40).collect::<String>())
    } else {
        name.to_owned()
    }
}

#[cfg(test)]
impl QueueSettings {
    /// A queue as the library declares it by default (`QueueConfig::new`, `RabbitMqOptions`'
    /// defaults): what settings resolve to with no flag and no topology file.
    pub(crate) fn library_default(name: &str) -> QueueSettings {
        QueueSettings {
            name: name.to_owned(),
            config: QueueConfig::default(),
            options: RabbitMqOptions::default(),
            unlisted: None,
            siblings: Arc::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unlisted(near: &[&str]) -> Unlisted {
        Unlisted {
            file: PathBuf::from("conf/queuey.toml"),
            near: near.iter().map(|n| (*n).to_owned()).collect(),
        }
    }

    #[test]
    fn the_dead_queue_follows_the_suffix() {
        let mut q = QueueSettings {
            name: "orders".into(),
            config: QueueConfig::default(),
            options: RabbitMqOptions::default(),
            unlisted: None,
            siblings: Arc::default(),
        };
        assert_eq!(q.dead_queue(), "orders.dead");
        q.options.dead_suffix = "-dlq".into();
        assert_eq!(q.dead_queue(), "orders-dlq");
    }

    #[test]
    fn an_unlisted_name_is_explained_with_its_near_names() {
        assert_eq!(unlisted(&[]).not_in(), "not in conf/queuey.toml");
        assert_eq!(
            unlisted(&[]).explain("ordrs"),
            "\"ordrs\" is not in conf/queuey.toml: it gets the file's [defaults] and queuey's \
             defaults"
        );
        assert_eq!(
            unlisted(&["orders", "order"]).explain("ordrs"),
            "\"ordrs\" is not in conf/queuey.toml: it gets the file's [defaults] and queuey's \
             defaults; did you mean \"orders\" or \"order\"?"
        );
    }

    /// RabbitMQ strips CR and LF from a declared queue's name: such a name is refused.
    #[test]
    fn a_name_with_a_line_break_is_refused_naming_what_the_broker_would_make() {
        let e = validate_queue_name("rv2-q\"u\\o\nte", &RabbitMqOptions::default()).unwrap_err();
        assert!(e.message.contains("line break"), "{}", e.message);
        assert!(e.message.contains(r#""rv2-q\"u\\ote""#), "{}", e.message);
        assert!(validate_target_queue("a\rb").is_err());
        assert!(validate_queue_name("a\tb", &RabbitMqOptions::default()).is_ok());
    }

    #[test]
    fn a_target_queue_is_1_to_255_bytes() {
        assert!(validate_target_queue("x").is_ok());
        assert!(validate_target_queue(&"é".repeat(127)).is_ok(), "254 bytes");
        assert!(validate_target_queue(&"x".repeat(255)).is_ok());
        for bad in [String::new(), "x".repeat(256), "é".repeat(128)] {
            let e = validate_target_queue(&bad).unwrap_err();
            assert!(e.message.contains("1 to 255 bytes"), "{e}");
        }
    }

    #[test]
    fn a_long_name_is_cut_to_40_characters_in_messages() {
        assert_eq!(truncate_for_message(""), "");
        let forty = "é".repeat(40);
        assert_eq!(truncate_for_message(&forty), forty);
        assert_eq!(truncate_for_message(&"é".repeat(41)), format!("{forty}…"));
        let e = validate_target_queue(&"y".repeat(300)).unwrap_err();
        assert!(
            e.message.contains(&format!("\"{}…\"", "y".repeat(40))),
            "{e}"
        );
    }
}
