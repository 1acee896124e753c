//! Where the broker is: the AMQP URL and the management API URL, parsed once, displayed only
//! without their password.
//!
//! The AMQP URL follows RabbitMQ's URI spec: `amqp[s]://user:pass@host:port/vhost`, the vhost
//! percent-encoded (`%2f` is `/`). No path at all means the default vhost `/`; a bare trailing
//! slash means the vhost named `""`, as in the spec (and as the AMQP client reads it).
//!
//! We parse the URL ourselves rather than hand the string to the AMQP client:
//! `amq-protocol-uri` takes the host from `Url::domain()`, which is `None` for an IP address,
//! so `amqp://10.0.0.5/` would silently connect to `localhost`. `broker::amqp` builds the
//! client's URI from the host we parsed.
//!
//! PURE: no AMQP client here; the query parameters the client understands are validated by the
//! same rules its parser applies, so a bad one is refused before anything connects.

use std::time::Duration;

use percent_encoding::{NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use url::Url;

use crate::error::{Error, Kind, Result};
use crate::redact::{self, MASK};
use crate::tls_pem::TlsSettings;

/// The default AMQP URL: the local broker's default vhost as `guest`.
pub const DEFAULT_AMQP_URL: &str = "amqp://guest:guest@localhost:5672/%2f";
/// The management plugin's default port, used when the API URL is derived from the AMQP URL.
pub const DEFAULT_API_PORT: u16 = 15672;

/// How to reach the broker: one address or several (the nodes of one cluster), tried in order.
#[derive(Clone, Debug)]
pub struct ConnectionSettings {
    /// The AMQP address in use: the first of [`Self::addresses`] until a connection picks the
    /// first that answers ([`Self::at`]).
    pub amqp: AmqpTarget,
    /// The management API to use with it: the first given, or the one derived from `amqp`.
    pub api: ApiTarget,
    /// Every AMQP address, in the order they are tried (never empty; `amqp` is one of them).
    pub addresses: Vec<AmqpTarget>,
    /// Every management API address given (`--api-url`, `QUEUEY_API_URL`, `api_url`), in order;
    /// empty when they are derived, one per AMQP address.
    pub api_addresses: Vec<ApiTarget>,
    pub timeout: Duration,
    /// `--timeout`: how long an answer the broker owes may take before the run stops cleanly
    /// (`None`: wait).
    pub stall_timeout: Option<Duration>,
    /// A private CA and a client identity for `amqps://` and `https://` (empty: the system's
    /// roots, no client certificate). The same for every address.
    pub tls: TlsSettings,
}

impl ConnectionSettings {
    /// The settings of one address: the AMQP address `index` in use, and its management API
    /// (the first given, or the one derived from it).
    pub fn at(&self, index: usize) -> Result<ConnectionSettings> {
        let amqp = self
            .addresses
            .get(index)
            .cloned()
            .ok_or_else(|| Error::internal(format!("no AMQP address {index}")))?;
        let api = match self.api_addresses.first() {
            Some(given) => given.clone(),
            None => ApiTarget::derive(&amqp)?,
        };
        Ok(ConnectionSettings {
            amqp,
            api,
            ..self.clone()
        })
    }

    /// Whether several AMQP addresses were given (queuey then says which one it used).
    pub fn several(&self) -> bool {
        self.addresses.len() > 1
    }

    /// Where `amqp` stands in the list, 1-based, as it is said ("address 2 of 3").
    pub fn position(&self) -> String {
        let n = self
            .addresses
            .iter()
            .position(|a| a == &self.amqp)
            .map_or(0, |i| i + 1);
        format!("address {n} of {}", self.addresses.len())
    }

    /// The management API addresses to try with the AMQP address in use, in order: those given;
    /// else the one derived from the address in use (the same node), then those derived from
    /// the other addresses, each once.
    pub fn api_candidates(&self) -> Vec<ApiTarget> {
        if !self.api_addresses.is_empty() {
            return self.api_addresses.clone();
        }
        let mut out = vec![self.api.clone()];
        for amqp in &self.addresses {
            if let Ok(api) = ApiTarget::derive(amqp)
                && !out.iter().any(|o| o.base == api.base)
            {
                out.push(api);
            }
        }
        out
    }
}

/// The addresses of one value of `--url`, `--api-url`, `QUEUEY_URL`... : a comma separates two
/// URLs when what follows it (past spaces and more commas) starts a new one (`scheme://`) or
/// ends the text. A comma anywhere else belongs to the URL (a password may hold one), and empty
/// pieces (a trailing comma) are dropped.
pub fn split_list(text: &str) -> Vec<String> {
    let starts_url = |rest: &str| {
        let rest = rest.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
        rest.is_empty()
            || rest.find("://").is_some_and(|end| {
                let scheme = &rest[..end];
                scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                    && scheme
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            })
    };
    let mut out = Vec::new();
    let mut from = 0;
    for (at, _) in text.match_indices(',') {
        if starts_url(&text[at + 1..]) {
            out.push(&text[from..at]);
            from = at + 1;
        }
    }
    out.push(&text[from..]);
    out.into_iter()
        .map(str::trim)
        .filter(|piece| !piece.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A parsed AMQP URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmqpTarget {
    pub tls: bool,
    pub host: String,
    pub port: u16,
    pub username: String,
    password: String,
    /// Whether the URL gives a password: without one the client's default, `guest`, is sent
    /// (as RabbitMQ's clients do), and a refused login says so.
    pub password_given: bool,
    pub vhost: String,
    pub query: AmqpQuery,
}

/// The connection parameters an AMQP URL's query may carry (the client's `AMQPQueryString`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AmqpQuery {
    pub frame_max: Option<u32>,
    pub channel_max: Option<u16>,
    pub heartbeat: Option<u16>,
    pub connection_timeout: Option<u64>,
    /// One of the client's SASL mechanisms, lower case.
    pub auth_mechanism: Option<String>,
}

/// The SASL mechanisms the client knows by name.
pub const AUTH_MECHANISMS: [&str; 5] = [
    "amqplain",
    "anonymous",
    "external",
    "plain",
    "rabbit-cr-demo",
];

impl AmqpQuery {
    /// The parameters of `url`'s query, read as the client reads them (the first of a repeated key;
    /// unknown keys ignored).
    fn parse(url: &Url) -> std::result::Result<AmqpQuery, String> {
        fn int<T: std::str::FromStr<Err = std::num::ParseIntError>>(
            url: &Url,
            key: &str,
        ) -> std::result::Result<Option<T>, String> {
            match url.query_pairs().find(|(k, _)| k == key) {
                None => Ok(None),
                Some((_, v)) => v
                    .parse::<T>()
                    .map(Some)
                    .map_err(|e| format!("the query parameter {key}={v:?}: {e}")),
            }
        }
        let auth_mechanism = match url.query_pairs().find(|(k, _)| k == "auth_mechanism") {
            None => None,
            Some((_, v)) => {
                let lower = v.to_lowercase();
                if !AUTH_MECHANISMS.contains(&lower.as_str()) {
                    return Err(format!(
                        "the query parameter auth_mechanism={v:?} is not one of {}",
                        AUTH_MECHANISMS.join(", ")
                    ));
                }
                Some(lower)
            }
        };
        Ok(AmqpQuery {
            frame_max: int(url, "frame_max")?,
            channel_max: int(url, "channel_max")?,
            heartbeat: int(url, "heartbeat")?,
            connection_timeout: int(url, "connection_timeout")?,
            auth_mechanism,
        })
    }
}

impl AmqpTarget {
    /// Parses `input`; the error names the problem and never echoes the password.
    pub fn parse(input: &str) -> Result<AmqpTarget> {
        redact::register_userinfo_of(input);
        let bad = |why: &str| {
            Error::new(
                Kind::BadUrl,
                format!("invalid AMQP URL {}: {why}", redact_url_text(input)),
            )
            .with_hint(
                "write it like amqp://user:password@host:5672/vhost (vhost %2f is \"/\"); \
                 set it with --url or QUEUEY_URL",
            )
        };
        let url = Url::parse(input.trim()).map_err(|e| bad(&e.to_string()))?;
        let tls = match url.scheme() {
            "amqp" => false,
            "amqps" => true,
            other => return Err(bad(&format!("the scheme is {other:?}, not amqp or amqps"))),
        };
        let host = match url.host() {
            Some(url::Host::Domain(d)) => decode(d).map_err(|e| bad(&e))?,
            Some(url::Host::Ipv4(ip)) => ip.to_string(),
            Some(url::Host::Ipv6(ip)) => ip.to_string(),
            None => return Err(bad("it has no host")),
        };
        if host.is_empty() {
            return Err(bad("it has no host"));
        }
        if host.contains(',') {
            return Err(bad(&format!(
                "the host {host:?} holds a comma: in a list of addresses each one is a whole \
                 URL (amqp://user:password@node1,amqp://user:password@node2)"
            )));
        }
        let port = url.port().unwrap_or(if tls { 5671 } else { 5672 });
        // the client's own query parameters (heartbeat, frame_max, ...), validated as it would.
        let query = AmqpQuery::parse(&url).map_err(|e| bad(&redact::redact(&e)))?;
        // No user info at all is the client's default user, guest (amq-protocol-uri, as
        // RabbitMQ's clients). An empty user spelled out (`amqp://:secret@host`) is a mistake,
        // which the client would also read as guest: a login refused for "guest" then hides
        // it. (EXTERNAL and ANONYMOUS send no user name.)
        let sends_user = !matches!(
            query.auth_mechanism.as_deref(),
            Some("external" | "anonymous")
        );
        if url.username().is_empty() && sends_user && has_userinfo(input.trim()) {
            return Err(bad(
                "the user name is empty (nothing before the ':' or '@'); queuey does not read \
                 that as the default user guest",
            ));
        }
        let username = match url.username() {
            "" => "guest".to_owned(),
            u => decode(u).map_err(|e| bad(&e))?,
        };
        let (password, password_given) = match url.password() {
            None => ("guest".to_owned(), false),
            Some(p) => (decode(p).map_err(|e| bad(&e))?, true),
        };
        // The default password is no secret (every message would lose the word guest).
        if password_given {
            redact::register_secret(&password, &username);
        }
        let vhost = match url.path() {
            "" => "/".to_owned(),
            path => {
                let raw = path.strip_prefix('/').unwrap_or(path);
                if raw.contains('/') {
                    return Err(bad(
                        "the vhost has an unencoded '/'; encode it as %2f (the default vhost is %2f)",
                    ));
                }
                decode(raw).map_err(|e| bad(&e))?
            }
        };
        Ok(AmqpTarget {
            tls,
            host,
            port,
            username,
            password,
            password_given,
            vhost,
            query,
        })
    }

    pub fn password(&self) -> &str {
        &self.password
    }

    /// The URL as it may be shown: the password replaced by `***`.
    pub fn display(&self) -> String {
        format!(
            "{}://{}:{MASK}@{}:{}/{}",
            if self.tls { "amqps" } else { "amqp" },
            utf8_percent_encode(&self.username, SHOWN),
            host_for_url(&self.host),
            self.port,
            // A list whose next item is not a URL is read as one URL whose vhost holds the
            // rest, commas and all (`/,user:secret@host`): what looks like a password there is
            // masked before it is encoded.
            utf8_percent_encode(&redact::mask_userinfo(&self.vhost), SHOWN),
        )
    }
}

/// What a shown URL percent-encodes in a user name or a vhost: all but RFC 3986's unreserved
/// characters, so `orders-eu` reads as written and `/` as `%2F`.
const SHOWN: &percent_encoding::AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Where the management HTTP API is and who to talk to it as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiTarget {
    /// Base URL without credentials, ending before `/api` (e.g. `http://localhost:15672/`).
    pub base: Url,
    pub username: String,
    password: String,
    /// Whether the URL was derived from the AMQP URL (rather than given).
    pub derived: bool,
}

impl ApiTarget {
    /// The API next to `amqp`: same host, port 15672, same credentials, https when amqps.
    pub fn derive(amqp: &AmqpTarget) -> Result<ApiTarget> {
        let scheme = if amqp.tls { "https" } else { "http" };
        let text = format!(
            "{scheme}://{}:{DEFAULT_API_PORT}/",
            host_for_url(&amqp.host)
        );
        let base = Url::parse(&text).map_err(|e| {
            Error::new(
                Kind::BadUrl,
                format!("cannot derive the management API URL {text}: {e}"),
            )
            .with_hint("give it with --api-url or QUEUEY_API_URL")
        })?;
        Ok(ApiTarget {
            base,
            username: amqp.username.clone(),
            password: amqp.password.clone(),
            derived: true,
        })
    }

    /// Parses an explicit API URL (`http[s]://[user:pass@]host:port[/prefix]`). Credentials
    /// missing from it are taken from the AMQP URL. A trailing `/api` is accepted and dropped.
    pub fn parse(input: &str, amqp: &AmqpTarget) -> Result<ApiTarget> {
        redact::register_userinfo_of(input);
        let bad = |why: &str| {
            Error::new(
                Kind::BadUrl,
                format!(
                    "invalid management API URL {}: {why}",
                    redact_url_text(input)
                ),
            )
            .with_hint(
                "write it like http://host:15672 (credentials default to the AMQP URL's); \
                 set it with --api-url or QUEUEY_API_URL",
            )
        };
        let mut url = Url::parse(input.trim()).map_err(|e| bad(&e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(bad(&format!(
                "the scheme is {:?}, not http or https",
                url.scheme()
            )));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(bad("it has no host"));
        }
        if url.host_str().is_some_and(|h| h.contains(',')) {
            return Err(bad(
                "its host holds a comma: in a list of addresses each one is a whole URL \
                 (http://node1:15672,http://node2:15672)",
            ));
        }
        let username = match url.username() {
            "" => amqp.username.clone(),
            u => decode(u).map_err(|e| bad(&e))?,
        };
        // A password taken from the AMQP URL is registered there (unless it is the default).
        let password = match url.password() {
            None => amqp.password.clone(),
            Some(p) => {
                let password = decode(p).map_err(|e| bad(&e))?;
                redact::register_secret(&password, &username);
                password
            }
        };
        // Credentials travel in the Authorization header, never in the URL we keep.
        let _ = url.set_username("");
        let _ = url.set_password(None);
        url.set_query(None);
        url.set_fragment(None);
        let mut path = url.path().trim_end_matches('/').to_owned();
        if path.ends_with("/api") {
            path.truncate(path.len() - "/api".len());
        }
        url.set_path(&format!("{path}/"));
        Ok(ApiTarget {
            base: url,
            username,
            password,
            derived: false,
        })
    }

    pub fn password(&self) -> &str {
        &self.password
    }

    /// The base URL as it may be shown. It holds no credentials of its own, but a typo can put
    /// a password in its path (`http://h:1/%2f:SECRET@` parses as host `h`, path `/%2f:SECRET@`):
    /// that is masked as everywhere else ([`redact::redact`]).
    pub fn display(&self) -> String {
        redact::redact(self.base.as_str().trim_end_matches('/'))
    }
}

/// Whether the URL `raw` spells out user info (an `@` in its authority), even an empty one.
fn has_userinfo(raw: &str) -> bool {
    let Some((_, rest)) = raw.split_once("://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    authority.contains('@')
}

fn decode(s: &str) -> std::result::Result<String, String> {
    percent_decode_str(s)
        .decode_utf8()
        .map(|c| c.into_owned())
        .map_err(|_| "a percent-encoded part is not UTF-8".to_owned())
}

fn host_for_url(host: &str) -> String {
    if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_owned()
    }
}

/// A URL-looking text that may not even parse, as it may be shown: anything shaped like
/// `user:password@` masked, and every registered password too ([`redact::redact`]).
pub fn redact_url_text(input: &str) -> String {
    redact::redact(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_default() {
        let t = AmqpTarget::parse(DEFAULT_AMQP_URL).unwrap();
        assert_eq!(
            (
                t.tls,
                t.host.as_str(),
                t.port,
                t.username.as_str(),
                t.vhost.as_str()
            ),
            (false, "localhost", 5672, "guest", "/")
        );
        assert_eq!(t.password(), "guest");
        assert_eq!(t.display(), "amqp://guest:***@localhost:5672/%2F");
        // Unreserved characters are shown as written.
        let t = AmqpTarget::parse("amqp://ops.user:pw@mq:5672/orders-eu_1.~x%2Fy").unwrap();
        assert_eq!(
            t.display(),
            "amqp://ops.user:***@mq:5672/orders-eu_1.~x%2Fy"
        );
    }

    #[test]
    fn keeps_ip_hosts() {
        let t = AmqpTarget::parse("amqp://u:p@10.1.2.3:5673/v").unwrap();
        assert_eq!(t.host, "10.1.2.3");
        assert_eq!(t.host, "10.1.2.3");
        let t = AmqpTarget::parse("amqp://u:p@[::1]/v").unwrap();
        assert_eq!(t.host, "::1");
        assert!(t.display().contains("[::1]:5672"));
    }

    #[test]
    fn vhosts() {
        assert_eq!(AmqpTarget::parse("amqp://h").unwrap().vhost, "/");
        assert_eq!(AmqpTarget::parse("amqp://h/").unwrap().vhost, "");
        assert_eq!(AmqpTarget::parse("amqp://h/%2f").unwrap().vhost, "/");
        assert_eq!(
            AmqpTarget::parse("amqp://h/my%20vhost").unwrap().vhost,
            "my vhost"
        );
        assert!(AmqpTarget::parse("amqp://h/a/b").is_err());
    }

    #[test]
    fn tls_and_ports() {
        let t = AmqpTarget::parse("amqps://u:p@mq.example.com/%2f").unwrap();
        assert!(t.tls);
        assert_eq!(t.port, 5671);
        let api = ApiTarget::derive(&t).unwrap();
        assert_eq!(api.display(), "https://mq.example.com:15672");
    }

    #[test]
    fn bad_urls_are_refused_without_the_password() {
        // Text that is not a URL at all is masked through the registered secrets: register
        // this one here rather than rely on another test (run in parallel) having done it.
        redact::register_secret("hunter22", "u");
        for bad in [
            "http://u:hunter22@h/",
            "amqp://u:hunter22@/x",
            "not a url hunter22",
            "amqp://u:hunter22@h:99999/",
        ] {
            let err = AmqpTarget::parse(bad).unwrap_err();
            assert_eq!(err.kind, Kind::BadUrl);
            assert!(!err.to_string().contains("hunter22"), "{err}");
        }
    }

    #[test]
    fn an_empty_user_spelled_out_is_refused_and_no_user_info_is_guest() {
        for url in [
            "amqp://:s3cret@h/",
            "amqp://@h/",
            "amqp://:@h",
            "amqps://:pw@h:5671",
        ] {
            let err = AmqpTarget::parse(url).unwrap_err();
            assert_eq!(err.kind, Kind::BadUrl, "{url}");
            assert!(
                err.to_string().contains("user name is empty"),
                "{url}: {err}"
            );
            assert!(!err.to_string().contains("s3cret"), "{err}");
        }
        let t = AmqpTarget::parse("amqp://h/v").unwrap();
        assert_eq!(
            (t.username.as_str(), t.password(), t.password_given),
            ("guest", "guest", false)
        );
        let t = AmqpTarget::parse("amqp://bob@h/v").unwrap();
        assert_eq!((t.username.as_str(), t.password_given), ("bob", false));
        assert!(
            AmqpTarget::parse("amqp://bob:pw@h/v")
                .unwrap()
                .password_given
        );
        // EXTERNAL sends no user name: an empty one is no mistake there.
        assert!(AmqpTarget::parse("amqps://@h/?auth_mechanism=external").is_ok());
        // An `@` in the vhost or the query is no user info.
        assert!(AmqpTarget::parse("amqp://h/v%40x").is_ok());
    }

    #[test]
    fn api_url_derived_and_explicit() {
        let amqp = AmqpTarget::parse("amqp://bob:s3cret@rabbit.local/prod").unwrap();
        let d = ApiTarget::derive(&amqp).unwrap();
        assert_eq!(d.display(), "http://rabbit.local:15672");
        assert_eq!((d.username.as_str(), d.password()), ("bob", "s3cret"));

        let e = ApiTarget::parse("https://admin:pw@mgmt.local/rabbit/api/", &amqp).unwrap();
        assert_eq!(e.base.as_str(), "https://mgmt.local/rabbit/");
        assert_eq!((e.username.as_str(), e.password()), ("admin", "pw"));
        assert!(!e.display().contains("pw"));

        let e = ApiTarget::parse("http://localhost:15672", &amqp).unwrap();
        assert_eq!(e.base.as_str(), "http://localhost:15672/");
        assert_eq!(e.username, "bob");
        assert!(ApiTarget::parse("amqp://localhost", &amqp).is_err());
    }

    #[test]
    fn a_password_a_typo_put_in_the_api_urls_path_is_not_shown() {
        // Found by the secrets property test: this parses as host localhost, path
        // /%2f:ZqAaA0AA@ (the password of a URL whose user part the typo lost).
        let amqp = AmqpTarget::parse("amqp://bob:s3cret@rabbit.local/prod").unwrap();
        let e = ApiTarget::parse("http://localhost:1/%2f:ZqAaA0AA@", &amqp).unwrap();
        assert!(e.base.as_str().contains("ZqAaA0AA"), "{}", e.base);
        assert!(!e.display().contains("ZqAaA0AA"), "{}", e.display());
        assert!(
            e.display().starts_with("http://localhost:"),
            "{}",
            e.display()
        );
    }

    #[test]
    fn a_list_is_split_where_a_new_url_starts() {
        assert_eq!(split_list("amqp://a"), ["amqp://a"]);
        assert_eq!(
            split_list(" amqp://u:p@a:1/%2f, amqps://u:p@b,,amqp://c ,"),
            ["amqp://u:p@a:1/%2f", "amqps://u:p@b", "amqp://c"]
        );
        // A comma in a password, even two, stays in its URL.
        assert_eq!(
            split_list("amqp://u:p,w@a,amqp://u:p,,w@b"),
            ["amqp://u:p,w@a", "amqp://u:p,,w@b"]
        );
        assert_eq!(
            split_list("http://a:15672,https://b/rabbit"),
            ["http://a:15672", "https://b/rabbit"]
        );
        assert!(split_list(" , ").is_empty());
        // Hosts without their URL stay one address, refused by name.
        assert_eq!(split_list("amqp://h1,h2"), ["amqp://h1,h2"]);
        let err = AmqpTarget::parse("amqp://h1,h2").unwrap_err();
        assert!(err.message.contains("each one is a whole URL"), "{err}");
        let amqp = AmqpTarget::parse("amqp://h").unwrap();
        assert!(ApiTarget::parse("http://h1,h2:15672", &amqp).is_err());
    }

    #[test]
    fn the_api_of_each_address_is_derived_the_one_in_use_first() {
        let addresses: Vec<AmqpTarget> =
            ["amqp://n1:5672/%2f", "amqps://n2/%2f", "amqp://n1:5673/%2f"]
                .iter()
                .map(|u| AmqpTarget::parse(u).unwrap())
                .collect();
        let all = ConnectionSettings {
            amqp: addresses[0].clone(),
            api: ApiTarget::derive(&addresses[0]).unwrap(),
            addresses: addresses.clone(),
            api_addresses: Vec::new(),
            timeout: Duration::from_secs(1),
            stall_timeout: None,
            tls: TlsSettings::default(),
        };
        assert!(all.several());
        let second = all.at(1).unwrap();
        assert_eq!(second.amqp, addresses[1]);
        assert_eq!(second.position(), "address 2 of 3");
        let shown: Vec<String> = second
            .api_candidates()
            .iter()
            .map(ApiTarget::display)
            .collect();
        // n1 on two ports derives one API address (port 15672), tried once.
        assert_eq!(shown, ["https://n2:15672", "http://n1:15672"]);
        assert!(all.at(3).is_err());
        let given = ConnectionSettings {
            api_addresses: vec![
                ApiTarget::parse("http://m2:15672", &addresses[0]).unwrap(),
                ApiTarget::parse("http://m1:15672", &addresses[0]).unwrap(),
            ],
            ..all.clone()
        };
        let pinned = given.at(2).unwrap();
        assert_eq!(pinned.api.display(), "http://m2:15672");
        let shown: Vec<String> = pinned
            .api_candidates()
            .iter()
            .map(ApiTarget::display)
            .collect();
        assert_eq!(shown, ["http://m2:15672", "http://m1:15672"]);
    }

    #[test]
    fn redacts_unparseable_text() {
        assert_eq!(
            redact_url_text("amqp://user:p@ss@host:1/x"),
            "amqp://user:***@host:1/x"
        );
        assert_eq!(redact_url_text("amqp://host/x"), "amqp://host/x");
    }

    #[test]
    fn typos_in_a_url_never_show_its_password() {
        for bad in [
            "amqp//guest:Typo1pw@host:5672/%2f",
            "amqp:/guest:Typo1pw@host",
            "guest:Typo1pw@host",
            "amqp://guest:Typo1pw@host:http/",
            "amqp://guest:Ty po1pw@host:x/",
        ] {
            let err = AmqpTarget::parse(bad).unwrap_err();
            assert!(!err.to_string().contains("Typo1pw"), "{err}");
            assert!(!err.to_string().contains("po1pw"), "{err}");
            let amqp = AmqpTarget::parse("amqp://h").unwrap();
            if let Err(err) = ApiTarget::parse(bad, &amqp) {
                assert!(!err.to_string().contains("Typo1pw"), "{err}");
            }
        }
    }
}

#[cfg(test)]
mod vhost_display {
    use super::*;

    /// Found by `offline::secrets` (a list `FIRST,:Zq...@amqp:@` whose second item is no
    /// URL): the vhost then held a password-shaped text, shown percent-encoded, unmasked.
    #[test]
    fn a_password_shaped_vhost_is_masked_in_the_display() {
        let t = AmqpTarget::parse("amqp://guest:pw@127.0.0.1:5699/%2f%2c%3aZqAAA0aA%40amqp%3a%40")
            .expect("a URL");
        assert_eq!(t.vhost, "/,:ZqAAA0aA@amqp:@");
        assert!(!t.display().contains("ZqAAA0aA"), "{}", t.display());
    }
}
