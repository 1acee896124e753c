//! PURE: `dead edit`'s edit of a dead letter's body: `--set POINTER=VALUE` applied to its JSON,
//! or the text an editor gave back, checked (it must still parse, and still be a queuey envelope
//! if it was one), with the job's attempt set back to 1 as a replay does, and the diff shown
//! before anything is published.

use serde_json::Value;

use super::envelope;
use super::pointer::{self, Pointer};

/// The body as the editor shows it: pretty JSON when it is JSON, else `None` (only a JSON body
/// can be edited: a body that is not text has no faithful text form).
pub fn pretty(body: &[u8]) -> Option<String> {
    let value: Value = serde_json::from_slice(body).ok()?;
    serde_json::to_string_pretty(&value).ok()
}

/// `body` with every assignment applied, in order.
pub fn apply_sets(body: &[u8], sets: &[(Pointer, Value)]) -> Result<Vec<u8>, String> {
    let mut doc: Value = serde_json::from_slice(body)
        .map_err(|e| format!("the body is not JSON ({e}): --set needs a JSON body"))?;
    for (p, v) in sets {
        pointer::set(&mut doc, p, v.clone())?;
    }
    serde_json::to_vec(&doc).map_err(|e| format!("cannot write the edited body: {e}"))
}

/// The edited text read back, as the body to publish (compact JSON), or why it cannot be: it
/// must parse as JSON, and a body that was a queuey envelope must still be one (the worker
/// would dead-letter it again as `malformed envelope`).
pub fn check_edited(original: &[u8], edited: &str) -> Result<Vec<u8>, String> {
    let value: Value =
        serde_json::from_str(edited).map_err(|e| format!("the edited body is not JSON: {e}"))?;
    let body = serde_json::to_vec(&value).map_err(|e| format!("cannot write it: {e}"))?;
    if envelope::decode(original).is_some() && envelope::decode(&body).is_none() {
        return Err(
            "the edited body is no longer a queuey envelope (job_id, job_type, queue, attempt, \
             enqueued_at_ms, deferrals, priority and payload, of the library's types): the \
             worker would dead-letter it again as a malformed envelope"
                .to_owned(),
        );
    }
    Ok(body)
}

/// The body to publish: an envelope's `attempt` set back to 1 (its retries back, as `dead
/// replay` does; every other byte kept), anything else as it is.
pub fn with_retries_back(body: Vec<u8>) -> Vec<u8> {
    match envelope::decode(&body) {
        Some(e) if e.attempt != 1 => envelope::with_first_attempt(&body).unwrap_or(body),
        _ => body,
    }
}

/// A line diff of `old` and `new` (longest common subsequence): each line with `- `, `+ ` or
/// two spaces.
pub fn line_diff(old: &str, new: &str) -> Vec<String> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let (n, m) = (a.len(), b.len());
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
    use serde_json::json;

    const ENVELOPE: &str = r#"{"job_id":"7f3b3c6e-2f4b-4c8e-9a51-2d6f0e1b7a10","job_type":"shop.Ship","queue":"orders","attempt":3,"enqueued_at_ms":1,"deferrals":0,"priority":0,"payload":{"address":"Nowhere 0","order":5}}"#;

    #[test]
    fn sets_apply_in_order_and_the_attempt_comes_back_to_one() {
        let sets = vec![
            (
                check_pointer("/payload/address").unwrap(),
                json!("1 Main St"),
            ),
            (check_pointer("/payload/zip").unwrap(), json!("12345")),
        ];
        let edited = apply_sets(ENVELOPE.as_bytes(), &sets).unwrap();
        let back = with_retries_back(edited);
        let v: Value = serde_json::from_slice(&back).unwrap();
        assert_eq!(v["payload"]["address"], "1 Main St");
        assert_eq!(v["payload"]["zip"], "12345");
        assert_eq!(v["attempt"], 1);
        assert_eq!(v["job_type"], "shop.Ship", "the rest kept");
        assert!(apply_sets(b"not json", &sets).is_err());
        assert_eq!(with_retries_back(b"plain".to_vec()), b"plain");
    }

    #[test]
    fn an_edit_must_parse_and_an_envelope_must_stay_one() {
        assert!(check_edited(ENVELOPE.as_bytes(), "{").is_err());
        let broken = ENVELOPE.replace("\"job_type\":\"shop.Ship\",", "");
        let e = check_edited(ENVELOPE.as_bytes(), &broken).unwrap_err();
        assert!(e.contains("no longer a queuey envelope"), "{e}");
        let pretty_text = pretty(ENVELOPE.as_bytes()).unwrap();
        let ok = check_edited(ENVELOPE.as_bytes(), &pretty_text).unwrap();
        assert_eq!(
            ok,
            ENVELOPE.as_bytes(),
            "pretty JSON reads back to the same compact body"
        );
        assert_eq!(
            check_edited(b"[1]", "[1, 2]").unwrap(),
            b"[1,2]",
            "JSON that is no envelope"
        );
        assert_eq!(pretty(b"\xff"), None);
    }

    #[test]
    fn the_diff_shows_what_changed_and_keeps_the_rest() {
        let d = line_diff("a\nb\nc\n", "a\nB\nc\nd\n");
        assert_eq!(d, ["  a", "- b", "+ B", "  c", "+ d"]);
        assert!(line_diff("x", "x").iter().all(|l| l.starts_with("  ")));
    }
}
