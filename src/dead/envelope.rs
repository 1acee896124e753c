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
/// `attempt`, as serde reads it). Never panics; malformed input gives `None`.
pub fn top_level_value(body: &[u8], key: &str) -> Option<Range<usize>> {
    let mut s = Scanner { b: body, i: 0 };
    s.ws();
    s.eat(b'{')?;
    let mut found = None;
    s.ws();
    if s.peek()? == b'}' {
        return None;
    }
    loop {
        s.ws();
        let name = s.string()?;
        s.ws();
        s.eat(b':')?;
        s.ws();
        let start = s.i;
        s.value()?;
        if name == key {
            if found.is_some() {
                return None;
            }
            found = Some(start..s.i);
        }
        s.ws();
        match s.next()? {
            b',' => continue,
            b'}' => return found,
            _ => return None,
        }
    }
}

/// A forward-only reader over JSON text, just enough to find a top-level key's value.
struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// A string token, unescaped (a lone surrogate becomes U+FFFD; serde refuses such a body
    /// before it gets here).
    fn string(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let mut out: Vec<u8> = Vec::new();
        loop {
            match self.next()? {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => match self.next()? {
                    b'"' => out.push(b'"'),
                    b'\\' => out.push(b'\\'),
                    b'/' => out.push(b'/'),
                    b'b' => out.push(0x08),
                    b'f' => out.push(0x0c),
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'u' => {
                        let unit = self.hex4()?;
                        let c = if (0xD800..0xDC00).contains(&unit) {
                            let save = self.i;
                            let low = (self.next() == Some(b'\\') && self.next() == Some(b'u'))
                                .then(|| self.hex4())
                                .flatten()
                                .filter(|l| (0xDC00..0xE000).contains(l));
                            match low {
                                Some(low) => char::from_u32(
                                    0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00),
                                ),
                                None => {
                                    self.i = save;
                                    None
                                }
                            }
                        } else {
                            char::from_u32(unit)
                        };
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(
                            c.unwrap_or('\u{FFFD}').encode_utf8(&mut buf).as_bytes(),
                        );
                    }
                    _ => return None,
                },
                c => out.push(c),
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.b.get(self.i..self.i + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        let n = u32::from_str_radix(text, 16).ok()?;
        self.i += 4;
        Some(n)
    }

    /// Skips one value of any kind. Nesting is tracked with a counter, not recursion, so a
    /// deeply nested body cannot exhaust the stack.
    fn value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            self.ws();
            match self.peek()? {
                b'"' => {
                    self.skip_string()?;
                }
                b'{' | b'[' => {
                    self.i += 1;
                    depth += 1;
                    continue;
                }
                b'}' | b']' => {
                    // Only reached right after an opening bracket (an empty container).
                    depth = depth.checked_sub(1)?;
                    self.i += 1;
                }
                _ => {
                    let start = self.i;
                    while let Some(c) = self.peek() {
                        if matches!(c, b',' | b'}' | b']' | b':' | b' ' | b'\t' | b'\n' | b'\r') {
                            break;
                        }
                        self.i += 1;
                    }
                    if self.i == start {
                        return None;
                    }
                }
            }
            // After a complete value inside containers: a separator, or closing brackets.
            loop {
                if depth == 0 {
                    return Some(());
                }
                self.ws();
                match self.next()? {
                    b',' => break,
                    b':' => break,
                    b'}' | b']' => depth -= 1,
                    _ => return None,
                }
            }
        }
    }

    fn skip_string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        loop {
            match self.next()? {
                b'"' => return Some(()),
                b'\\' => {
                    self.next()?;
                }
                _ => {}
            }
        }
    }
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
