//! Flags over the topology file over queuey's defaults: each logical queue's settings merged,
//! validated, and named by where each value came from.

use std::sync::Arc;
use std::time::Duration;

use super::file::TopologyFile;
use crate::cli::{QueueSelection, QueueSettingsArgs};
use crate::duration::{format_millis, parse_duration};
use crate::error::{Error, Result};
use crate::queue::{QueueSettings, Sibling, Unlisted, validate_queue_name};
use crate::topology::{self, MAX_DEFERRAL_MS, MAX_TTL_MS, QueueConfig, QueueType, RabbitMqOptions};

/// The queues a command acts on, each with its settings merged and validated.
pub fn resolve_queues(
    selection: &QueueSelection,
    flags: &QueueSettingsArgs,
    file: Option<&TopologyFile>,
) -> Result<Vec<QueueSettings>> {
    let names: Vec<String> = if selection.all {
        let file = file.ok_or_else(|| {
            Error::usage("--all needs a topology file, and none was found")
                .with_hint("create ./queuey.toml, or name one with --config or QUEUEY_CONFIG")
        })?;
        if file.queues.is_empty() {
            return Err(Error::usage(format!(
                "--all: the topology file {} names no queues",
                file.path.display()
            ))
            .with_hint("add a table [queues.\"<name>\"] per logical queue"));
        }
        file.queues.iter().map(|(n, _)| n.clone()).collect()
    } else {
        selection.queues.clone()
    };
    let mut out: Vec<QueueSettings> = Vec::with_capacity(names.len());
    let mut seen = std::collections::HashSet::new();
    for name in names {
        if !seen.insert(name.clone()) {
            continue;
        }
        out.push(resolve_queue_with(&name, flags, file, Arc::default())?);
    }
    // One list for all of them: the file's queues, and the queues named together with their
    // settings as resolved (flags included) over the file's.
    let mut siblings: Vec<Sibling> = file_siblings(file, None)
        .into_iter()
        .filter(|s| !seen.contains(&s.name))
        .collect();
    siblings.extend(out.iter().map(|q| Sibling {
        name: q.name.clone(),
        options: q.options.clone(),
    }));
    let siblings = Arc::new(siblings);
    for q in &mut out {
        q.siblings = Arc::clone(&siblings);
    }
    Ok(out)
}

/// The topology file's logical queues other than `except`, with the suffixes that name their
/// queues: the file's entry over its `[defaults]` over the library's (flags are for the queues
/// a command names; an empty suffix, refused when that queue is resolved, counts as unset).
fn file_siblings(file: Option<&TopologyFile>, except: Option<&str>) -> Vec<Sibling> {
    let Some(file) = file else {
        return Vec::new();
    };
    let suffix = |entry: &Option<String>, defaults: &Option<String>, library: &str| {
        entry
            .clone()
            .or_else(|| defaults.clone())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| library.to_owned())
    };
    file.queues
        .iter()
        .filter(|(name, _)| Some(name.as_str()) != except)
        .map(|(name, entry)| Sibling {
            name: name.clone(),
            options: RabbitMqOptions {
                dead_suffix: suffix(
                    &entry.dead_suffix,
                    &file.defaults.dead_suffix,
                    topology::DEFAULT_DEAD_SUFFIX,
                ),
                deferred_suffix: suffix(
                    &entry.deferred_suffix,
                    &file.defaults.deferred_suffix,
                    topology::DEFAULT_DEFERRED_SUFFIX,
                ),
                ..RabbitMqOptions::default()
            },
        })
        .collect()
}

/// A value and where it came from.
struct Sourced<T> {
    value: T,
    origin: String,
}

/// Settings of one queue: flags over the file's entry over its defaults.
pub fn resolve_queue(
    name: &str,
    flags: &QueueSettingsArgs,
    file: Option<&TopologyFile>,
) -> Result<QueueSettings> {
    let siblings = Arc::new(file_siblings(file, Some(name)));
    resolve_queue_with(name, flags, file, siblings)
}

/// [`resolve_queue`] with the topology's logical queues given.
fn resolve_queue_with(
    name: &str,
    flags: &QueueSettingsArgs,
    file: Option<&TopologyFile>,
    siblings: Arc<Vec<Sibling>>,
) -> Result<QueueSettings> {
    let entry = file.and_then(|f| f.entry(name));
    let file_label = |table: &str, key: &str| {
        file.map(|f| format!("{} {table} {key}", f.path.display()))
            .unwrap_or_default()
    };
    macro_rules! pick {
        ($field:ident, $flag:literal) => {{
            let from_flag = flags.$field.clone().map(|value| Sourced {
                value,
                origin: $flag.to_owned(),
            });
            let from_entry = entry.and_then(|e| e.$field.clone()).map(|value| Sourced {
                value,
                origin: file_label(&format!("[queues.{name:?}]"), stringify!($field)),
            });
            let from_defaults = file
                .and_then(|f| f.defaults.$field.clone())
                .map(|value| Sourced {
                    value,
                    origin: file_label("[defaults]", stringify!($field)),
                });
            from_flag.or(from_entry).or(from_defaults)
        }};
    }

    let invalid = |setting: &str, value: &dyn std::fmt::Display, origin: &str, allowed: &str| {
        Error::settings(format!(
            "invalid {setting} {value} for queue {name:?} (from {origin}): {allowed}"
        ))
    };

    let message_ttl = match pick!(message_ttl, "--message-ttl") {
        None => None,
        Some(s) => {
            let d = parse_duration(&s.value).map_err(|e| {
                Error::settings(format!("{} (from {}): {e}", "message_ttl", s.origin))
            })?;
            // Like the library, a TTL is whole milliseconds rounded up and at least 1 ms
            // (`topology::ttl_millis`); past MAX_TTL_MS the library clamps, but a setting that
            // large is a mistake worth saying.
            if d > Duration::from_millis(u64::from(MAX_TTL_MS)) {
                return Err(invalid(
                    "message_ttl",
                    &s.value,
                    &s.origin,
                    &format!(
                        "allowed 0ms to {} (MAX_TTL_MS = {MAX_TTL_MS} ms, ~49.7 days)",
                        format_millis(MAX_TTL_MS)
                    ),
                ));
            }
            Some(d)
        }
    };

    let queue_type = match pick!(queue_type, "--queue-type") {
        None => QueueType::Classic,
        Some(s) => match s.value.as_str() {
            "classic" => QueueType::Classic,
            "quorum" => QueueType::Quorum,
            other => {
                return Err(invalid(
                    "queue_type",
                    &format!("{other:?}"),
                    &s.origin,
                    "allowed \"classic\" or \"quorum\"",
                ));
            }
        },
    };

    // The library's default is ten levels (`QueueConfig::new`) and 0 turns priorities off
    // (`QueueConfig::max_priority(0)`). A quorum queue is queuey's extension, never declared by
    // a queuey 1.x application, and takes no x-max-priority: its default is none.
    let max_priority = match pick!(max_priority, "--max-priority") {
        None if queue_type == QueueType::Quorum => None,
        None => Some(topology::DEFAULT_MAX_PRIORITY),
        Some(s) if s.value == 0 => None,
        Some(s) => {
            let p = u8::try_from(s.value).ok().ok_or_else(|| {
                invalid(
                    "max_priority",
                    &s.value,
                    &s.origin,
                    "allowed 0 (no priorities) to 255",
                )
            })?;
            if queue_type == QueueType::Quorum {
                return Err(invalid(
                    "max_priority",
                    &s.value,
                    &s.origin,
                    "a quorum queue takes no x-max-priority (RabbitMQ refuses it with 406 \
                     invalid arg, 3.10 and 4.3 alike; 4.x quorum queues have two built-in \
                     priority levels instead). Drop max_priority or use queue_type = \"classic\"",
                ));
            }
            Some(p)
        }
    };

    let delivery_limit = match pick!(delivery_limit, "--delivery-limit") {
        None => None,
        Some(s) => {
            if queue_type != QueueType::Quorum {
                return Err(invalid(
                    "delivery_limit",
                    &s.value,
                    &s.origin,
                    "a delivery limit applies to quorum queues only; add queue_type = \
                     \"quorum\" (--queue-type quorum) or drop it",
                ));
            }
            let limit = u32::try_from(s.value)
                .ok()
                .filter(|l| (1..=i32::MAX as u32).contains(l))
                .ok_or_else(|| {
                    invalid(
                        "delivery_limit",
                        &s.value,
                        &s.origin,
                        "allowed 1 to 2147483647 (0 or a negative limit makes RabbitMQ 3.x \
                         drop a message at its first requeue)",
                    )
                })?;
            Some(limit)
        }
    };

    let suffix =
        |picked: Option<Sourced<String>>, setting: &str, default: &str| -> Result<String> {
            match picked {
                None => Ok(default.to_owned()),
                Some(s) if s.value.is_empty() => Err(invalid(
                    setting,
                    &"\"\"",
                    &s.origin,
                    "it must not be empty (the queue names would collide)",
                )),
                Some(s) => Ok(s.value),
            }
        };
    let dead_suffix = suffix(
        pick!(dead_suffix, "--dead-suffix"),
        "dead_suffix",
        topology::DEFAULT_DEAD_SUFFIX,
    )?;
    let deferred_suffix = suffix(
        pick!(deferred_suffix, "--deferred-suffix"),
        "deferred_suffix",
        topology::DEFAULT_DEFERRED_SUFFIX,
    )?;
    if dead_suffix.starts_with(&format!("{deferred_suffix}.")) {
        return Err(Error::settings(format!(
            "dead_suffix {dead_suffix:?} starts with deferred_suffix {deferred_suffix:?} and a \
             dot for queue {name:?}: the dead-letter queue would read as a hold queue \
             ({{q}}{deferred_suffix}.{{ttl_ms}}); choose suffixes that do not overlap"
        )));
    }

    let granularity = |picked: Option<Sourced<String>>, setting: &str| -> Result<Duration> {
        let Some(s) = picked else {
            return Ok(Duration::from_secs(1));
        };
        let d = parse_duration(&s.value)
            .map_err(|e| Error::settings(format!("{setting} (from {}): {e}", s.origin)))?;
        // Like the library, a fraction of a millisecond rounds up to a whole one.
        let allowed = format!("allowed 1ms to {}", format_millis(MAX_DEFERRAL_MS));
        if d.is_zero() || d > Duration::from_millis(u64::from(MAX_DEFERRAL_MS)) {
            return Err(invalid(setting, &s.value, &s.origin, &allowed));
        }
        Ok(d)
    };
    let retry_granularity = granularity(
        pick!(retry_granularity, "--retry-granularity"),
        "retry_granularity",
    )?;
    let deferred_granularity = granularity(
        pick!(deferred_granularity, "--deferred-granularity"),
        "deferred_granularity",
    )?;

    let options = RabbitMqOptions {
        dead_suffix,
        deferred_suffix,
        retry_granularity,
        deferred_granularity,
    };
    validate_queue_name(name, &options)?;
    let unlisted = file.filter(|f| f.entry(name).is_none()).map(|f| Unlisted {
        file: f.path.clone(),
        near: crate::suggest::near(name, f.queues.iter().map(|(n, _)| n.as_str()), 3)
            .into_iter()
            .map(str::to_owned)
            .collect(),
    });
    Ok(QueueSettings {
        unlisted,
        siblings,
        name: name.to_owned(),
        config: QueueConfig {
            message_ttl,
            max_priority,
            queue_type,
            delivery_limit,
        },
        options,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::error::Kind;

    fn flags() -> QueueSettingsArgs {
        QueueSettingsArgs::default()
    }

    fn file(text: &str) -> TopologyFile {
        TopologyFile::parse(text, Path::new("queuey.toml")).unwrap()
    }

    #[test]
    fn every_other_logical_queue_of_the_topology_is_a_sibling() {
        let f = file(
            "[defaults]\ndead_suffix = \"-dlq\"\n[queues.k2]\n[queues.\"k2.deferred.5000\"]\n\
             deferred_suffix = \".hold\"\n",
        );
        let names = |q: &QueueSettings| -> Vec<(String, String, String)> {
            q.siblings
                .iter()
                .filter(|s| s.name != q.name)
                .map(|s| {
                    (
                        s.name.clone(),
                        s.options.dead_suffix.clone(),
                        s.options.deferred_suffix.clone(),
                    )
                })
                .collect()
        };
        let k2 = resolve_queue("k2", &flags(), Some(&f)).unwrap();
        assert_eq!(
            names(&k2),
            [("k2.deferred.5000".into(), "-dlq".into(), ".hold".into())]
        );
        assert!(k2.claimed_elsewhere("k2.deferred.5000").is_some());
        assert!(
            resolve_queue("k2", &flags(), None)
                .unwrap()
                .siblings
                .is_empty()
        );
        // Named together, queues are siblings with their settings as resolved, flags included.
        let selection = QueueSelection {
            queues: vec!["k2".into(), "other".into()],
            all: false,
        };
        let with_flag = QueueSettingsArgs {
            deferred_suffix: Some(".wait".into()),
            ..flags()
        };
        let queues = resolve_queues(&selection, &with_flag, Some(&f)).unwrap();
        assert_eq!(
            names(&queues[0]),
            [
                ("k2.deferred.5000".into(), "-dlq".into(), ".hold".into()),
                ("other".into(), "-dlq".into(), ".wait".into())
            ]
        );
        assert_eq!(
            names(&queues[1]),
            [
                ("k2.deferred.5000".into(), "-dlq".into(), ".hold".into()),
                ("k2".into(), "-dlq".into(), ".wait".into())
            ]
        );
    }

    #[test]
    fn defaults_without_file() {
        let q = resolve_queue("orders", &flags(), None).unwrap();
        assert_eq!(q.config, QueueConfig::default());
        assert_eq!(
            q.config.max_priority,
            Some(10),
            "QueueConfig::new's ten levels"
        );
        assert_eq!(q.options, RabbitMqOptions::default());
    }

    #[test]
    fn max_priority_zero_is_no_priorities_and_quorum_has_none_by_default() {
        let off = |f: QueueSettingsArgs| resolve_queue("orders", &f, None).unwrap().config;
        assert_eq!(
            off(QueueSettingsArgs {
                max_priority: Some(0),
                ..flags()
            })
            .max_priority,
            None
        );
        let quorum = off(QueueSettingsArgs {
            queue_type: Some("quorum".into()),
            ..flags()
        });
        assert_eq!(quorum.max_priority, None);
        let q = resolve_queue(
            "orders",
            &flags(),
            Some(&file("[queues.orders]\nmax_priority = 0\n")),
        )
        .unwrap();
        assert_eq!(
            q.config.max_priority, None,
            "max_priority = 0 in queuey.toml"
        );
        // A TTL is whole milliseconds rounded up, as the library computes it; 0 declares 1 ms.
        for ttl in ["0s", "1500us"] {
            let c = off(QueueSettingsArgs {
                message_ttl: Some(ttl.into()),
                ..flags()
            });
            assert!(c.message_ttl.is_some(), "{ttl}");
        }
    }

    #[test]
    fn precedence_flags_over_entry_over_defaults() {
        let f = file(
            r#"
            [defaults]
            message_ttl = "1h"
            max_priority = 5
            [queues.orders]
            max_priority = 7
            "#,
        );
        let q = resolve_queue("orders", &flags(), Some(&f)).unwrap();
        assert_eq!(q.config.message_ttl, Some(Duration::from_secs(3600)));
        assert_eq!(q.config.max_priority, Some(7));
        let mut fl = flags();
        fl.max_priority = Some(9);
        let q = resolve_queue("orders", &fl, Some(&f)).unwrap();
        assert_eq!(q.config.max_priority, Some(9));
        let other = resolve_queue("other", &flags(), Some(&f)).unwrap();
        assert_eq!(other.config.max_priority, Some(5));
    }

    #[test]
    fn file_keeps_queue_order_and_refuses_unknown_keys() {
        let f = file("[queues.b]\n[queues.a]\n[queues.\"c d\"]\n");
        let names: Vec<_> = f.queues.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["b", "a", "c d"]);
        for bad in [
            "[defaults]\nmessage_tll = \"1s\"\n",
            "[queues.a]\nfoo = 1\n",
            "[connection]\nuri = \"x\"\n",
            "[connection]\nurl = 5\n",
            "[queues.a]\nmax_priority = \"high\"\n",
        ] {
            let err = TopologyFile::parse(bad, Path::new("queuey.toml")).unwrap_err();
            assert_eq!(err.kind, Kind::ConfigFile, "{bad}");
            assert!(err.message.contains("queuey.toml"), "{err}");
        }
        let err = TopologyFile::parse("[queues.a]\nfoo = 1\n", Path::new("q.toml")).unwrap_err();
        assert!(err.message.contains("foo"), "{err}");
    }

    fn refused(f: QueueSettingsArgs) -> String {
        let err = resolve_queue("orders", &f, None).unwrap_err();
        assert_eq!(err.kind, Kind::Settings);
        err.to_string()
    }

    #[test]
    fn refuses_bad_settings_naming_them() {
        for bad in [-1, 256] {
            let e = refused(QueueSettingsArgs {
                max_priority: Some(bad),
                ..flags()
            });
            assert!(
                e.contains("max_priority")
                    && e.contains("0 (no priorities) to 255")
                    && e.contains("--max-priority")
                    && e.contains(&bad.to_string()),
                "{e}"
            );
        }
        let e = refused(QueueSettingsArgs {
            message_ttl: Some("50d".into()),
            ..flags()
        });
        assert!(e.contains("MAX_TTL_MS"), "{e}");
        let e = refused(QueueSettingsArgs {
            retry_granularity: Some("0s".into()),
            ..flags()
        });
        assert!(e.contains("retry_granularity") && e.contains("1ms"), "{e}");
        let e = refused(QueueSettingsArgs {
            deferred_granularity: Some("25d".into()),
            ..flags()
        });
        assert!(
            e.contains("deferred_granularity") && e.contains("24d"),
            "{e}"
        );
        let e = refused(QueueSettingsArgs {
            queue_type: Some("quorum".into()),
            max_priority: Some(5),
            ..flags()
        });
        assert!(e.contains("quorum"), "{e}");
        let e = refused(QueueSettingsArgs {
            delivery_limit: Some(5),
            ..flags()
        });
        assert!(e.contains("quorum queues only"), "{e}");
        let e = refused(QueueSettingsArgs {
            queue_type: Some("quorum".into()),
            delivery_limit: Some(0),
            ..flags()
        });
        assert!(e.contains("1 to 2147483647"), "{e}");
        let e = refused(QueueSettingsArgs {
            dead_suffix: Some(String::new()),
            ..flags()
        });
        assert!(e.contains("dead_suffix"), "{e}");
        let e = refused(QueueSettingsArgs {
            message_ttl: Some("30".into()),
            ..flags()
        });
        assert!(e.contains("no unit"), "{e}");
    }

    #[test]
    fn refuses_bad_names() {
        let o = RabbitMqOptions::default();
        assert!(validate_queue_name("", &o).is_err());
        assert!(validate_queue_name("amq.foo", &o).is_err());
        assert!(validate_queue_name(&"x".repeat(256), &o).is_err());
        // q.deferred.2147483647 adds 20 bytes.
        assert!(validate_queue_name(&"x".repeat(236), &o).is_err());
        assert!(validate_queue_name(&"x".repeat(235), &o).is_ok());
        assert!(validate_queue_name("orders.eu west/ünï", &o).is_ok());
        let e = validate_queue_name(&"x".repeat(300), &o).unwrap_err();
        assert!(e.message.contains("235"), "{e}");
    }

    #[test]
    fn file_values_name_their_table() {
        let f = file("[queues.orders]\nmax_priority = 300\n");
        let e = resolve_queue("orders", &flags(), Some(&f)).unwrap_err();
        assert!(
            e.message.contains("[queues.\"orders\"] max_priority"),
            "{e}"
        );
    }

    #[test]
    fn the_largest_ttl_and_granularity_are_allowed_one_more_millisecond_is_not() {
        let ok = resolve_queue(
            "orders",
            &QueueSettingsArgs {
                message_ttl: Some(format!("{MAX_TTL_MS}ms")),
                retry_granularity: Some(format!("{MAX_DEFERRAL_MS}ms")),
                deferred_granularity: Some(format!("{MAX_DEFERRAL_MS}ms")),
                ..flags()
            },
            None,
        )
        .unwrap();
        assert_eq!(
            ok.config.message_ttl,
            Some(Duration::from_millis(MAX_TTL_MS.into()))
        );
        assert_eq!(
            ok.options.retry_granularity,
            Duration::from_millis(MAX_DEFERRAL_MS.into())
        );
        let e = refused(QueueSettingsArgs {
            message_ttl: Some(format!("{}ms", u64::from(MAX_TTL_MS) + 1)),
            ..flags()
        });
        assert!(e.contains("MAX_TTL_MS"), "{e}");
        let e = refused(QueueSettingsArgs {
            retry_granularity: Some(format!("{}ms", MAX_DEFERRAL_MS + 1)),
            ..flags()
        });
        assert!(e.contains("retry_granularity"), "{e}");
    }
}
