//! What a live `q.dead` does to its dead letters: the arguments and policies that destroy or
//! move them are drift (`q.dead` keeps its letters and dead-letters nowhere: docs/wire-format.md).

use serde_json::Value;

use super::*;
use crate::duration::format_millis;
use crate::topology::QueueType;

/// What happens to the dead letters of a live `q.dead`, from its arguments and policies.
struct DeadLetterFate<'a> {
    logical: &'a str,
    dead: &'a str,
    /// The dead-letter exchange and routing key in force (an argument wins over a policy).
    exchange: Option<String>,
    routing_key: Option<String>,
    overflow: Option<String>,
}

impl DeadLetterFate<'_> {
    fn new<'a>(computed: &'a ComputedQueue, live: &LiveDefinition) -> DeadLetterFate<'a> {
        let text = |arg: &str, key: &str| -> Option<String> {
            live.arguments
                .get(arg)
                .or_else(|| {
                    live.effective_policy_definition
                        .as_ref()
                        .and_then(|d| d.get(key))
                })
                .and_then(|v| v.as_str().map(str::to_owned))
        };
        DeadLetterFate {
            logical: &computed.logical,
            dead: &computed.name,
            exchange: text("x-dead-letter-exchange", "dead-letter-exchange"),
            routing_key: text("x-dead-letter-routing-key", "dead-letter-routing-key"),
            // The type's rule (`plan::bounds`): a quorum `q.dead`'s policy wins, and it runs
            // reject-publish-dlx as drop-head; where the rule cannot tell, the argument's.
            overflow: match bounds::overflow_of(
                &computed.name,
                Some(&live.effective_type()),
                live.arguments.get("x-overflow").and_then(Value::as_str),
                live.effective_policy_definition
                    .as_ref()
                    .and_then(|d| d.get("overflow"))
                    .and_then(Value::as_str),
            ) {
                Ok((overflow, _, _)) => Some(overflow.name().to_owned()),
                Err(_) => text("x-overflow", "overflow"),
            },
        }
    }

    /// Where a dead letter goes when it leaves `q.dead`.
    fn leaves(&self) -> String {
        let Some(exchange) = &self.exchange else {
            return "dropped: it is gone".to_owned();
        };
        match (exchange.as_str(), &self.routing_key) {
            ("", Some(rk)) if rk == self.logical => format!(
                "sent back to {:?}: its job runs again and dies again, round and round, a poison \
                 message for ever",
                self.logical
            ),
            ("", Some(rk)) => format!("sent to the queue {rk:?}, out of {:?}", self.dead),
            (ex, Some(rk)) => format!("sent to exchange {ex:?} with routing key {rk:?}"),
            (ex, None) => format!("sent to exchange {ex:?} with its own routing key"),
        }
    }

    /// In words, what `key` (a policy key, or the argument `x-` + key) set to `value` does to
    /// the dead letters; `None` when it does nothing to them by itself.
    fn effect(&self, key: &str, value: &Value) -> Option<String> {
        let key = key.strip_prefix("x-").unwrap_or(key);
        let number = value.as_u64();
        let millis = |n: Option<u64>| n.map_or_else(|| value.to_string(), format_millis);
        let refuse = matches!(
            self.overflow.as_deref(),
            Some("reject-publish" | "reject-publish-dlx")
        );
        let limit = |what: String| {
            if refuse {
                format!(
                    "once {:?} holds {what}, new dead letters are refused: the application's \
                     dead-lettering fails",
                    self.dead
                )
            } else {
                format!(
                    "beyond {what}, the oldest dead letters are pushed out of {:?} and {}",
                    self.dead,
                    self.leaves()
                )
            }
        };
        Some(match key {
            "message-ttl" => format!(
                "every dead letter expires {} after it reaches {:?} and is {}",
                millis(number),
                self.dead,
                self.leaves()
            ),
            "expires" => format!(
                "{:?} itself is deleted, with every dead letter in it, once unused for {} (no \
                 consumer, no basic.get, no redeclare)",
                self.dead,
                millis(number)
            ),
            "max-length" => limit(format!("{value} messages")),
            "max-length-bytes" => limit(format!("{value} bytes")),
            "dead-letter-exchange" => format!(
                "a dead letter that expires, overflows or is rejected leaves {:?} and is {}",
                self.dead,
                self.leaves()
            ),
            "dead-letter-routing-key" if self.exchange.is_some() => format!(
                "with the dead-letter exchange: a dead letter that leaves {:?} is {}",
                self.dead,
                self.leaves()
            ),
            "delivery-limit" => format!(
                "every return of a delivery counts (each peek, a failed replay, a consumer's \
                 nack): after {value}, a dead letter is {}",
                self.leaves()
            ),
            _ => return None,
        })
    }
}

/// On a live `q.dead`: names what each argument another client declared does to the dead
/// letters, and adds a difference (kind `policy`) for each policy key that destroys or moves
/// them (`q.dead` must never dead-letter anywhere, and must keep its letters).
pub fn dead_letter_hazards(
    computed: &ComputedQueue,
    live: &LiveDefinition,
    differences: &mut Vec<Difference>,
) {
    let fate = DeadLetterFate::new(computed, live);
    let quorum = live.effective_type() == QueueType::Quorum.as_str();
    for d in differences.iter_mut() {
        if d.kind == DiffKind::Extra
            && let Some(value) = &d.live
            && (d.field != "x-delivery-limit" || quorum)
        {
            d.effect = fate.effect(&d.field, value);
        }
    }
    let Some(Value::Object(definition)) = &live.effective_policy_definition else {
        return;
    };
    let applied = applied_policies(live);
    for key in DEAD_LETTER_HAZARDS {
        let Some(value) = definition.get(key) else {
            continue;
        };
        if key == "delivery-limit" && !quorum {
            continue; // a classic queue has no delivery limit
        }
        differences.push(Difference {
            field: key.to_owned(),
            kind: DiffKind::Policy,
            live: Some(value.clone()),
            computed: None,
            effect: fate.effect(key, value),
            policies: policies_setting(key, &applied),
        });
    }
}

// ---------------------------------------------------------------------------------------------
// The AMQP fallback: a passive declare, then an equivalence probe.
// ---------------------------------------------------------------------------------------------
