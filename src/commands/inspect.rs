//! Reading the live topology of a logical queue, for `declare`, `verify` and `status`.
//!
//! The management API is the source when it answers: it shows each queue's whole definition,
//! and listing hold queues through it renews nothing. A user with the monitoring (or
//! management) tag reads everything queuey needs; no request here needs the administrator tag.
//! When the API does not answer, or refuses the user, the [`Inspector`] falls back to AMQP for
//! `q` and `q.dead` only: a passive declare says whether the queue exists, and how many
//! messages are ready. Only `declare`, which declares anyway and needs the configure permission
//! for it, then probes an existing queue with a declare of its computed arguments on a fresh
//! channel (the equivalence probe), whose 406 names the first differing argument. The read-only
//! commands (`verify`, `status`, `declare --dry-run`) never make a declare that is not passive:
//! it needs a permission a read-only user does not have, and would create a queue deleted
//! between the two declares. A probe never runs on a queue the passive declare did not find.
//! Hold queues are never declared, passively or not: a passive declare renews an idle classic
//! queue's `x-expires` lease and would keep it alive for ever.

use crate::broker::api::{LiveQueue, regex_escape};
use crate::broker::session::{BrokerVersion, DeclareReply, Session};
use crate::error::{Error, Kind, Result};
use crate::plan::{self, ComputedQueue, ProbeOutcome, QueuePlan, Source};
use crate::settings::QueueSettings;
use crate::topology;

/// Counts of a live queue; each `None` when the broker has not reported it (stats appear a
/// few seconds after a declare) or the source cannot tell (AMQP only knows ready messages).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub messages: Option<u64>,
    pub messages_ready: Option<u64>,
    pub messages_unacknowledged: Option<u64>,
    pub consumers: Option<u64>,
}

impl Counts {
    pub fn of(live: &LiveQueue) -> Counts {
        Counts {
            messages: live.messages,
            messages_ready: live.messages_ready,
            messages_unacknowledged: live.messages_unacknowledged,
            consumers: live.consumers,
        }
    }
}

/// One long-lived queue: its plan, and its counts when it exists.
#[derive(Clone, Debug)]
pub struct Inspected {
    pub computed: ComputedQueue,
    pub plan: QueuePlan,
    pub counts: Option<Counts>,
}

/// Where live state comes from for one run.
pub struct Inspector<'a> {
    pub session: &'a Session,
    pub source: Source,
    /// Why the management API is not used (the error it gave), in the AMQP fallback.
    pub api_error: Option<Error>,
    /// Whether the AMQP fallback may probe an existing queue with a declare (only `declare`).
    pub probe: bool,
}

/// The note every command prints (and puts in its JSON) in the AMQP fallback; `probe` when
/// the fallback probes existing queues with a declare (`declare` only).
pub fn fallback_note(api_error: &Error, hold_queues: bool, probe: bool, user: &str) -> String {
    let why = if api_error.kind == Kind::ApiRefused {
        api_error.message.clone()
    } else {
        format!(
            "the management API is not available ({})",
            api_error.message
        )
    };
    let mut note = if probe {
        format!(
            "{why}, so queuey fell back to AMQP: a passive declare for existence, then a declare \
             with the computed arguments that the broker accepts only when the queue is \
             equivalent. A drift found this way names only the first differing argument the \
             broker reports; policies are not shown"
        )
    } else {
        format!(
            "{why}, so queuey fell back to AMQP: a passive declare for existence and the ready \
             messages only. AMQP cannot read a queue's arguments, and this command never \
             declares a queue to probe them, so an existing queue is \"exists, not checked\" \
             (`queuey declare` finds the first differing argument by declaring)"
        )
    };
    if hold_queues {
        note.push_str(
            "; hold queues were not checked (AMQP cannot list queues, and a passive declare \
             would renew an idle hold queue's x-expires lease)",
        );
    }
    if api_error.kind == Kind::ApiRefused {
        note.push_str(&format!(
            ". A user with the monitoring tag gets the full diff: it reads the API and changes \
             nothing (rabbitmqctl set_user_tags {} monitoring).",
            crate::shell::quote(user)
        ));
    } else {
        note.push_str(
            ". Enable the API with `rabbitmq-plugins enable rabbitmq_management` for a full diff.",
        );
    }
    note
}

impl<'a> Inspector<'a> {
    /// Uses the management API when it answers, else the AMQP fallback. A vhost the API does
    /// not know is an error (exit 5), not a plan to create everything. `probe`: the fallback
    /// may declare an existing queue to compare it (`declare` only; see the module docs).
    pub async fn new(session: &'a Session, probe: bool) -> Result<Inspector<'a>> {
        let fallback = |e: Error| Inspector {
            session,
            source: Source::AmqpProbe,
            api_error: Some(e),
            probe,
        };
        match session.overview().await {
            Ok(_) => {}
            Err(e) if e.kind.is_api() => return Ok(fallback(e)),
            Err(e) => return Err(e),
        }
        match session.api().vhost_exists(session.vhost()).await {
            Ok(true) => Ok(Inspector {
                session,
                source: Source::ManagementApi,
                api_error: None,
                probe,
            }),
            Ok(false) => Err(Error::new(
                Kind::AccessRefused,
                format!(
                    "the vhost {:?} does not exist on RabbitMQ at {} (the management API at {} \
                     does not know it)",
                    session.vhost(),
                    session.settings.amqp.display(),
                    session.api().target().display()
                ),
            )
            .with_hint(crate::broker::amqp::MISSING_VHOST_HINT)),
            Err(e) if e.kind.is_api() => Ok(fallback(e)),
            Err(e) => Err(e),
        }
    }

    pub fn uses_api(&self) -> bool {
        self.source == Source::ManagementApi
    }

    /// The plans of `q` and `q.dead`, with their counts. Changes nothing on the broker, except
    /// that `declare`'s equivalence probe of an existing classic queue renews its `x-expires`
    /// lease, as any declare does (`q` and `q.dead` have none).
    pub async fn long_lived(&self, q: &QueueSettings) -> Result<Vec<Inspected>> {
        let mut out = Vec::new();
        for computed in plan::long_lived_queues(q) {
            let inspected = match self.source {
                Source::ManagementApi => {
                    let live = self.session.live_queue(&computed.name).await?;
                    let mut definition = live.as_ref().map(LiveQueue::definition);
                    if computed.role == plan::Role::Dead
                        && let Some(d) = definition.as_mut()
                    {
                        d.applied_policies = self.read_policies(d).await;
                    }
                    let plan = plan::diff_queue(&computed, definition.as_ref());
                    Inspected {
                        counts: live.as_ref().map(Counts::of),
                        computed,
                        plan,
                    }
                }
                Source::AmqpProbe => {
                    let (outcome, counts) = self.probe(&computed).await?;
                    let plan = plan::plan_from_probe(&computed, &outcome, self.session.vhost());
                    Inspected {
                        computed,
                        plan,
                        counts,
                    }
                }
            };
            out.push(inspected);
        }
        Ok(out)
    }

    /// The policies applied to a queue, with their patterns and definitions where the API lets
    /// queuey read them (a user without the policymaker tag gets names only, which is enough to
    /// name them).
    async fn read_policies(&self, live: &plan::LiveDefinition) -> Vec<plan::AppliedPolicy> {
        let mut out = plan::applied_policies(live);
        for applied in &mut out {
            if let Ok(Some(found)) = self
                .session
                .api()
                .policy(self.session.vhost(), &applied.name, applied.operator)
                .await
            {
                applied.pattern = found.pattern;
                applied.definition = Some(found.definition);
            }
        }
        out
    }

    /// The AMQP fallback for one long-lived queue: a passive declare, then, only when the
    /// queue exists and the command may declare, the equivalence probe.
    async fn probe(&self, computed: &ComputedQueue) -> Result<(ProbeOutcome, Option<Counts>)> {
        let counts = match self.session.passive_declare_reply(&computed.name).await? {
            DeclareReply::Ok(c) => Counts {
                messages: None,
                messages_ready: Some(u64::from(c.messages_ready)),
                messages_unacknowledged: None,
                consumers: Some(u64::from(c.consumers)),
            },
            DeclareReply::Refused { code: 404, .. } => return Ok((ProbeOutcome::Missing, None)),
            // Exclusive to another connection: even a passive declare is locked out.
            DeclareReply::Refused { code: 405, text } => {
                return Ok((ProbeOutcome::Locked(text), None));
            }
            DeclareReply::Refused { code, text } => {
                return Err(self.session.refused("inspect", &computed.name, code, &text));
            }
        };
        if !self.probe {
            return Ok((ProbeOutcome::Exists, Some(counts)));
        }
        let outcome = match self.session.declare(computed).await? {
            DeclareReply::Ok(_) => ProbeOutcome::Equivalent,
            DeclareReply::Refused { code: 405, text } => ProbeOutcome::Locked(text),
            DeclareReply::Refused { code: 406, text } => ProbeOutcome::Inequivalent(text),
            DeclareReply::Refused { code, text } => {
                return Err(self.session.refused("check", &computed.name, code, &text));
            }
        };
        Ok((outcome, Some(counts)))
    }

    /// The live queues whose names start with `q` + deferred suffix and are, exactly, hold
    /// queues of `q` or names with the infix but no valid TTL (management API only: listing
    /// renews no lease). The API's name filter is unanchored and case-insensitive, so the
    /// regex is anchored and escaped and the result filtered again here, exactly.
    ///
    /// From RabbitMQ 3.13 the listing leaves out `idle_since`; with `idle_since` set, each
    /// classic hold queue missing it is read again on its own (a GET renews nothing either).
    pub async fn hold_queues(&self, q: &QueueSettings, idle_since: bool) -> Result<Vec<LiveQueue>> {
        hold_queues(self.session, q, idle_since).await
    }
}

/// See [`Inspector::hold_queues`]; usable without an inspector (`holds ls` needs the API).
pub async fn hold_queues(
    session: &Session,
    q: &QueueSettings,
    idle_since: bool,
) -> Result<Vec<LiveQueue>> {
    let prefix = format!("{}{}", q.name, q.options.deferred_suffix);
    let regex = format!("^{}", regex_escape(&prefix));
    let mut found: Vec<LiveQueue> = session
        .api()
        .queues_matching(session.vhost(), &regex)
        .await?
        .into_iter()
        .filter(|live| {
            topology::parse_deferred_queue_name(&q.name, &live.name, &q.options) != Ok(None)
        })
        .collect();
    if idle_since && found.iter().any(needs_idle_since) {
        let new_listing = match session.broker_version().await {
            Ok(Some(v)) => v >= BrokerVersion::new(3, 13, 0),
            _ => false,
        };
        if new_listing {
            for live in found.iter_mut().filter(|l| needs_idle_since(l)) {
                if let Some(single) = session.live_queue(&live.name).await? {
                    *live = single;
                }
            }
        }
    }
    Ok(found)
}

fn needs_idle_since(live: &LiveQueue) -> bool {
    live.idle_since.is_none() && live.queue_type.as_deref().unwrap_or("classic") == "classic"
}
