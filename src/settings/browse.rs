//! `dead browse`'s settings: the snapshot's look, the filter line's first words, and what the
//! commands it runs need to reach the same broker the same way.

use crate::cli::browse::{DeadBrowseArgs, filter_words, parse_filter_words, peek_words};
use crate::cli::{FilterArgs, GlobalArgs};
use crate::dead::filter::Filter;
use crate::dead::peek::PeekOptions;
use crate::error::{Error, Result};
use crate::queue::QueueSettings;

use super::{TopologyFile, filter_from_args, peek_options, resolve_queue};

/// What `dead browse` does.
#[derive(Clone, Debug)]
pub struct BrowseSettings {
    pub queue: QueueSettings,
    /// Dead letters a snapshot holds at most (`None`: all).
    pub limit: Option<u64>,
    pub peek: PeekOptions,
    /// The filter flags given on the command line: the filter line's first text.
    pub filter_words: Vec<String>,
    /// The peek flags given, for the commands the screen runs (they read q.dead the same way).
    pub peek_words: Vec<String>,
    /// The environment of the commands the screen runs: the connection and topology file this
    /// run was given by flags, as their variables (a password never on a command line).
    pub child_env: Vec<(String, String)>,
    /// The connection flags that have no variable (`--connect-timeout`, `--timeout`).
    pub child_flags: Vec<String>,
}

pub fn browse_settings(
    a: &DeadBrowseArgs,
    global: &GlobalArgs,
    file: Option<&TopologyFile>,
) -> Result<BrowseSettings> {
    // Refused here as `dead ls` refuses it, before any screen opens.
    filter_from_args(&a.filters)?;
    let mut child_env = Vec::new();
    let mut set = |name: &str, value: String| child_env.push((name.to_owned(), value));
    if !global.url.is_empty() {
        set("QUEUEY_URL", global.url.join(","));
    }
    if !global.api_url.is_empty() {
        set("QUEUEY_API_URL", global.api_url.join(","));
    }
    let path = |p: &std::path::Path| p.display().to_string();
    if let Some(c) = &global.config {
        set("QUEUEY_CONFIG", path(c));
    }
    if let Some(c) = &global.tls_ca_cert {
        set("QUEUEY_TLS_CA_CERT", path(c));
    }
    if let Some(c) = &global.tls_cert {
        set("QUEUEY_TLS_CERT", path(c));
    }
    if let Some(c) = &global.tls_key {
        set("QUEUEY_TLS_KEY", path(c));
    }
    let mut child_flags = vec![
        "--connect-timeout".to_owned(),
        global.connect_timeout.clone(),
    ];
    if let Some(t) = &global.timeout {
        child_flags.extend(["--timeout".to_owned(), t.clone()]);
    }
    Ok(BrowseSettings {
        queue: resolve_queue(&a.queue.queue, &(&a.settings).into(), file)?,
        limit: (a.limit > 0).then_some(a.limit),
        peek: peek_options(&a.peek)?,
        filter_words: filter_words(&a.filters),
        peek_words: peek_words(&a.peek),
        child_env,
        child_flags,
    })
}

/// The filter line's words as `dead ls` reads its filter flags: the filter, or the first line
/// of what is wrong with them.
pub fn filter_from_words(words: &[String]) -> std::result::Result<Filter, String> {
    let args: FilterArgs = parse_filter_words(words)?;
    filter_from_args(&args).map_err(|e: Error| e.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &[&str]) -> Vec<String> {
        text.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn the_filter_line_is_validated_as_the_flags_are() {
        let f = filter_from_words(&words(&["--cause", "exhausted", "--older-than", "1h"]))
            .expect("a filter");
        assert_eq!(f.causes.len(), 1);
        assert!(f.older_than.is_some());
        let err = filter_from_words(&words(&["--older-than", "soon"])).expect_err("bad age");
        assert!(err.contains("--older-than"), "{err}");
        let err = filter_from_words(&words(&["--older-than", "1d", "--newer-than", "1h"]))
            .expect_err("nothing matches");
        assert!(err.contains("match nothing"), "{err}");
        assert!(filter_from_words(&[]).is_ok_and(|f| f.is_empty()));
    }
}
