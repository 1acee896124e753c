//! PURE: `dead edit`'s edit of a dead letter's body: `--set POINTER=VALUE` applied to its JSON,
//! or the text an editor gave back, checked (it must still be JSON, and still be a queuey
//! envelope if it was one, by the library's own rules), with the job's attempt set back to 1
//! as a replay does, and the diff shown before anything is published.
//!
//! The body is edited as text ([`super::json_text`]): what the operator did not set stays
//! exactly as it was written (numbers past `f64`, `-0`, string escapes, key order), and the
//! diff compares the exact text of the original with the exact text of what is published, so a
//! change the operator did not ask for could not hide in it.

use super::envelope;
use super::json_text;
use serde_json::Value;

use super::pointer::Pointer;

/// How deep a body may nest to be edited: serde_json's own limit, past which no library that
/// reads it with serde_json reads it (and the pretty text would grow with the square of it).
pub const MAX_DEPTH: usize = 128;

/// The body as the editor shows it and the diff compares it: pretty JSON, every string and
/// number exactly as written; or why it cannot be edited (only a JSON body can be: a body that
/// is not text has no faithful text form).
pub fn pretty(body: &[u8]) -> Result<String, String> {
    let text = std::str::from_utf8(body).map_err(|e| format!("it is not UTF-8 text ({e})"))?;
    if let Some(e) = json_text::check(text) {
        return Err(format!("it is not JSON ({e})"));
    }
    if json_text::depth(text) > MAX_DEPTH {
        return Err(format!("it nests deeper than {MAX_DEPTH} levels"));
    }
    Ok(json_text::pretty(text))
}

/// VALUE of `--set` as the JSON text to put in the body: the operator's own text (without the
/// whitespace between its tokens) when it is JSON, so that `1.10` stays `1.10`; else the text as
/// a JSON string. JSON or not is decided as [`super::pointer::parse_value`] decides it (`--where`).
pub fn value_text(text: &str) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(_) => json_text::compact(text),
        Err(_) => Value::String(text.to_owned()).to_string(),
    }
}

/// `body` with every assignment (a pointer and the JSON text of its value) applied, in order;
/// every byte nobody set stays.
pub fn apply_sets(body: &[u8], sets: &[(Pointer, String)]) -> Result<Vec<u8>, String> {
    let not_json = |e: String| format!("the body is not JSON ({e}): --set needs a JSON body");
    let mut text = std::str::from_utf8(body)
        .map_err(|e| not_json(e.to_string()))?
        .to_owned();
    if let Some(e) = json_text::check(&text) {
        return Err(not_json(e));
    }
    for (p, v) in sets {
        text = json_text::set(&text, p, v)?;
    }
    Ok(text.into_bytes())
}

/// The edited text read back, as the body to publish (compact JSON, every string and number as
/// the editor left it), or why it cannot be: it must be JSON.
pub fn check_edited(edited: &str) -> Result<Vec<u8>, String> {
    if let Some(e) = json_text::check(edited) {
        return Err(format!("the edited body is not JSON: {e}"));
    }
    Ok(json_text::compact(edited).into_bytes())
}

/// The body to publish, and the attempt its envelope carries (`None`: it is no envelope).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edited {
    pub body: Vec<u8>,
    pub attempt: Option<u32>,
}

/// The edited body made ready to publish, or why it must not be.
///
/// A body that was a queuey envelope must still be one by the library's rules
/// ([`envelope::why_not`] names the field), else the worker would dead-letter it again as a
/// malformed envelope. Then the job gets its retries back: the envelope's `attempt` is set to 1
/// (every other byte kept), as `dead replay` does, unless the edit itself gave `attempt` a new
/// value, which is then what is published.
pub fn finish(original: &[u8], edited: Vec<u8>) -> Result<Edited, String> {
    let was = envelope::decode(original);
    if was.is_some()
        && let Some(why) = envelope::why_not(&edited)
    {
        return Err(format!(
            "the edited body is no longer a queuey envelope: {why}; the worker would \
             dead-letter it again as a malformed envelope"
        ));
    }
    let Some(now) = envelope::decode(&edited) else {
        return Ok(Edited {
            body: edited,
            attempt: None,
        });
    };
    let attempt_text = |body: &[u8]| {
        envelope::top_level_value(body, "attempt")
            .and_then(|span| body.get(span).map(<[u8]>::to_vec))
    };
    let set_by_the_edit = attempt_text(original) != attempt_text(&edited);
    if set_by_the_edit || now.attempt == 1 {
        return Ok(Edited {
            body: edited,
            attempt: Some(now.attempt),
        });
    }
    let body = envelope::with_first_attempt(&edited).ok_or_else(|| {
        "the envelope's attempt could not be set to 1 (no single top-level \"attempt\" key)"
            .to_owned()
    })?;
    Ok(Edited {
        body,
        attempt: Some(1),
    })
}

/// Past this many cells (changed lines of the old text times changed lines of the new), the
/// fewest changes are not searched for: the table of the search would take this many words of
/// memory, and a body of megabytes has hundreds of thousands of lines (a 100 000-line body
/// edited in one line asked for 10^10 cells, 80 GB, before the common start and end were set
/// apart). The changed lines are then shown all removed, then all added: still a true diff.
pub const MAX_DIFF_CELLS: usize = 4_000_000;

/// A line diff of `old` and `new` (longest common subsequence): each line with `- `, `+ ` or
/// two spaces. The lines both start and end with are kept aside first, so an edit of a few
/// lines costs the length of the texts, not its square; see [`MAX_DIFF_CELLS`].
pub fn line_diff(old: &str, new: &str) -> Vec<String> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let same = |l: &&str| format!("  {l}");
    let mut out: Vec<String> = a[..head].iter().map(same).collect();
    out.extend(middle_diff(
        &a[head..a.len() - tail],
        &b[head..b.len() - tail],
    ));
    out.extend(a[a.len() - tail..].iter().map(same));
    out
}

/// The diff of the lines between the common start and end (see [`line_diff`]).
fn middle_diff(a: &[&str], b: &[&str]) -> Vec<String> {
    let (n, m) = (a.len(), b.len());
    if n.checked_mul(m).is_none_or(|cells| cells > MAX_DIFF_CELLS) {
        let removed = a.iter().map(|l| format!("- {l}"));
        return removed.chain(b.iter().map(|l| format!("+ {l}"))).collect();
    }
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push(format!("  {}", a[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(format!("- {}", a[i]));
            i += 1;
        } else {
            out.push(format!("+ {}", b[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dead::pointer::check_pointer;

    const ENVELOPE: &str = r#"{"job_id":"7f3b3c6e-2f4b-4c8e-9a51-2d6f0e1b7a10","job_type":"shop.Ship","queue":"orders","attempt":3,"enqueued_at_ms":1,"deferrals":0,"priority":0,"payload":{"address":"Nowhere 0","order":5}}"#;

    fn sets(list: &[(&str, &str)]) -> Vec<(Pointer, String)> {
        list.iter()
            .map(|(p, v)| (check_pointer(p).unwrap(), (*v).to_owned()))
            .collect()
    }

    fn edit(body: &str, list: &[(&str, &str)]) -> Result<Edited, String> {
        let edited = apply_sets(body.as_bytes(), &sets(list))?;
        finish(body.as_bytes(), edited)
    }

    #[test]
    fn sets_apply_in_order_and_the_attempt_comes_back_to_one() {
        let out = edit(
            ENVELOPE,
            &[
                ("/payload/address", "\"1 Main St\""),
                ("/payload/zip", "\"12345\""),
            ],
        )
        .unwrap();
        let expected = ENVELOPE
            .replace("\"attempt\":3", "\"attempt\":1")
            .replace("Nowhere 0\"", "1 Main St\"")
            .replace("\"order\":5}", "\"order\":5,\"zip\":\"12345\"}");
        assert_eq!(String::from_utf8(out.body).unwrap(), expected);
        assert_eq!(out.attempt, Some(1));
        assert!(apply_sets(b"not json", &sets(&[("/a", "1")])).is_err());
        let plain = finish(b"[1]", b"[1,2]".to_vec()).unwrap();
        assert_eq!((plain.body, plain.attempt), (b"[1,2]".to_vec(), None));
    }

    /// The attempt the operator sets is the one published; one left alone goes back to 1.
    #[test]
    fn an_attempt_the_edit_sets_is_kept() {
        assert_eq!(
            edit(ENVELOPE, &[("/attempt", "2")]).unwrap().attempt,
            Some(2)
        );
        let same = edit(ENVELOPE, &[("/attempt", "3"), ("/priority", "1")]).unwrap();
        assert_eq!(
            same.attempt,
            Some(1),
            "3 as it was: not an edit of the attempt"
        );
    }

    /// The library's check, field by field (review: a job_id that is no UUID, a string
    /// attempt and a negative enqueued_at_ms were published and dead-lettered again at once).
    #[test]
    fn an_envelope_must_stay_one_and_the_refusal_names_the_field() {
        for (pointer, value, says) in [
            ("/job_id", "\"not-a-uuid\"", "`job_id` must be a UUID"),
            ("/attempt", "\"x\"", "`attempt` must be an integer"),
            ("/attempt", "-1", "`attempt` must be an integer"),
            ("/attempt", "1.0", "`attempt` must be an integer"),
            (
                "/enqueued_at_ms",
                "-1",
                "`enqueued_at_ms` must be an integer",
            ),
            (
                "/priority",
                "256",
                "`priority` must be an integer from 0 to 255",
            ),
            ("/job_type", "null", "`job_type` must be a string"),
            (
                "/correlation_id",
                "7",
                "`correlation_id` must be a string or null",
            ),
        ] {
            let e = edit(ENVELOPE, &[(pointer, value)]).unwrap_err();
            assert!(
                e.contains("no longer a queuey envelope") && e.contains(says),
                "{pointer}={value}: {e}"
            );
        }
        let missing = ENVELOPE.replace("\"job_type\":\"shop.Ship\",", "");
        let e = finish(ENVELOPE.as_bytes(), missing.into_bytes()).unwrap_err();
        assert!(e.contains("`job_type` is missing"), "{e}");
        let twice = ENVELOPE.replace("\"attempt\":3", "\"attempt\":3,\"\\u0061ttempt\":3");
        let e = finish(ENVELOPE.as_bytes(), twice.into_bytes()).unwrap_err();
        assert!(e.contains("`attempt` is given more than once"), "{e}");
        // What the library accepts is accepted: any payload, unknown keys, a UUID in another
        // of the forms the uuid crate reads, a null correlation id.
        for (pointer, value) in [
            ("/payload", "5"),
            ("/extra", "{\"a\":1}"),
            ("/job_id", "\"7F3B3C6E2F4B4C8E9A512D6F0E1B7A10\""),
            ("/correlation_id", "null"),
        ] {
            assert!(
                edit(ENVELOPE, &[(pointer, value)]).is_ok(),
                "{pointer}={value}"
            );
        }
        // A body that was no envelope need not become one.
        assert!(finish(b"{\"a\":1}", b"{\"a\":2}".to_vec()).is_ok());
    }

    /// Review: numbers nobody set came out rewritten (`1.2345678901234568e+29`, `0.1`, `-0.0`)
    /// and the diff showed them as unchanged lines.
    #[test]
    fn what_the_operator_did_not_set_stays_exactly_as_written() {
        let payload = r#"{"big":123456789012345678901234567890,"f":0.1000000000000000055511151231257827,"u":"\u00e9\ud83d\ude00","z":1.0,"n":-0,"k":12345678901234567}"#;
        let body = ENVELOPE.replace(r#"{"address":"Nowhere 0","order":5}"#, payload);
        let out = edit(&body, &[("/payload/addr", "\"x\"")]).unwrap();
        let text = String::from_utf8(out.body.clone()).unwrap();
        assert_eq!(
            text,
            body.replace("\"attempt\":3", "\"attempt\":1")
                .replace("567}", "567,\"addr\":\"x\"}")
        );
        let before = pretty(body.as_bytes()).unwrap();
        let after = pretty(&out.body).unwrap();
        let diff = line_diff(&before, &after);
        let changed: Vec<_> = diff.iter().filter(|l| !l.starts_with("  ")).collect();
        assert_eq!(
            changed,
            [
                "-   \"attempt\": 3,",
                "+   \"attempt\": 1,",
                "-     \"k\": 12345678901234567",
                "+     \"k\": 12345678901234567,",
                "+     \"addr\": \"x\""
            ]
        );
        assert!(
            before.contains("\"big\": 123456789012345678901234567890,"),
            "{before}"
        );
        assert!(before.contains(r#""u": "\u00e9\ud83d\ude00","#), "{before}");
        // A value set is written as the operator wrote it, not as f64 would.
        let out = edit(&body, &[("/payload/n", "1.10")]).unwrap();
        assert!(String::from_utf8(out.body).unwrap().contains("\"n\":1.10,"));
        // A number no f64 holds is no envelope's (the library's payload is a serde_json Value),
        // but a body that is no envelope keeps it too.
        let out = edit(r#"{"e":1E400,"s":"a"}"#, &[("/s", "\"b\"")]).unwrap();
        assert_eq!(out.body, br#"{"e":1E400,"s":"b"}"#);
    }

    #[test]
    fn an_edited_text_must_be_json_and_is_published_compact() {
        assert!(check_edited("{").is_err());
        let pretty_text = pretty(ENVELOPE.as_bytes()).unwrap();
        assert_eq!(
            check_edited(&pretty_text).unwrap(),
            ENVELOPE.as_bytes(),
            "pretty JSON reads back to the same compact body"
        );
        assert_eq!(check_edited("[1, 2]").unwrap(), b"[1,2]");
        assert!(pretty(b"\xff").unwrap_err().contains("not UTF-8"));
        assert!(pretty(b"{\"a\":").unwrap_err().contains("not JSON"));
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(pretty(deep(MAX_DEPTH).as_bytes()).is_ok());
        assert!(
            pretty(deep(MAX_DEPTH + 1).as_bytes())
                .unwrap_err()
                .contains("deeper than 128")
        );
    }

    #[test]
    fn the_diff_shows_what_changed_and_keeps_the_rest() {
        let d = line_diff("a\nb\nc\n", "a\nB\nc\nd\n");
        assert_eq!(d, ["  a", "- b", "+ B", "  c", "+ d"]);
        assert!(line_diff("x", "x").iter().all(|l| l.starts_with("  ")));
    }

    /// The texts each side of a diff: its kept and removed lines, its kept and added lines.
    fn sides(diff: &[String]) -> (String, String) {
        let side = |mark: &str| -> String {
            diff.iter()
                .filter_map(|l| l.strip_prefix("  ").or_else(|| l.strip_prefix(mark)))
                .map(|l| format!("{l}\n"))
                .collect()
        };
        (side("- "), side("+ "))
    }

    /// An edit of one line of a body of 100 000 lines (a few megabytes) costs the length of
    /// the texts: before, the diff's table had a cell for every pair of lines (10^10 cells,
    /// 80 GB), and `dead edit --set` on such a body ran the machine out of memory.
    #[test]
    fn a_diff_of_one_line_in_a_huge_body_costs_its_length() {
        let old: String = (0..100_000).map(|i| format!("  {i},\n")).collect();
        let new = old.replacen("  50000,\n", "  7,\n", 1);
        let d = line_diff(&old, &new);
        let changed: Vec<&String> = d.iter().filter(|l| !l.starts_with("  ")).collect();
        assert_eq!(changed, ["-   50000,", "+   7,"]);
        assert_eq!(d.len(), 100_001);
        assert_eq!(sides(&d), (old, new));
    }

    /// Changed lines past [`MAX_DIFF_CELLS`] are all removed, then all added; the common start
    /// and end stay kept lines; either way each side of the diff is its text.
    #[test]
    fn a_diff_too_large_to_search_is_still_true() {
        let old: String = (0..3_000).map(|i| format!("{i}\n")).collect();
        let new: String = (0..3_000).map(|i| format!("{}\n", i * 7)).collect();
        let (old, new) = (format!("{{\n{old}}}\n"), format!("{{\n{new}}}\n"));
        let d = line_diff(&old, &new);
        assert_eq!(d.first().map(String::as_str), Some("  {"));
        assert_eq!(
            d.get(1).map(String::as_str),
            Some("  0"),
            "0 is both texts' first line"
        );
        assert_eq!(d.last().map(String::as_str), Some("  }"));
        assert_eq!(d.len(), 2 + 1 + 2 * 2_999);
        assert_eq!(sides(&d), (old, new));
        for (old, new) in [
            ("a\nb\nc\n", "a\nB\nc\nd\n"),
            ("", "x\n"),
            ("x\ny\n", ""),
            ("b\na\n", "a\nb\n"),
        ] {
            assert_eq!(
                sides(&line_diff(old, new)),
                (old.to_owned(), new.to_owned()),
                "{old:?} {new:?}"
            );
        }
    }

    #[test]
    fn a_set_value_is_written_as_the_operator_wrote_it() {
        assert_eq!(value_text("1.10"), "1.10");
        assert_eq!(value_text(" { \"a\" : [1, 2e0] } "), "{\"a\":[1,2e0]}");
        assert_eq!(value_text("\"\\u00e9\""), "\"\\u00e9\"");
        assert_eq!(value_text("1 Main St"), "\"1 Main St\"");
        assert_eq!(value_text("say \"hi\""), "\"say \\\"hi\\\"\"");
        assert_eq!(value_text(""), "\"\"");
    }
}
