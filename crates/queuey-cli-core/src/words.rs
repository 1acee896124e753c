//! PURE: the words that agree with a count (`1 message`, `2 messages`), for the text the core
//! writes and the CLI's output alike (`queuey_cli::output` re-exports them).

/// `n noun`, with the noun in the plural unless `n` is 1: `1 dead letter`, `2 dead letters`.
pub fn plural(n: u64, noun: &str) -> String {
    format!("{n} {}", noun_for(n, noun))
}

/// `one` when `n` is 1, else `many`: the words that agree with a count (`starts`/`start`,
/// `it`/`them`).
pub fn by_count<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// `noun` as it goes with `n`: the singular for 1, else the regular English plural
/// (`letter` -> `letters`, `copy` -> `copies`).
pub fn noun_for(n: u64, noun: &str) -> String {
    if n == 1 {
        return noun.to_owned();
    }
    match noun.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{stem}ies"),
        _ => format!("{noun}s"),
    }
}
