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
//!
//! Over a topology of many logical queues the API is read once: [`Inspector::new`] lists the
//! vhost's queues in one request, instead of three requests per logical queue, before `declare`
//! changes anything.
//!
//! A queue's policies are computed from the vhost's policy listings, read once per run, as the
//! broker applies them (`plan::policies`), never taken from the queue's object, which shows a
//! new policy only at its next statistics emission: a `max-length` policy put on `q.dead` is
//! drift the moment it exists.

use std::cell::RefCell;
use std::collections::BTreeMap;

use crate::broker::api::LiveQueue;
use crate::broker::policies::PolicyListings;
use crate::broker::session::{BrokerVersion, DeclareReply, Session};
use crate::counts::Counts;
use crate::error::{Error, Kind, Result};
use crate::plan::policies::{Unevaluable, apply_listed_policies};
use crate::plan::{self, ComputedQueue, LiveDefinition, ProbeOutcome, QueuePlan, Source};
use crate::queue::QueueSettings;
use crate::topology::{self, QueueType};

/// The counts the management API reports of a live queue (its quorum members among them).
fn counts_of(live: &LiveQueue) -> Counts {
    Counts {
        messages: live.messages,
        messages_ready: live.messages_ready,
        messages_unacknowledged: live.messages_unacknowledged,
        consumers: live.consumers,
        members: live.members.as_ref().map(|m| m.len() as u64),
        members_online: live.members.as_ref().map(|m| {
            live.online
                .iter()
                .flatten()
                .filter(|o| m.contains(o))
                .count() as u64
        }),
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
    /// The vhost's queues read in one listing, over two logical queues or more.
    snapshot: RefCell<Option<Snapshot>>,
    /// The type of a queue declared without `x-queue-type` in this vhost (its
    /// `default_queue_type`; classic where unset or unknown, as in the AMQP fallback).
    pub vhost_default: QueueType,
    /// What the vhost's default queue type changes, said once per run (`None`: classic).
    pub vhost_default_note: Option<String>,
    /// The vhost's policy listings, read once per run when a queue first needs them.
    policies: tokio::sync::OnceCell<PolicyListings>,
    /// What the inspection could not see as the broker applies it now, said once each.
    notes: RefCell<Vec<String>>,
}

/// One listing of a vhost: its queues by name, in order (the hold queues of `q` are one range
/// of names). Read before anything is declared.
#[derive(Default)]
struct Snapshot {
    queues: BTreeMap<String, LiveQueue>,
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
             broker reports; policies cannot be seen (AMQP shows none), so a policy that makes \
             q.dead drop its dead letters is not found"
        )
    } else {
        format!(
            "{why}, so queuey fell back to AMQP: a passive declare for existence and the ready \
             messages only. AMQP cannot read a queue's arguments, and this command never \
             declares a queue to probe them, so an existing queue is \"exists, not checked\" \
             (`queuey declare` finds the first differing argument by declaring); policies \
             cannot be seen either (AMQP shows none)"
        )
    };
    if hold_queues {
        note.push_str(
            "; hold queues were not checked (AMQP cannot list queues, and a passive declare \
             would renew an idle hold queue's x-expires lease)",
        );
    }
    if let (Kind::ApiRefused, None) = (api_error.kind, &api_error.hint) {
        note.push_str(&format!(
            ". A user with the monitoring tag gets the full diff: it reads the API and changes \
             nothing ({}).",
            crate::shell::add_user_tag_advice(user, "monitoring")
        ));
    } else if let Some(hint) = &api_error.hint {
        note.push_str(&format!(". For a full diff: {hint}."));
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
    ///
    /// Over `logical` logical queues, two or more, the vhost's queues are listed here, once,
    /// before anything is declared: one request (only the columns compared), where reading
    /// each logical queue costs three, one of them a search of the whole vhost for its hold
    /// queues, as costly to the broker as the listing. The listing's answer says whether the
    /// vhost exists, as the one-name page that asks it for a single logical queue does.
    pub async fn new(session: &'a Session, probe: bool, logical: usize) -> Result<Inspector<'a>> {
        let fallback = |e: Error| Inspector {
            session,
            source: Source::AmqpProbe,
            api_error: Some(e),
            probe,
            snapshot: RefCell::new(None),
            vhost_default: QueueType::Classic,
            vhost_default_note: None,
            policies: tokio::sync::OnceCell::new(),
            notes: RefCell::new(Vec::new()),
        };
        match session.overview().await {
            Ok(_) => {}
            Err(e) if e.kind.is_api() => return Ok(fallback(e)),
            Err(e) => return Err(e),
        }
        let vhost = session.vhost();
        // Some(listing) when the vhost exists: the listing itself for a fleet.
        let found: Result<Option<Option<Snapshot>>> = match session.api().await {
            Ok(api) if logical >= 2 => api.queues(vhost).await.map(|listed| {
                listed.map(|queues| {
                    Some(Snapshot {
                        queues: queues.into_iter().map(|q| (q.name.clone(), q)).collect(),
                    })
                })
            }),
            Ok(api) => api
                .vhost_exists(vhost)
                .await
                .map(|exists| exists.then_some(None)),
            Err(e) => Err(e),
        };
        match found {
            Ok(Some(snapshot)) => {
                let (vhost_default, vhost_default_note) = vhost_default(session).await?;
                Ok(Inspector {
                    session,
                    source: Source::ManagementApi,
                    api_error: None,
                    probe,
                    snapshot: RefCell::new(snapshot),
                    vhost_default,
                    vhost_default_note,
                    policies: tokio::sync::OnceCell::new(),
                    notes: RefCell::new(Vec::new()),
                })
            }
            Ok(None) => Err(Error::new(
                Kind::AccessRefused,
                format!(
                    "the vhost {:?} does not exist on RabbitMQ at {} (the management API at {} \
                     does not know it)",
                    session.vhost(),
                    session.settings().amqp.display(),
                    session.api_target().display()
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

    /// A live queue: from the listing when there is one, else by its own request.
    async fn live_queue(&self, name: &str) -> Result<Option<LiveQueue>> {
        let listed = self
            .snapshot
            .borrow()
            .as_ref()
            .map(|s| s.queues.get(name).cloned());
        match listed {
            Some(found) => Ok(found),
            None => self.session.live_queue(name).await,
        }
    }

    /// The plans of `q` and `q.dead`, with their counts. Changes nothing on the broker, except
    /// that `declare`'s equivalence probe of an existing classic queue renews its `x-expires`
    /// lease, as any declare does (`q` and `q.dead` have none).
    pub async fn long_lived(&self, q: &QueueSettings) -> Result<Vec<Inspected>> {
        let mut out = Vec::new();
        for computed in plan::long_lived_queues(q, self.vhost_default) {
            let inspected = match self.source {
                Source::ManagementApi => {
                    let live = self.live_queue(&computed.name).await?;
                    let mut definition = live.as_ref().map(LiveQueue::definition);
                    if let Some(d) = definition.as_mut() {
                        self.apply_policies(&computed, d).await?;
                    }
                    let plan = plan::diff_queue(&computed, definition.as_ref());
                    Inspected {
                        counts: live.as_ref().map(counts_of),
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

    /// What was noted while inspecting, each once, in the order found.
    pub fn notes(&self) -> Vec<String> {
        self.notes.borrow().clone()
    }

    fn note(&self, note: String) {
        let mut notes = self.notes.borrow_mut();
        if !notes.contains(&note) {
            notes.push(note);
        }
    }

    /// `live`'s policies as the broker applies them now, from the vhost's policy listings (read
    /// once per run). Where they cannot be listed or evaluated, the queue keeps what its object
    /// showed, seconds old, and a `q.dead` says so in a note: the hazards a policy brings there
    /// may be missed.
    async fn apply_policies(
        &self,
        computed: &ComputedQueue,
        live: &mut LiveDefinition,
    ) -> Result<()> {
        let listings = self
            .policies
            .get_or_try_init(|| async {
                match self.session.api().await {
                    Ok(api) => PolicyListings::read(api, self.session.vhost()).await,
                    Err(e) if e.kind.is_api() => Ok(PolicyListings {
                        policies: Err(e),
                        operators: None,
                    }),
                    Err(e) => Err(e),
                }
            })
            .await?;
        let dead = computed.role == plan::Role::Dead;
        let why = match &listings.policies {
            Ok(policies) => {
                match apply_listed_policies(
                    live,
                    &computed.name,
                    policies,
                    listings.operators.as_deref(),
                ) {
                    Ok(()) => {
                        if dead && listings.operators.is_none() {
                            self.note(
                                "the management API did not list the operator policies (that \
                                 needs the administrator tag): each q.dead's operator policy is \
                                 the one its queue object showed, up to 5 s old, so one set in \
                                 those seconds is not seen"
                                    .to_owned(),
                            );
                        }
                        return Ok(());
                    }
                    Err(Unevaluable(why)) => why,
                }
            }
            Err(e) => format!(
                "the management API did not list the policies ({})",
                e.message
            ),
        };
        if dead {
            self.note(format!(
                "the policies of {:?} are those its queue object showed, up to 5 s old, so a \
                 policy set in those seconds is not seen: {why}",
                computed.name
            ));
        }
        Ok(())
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
                ..Counts::default()
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
        let listed: Option<Vec<LiveQueue>> = match self.snapshot.borrow().as_ref() {
            Some(s) if !idle_since => {
                // Every hold queue's name starts with `q` + the deferred suffix: one range of
                // the ordered names, not a pass over the whole vhost per logical queue.
                let prefix = format!("{}{}", q.name, q.options.deferred_suffix);
                let found: Vec<LiveQueue> = s
                    .queues
                    .range(prefix.clone()..)
                    .take_while(|(name, _)| name.starts_with(&prefix))
                    .filter(|(name, _)| is_hold_queue_of(q, name))
                    .map(|(_, live)| live.clone())
                    .collect();
                Some(found)
            }
            _ => None,
        };
        match listed {
            Some(found) => Ok(found),
            None => hold_queues(self.session, q, idle_since).await,
        }
    }
}

/// The vhost's default queue type as queuey computes with it, and the note that says what it
/// changes: quorum where the vhost says so; classic otherwise (unset, `classic`, or a type
/// queuey does not compute, said in the note). A listing the API refuses is no default.
pub async fn vhost_default(session: &Session) -> Result<(QueueType, Option<String>)> {
    let raw = match session.api().await {
        Ok(api) => api.vhost_default_queue_type(session.vhost()).await,
        Err(e) => Err(e),
    };
    let raw = match raw {
        Ok(raw) => raw,
        Err(e) if e.kind.is_api() => None,
        Err(e) => return Err(e),
    };
    let vhost = session.vhost();
    Ok(match raw.as_deref() {
        None | Some("classic") => (QueueType::Classic, None),
        Some("quorum") => (
            QueueType::Quorum,
            Some(format!(
                "the default queue type of vhost {vhost:?} is quorum: a queue declared there \
                 without x-queue-type, as the queuey library declares q.dead, the hold queues \
                 and q, is a quorum queue, and queuey computes them so"
            )),
        ),
        Some(other) => (
            QueueType::Classic,
            Some(format!(
                "the default queue type of vhost {vhost:?} is {other:?}: every queue declared \
                 without x-queue-type is a {other} queue there, which a queuey application \
                 cannot use (q.dead and the hold queues must be classic or quorum); queuey \
                 computes them as classic queues"
            )),
        ),
    })
}

/// See [`Inspector::hold_queues`]; usable without an inspector (`holds ls` needs the API).
pub async fn hold_queues(
    session: &Session,
    q: &QueueSettings,
    idle_since: bool,
) -> Result<Vec<LiveQueue>> {
    let prefix = format!("{}{}", q.name, q.options.deferred_suffix);
    let regex = format!("^{}", crate::shell::regex_literal(&prefix, false));
    let mut found: Vec<LiveQueue> = session
        .api()
        .await?
        .queues_matching(session.vhost(), &regex)
        .await?
        .into_iter()
        .filter(|live| is_hold_queue_of(q, &live.name))
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

/// A hold queue of `q`, or a name with its deferred infix but no valid TTL.
fn is_hold_queue_of(q: &QueueSettings, name: &str) -> bool {
    topology::parse_deferred_queue_name(&q.name, name, &q.options) != Ok(None)
}

fn needs_idle_since(live: &LiveQueue) -> bool {
    live.idle_since.is_none() && live.queue_type.as_deref().unwrap_or("classic") == "classic"
}
