//! PURE: the JSON envelope a queuey 1.x application puts in every message body, read exactly as
//! the library reads it, and the one change a replay makes to it.
//!
//! The library (`queuey_core::Envelope`) serialises a job as
//! `{"job_id", "job_type", "queue", "attempt", "enqueued_at_ms", "deferrals", "priority",
//! "correlation_id"?, "payload"}` and decodes it with serde: unknown keys are ignored, a missing
//! `deferrals` or `priority` is 0, a missing `correlation_id` is none, a duplicate known key or
//! a wrong type is an error. The worker reads `attempt` from the body, never from a header, so
//! the body decides how many attempts a replayed job has left.
//!
//! [`decode`] accepts exactly the bodies `Envelope::from_bytes` accepts: the same serde derive
//! over the same field types (`uuid::Uuid` for the id, `serde_json::Value` for the payload, so
//! that even serde_json's nesting limit inside the payload agrees). A property test checks the
//! two against each other with the library as a dev-dependency.
//!
//! [`with_first_attempt`] gives a replayed copy its retries back: it rewrites the value of the
//! top-level `attempt` key to `1` and leaves every other byte as it was (key order, whitespace,
//! unicode escapes, the exact spelling of payload numbers). Re-serialising would change all of
//! those, and the payload belongs to the application.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::json_text::Members;

/// The envelope as the library defines it (queuey-core 1.1.0, `src/envelope.rs`), for decoding
/// only. Field types and serde attributes must stay the library's: they decide which bodies
/// decode.
#[derive(Deserialize)]
struct WireEnvelope {
    job_id: uuid::Uuid,
    job_type: String,
    queue: String,
    attempt: u32,
    enqueued_at_ms: u64,
    #[serde(default)]
    deferrals: u32,
    #[serde(default)]
    priority: u8,
    #[serde(default)]
    correlation_id: Option<String>,
    #[allow(dead_code)] // decoded so that exactly the library's bodies decode; never read
    payload: serde_json::Value,
}

/// What queuey shows of an envelope (everything but the payload, which stays in the body).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Envelope {
    /// The job's id (a UUID), stable across retries; also the message's `message_id`.
    pub job_id: String,
    pub job_type: String,
    /// The queue the job was published to.
    pub queue: String,
    /// 1-based attempt counter: the attempt that failed, on a dead letter.
    pub attempt: u32,
    /// Unix epoch milliseconds when the job was first enqueued.
    pub enqueued_at_ms: u64,
    pub deferrals: u32,
    pub priority: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correlation_id: Option<String>,
}

/// The envelope in `body`, or `None` when the library would not decode it (the body is then
/// not a job: a malformed-envelope dead letter, or another application's message).
pub fn decode(body: &[u8]) -> Option<Envelope> {
    let wire: WireEnvelope = serde_json::from_slice(body).ok()?;
    Some(Envelope {
        job_id: wire.job_id.to_string(),
        job_type: wire.job_type,
        queue: wire.queue,
        attempt: wire.attempt,
        enqueued_at_ms: wire.enqueued_at_ms,
        deferrals: wire.deferrals,
        priority: wire.priority,
        correlation_id: wire.correlation_id,
    })
}

/// Why the library would not decode `body` as an envelope, naming the field (`None`: it
/// would). The verdict is [`decode`]'s, the library's own rules; the field is found by reading
/// each of the library's fields alone with its type: missing (and not one with a default),
/// given twice, or of the wrong type (`job_id` not a UUID, `attempt` not a `u32`,
/// `enqueued_at_ms` not a `u64`, ...). Unknown keys are ignored, as the library ignores them.
pub fn why_not(body: &[u8]) -> Option<String> {
    let verdict = serde_json::from_slice::<WireEnvelope>(body).err()?;
    let Ok(Members(members)) = serde_json::from_slice(body) else {
        return Some(format!("the body is not a JSON object ({verdict})"));
    };
    type Check = fn(&str) -> serde_json::Result<()>;
    fn is<T: serde::de::DeserializeOwned>(text: &str) -> serde_json::Result<()> {
        serde_json::from_str::<T>(text).map(drop)
    }
    let fields: [(&str, bool, Check, &str); 9] = [
        ("job_id", true, is::<uuid::Uuid>, "a UUID"),
        ("job_type", true, is::<String>, "a string"),
        ("queue", true, is::<String>, "a string"),
        (
            "attempt",
            true,
            is::<u32>,
            "an integer from 0 to 4294967295",
        ),
        (
            "enqueued_at_ms",
            true,
            is::<u64>,
            "an integer from 0 to 18446744073709551615",
        ),
        (
            "deferrals",
            false,
            is::<u32>,
            "an integer from 0 to 4294967295",
        ),
        ("priority", false, is::<u8>, "an integer from 0 to 255"),
        (
            "correlation_id",
            false,
            is::<Option<String>>,
            "a string or null",
        ),
        ("payload", true, is::<serde_json::Value>, "any JSON value"),
    ];
    for (name, required, check, wanted) in fields {
        let mut given = members
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.get());
        match (given.next(), given.next()) {
            (None, _) if required => return Some(format!("`{name}` is missing")),
            (None, _) => {}
            (Some(_), Some(_)) => return Some(format!("`{name}` is given more than once")),
            (Some(text), None) => {
                if let Err(e) = check(text) {
                    let e = e.to_string();
                    let e = e.rsplit_once(" at line ").map_or(e.as_str(), |(e, _)| e);
                    return Some(format!("`{name}` must be {wanted} ({e})"));
                }
            }
        }
    }
    Some(verdict.to_string())
}

/// `body` with its envelope's top-level `attempt` set to `1` and every other byte unchanged.
///
/// `body` must be one [`decode`] accepts; `None` when it is not an object with exactly one
/// top-level `attempt` key (never the case for such a body: the library refuses a duplicate
/// field). A body whose attempt is already `1` comes back equal.
pub fn with_first_attempt(body: &[u8]) -> Option<Vec<u8>> {
    let span = top_level_value(body, "attempt")?;
    let mut out = Vec::with_capacity(body.len());
    out.extend_from_slice(body.get(..span.start)?);
    out.push(b'1');
    out.extend_from_slice(body.get(span.end..)?);
    Some(out)
}

/// The byte range of the value of the top-level key `key` of the JSON object in `body`, when
/// there is exactly one such key. Keys are compared after unescaping (`"\u0061ttempt"` is
/// `attempt`, as serde reads it). serde_json reads the object, each value kept as the raw text
/// it borrows from `body`, whose place in `body` is the span. Never panics; a body serde_json
/// does not read as one JSON object gives `None`.
pub fn top_level_value(body: &[u8], key: &str) -> Option<Range<usize>> {
    let Members(members) = serde_json::from_slice(body).ok()?;
    let mut found = members.into_iter().filter(|(name, _)| name == key);
    let (_, raw) = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let text = raw.get();
    let start = (text.as_ptr() as usize).checked_sub(body.as_ptr() as usize)?;
    let span = start..start.checked_add(text.len())?;
    (body.get(span.clone())? == text.as_bytes()).then_some(span)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = r#"{"job_id":"67e55044-10b1-426f-9247-bb680e5fe0c8","job_type":"app::Send","queue":"app.emails","attempt":3,"enqueued_at_ms":1700000000000,"deferrals":1,"priority":10,"correlation_id":"trace-1","payload":{"to":"a@b.c","n":1.50,"big":12345678901234567890,"attempt":7}}"#;

    #[test]
    fn decodes_what_the_library_writes() {
        let e = decode(BODY.as_bytes()).expect("an envelope");
        assert_eq!(e.job_id, "67e55044-10b1-426f-9247-bb680e5fe0c8");
        assert_eq!(e.job_type, "app::Send");
        assert_eq!(e.queue, "app.emails");
        assert_eq!(
            (e.attempt, e.deferrals, e.priority),
            (3, 1, 10),
            "attempt, deferrals, priority"
        );
        assert_eq!(e.enqueued_at_ms, 1_700_000_000_000);
        assert_eq!(e.correlation_id.as_deref(), Some("trace-1"));
    }

    #[test]
    fn defaults_and_refusals_follow_serde() {
        let old = r#"{"job_id":"67e55044-10b1-426f-9247-bb680e5fe0c8","job_type":"t","queue":"q","attempt":2,"enqueued_at_ms":1,"payload":null,"extra":[1]}"#;
        let e = decode(old.as_bytes()).expect("fields added later default");
        assert_eq!((e.deferrals, e.priority, e.correlation_id), (0, 0, None));
        for bad in [
            "not json",
            "",
            "[]",
            r#"{"job_id":"nope","job_type":"t","queue":"q","attempt":1,"enqueued_at_ms":1,"payload":1}"#,
            r#"{"job_type":"t","queue":"q","attempt":1,"enqueued_at_ms":1,"payload":1}"#,
            r#"{"job_id":"67e55044-10b1-426f-9247-bb680e5fe0c8","job_type":"t","queue":"q","attempt":1.0,"enqueued_at_ms":1,"payload":1}"#,
            r#"{"job_id":"67e55044-10b1-426f-9247-bb680e5fe0c8","job_type":"t","queue":"q","attempt":1,"attempt":2,"enqueued_at_ms":1,"payload":1}"#,
            r#"{"job_id":"67e55044-10b1-426f-9247-bb680e5fe0c8","job_type":"t","queue":"q","attempt":-1,"enqueued_at_ms":1,"payload":1}"#,
        ] {
            assert_eq!(decode(bad.as_bytes()), None, "{bad}");
        }
    }

    #[test]
    fn first_attempt_changes_only_the_top_level_attempt() {
        let out = with_first_attempt(BODY.as_bytes()).expect("rewritten");
        let expected = BODY.replacen(r#""attempt":3"#, r#""attempt":1"#, 1);
        assert_eq!(String::from_utf8(out).unwrap(), expected);
        assert!(
            expected.contains(r#""attempt":7"#),
            "the payload's own key stays"
        );
    }

    #[test]
    fn escaped_keys_and_whitespace_are_found() {
        let body = "{ \"payload\" : {\"attempt\": [1, {\"x\": \"}\"}]} ,\n \"\\u0061ttempt\"\t:\t42 , \"z\":1}";
        let out = with_first_attempt(body.as_bytes()).expect("found");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            body.replace("\t42 ", "\t1 ")
        );
    }

    /// Each JSON escape in a key unescapes to its own character, a surrogate pair to one
    /// character, as serde reads them (found by a mutation run: no test had them).
    #[test]
    fn every_escape_in_a_key_unescapes_as_serde_reads_it() {
        for (escape, unescaped) in [
            (r#"\""#, "\""),
            (r"\\", "\\"),
            (r"\/", "/"),
            (r"\b", "\u{8}"),
            (r"\f", "\u{c}"),
            (r"\n", "\n"),
            (r"\r", "\r"),
            (r"\t", "\t"),
            (r"\ud83d\ude00", "\u{1F600}"),
        ] {
            let body = format!(r#"{{"x{escape}y": 7, "attempt": 3}}"#);
            let key = format!("x{unescaped}y");
            let serde: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&body).expect("valid JSON");
            assert!(serde.contains_key(&key), "{body}: serde reads {key:?}");
            let span = top_level_value(body.as_bytes(), &key);
            assert_eq!(span.map(|r| &body[r]), Some("7"), "{body}: the key {key:?}");
            assert_eq!(
                with_first_attempt(body.as_bytes()).map(String::from_utf8),
                Some(Ok(body.replace("\"attempt\": 3", "\"attempt\": 1"))),
                "{body}"
            );
        }
    }

    #[test]
    fn no_single_top_level_attempt_is_none() {
        for body in [
            "{}",
            "[]",
            "{\"a\":1}",
            "{\"attempt\":1,\"attempt\":2}",
            "{\"attempt\":",
            "{\"attempt\":1",
            "\"attempt\"",
            "{\"x\":{\"attempt\":1}}",
            "{\"a\":[1,2}",
        ] {
            assert_eq!(top_level_value(body.as_bytes(), "attempt"), None, "{body}");
        }
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let deep = format!(
            "{{\"p\":{}1{},\"attempt\":5}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let span = top_level_value(deep.as_bytes(), "attempt").expect("found");
        assert_eq!(&deep[span], "5");
    }

    /// A value is skipped whole: an empty object or array, and a string with an escaped quote
    /// or backslash (the escaped quote found by a mutation run: no test had one).
    #[test]
    fn empty_containers_and_escapes_in_a_value_are_skipped_whole() {
        for value in [
            "{}",
            "[]",
            "[{}, [], 1]",
            "{\"a\": {}}",
            r#""a\",\"attempt\":9""#,
            r#""\\""#,
        ] {
            let body = format!(r#"{{"p": {value}, "attempt": 3, "z": {value}}}"#);
            let found = |key: &str| top_level_value(body.as_bytes(), key).map(|r| &body[r]);
            assert_eq!(found("p"), Some(value), "{body}");
            assert_eq!(found("attempt"), Some("3"), "{body}");
            assert_eq!(found("z"), Some(value), "{body}");
        }
    }
}
