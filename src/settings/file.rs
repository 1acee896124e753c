//! The topology file (`queuey.toml`): read and parsed as written; merged and validated by
//! [`super::resolve`].

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::DEFAULT_CONFIG_FILE;
use crate::error::{Error, Kind, Result};

/// One table of the topology file (`[defaults]` or `[queues."<name>"]`), as written.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawQueueSettings {
    pub message_ttl: Option<String>,
    pub max_priority: Option<i64>,
    pub queue_type: Option<String>,
    pub delivery_limit: Option<i64>,
    pub dead_suffix: Option<String>,
    pub deferred_suffix: Option<String>,
    pub retry_granularity: Option<String>,
    pub deferred_granularity: Option<String>,
    /// The retry and delayed-enqueue delays the application uses (rounded with the retry
    /// granularity): the hold queues `holds prune --unlisted` keeps.
    pub delays: Option<Vec<String>>,
    /// The deferral delays the application uses (rounded with the deferral granularity).
    pub deferrals: Option<Vec<String>>,
}

/// The `[tls]` table: the files of a private CA and of a client certificate and key, relative
/// to the topology file's directory. rabbitmqadmin v2's names for them are accepted too.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTls {
    #[serde(alias = "ca_certificate_bundle_path")]
    pub ca_cert: Option<PathBuf>,
    #[serde(alias = "client_certificate_file_path")]
    pub cert: Option<PathBuf>,
    #[serde(alias = "client_private_key_file_path")]
    pub key: Option<PathBuf>,
}

/// The `[connection]` table: the AMQP and management API addresses, each a string (commas
/// separating several URLs) or a list of them. The flags and their variables come first.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConnection {
    #[serde(default, deserialize_with = "one_or_many")]
    pub url: Option<Vec<String>>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub api_url: Option<Vec<String>>,
}

/// A string, or a list of strings.
fn one_or_many<'de, D: serde::Deserializer<'de>>(
    de: D,
) -> std::result::Result<Option<Vec<String>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(Some(match OneOrMany::deserialize(de)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    defaults: RawQueueSettings,
    #[serde(default)]
    queues: toml::Table,
    #[serde(default)]
    tls: RawTls,
    #[serde(default)]
    connection: RawConnection,
}

/// A parsed topology file: defaults and the queues in file order.
#[derive(Clone, Debug)]
pub struct TopologyFile {
    pub path: PathBuf,
    pub defaults: RawQueueSettings,
    pub queues: Vec<(String, RawQueueSettings)>,
    /// The `[tls]` table, its paths as written.
    pub tls: RawTls,
    /// The `[connection]` table, its addresses as written.
    pub connection: RawConnection,
}

impl TopologyFile {
    /// The file named by `--config` / `QUEUEY_CONFIG` (which must exist), else `./queuey.toml`
    /// when present, else none.
    pub fn discover(explicit: Option<&Path>) -> Result<Option<TopologyFile>> {
        match explicit {
            Some(path) => TopologyFile::load(path).map(Some),
            None => {
                let path = Path::new(DEFAULT_CONFIG_FILE);
                if path.is_file() {
                    TopologyFile::load(path).map(Some)
                } else {
                    Ok(None)
                }
            }
        }
    }

    pub fn load(path: &Path) -> Result<TopologyFile> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::new(
                Kind::ConfigFile,
                format!("cannot read the topology file {}: {e}", path.display()),
            )
            .with_hint("name it with --config or QUEUEY_CONFIG; ./queuey.toml is read when present")
        })?;
        TopologyFile::parse(&text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<TopologyFile> {
        let file_error = |detail: String| {
            Error::new(
                Kind::ConfigFile,
                format!("invalid topology file {}: {detail}", path.display()),
            )
            .with_hint(
                "known tables: [defaults] and [queues.\"<name>\"], with the keys message_ttl, \
                 max_priority, queue_type, delivery_limit, dead_suffix, deferred_suffix, \
                 retry_granularity, deferred_granularity; [tls], with the keys ca_cert, \
                 cert, key; and [connection], with the keys url, api_url (see \
                 docs/topology-file.md)",
            )
        };
        let raw: RawFile = toml::from_str(text).map_err(|e| file_error(e.to_string()))?;
        // The passwords of the addresses are masked from here on, wherever they would show.
        let listed = [&raw.connection.url, &raw.connection.api_url];
        for text in listed.into_iter().flatten().flatten() {
            for address in crate::endpoint::split_list(text) {
                crate::redact::register_userinfo_of(&address);
            }
        }
        let mut queues = Vec::new();
        for (name, value) in raw.queues {
            if let Some(dotted) = dotted_name(&name, &value) {
                return Err(Error::new(
                    Kind::ConfigFile,
                    format!(
                        "invalid topology file {}: [queues.{dotted}] is, in TOML, a queue {name:?} \
                         holding a table, not a queue named {dotted:?}",
                        path.display()
                    ),
                )
                .with_hint(format!(
                    "quote a queue name that holds dots: [queues.{:?}]",
                    dotted
                )));
            }
            let settings: RawQueueSettings = value
                .try_into()
                .map_err(|e: toml::de::Error| file_error(format!("[queues.{name:?}]: {e}")))?;
            queues.push((name, settings));
        }
        Ok(TopologyFile {
            path: path.to_owned(),
            defaults: raw.defaults,
            queues,
            tls: raw.tls,
            connection: raw.connection,
        })
    }

    pub(super) fn entry(&self, name: &str) -> Option<&RawQueueSettings> {
        self.queues.iter().find(|(n, _)| n == name).map(|(_, s)| s)
    }
}

/// A table under `[queues]` that holds tables is a dotted name written without quotes
/// (`[queues.tour.orders]`): the name it was meant to be (`tour.orders`). Queue settings are
/// never tables.
fn dotted_name(name: &str, value: &toml::Value) -> Option<String> {
    let toml::Value::Table(table) = value else {
        return None;
    };
    table.iter().find_map(|(key, inner)| match inner {
        toml::Value::Table(_) => {
            let full = format!("{name}.{key}");
            Some(dotted_name(&full, inner).unwrap_or(full))
        }
        _ => None,
    })
}
