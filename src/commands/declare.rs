//! `queuey declare`, `queuey declare --dry-run` and `queuey verify`: one plan, three uses.
//!
//! For each logical queue the live state is read first ([`Inspector`]), compared with the
//! computed queues ([`crate::plan`]), and only then acted on: `declare` creates what is missing,
//! leaves what is in sync, and never redeclares over drift (it reports the diff and the
//! operator's options and changes nothing for that logical queue). `--dry-run` and `verify`
//! change nothing; `verify` also checks the live hold queues (management API only).

use serde::Serialize;
use serde_json::Value;

use super::inspect::{self, Inspected, Inspector};
use crate::broker::session::{DeclareReply, Session};
use crate::duration::format_millis;
use crate::endpoint::ConnectionSettings;
use crate::error::{ExitCode, Result};
use crate::output::{self, Format, Output, sanitize::sanitize};
use crate::plan::{self, DiffKind, Difference, HoldPlan, ProbeOutcome, QueuePlan, Role, Status};
use crate::queue::QueueSettings;
use crate::topology;

/// Which of the three commands runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Declare,
    /// `declare --dry-run`; `allow_unlisted` as `declare --allow-unlisted`.
    DryRun {
        allow_unlisted: bool,
    },
    Verify,
}

impl Mode {
    fn command(self) -> &'static str {
        match self {
            Mode::Declare => "declare",
            Mode::DryRun { .. } => "declare --dry-run",
            Mode::Verify => "verify",
        }
    }
}

/// What `declare` did with one queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeclareResult {
    /// It did not exist; it was declared with the computed arguments.
    Created,
    /// It existed with the computed definition; the declare changed nothing.
    AlreadyInSync,
    /// It exists with another definition: left as it is.
    Refused,
    /// In sync or missing, but another queue of the same logical queue drifted, so nothing
    /// was changed for this logical queue.
    Unchanged,
}

impl DeclareResult {
    fn describe(self) -> &'static str {
        match self {
            DeclareResult::Created => "created",
            DeclareResult::AlreadyInSync => "already in sync",
            DeclareResult::Refused => "refused: drift",
            DeclareResult::Unchanged => "unchanged (drift beside it)",
        }
    }
}

/// One long-lived queue in the report.
#[derive(Debug, Serialize)]
pub struct QueueEntry {
    #[serde(flatten)]
    pub plan: QueuePlan,
    /// What `declare` did; `null` for `--dry-run` and `verify`.
    pub result: Option<DeclareResult>,
}

/// The hold queues of one logical queue, as `verify` checked them.
#[derive(Debug, Serialize)]
pub struct HoldsCheck {
    /// False in the AMQP fallback: hold queues are only read through the API.
    pub checked: bool,
    pub queues: Vec<HoldPlan>,
}

/// One logical queue in the report.
#[derive(Debug, Serialize)]
pub struct LogicalPlan {
    pub name: String,
    /// False when a topology file is in use and does not list this queue (its settings are the
    /// defaults; `declare` refuses it without `--allow-unlisted`).
    pub listed: bool,
    /// `drift` when any queue (or, for verify, hold queue) drifted, else `create` when any
    /// queue is missing, else `in_sync`. After `declare`, what the broker now has.
    pub status: Status,
    pub queues: Vec<QueueEntry>,
    /// `verify` only; `null` otherwise.
    pub hold_queues: Option<HoldsCheck>,
    /// When the queues drifted: what the operator can do about it, each in words and, where
    /// one does it, with a command to paste.
    pub remedies: Vec<plan::Remedy>,
}

/// The JSON document of `declare`, `declare --dry-run` and `verify`.
#[derive(Debug, Serialize)]
pub struct TopologyReport {
    pub command: &'static str,
    /// `management_api`, or `amqp_probe` in the fallback.
    pub source: plan::Source,
    /// False in the AMQP fallback: a drift names only its first difference, hold queues and
    /// policies were not checked.
    pub complete: bool,
    pub notes: Vec<String>,
    /// True when every queue exists and is in sync (after `declare`: what it left behind).
    pub in_sync: bool,
    pub exit_code: u8,
    pub logical_queues: Vec<LogicalPlan>,
}

pub async fn run(
    queues: &[QueueSettings],
    connection: &ConnectionSettings,
    mode: Mode,
    output: Output,
) -> Result<ExitCode> {
    let session = Session::new(connection.clone(), mode.command())?;
    let result = run_in(&session, queues, mode, output).await;
    session.close().await;
    result
}

async fn run_in(
    session: &Session,
    queues: &[QueueSettings],
    mode: Mode,
    output: Output,
) -> Result<ExitCode> {
    let inspector = Inspector::new(session, mode == Mode::Declare).await?;
    let mut notes = Vec::new();
    if let Some(e) = &inspector.api_error {
        // Connect first: when AMQP fails too (a wrong password fails both), its error is the
        // one to show, without a note about a fallback that cannot happen.
        session.connection().await?;
        let note = inspect::fallback_note(
            e,
            mode == Mode::Verify,
            inspector.probe,
            &session.settings.api.username,
        );
        output.note(&format!("note: {note}"));
        notes.push(note);
    }
    let mut code = ExitCode::Ok;
    for q in queues {
        let Some(unlisted) = &q.unlisted else {
            continue;
        };
        let mut note = unlisted.explain(&q.name);
        if let Mode::DryRun {
            allow_unlisted: false,
        } = mode
        {
            note.push_str(
                "; queuey declare refuses to create it without --allow-unlisted, so this dry \
                 run exits 2 as declare would",
            );
            code = code.merge(ExitCode::Usage);
        }
        output.note(&format!("note: {note}"));
        notes.push(note);
    }
    inspector.read_vhost(queues.len()).await?;
    let mut logical = Vec::new();
    for q in queues {
        if mode == Mode::Declare {
            // Before the first declare (or the fallback's probe): nothing is created for a
            // logical queue unless all its queues may be declared.
            for computed in plan::long_lived_queues(q) {
                session.check_configure_permission(&computed.name).await?;
            }
        }
        let inspected = inspector.long_lived(q).await?;
        let (mut entry, entry_code) = match mode {
            Mode::Declare => {
                let declared: Vec<String> =
                    inspected.iter().map(|i| i.computed.name.clone()).collect();
                let done = declare_one(session, q, inspected).await?;
                inspector.changed(declared);
                done
            }
            Mode::DryRun { .. } => {
                let entry = plan_entry(q, inspected, None, session.vhost());
                let c = if entry.status == Status::Drift {
                    ExitCode::Drift
                } else {
                    ExitCode::Ok
                };
                (entry, c)
            }
            Mode::Verify => {
                let holds = if inspector.uses_api() {
                    Some(check_holds(&inspector, q).await?)
                } else {
                    None
                };
                let entry = plan_entry(q, inspected, holds, session.vhost());
                let c = match entry.status {
                    Status::InSync => ExitCode::Ok,
                    // Without the API's arguments verify cannot vouch for anything.
                    Status::Unchecked => ExitCode::Api,
                    Status::Create | Status::Drift => ExitCode::Drift,
                };
                (entry, c)
            }
        };
        entry.listed = q.unlisted.is_none();
        code = code.merge(entry_code);
        logical.push(entry);
    }
    let report = TopologyReport {
        command: mode.command(),
        source: inspector.source,
        complete: inspector.uses_api(),
        notes,
        in_sync: logical.iter().all(|l| l.status == Status::InSync),
        exit_code: code.code(),
        logical_queues: logical,
    };
    print_report(&report, mode, output)?;
    Ok(code)
}

/// The hold queues of `q`, each checked against the arguments its name implies.
async fn check_holds(inspector: &Inspector<'_>, q: &QueueSettings) -> Result<HoldsCheck> {
    let live = inspector.hold_queues(q, false).await?;
    let mut queues: Vec<HoldPlan> = live
        .iter()
        .filter_map(|l| plan::check_hold_queue(q, &l.name, &l.definition(), l.consumers))
        .collect();
    sort_holds(&mut queues);
    Ok(HoldsCheck {
        checked: true,
        queues,
    })
}

/// Hold queues by delay, bad names last (by name).
pub fn sort_holds(queues: &mut [HoldPlan]) {
    queues.sort_by(|a, b| {
        (a.ttl_ms.is_none(), a.ttl_ms, &a.name).cmp(&(b.ttl_ms.is_none(), b.ttl_ms, &b.name))
    });
}

fn plan_entry(
    q: &QueueSettings,
    inspected: Vec<Inspected>,
    holds: Option<HoldsCheck>,
    vhost: &str,
) -> LogicalPlan {
    let plans: Vec<QueuePlan> = inspected.into_iter().map(|i| i.plan).collect();
    let hold_drift = holds
        .as_ref()
        .is_some_and(|h| h.queues.iter().any(|p| p.status == Status::Drift));
    let status = overall(&plans, hold_drift);
    let remedies = plan::remedies(&plans.iter().collect::<Vec<_>>(), vhost);
    LogicalPlan {
        name: q.name.clone(),
        listed: true,
        status,
        queues: plans
            .into_iter()
            .map(|plan| QueueEntry { plan, result: None })
            .collect(),
        hold_queues: holds,
        remedies,
    }
}

fn overall(plans: &[QueuePlan], hold_drift: bool) -> Status {
    if hold_drift || plans.iter().any(|p| p.status == Status::Drift) {
        Status::Drift
    } else if plans.iter().any(|p| p.status == Status::Create) {
        Status::Create
    } else if plans.iter().any(|p| p.status == Status::Unchecked) {
        Status::Unchecked
    } else {
        Status::InSync
    }
}

/// `declare` for one logical queue: nothing at all when any of its queues drifted; else each
/// queue declared (created, or confirmed in sync). A 406 from a race (someone declared the
/// queue differently since it was read) is reported as drift, like one found by reading.
async fn declare_one(
    session: &Session,
    q: &QueueSettings,
    inspected: Vec<Inspected>,
) -> Result<(LogicalPlan, ExitCode)> {
    let drift = inspected.iter().any(|i| i.plan.status == Status::Drift);
    let mut entries = Vec::new();
    if drift {
        for i in inspected {
            let result = if i.plan.status == Status::Drift {
                DeclareResult::Refused
            } else {
                DeclareResult::Unchanged
            };
            entries.push(QueueEntry {
                plan: i.plan,
                result: Some(result),
            });
        }
    } else {
        for i in inspected {
            let existed = i.plan.status == Status::InSync;
            let entry = match session.declare(&i.computed).await? {
                DeclareReply::Ok(_) => {
                    let mut plan = i.plan;
                    plan.status = Status::InSync;
                    QueueEntry {
                        plan,
                        result: Some(if existed {
                            DeclareResult::AlreadyInSync
                        } else {
                            DeclareResult::Created
                        }),
                    }
                }
                DeclareReply::Refused { code, text } if code == 405 || code == 406 => {
                    let outcome = if code == 405 {
                        ProbeOutcome::Locked(text)
                    } else {
                        ProbeOutcome::Inequivalent(text)
                    };
                    QueueEntry {
                        plan: plan::plan_from_probe(&i.computed, &outcome, session.vhost()),
                        result: Some(DeclareResult::Refused),
                    }
                }
                DeclareReply::Refused { code, text } => {
                    return Err(session.refused("declare", &i.computed.name, code, &text));
                }
            };
            entries.push(entry);
        }
    }
    let plans: Vec<&QueuePlan> = entries.iter().map(|e| &e.plan).collect();
    let status = if plans.iter().any(|p| p.status == Status::Drift) {
        Status::Drift
    } else {
        Status::InSync
    };
    let remedies = plan::remedies(&plans, session.vhost());
    let code = if status == Status::Drift {
        ExitCode::Drift
    } else {
        ExitCode::Ok
    };
    Ok((
        LogicalPlan {
            name: q.name.clone(),
            listed: true,
            status,
            queues: entries,
            hold_queues: None,
            remedies,
        },
        code,
    ))
}

// ---------------------------------------------------------------------------------------------
// Printing.
// ---------------------------------------------------------------------------------------------

/// A live or computed value in a table cell: `(none)` when absent, milliseconds with their
/// human reading, strings quoted, everything sanitised.
pub fn cell_value(field: &str, value: Option<&Value>) -> String {
    let Some(value) = value else {
        return "(none)".to_owned();
    };
    let is_ms = [
        topology::ARG_MESSAGE_TTL,
        topology::ARG_EXPIRES,
        "message-ttl",
        "expires",
    ]
    .contains(&field);
    match value {
        Value::Number(n) if is_ms => match n.as_u64() {
            Some(ms) => format!("{ms} ({})", format_millis(ms)),
            None => n.to_string(),
        },
        Value::String(s) if field == "type" => sanitize(s),
        Value::String(s) => sanitize(&format!("{s:?}")),
        other => sanitize(&other.to_string()),
    }
}

/// The property / live / computed lines of one queue's differences and infos.
#[derive(Default)]
pub struct DiffLines {
    pub property: Vec<String>,
    pub live: Vec<String>,
    pub computed: Vec<String>,
}

impl DiffLines {
    fn push(&mut self, property: String, live: String, computed: String) {
        self.property.push(property);
        self.live.push(live);
        self.computed.push(computed);
    }

    pub fn differences(&mut self, differences: &[Difference]) {
        for d in differences {
            let live = match d.kind {
                DiffKind::Unknown => "(cut from the broker's reply)".to_owned(),
                _ => cell_value(&d.field, d.live.as_ref()),
            };
            self.push(
                field_label(d),
                live,
                cell_value(&d.field, d.computed.as_ref()),
            );
        }
    }

    pub fn infos(
        &mut self,
        ignored: &serde_json::Map<String, Value>,
        policy: Option<&String>,
        definition: Option<&Value>,
    ) {
        for (name, value) in ignored {
            self.push(
                format!("{} (ignored by the broker)", sanitize(name)),
                cell_value(name, Some(value)),
                "-".to_owned(),
            );
        }
        if policy.is_some() || definition.is_some() {
            let name = policy.map_or("(operator policy)".to_owned(), |p| sanitize(p));
            let def =
                definition.map_or(String::new(), |d| format!(" {}", sanitize(&d.to_string())));
            self.push(
                "policy (info)".to_owned(),
                format!("{name}{def}"),
                "-".to_owned(),
            );
        }
    }

    fn cells(self) -> [String; 3] {
        [
            self.property.join("\n"),
            self.live.join("\n"),
            self.computed.join("\n"),
        ]
    }
}

fn role_cell(plan: &QueuePlan) -> String {
    match plan.role {
        Role::Work => format!("work queue ({})", plan.queue_type),
        other => other.describe().to_owned(),
    }
}

fn print_report(report: &TopologyReport, mode: Mode, output: Output) -> Result<()> {
    print_plans(report, mode, output)?;
    // Drift is explained on stderr whatever the format (and --quiet): it says why the exit
    // code is 1, and what to do, with the commands to paste.
    for l in report
        .logical_queues
        .iter()
        .filter(|l| l.status == Status::Drift && !l.remedies.is_empty())
    {
        let redefined = l.queues.iter().any(|e| {
            e.plan
                .differences
                .iter()
                .any(|d| d.kind != DiffKind::Policy)
        });
        let mut text = match (mode, redefined) {
            (Mode::Declare, true) => format!(
                "refused: queuey declare changed nothing for {:?}: its queues exist on the \
                 broker with other definitions (see the diff). Redeclaring them would fail with \
                 PRECONDITION_FAILED, and queuey never deletes a queue. Options:",
                l.name
            ),
            (Mode::Declare, false) => format!(
                "refused: queuey declare changed nothing for {:?}: a policy makes its \
                 dead-letter queue lose its dead letters (see the effects). Options:",
                l.name
            ),
            _ => format!("{:?} drifted (see the diff). Options:", l.name),
        };
        // Remedies are built printable: names `{:?}`-escaped, commands quoted by `shell`. Not
        // `sanitize`, which would double the backslashes of a pattern and break the command.
        for r in &l.remedies {
            text.push_str(&format!("\n  - {}", r.text));
            if let Some(command) = &r.command {
                text.push_str(&format!("\n      {command}"));
            }
        }
        eprintln!("{}", crate::redact::redact(&text));
    }
    Ok(())
}

/// `field (policy "p")` for a difference a policy makes, else the field.
fn field_label(d: &Difference) -> String {
    if d.policies.is_empty() {
        return sanitize(&d.field);
    }
    let by: Vec<String> = d
        .policies
        .iter()
        .map(|p| {
            format!(
                "{} {}",
                if p.operator {
                    "operator policy"
                } else {
                    "policy"
                },
                sanitize(&format!("{:?}", p.name))
            )
        })
        .collect();
    format!("{} ({})", sanitize(&d.field), by.join(", "))
}

fn print_plans(report: &TopologyReport, mode: Mode, output: Output) -> Result<()> {
    if output.format == Format::Json {
        return output::print_json(report);
    }
    let result_header = match mode {
        Mode::Declare => "result",
        Mode::DryRun { .. } | Mode::Verify => "plan",
    };
    let mut rows: Vec<Vec<String>> = Vec::new();
    for l in &report.logical_queues {
        for e in &l.queues {
            let mut lines = DiffLines::default();
            if e.plan.status == Status::Create || e.result == Some(DeclareResult::Created) {
                // What is (or would be) created.
                for (name, value) in &e.plan.computed_arguments {
                    lines.push(
                        sanitize(name),
                        "-".to_owned(),
                        cell_value(name, Some(value)),
                    );
                }
            }
            lines.differences(&e.plan.differences);
            // A policy already shown as drift is not repeated as information.
            let policy_drift = e
                .plan
                .differences
                .iter()
                .any(|d| d.kind == DiffKind::Policy);
            lines.infos(
                &e.plan.ignored_arguments,
                e.plan.policy.as_ref().filter(|_| !policy_drift),
                e.plan
                    .effective_policy_definition
                    .as_ref()
                    .filter(|_| !policy_drift),
            );
            let mut status = match e.result {
                Some(r) => r.describe().to_owned(),
                None => e.plan.status.describe().to_owned(),
            };
            if e.plan.first_difference_only {
                status.push_str("\n(first difference only)");
            }
            let [property, live, computed] = lines.cells();
            rows.push(vec![
                sanitize(&e.plan.name),
                role_cell(&e.plan),
                status,
                property,
                live,
                computed,
            ]);
        }
        if let Some(h) = &l.hold_queues {
            for p in &h.queues {
                rows.push(hold_row(p));
            }
        }
    }
    // Without a single argument to show, the three argument columns are dropped.
    let header = [
        "queue",
        "role",
        result_header,
        "property",
        "live",
        "computed",
    ];
    let width = if rows.iter().any(|r| !r[3].is_empty()) {
        6
    } else {
        3
    };
    let mut table = output::table(&header[..width]);
    for mut row in rows {
        row.truncate(width);
        table.add_row(row);
    }
    output::print(table)?;
    for l in &report.logical_queues {
        let holds = match &l.hold_queues {
            Some(h) => {
                let drift = h
                    .queues
                    .iter()
                    .filter(|p| p.status == Status::Drift)
                    .count();
                format!(
                    "; {} hold queue{}{}",
                    h.queues.len(),
                    if h.queues.len() == 1 { "" } else { "s" },
                    if drift > 0 {
                        format!(", {drift} drifted")
                    } else {
                        String::new()
                    }
                )
            }
            None if mode == Mode::Verify => "; hold queues not checked".to_owned(),
            None => String::new(),
        };
        output::print(format!(
            "{}: {}{holds}{}",
            sanitize(&l.name),
            l.status.describe(),
            if l.listed {
                ""
            } else {
                " (not in the topology file: default settings)"
            }
        ))?;
        // What each difference that costs dead letters does, in words.
        for e in &l.queues {
            for d in &e.plan.differences {
                if let Some(effect) = &d.effect {
                    output::print(format!(
                        "  {}: {}: {}",
                        sanitize(&e.plan.name),
                        field_label(d),
                        sanitize(effect)
                    ))?;
                }
            }
        }
    }
    Ok(())
}

fn hold_row(p: &HoldPlan) -> Vec<String> {
    let mut lines = DiffLines::default();
    if p.ttl_ms.is_none() {
        lines.push(
            "name".to_owned(),
            "no valid TTL".to_owned(),
            format!("a TTL of 1 to {} ms", topology::MAX_DEFERRAL_MS),
        );
    }
    lines.differences(&p.differences);
    if let Some(n) = p.consumers.filter(|n| *n > 0) {
        lines.push("consumers".to_owned(), n.to_string(), "0".to_owned());
    }
    lines.infos(
        &p.ignored_arguments,
        p.policy.as_ref(),
        p.effective_policy_definition.as_ref(),
    );
    let role = match p.ttl_ms {
        Some(ttl) => format!("hold queue ({})", format_millis(ttl)),
        None => "not a hold queue (bad name)".to_owned(),
    };
    let [property, live, computed] = lines.cells();
    vec![
        sanitize(&p.name),
        role,
        p.status.describe().to_owned(),
        property,
        live,
        computed,
    ]
}
