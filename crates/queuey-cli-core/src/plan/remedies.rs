//! The operator's options over drift: in words, and a command ready to paste into a POSIX
//! shell where one does it.

use serde::Serialize;
use serde_json::Value;

use super::*;
use crate::queue::QueueSettings;
use crate::topology::QueueType;

/// The policy key that sets the same thing as argument `arg`, when there is one.
pub fn policy_key(arg: &str) -> Option<&'static str> {
    Some(match arg {
        "x-message-ttl" => "message-ttl",
        "x-expires" => "expires",
        "x-max-length" => "max-length",
        "x-max-length-bytes" => "max-length-bytes",
        "x-overflow" => "overflow",
        "x-dead-letter-exchange" => "dead-letter-exchange",
        "x-dead-letter-routing-key" => "dead-letter-routing-key",
        "x-delivery-limit" => "delivery-limit",
        "x-queue-mode" => "queue-mode",
        "x-dead-letter-strategy" => "dead-letter-strategy",
        _ => return None,
    })
}

/// Whether a policy setting `key` to the computed value would change the queue's effective
/// behaviour: for TTLs and length limits the lower of argument and policy wins; for
/// dead-lettering and the other keys the queue's own argument wins over a policy (see
/// docs/broker-notes.md, Declaring and the management API).
fn policy_effect(key: &str, d: &Difference) -> Result<(), String> {
    const LOWER_WINS: &[&str] = &[
        "message-ttl",
        "expires",
        "max-length",
        "max-length-bytes",
        "delivery-limit",
    ];
    match d.kind {
        DiffKind::Missing => Ok(()),
        DiffKind::Extra => Err("a policy cannot remove an argument the queue declares".to_owned()),
        DiffKind::Unknown => Err("the live value is not known".to_owned()),
        DiffKind::Policy => Err("it comes from a policy already".to_owned()),
        DiffKind::Refused => Err("the queue's type refuses the argument".to_owned()),
        DiffKind::Different if LOWER_WINS.contains(&key) => {
            let live = d.live.as_ref().and_then(Value::as_i64);
            let computed = d.computed.as_ref().and_then(Value::as_i64);
            match (live, computed) {
                (Some(l), Some(c)) if c < l => Ok(()),
                (Some(l), Some(c)) => Err(format!(
                    "the queue declares {l}, and between an argument and a policy the lower \
                     value wins, so a policy of {c} would change nothing"
                )),
                _ => Err("the values are not comparable numbers".to_owned()),
            }
        }
        DiffKind::Different => {
            Err("the queue's own argument wins over a policy for this key".to_owned())
        }
    }
}

/// One of the operator's options over drift: what to do, in words, and the command that does it
/// when there is one, ready to paste into a POSIX shell (every word quoted by [`crate::shell`];
/// it shows only visible characters, however the queue is named).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Remedy {
    pub text: String,
    pub command: Option<String>,
}

impl Remedy {
    fn say(text: String) -> Remedy {
        Remedy {
            text,
            command: None,
        }
    }

    /// A remedy with its command; without one (a name the Debian rabbitmqctl wrapper would
    /// misread, see [`crate::shell::REREAD_CAVEAT`]) the text says why.
    fn run(text: String, command: Option<String>) -> Remedy {
        match command {
            Some(command) => Remedy {
                text,
                command: Some(command),
            },
            None => Remedy {
                text: format!("{text} ({})", crate::shell::REREAD_CAVEAT),
                command: None,
            },
        }
    }
}

/// The name queuey gives a policy it suggests for `queue`: `queuey-` and the queue's name, with
/// anything invisible replaced (a policy name is shown in the management UI), and `$`, a
/// backquote or `\` too (so that the command survives the Debian rabbitmqctl wrapper).
fn suggested_policy_name(queue: &str) -> String {
    let visible: String = queue
        .chars()
        .map(|c| {
            if crate::sanitize::is_visible(c) && !matches!(c, '$' | '`' | '\\') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("queuey-{visible}")
}

/// The operator's options for the drifting queues among `plans` (those of the logical queue
/// `queue`), in the vhost `vhost`: in words (every name from outside `{:?}`-escaped), each with
/// a command where one does it. Every option names an action that exists: no setting of queuey
/// or of the library covers `q.dead`'s definition (it is declared without arguments, of the
/// vhost's default type), so a drifted `q.dead` is never told to change the settings; its way
/// out keeps its dead letters (archived, the queue declared again, restored).
pub fn remedies(plans: &[&QueuePlan], vhost: &str, queue: &QueueSettings) -> Vec<Remedy> {
    use crate::shell;
    // An argument the queue's type refuses: no change on the broker helps, the settings must
    // change (each refusal says how, in its effect). Nothing is to be deleted.
    let refusals: Vec<Remedy> = plans
        .iter()
        .filter(|p| p.status == Status::Refused)
        .flat_map(|p| {
            p.differences
                .iter()
                .filter(|d| d.kind == DiffKind::Refused)
                .map(|d| Remedy::say(refused_remedy(&p.name, &d.field)))
        })
        .collect();
    if !refusals.is_empty() {
        return refusals;
    }
    // A queue exclusive to another client's connection is not a definition to reconcile: no
    // setting of queuey declares an exclusive queue, and the queue ends with its connection.
    let (locked, drifting): (Vec<&&QueuePlan>, Vec<&&QueuePlan>) = plans
        .iter()
        .filter(|p| p.status == Status::Drift)
        .partition(|p| {
            p.differences
                .iter()
                .any(|d| d.field == "exclusive" && d.live == Some(Value::Bool(true)))
        });
    let mut out = Vec::new();
    if !locked.is_empty() {
        let names: Vec<String> = locked.iter().map(|p| format!("{:?}", p.name)).collect();
        out.push(Remedy::run(
            format!(
                "{} {} exclusive to another client's connection: no queuey setting matches an \
                 exclusive queue, and it is deleted when that connection closes. Find the owner \
                 (the queue's page in the management UI, or the owner_pid this lists), stop the \
                 client that declares this name as an exclusive queue, then run queuey declare \
                 again",
                names.join(" and "),
                if names.len() == 1 { "is" } else { "are" }
            ),
            shell::rabbitmqctl(vhost, &["list_queues", "name", "exclusive", "owner_pid"]),
        ));
    }
    // Policies that destroy dead letters: clear them (or narrow their pattern).
    let mut by_policy: Vec<(PolicyRef, &QueuePlan, Vec<&str>)> = Vec::new();
    for p in &drifting {
        for d in p.differences.iter().filter(|d| d.kind == DiffKind::Policy) {
            for policy in &d.policies {
                match by_policy
                    .iter_mut()
                    .find(|(r, q, _)| r == policy && q.name == p.name)
                {
                    Some((_, _, keys)) => keys.push(&d.field),
                    None => by_policy.push((policy.clone(), p, vec![&d.field])),
                }
            }
        }
    }
    for (policy, plan, keys) in &by_policy {
        let kind = if policy.operator {
            "operator policy"
        } else {
            "policy"
        };
        let pattern = plan
            .applied_policies
            .iter()
            .find(|a| a.name == policy.name && a.operator == policy.operator)
            .and_then(|a| a.pattern.as_deref())
            .map_or(String::new(), |p| format!(" (pattern {})", shell::quote(p)));
        out.push(Remedy::run(
            format!(
                "the {kind} {:?}{pattern} gives {:?} {}, which {} its dead letters (see the \
                 effects above). If it is meant for other queues, set it again under the same \
                 name with a pattern that does not match {:?}; otherwise delete it",
                policy.name,
                plan.name,
                keys.join(", "),
                if keys.len() == 1 { "costs" } else { "cost" },
                plan.name,
            ),
            shell::rabbitmqctl(
                vhost,
                &[
                    if policy.operator {
                        "clear_operator_policy"
                    } else {
                        "clear_policy"
                    },
                    &policy.name,
                ],
            ),
        ));
    }
    // Queues whose own definition differs (not only their policies).
    let defined: Vec<&&QueuePlan> = drifting
        .iter()
        .copied()
        .filter(|p| p.differences.iter().any(|d| d.kind != DiffKind::Policy))
        .collect();
    if defined.is_empty() {
        return out;
    }
    let differences: Vec<(&str, &Difference)> = defined
        .iter()
        .flat_map(|p| {
            p.differences
                .iter()
                .filter(|d| d.kind != DiffKind::Policy)
                .map(|d| (p.name.as_str(), d))
        })
        .collect();
    if defined.iter().any(|p| p.role != Role::Dead) {
        out.push(Remedy::say(
            "if the live queue is what you want, change the settings (queuey.toml or the flags) \
             to match it; the applications declare with the same settings"
                .to_owned(),
        ));
    }
    let mut effective: Vec<(&str, &str, &Difference)> = Vec::new();
    let mut useless: Vec<String> = Vec::new();
    for (queue, d) in &differences {
        let Some(key) = policy_key(&d.field) else {
            continue;
        };
        match policy_effect(key, d) {
            Ok(()) => effective.push((queue, key, d)),
            Err(why) => useless.push(format!("{:?} of {queue:?}: {why}", d.field)),
        }
    }
    if let Some((queue, _, _)) = effective.first() {
        let definition: Vec<String> = effective
            .iter()
            .filter(|(q, _, _)| q == queue)
            .map(|(_, key, d)| {
                let value = d
                    .computed
                    .as_ref()
                    .map_or("<value>".to_owned(), Value::to_string);
                format!("\"{key}\": {value}")
            })
            .collect();
        let existing = defined
            .iter()
            .find(|p| p.name == *queue)
            .and_then(|p| p.policy.as_ref());
        let mut text = format!(
            "a policy can give the live queue {queue:?} the computed value without recreating \
             it: keep its declared arguments (set queuey.toml to the live values, so the \
             applications' declarations keep matching) and apply a policy"
        );
        if let Some(existing) = existing {
            text.push_str(&format!(
                " (it already has the policy {existing:?}, and only one policy applies to a \
                 queue, the highest priority's: add these keys to {existing:?} instead, or give \
                 this one a higher --priority)"
            ));
        }
        out.push(Remedy::run(
            text,
            shell::rabbitmqctl(
                vhost,
                &[
                    "set_policy",
                    "--apply-to",
                    "queues",
                    &suggested_policy_name(queue),
                    &shell::exact_pattern(queue),
                    &format!("{{{}}}", definition.join(", ")),
                ],
            ),
        ));
    }
    if !useless.is_empty() {
        out.push(Remedy::say(format!(
            "a policy cannot fix {}",
            useless.join("; ")
        )));
    }
    for p in &defined {
        // RabbitMQ 3.10 refuses `--if-empty` on a quorum queue (not_implemented), and
        // rabbitmqctl still exits 0 having deleted nothing.
        let quorum = p.live_type.as_deref() == Some(QueueType::Quorum.as_str());
        if p.role == Role::Dead {
            out.push(restore_dead_queue(p, vhost, queue, quorum));
            continue;
        }
        let (guard, command) = if quorum {
            (
                "a quorum queue cannot be deleted --if-empty: check that it holds no message \
                 first (queuey status)",
                shell::rabbitmqctl(vhost, &["delete_queue", &p.name]),
            )
        } else {
            (
                "--if-empty refuses while any is left",
                shell::rabbitmqctl(vhost, &["delete_queue", "--if-empty", &p.name]),
            )
        };
        out.push(Remedy::run(
            format!(
                "otherwise recreate {:?}: stop the publishers, drain it (let the consumers finish \
                 it, or move its messages elsewhere), delete it (deleting a queue loses every \
                 message still in it; {guard}), then run queuey declare again",
                p.name
            ),
            command,
        ));
    }
    // (q.dead's own remedy says it.)
    if defined
        .iter()
        .any(|p| p.role != Role::Dead && p.differences.iter().any(|d| d.field == "type"))
    {
        out.push(Remedy::say(
            "a change between classic and quorum always needs a new queue: a queue's type \
             never changes in place"
                .to_owned(),
        ));
    }
    out
}

/// The way out of a drifted `q.dead`, its dead letters kept: archive them with `dead purge
/// --archive` (each on disk before it is removed), delete the empty queue, declare it again as
/// computed (`q` too, when it was missing: `declare` creates nothing beside a drifted queue),
/// and restore them from the archive (`dead replay --from-file --to q.dead`: bodies and death
/// records as they were). One command line, ready to paste, each step run only when the one
/// before succeeded.
fn restore_dead_queue(p: &QueuePlan, vhost: &str, queue: &QueueSettings, quorum: bool) -> Remedy {
    use crate::shell;
    let archive = format!("{}.jsonl", p.name);
    let mut purge = vec!["dead", "purge", &queue.name, "--yes", "--archive", &archive];
    if quorum {
        // The purge reads the queue whole before it acks; a quorum queue with a delivery limit
        // is read only so (every dead letter is archived and removed, none returned for good).
        purge.push("--spend-delivery-budget");
    }
    let purge = shell::queuey_command(&purge, queue);
    let delete = if quorum {
        shell::rabbitmqctl(vhost, &["delete_queue", &p.name])
    } else {
        shell::rabbitmqctl(vhost, &["delete_queue", "--if-empty", &p.name])
    };
    let declare = shell::queuey_command(&["declare", &queue.name], queue);
    let restore = shell::queuey_command(
        &[
            "dead",
            "replay",
            &queue.name,
            "--from-file",
            &archive,
            "--to",
            &p.name,
        ],
        queue,
    );
    let why = if p.differences.iter().any(|d| d.field == "type") {
        format!(
            "a queue's type never changes in place, and no setting gives {:?} another type: it \
             is declared without x-queue-type, so it takes the vhost's default queue type",
            p.name
        )
    } else {
        format!(
            "no setting gives {:?} other arguments: it is declared without any",
            p.name
        )
    };
    Remedy::run(
        format!(
            "recreate {:?} keeping its dead letters ({why}): stop the applications of {:?} (they \
             publish into it), then archive its dead letters to {archive:?} (each on disk \
             before it is removed), delete the empty queue, declare it again (and {:?} with it, \
             which declare creates only once nothing drifted), and restore the dead letters \
             from the archive. The queuey commands must reach the vhost {vhost:?}, as this run \
             did (QUEUEY_URL, or this run's --url added to each)",
            p.name, queue.name, queue.name
        ),
        delete.map(|delete| format!("{purge} && {delete} && {declare} && {restore}")),
    )
}
