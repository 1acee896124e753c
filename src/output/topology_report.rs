//! The report of `declare`, `declare --dry-run` and `verify`: its JSON shape and its tables
//! (the live, computed and difference lines of each queue, the hold queues, the remedies).

use serde::Serialize;
use serde_json::Value;

use crate::duration::format_millis;
use crate::error::Result;
use crate::output::{self, Format, Output, sanitize::sanitize};
use crate::plan::{self, DiffKind, Difference, HoldPlan, QueuePlan, Status};
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
    pub fn command(self) -> &'static str {
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
    pub fn describe(self) -> &'static str {
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

/// The queue's role and its type as far as queuey knows it ([`QueuePlan::known_type`]): never
/// one the AMQP fallback could not read.
fn role_cell(plan: &QueuePlan) -> String {
    let queue_type = plan.known_type().unwrap_or(crate::plan::TYPE_NOT_READ);
    format!("{} ({})", plan.role.describe(), sanitize(queue_type))
}

pub fn print_report(report: &TopologyReport, mode: Mode, output: Output) -> Result<()> {
    print_plans(report, mode, output)?;
    // Drift is explained on stderr whatever the format (and --quiet): it says why the exit
    // code is 1, and what to do, with the commands to paste.
    for l in report
        .logical_queues
        .iter()
        .filter(|l| matches!(l.status, Status::Drift | Status::Refused) && !l.remedies.is_empty())
    {
        let redefined = l.queues.iter().any(|e| {
            e.plan
                .differences
                .iter()
                .any(|d| d.kind != DiffKind::Policy)
        });
        let refused = l.status == Status::Refused;
        let mut text = match (mode, redefined) {
            (Mode::Declare, _) if refused => format!(
                "refused: queuey declare changed nothing for {:?}: the broker refuses the \
                 declaration of its queues as computed (see the diff). Options:",
                l.name
            ),
            _ if refused => format!(
                "{:?} cannot be declared as computed: the broker refuses it (see the diff). \
                 Options:",
                l.name
            ),
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
        output.explain(&text);
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
                Some(DeclareResult::Refused) if e.plan.status == Status::Refused => {
                    "refused by the broker".to_owned()
                }
                Some(DeclareResult::Unchanged) if l.status == Status::Refused => {
                    "unchanged (a refusal beside it)".to_owned()
                }
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
    output::print_table(&table, output)?;
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
        Some(ttl) => format!(
            "hold queue ({}, {})",
            format_millis(ttl),
            sanitize(&p.queue_type)
        ),
        None => format!("not a hold queue (bad name): {}", sanitize(&p.queue_type)),
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
