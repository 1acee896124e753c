//! The RabbitMQ management HTTP API, for what AMQP cannot answer: the broker's version, listing
//! queues, reading a live queue's arguments.
//!
//! Plain requests through reqwest with small, tolerant response structs rather than the
//! `rabbitmq_http_client` crate's typed responses: those require fields that come and go
//! between 3.10, 3.13 and 4.x (its `Overview` demands `message_stats` and `churn_rates`), and
//! its queue listing has no name filter (docs/broker-notes.md). queuey reads only the fields it uses, each
//! optional, so a broker version that drops one degrades a column instead of failing a command.
//! (The crate is used by the test harness, where its typed calls fit.)

use std::time::Duration;

use futures_util::StreamExt;

use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use reqwest::StatusCode;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::amqp::Failed;
use super::api_objects::read_json;
pub use super::api_objects::{LiveQueue, NamedPolicy, Overview, PolicyDefinition};
use crate::endpoint::ApiTarget;
use crate::error::{Error, Kind, Result};
use crate::tls_pem::TlsSettings;

/// The hint for every "the API is not there" error.
pub const ENABLE_PLUGIN_HINT: &str = "the management plugin may be off: enable it on the broker with \
     `rabbitmq-plugins enable rabbitmq_management` (it listens on port 15672), or point \
     --api-url / QUEUEY_API_URL at it";

/// A management API client for one broker and user.
#[derive(Clone, Debug)]
pub struct ApiClient {
    http: reqwest::Client,
    target: ApiTarget,
    /// For what a failed TLS handshake means.
    tls: TlsSettings,
}

/// Pages of a listing asked for at once.
const PAGES_IN_FLIGHT: usize = 3;

/// The queue fields a listing returns: those of [`LiveQueue`] (a test compares a topology read
/// this way with one read queue by queue).
const LISTING_COLUMNS: &str = "name,vhost,arguments,durable,auto_delete,exclusive,type,messages,\
     messages_ready,messages_unacknowledged,consumers,idle_since,policy,operator_policy,\
     effective_policy_definition,state,members,online";

impl ApiClient {
    /// A client of the API at `target`, with the TLS files for an `https://` one.
    pub fn new(target: ApiTarget, tls: &TlsSettings, timeout: Duration) -> Result<ApiClient> {
        let builder = reqwest::Client::builder()
            .connect_timeout(timeout)
            .timeout(timeout.saturating_mul(3))
            .user_agent(concat!("queuey/", env!("CARGO_PKG_VERSION")));
        let http = super::tls_clients::http_builder(builder, tls)?
            .build()
            .map_err(|e| {
                super::tls_clients::rustls_error(&e)
                    .and_then(|found| super::tls_clients::explain(found, &Self::peer(&target), tls))
                    .unwrap_or_else(|| {
                        Error::new(
                            Kind::Api,
                            format!("cannot set up an HTTP client for the management API: {e}"),
                        )
                    })
            })?;
        Ok(ApiClient {
            http,
            target,
            tls: tls.clone(),
        })
    }

    /// The API as a TLS peer, for what a failed handshake means (exit 6, as the API's other
    /// failures).
    fn peer(target: &ApiTarget) -> super::tls_clients::Peer<'_> {
        super::tls_clients::Peer {
            what: format!("the management API at {}", target.display()),
            host: target.base.host_str().unwrap_or_default(),
            host_setting: "--api-url / QUEUEY_API_URL (derived from --url when not given)",
            certfile_setting: "management.ssl.certfile",
            kind: Kind::Api,
        }
    }

    pub fn target(&self) -> &ApiTarget {
        &self.target
    }

    /// `GET /api/<segments...>?<query>`, each segment percent-encoded whole (queue and vhost
    /// names may hold `/`, `%`, `#`, spaces), the JSON body decoded into `T`.
    pub async fn get_json<T: DeserializeOwned>(
        &self,
        segments: &[&str],
        query: &[(&str, &str)],
    ) -> Result<T> {
        let response = self.get(segments, query).await?;
        self.decode(response, segments).await
    }

    /// A response's JSON body decoded into `T`, or the error its status says.
    async fn decode<T: DeserializeOwned>(
        &self,
        response: reqwest::Response,
        segments: &[&str],
    ) -> Result<T> {
        let url = response.url().clone();
        let status = response.status();
        if !status.is_success() {
            let body = response.text().await.unwrap_or_default();
            return Err(self.status_error(status, &body, segments));
        }
        let unreadable = |detail: String| {
            Error::new(
                Kind::Api,
                format!(
                    "the management API at {} answered {} with JSON queuey cannot read: {detail}",
                    self.target.display(),
                    url.path()
                ),
            )
        };
        let body = response
            .bytes()
            .await
            .map_err(|e| unreadable(format!("the body was cut short: {e}")))?;
        read_json::<T>(&body).map_err(|e| {
            // What serde found, and where, with the start of the body as the broker sent it.
            let start: String = String::from_utf8_lossy(&body).chars().take(300).collect();
            unreadable(format!(
                "{e}; the body begins {}",
                queuey_cli_core::sanitize::sanitize(&start)
            ))
        })
    }

    /// Like [`ApiClient::get_json`], but a 404 is `Ok(None)`.
    pub async fn get_json_opt<T: DeserializeOwned>(
        &self,
        segments: &[&str],
        query: &[(&str, &str)],
    ) -> Result<Option<T>> {
        match self.get_json(segments, query).await {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.kind == Kind::QueueNotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    async fn get(&self, segments: &[&str], query: &[(&str, &str)]) -> Result<reqwest::Response> {
        self.send(segments, query)
            .await?
            .map_err(|e| self.transport_error(&e))
    }

    /// The request of [`ApiClient::get`], its transport failure as reqwest tells it.
    async fn send(
        &self,
        segments: &[&str],
        query: &[(&str, &str)],
    ) -> Result<reqwest::Result<reqwest::Response>> {
        let mut path = String::from("api");
        for segment in segments {
            path.push('/');
            path.extend(utf8_percent_encode(segment, NON_ALPHANUMERIC));
        }
        let mut url =
            self.target.base.join(&path).map_err(|e| {
                Error::internal(format!("cannot build the API URL for {path}: {e}"))
            })?;
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        // A GET changes nothing, so one whose connection closed before the answer came (the
        // server closed a kept-alive connection as it was reused, or a node's HTTP listener
        // restarting right after the node started: see docs/broker-notes.md, A three-node
        // cluster)
        // is sent again, twice at most, before it is an error. A refused connection, a timeout
        // or a TLS failure is an answer of its own and is not retried.
        let mut retries = 0;
        loop {
            let sent = self
                .http
                .get(url.clone())
                .basic_auth(&self.target.username, Some(self.target.password()))
                .send()
                .await;
            match sent {
                Err(e) if retries < 2 && Self::closed_before_answer(&e) => {
                    retries += 1;
                    tokio::time::sleep(Duration::from_millis(250 * retries)).await;
                }
                other => return Ok(other),
            }
        }
    }

    /// A request whose connection was lost after it was made and before its answer: neither
    /// refused, nor timed out, nor a TLS failure.
    fn closed_before_answer(err: &reqwest::Error) -> bool {
        err.is_request()
            && !err.is_connect()
            && !err.is_timeout()
            && super::tls_clients::rustls_error(err).is_none()
    }

    fn transport_error(&self, err: &reqwest::Error) -> Error {
        if let Some(explained) = super::tls_clients::rustls_error(err).and_then(|found| {
            super::tls_clients::explain(found, &Self::peer(&self.target), &self.tls)
        }) {
            return explained;
        }
        let api = self.target.display();
        let mut detail = err.to_string();
        let mut source = std::error::Error::source(err);
        while let Some(s) = source {
            detail = format!("{detail}: {s}");
            source = s.source();
        }
        let detail = crate::redact::redact(&detail);
        let why = if err.is_timeout() {
            "no answer in time".to_owned()
        } else if err.is_connect() {
            format!("cannot connect ({detail})")
        } else {
            detail
        };
        Error::new(
            Kind::Api,
            format!("the RabbitMQ management API at {api} is not reachable: {why}"),
        )
        .with_hint(ENABLE_PLUGIN_HINT)
    }

    /// The error for a refused or failed request to `/api/<segments...>`.
    fn status_error(&self, status: StatusCode, body: &str, segments: &[&str]) -> Error {
        let api = self.target.display();
        let reason = serde_json::from_str::<serde_json::Value>(body)
            .ok()
            .and_then(|v| {
                v.get("reason")
                    .or_else(|| v.get("error"))
                    .and_then(|r| r.as_str().map(str::to_owned))
            })
            .unwrap_or_else(|| body.chars().take(200).collect());
        match status {
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
                self.refusal(status.as_u16(), &reason, segments)
            }
            StatusCode::NOT_FOUND => {
                Error::new(Kind::QueueNotFound, format!("not found (404): {reason}"))
            }
            _ => Error::new(
                Kind::Api,
                format!("the management API at {api} answered {status}: {reason}"),
            ),
        }
    }

    /// A 401 or 403: the plugin is on, it refused this user. RabbitMQ's reason says why (see
    /// docs/broker-notes.md, Permissions and management tags): `Not management user` (no
    /// management, monitoring or administrator tag: every endpoint refuses), `Not administrator
    /// user` (an administrator-only endpoint, such as `/api/vhosts/{vhost}` or
    /// `/api/permissions/...`), `User not authorised to access virtual host` (no permissions on
    /// the vhost), `User not authorised to access object` (policies need the policymaker tag),
    /// `Login failed` (credentials).
    fn refusal(&self, code: u16, reason: &str, segments: &[&str]) -> Error {
        let api = self.target.display();
        let user = &self.target.username;
        let path: String = segments
            .iter()
            .map(|s| format!("/{}", utf8_percent_encode(s, NON_ALPHANUMERIC)))
            .collect();
        let path = format!("/api{path}");
        let answered = format!("the management API at {api} answered {code} {reason:?}");
        let lower = reason.to_ascii_lowercase();
        if lower.contains("not management user") {
            Error::new(
                Kind::ApiRefused,
                format!(
                    "the management API refuses user {user:?}: it has none of the tags \
                     management, monitoring or administrator ({answered})"
                ),
            )
            .with_hint(format!(
                "the monitoring tag lets queuey read what it needs without any right to change \
                 anything: {}",
                crate::shell::add_user_tag_advice(user, "monitoring")
            ))
        } else if code == 401 && (lower.contains("login failed") || lower == "not_authorized") {
            // 3.10 answers "Login failed", 4.x "Not_Authorized": the credentials, not a tag (a
            // user without one is "Not management user"; see docs/broker-notes.md, Permissions
            // and management tags).
            Error::new(
                Kind::ApiRefused,
                format!(
                    "the management API refused the login of user {user:?}: its user name or \
                     password is not accepted ({answered})"
                ),
            )
            .with_hint(
                "check the credentials: the API is asked with the AMQP URL's user and password \
                 unless --api-url / QUEUEY_API_URL gives its own, as \
                 http://user:password@host:15672; no tag is missing",
            )
        } else if lower.contains("virtual host") {
            let vhost = segments.get(1).copied().unwrap_or("?");
            Error::new(
                Kind::AccessRefused,
                format!(
                    "user {user:?} has no permissions on the vhost {vhost:?} ({answered} to \
                     {path})"
                ),
            )
            .with_hint(format!(
                "{} (the vhost is the --url's path)",
                super::amqp::vhost_access_hint(vhost, user)
            ))
        } else if lower.contains("not administrator") {
            Error::new(
                Kind::ApiRefused,
                format!(
                    "the management API lets only users with the administrator tag read {path}, \
                     and user {user:?} does not have it ({answered})"
                ),
            )
        } else if lower.contains("access object") {
            Error::new(
                Kind::ApiRefused,
                format!(
                    "user {user:?} may not read {path}: that needs the policymaker or \
                     administrator tag ({answered})"
                ),
            )
        } else {
            Error::new(
                Kind::ApiRefused,
                format!("the management API at {api} refused user {user:?} ({code}): {reason}"),
            )
            .with_hint(format!(
                "check the credentials (--api-url takes user:password@ when they differ from \
                 the AMQP URL's); the user needs the management, monitoring or administrator \
                 tag: {}",
                crate::shell::add_user_tag_advice(user, "monitoring")
            ))
        }
    }

    /// `GET /api/overview`: the broker's version, node and cluster. A 404 there is no missing
    /// object: nothing at that address is a RabbitMQ management API (a wrong path prefix, or
    /// another web server), and every later request would be a 404 too.
    pub async fn overview(&self) -> Result<Overview> {
        self.overview_at().await.map_err(|failed| failed.error)
    }

    /// [`ApiClient::overview`], telling apart an address where nothing answers (a refused
    /// connection, a name that does not resolve, no answer in time: the caller may try the next
    /// address) from an API that answered, or a TLS handshake that failed (the user's to fix).
    pub async fn overview_at(&self) -> std::result::Result<Overview, Failed> {
        let sent = self
            .send(&["overview"], &[])
            .await
            .map_err(Failed::answered)?;
        let response = match sent {
            Ok(response) => response,
            Err(e) => {
                let tls = super::tls_clients::rustls_error(&e).is_some();
                return Err(Failed {
                    no_answer: !tls && (e.is_timeout() || e.is_connect()),
                    error: self.transport_error(&e),
                });
            }
        };
        let decoded = self.decode(response, &["overview"]).await;
        match decoded {
            Err(e) if e.kind == Kind::QueueNotFound => Err(Error::new(
                Kind::Api,
                format!(
                    "there is no RabbitMQ management API at {}: {}/api/overview answered 404 \
                     not found",
                    self.target.display(),
                    self.target.display()
                ),
            )
            .with_hint(
                "--api-url / QUEUEY_API_URL takes the address the API answers at, without \
                 /api: http://host:15672, or with the path prefix of the proxy it sits behind \
                 (https://host/rabbitmq); `curl -u USER URL/api/overview` answers JSON at the \
                 right one",
            )),
            other => other,
        }
        .map_err(Failed::answered)
    }

    /// The names of the cluster's nodes (`GET /api/nodes`), empty when they cannot be read. A
    /// cluster never named gives each node's own name as the cluster's (3.10.8 and 4.3.6), so
    /// two names that differ are one cluster when both are among these.
    pub async fn node_names(&self) -> Vec<String> {
        self.get_json::<Vec<serde_json::Value>>(&["nodes"], &[("columns", "name")])
            .await
            .map(|list| {
                list.iter()
                    .filter_map(|n| n.get("name")?.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// One queue's live state; `None` when it does not exist (or the vhost does not).
    pub async fn queue(&self, vhost: &str, name: &str) -> Result<Option<LiveQueue>> {
        self.get_json_opt(&["queues", vhost, name], &[]).await
    }

    /// The queues of `vhost` whose names match `regex`, all pages.
    ///
    /// The API ignores the name filter unless `page` is given, and its regex is unanchored and
    /// case-insensitive (docs/broker-notes.md): callers must filter the result again, exactly.
    pub async fn queues_matching(&self, vhost: &str, regex: &str) -> Result<Vec<LiveQueue>> {
        self.queue_pages(vhost, &[("name", regex), ("use_regex", "true")], usize::MAX)
            .await
    }

    /// Every queue of `vhost` in one listing, with only the columns queuey compares and
    /// counts, read straight into structs: what `declare`, `verify` and `status` read once for
    /// a whole topology instead of three requests per logical queue; `None` when the vhost does
    /// not exist. One request, not pages: the broker gathers and sorts the whole vhost for every
    /// page it serves, so every page costs a whole gather (see docs/benchmarks.md, verify --all
    /// over 1 000 logical queues). Like every API read, it renews no lease.
    pub async fn queues(&self, vhost: &str) -> Result<Option<Vec<LiveQueue>>> {
        self.get_json_opt(&["queues", vhost], &[("columns", LISTING_COLUMNS)])
            .await
    }

    /// Every policy (or, with `operator`, operator policy) of `vhost`. Reading them needs the
    /// policymaker, monitoring or administrator tag; operator policies, administrator.
    pub async fn policies(&self, vhost: &str, operator: bool) -> Result<Vec<NamedPolicy>> {
        let kind = if operator {
            "operator-policies"
        } else {
            "policies"
        };
        Ok(self
            .get_json_opt::<Vec<NamedPolicy>>(&[kind, vhost], &[])
            .await?
            .unwrap_or_default())
    }

    /// The names of the queues of `vhost`, at most `limit` of them (pages of 500 names, the
    /// name column only): enough to suggest what a mistyped name meant.
    pub async fn queue_names(&self, vhost: &str, limit: usize) -> Result<Vec<String>> {
        #[derive(Deserialize)]
        struct Named {
            name: String,
        }
        let named: Vec<Named> = self
            .queue_pages(vhost, &[("columns", "name")], limit)
            .await?;
        Ok(named.into_iter().map(|n| n.name).collect())
    }

    /// The queues of `vhost` page by page (500 a page) with the extra `query`, until the last
    /// page or `limit` items; a missing vhost is an error.
    async fn queue_pages<T: DeserializeOwned>(
        &self,
        vhost: &str,
        query: &[(&str, &str)],
        limit: usize,
    ) -> Result<Vec<T>> {
        #[derive(Deserialize)]
        struct Page<T> {
            #[serde(default = "Vec::new")]
            items: Vec<T>,
            #[serde(default)]
            page_count: u64,
        }
        let fetch = |page: u64| async move {
            let page_text = page.to_string();
            let mut params = vec![("page", page_text.as_str()), ("page_size", "500")];
            params.extend_from_slice(query);
            let result: Option<Page<T>> = self.get_json_opt(&["queues", vhost], &params).await?;
            result.ok_or_else(|| self.missing_vhost(vhost))
        };
        let first = fetch(1).await?;
        let mut out = first.items;
        if out.len() >= limit || first.page_count <= 1 {
            out.truncate(limit);
            return Ok(out);
        }
        // The other pages a few at a time, in order: the broker sorts the whole vhost for each
        // page, and its cores serve several at once. (A queue created or deleted meanwhile
        // shifts the pages, as it would between pages fetched one by one.)
        let pages = (2..=first.page_count).take(limit.div_ceil(500));
        let mut rest = futures_util::stream::iter(pages)
            .map(fetch)
            .buffered(PAGES_IN_FLIGHT);
        while let Some(page) = rest.next().await {
            out.extend(page?.items);
            if out.len() >= limit {
                break;
            }
        }
        out.truncate(limit);
        Ok(out)
    }

    /// The error for a vhost the API does not know (exit 5, as AMQP answers it).
    fn missing_vhost(&self, vhost: &str) -> Error {
        Error::new(
            Kind::AccessRefused,
            format!(
                "the vhost {vhost:?} does not exist (the management API at {} answered 404)",
                self.target.display()
            ),
        )
        .with_hint(super::amqp::MISSING_VHOST_HINT)
    }

    /// The default queue type of `vhost`: what a queue declared without `x-queue-type` is made
    /// (RabbitMQ's `default_queue_type`, set with `rabbitmqctl add_vhost --default-queue-type`
    /// or the API; 3.10 says `undefined` when unset, 4.x `classic`). Read from the vhost
    /// listing, which a user with the monitoring or management tag may read
    /// (`/api/vhosts/{vhost}` needs the administrator tag). `None` when unset, or when the
    /// listing does not show the vhost.
    pub async fn vhost_default_queue_type(&self, vhost: &str) -> Result<Option<String>> {
        #[derive(Deserialize)]
        struct Metadata {
            default_queue_type: Option<String>,
        }
        #[derive(Deserialize)]
        struct Vhost {
            name: String,
            default_queue_type: Option<String>,
            metadata: Option<Metadata>,
        }
        let listed: Vec<Vhost> = self
            .get_json(
                &["vhosts"],
                &[("columns", "name,default_queue_type,metadata")],
            )
            .await?;
        Ok(listed
            .into_iter()
            .find(|v| v.name == vhost)
            .and_then(|v| {
                v.default_queue_type
                    .or_else(|| v.metadata.and_then(|m| m.default_queue_type))
            })
            .filter(|t| !t.is_empty() && t != "undefined"))
    }

    /// Whether `vhost` exists, as a user with the management or monitoring tag can learn it:
    /// `/api/vhosts/{vhost}` is for administrators only, but a one-name page of the vhost's
    /// queues answers 404 when the vhost does not exist (and 401 when the user has no
    /// permissions on it, an error naming the vhost).
    pub async fn vhost_exists(&self, vhost: &str) -> Result<bool> {
        Ok(self
            .get_json_opt::<serde_json::Value>(
                &["queues", vhost],
                &[("page", "1"), ("page_size", "1"), ("columns", "name")],
            )
            .await?
            .is_some())
    }
}
