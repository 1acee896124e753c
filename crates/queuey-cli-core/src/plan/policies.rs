//! PURE: a queue's effective policy, computed from the vhost's policy listings the way RabbitMQ
//! computes it, for what decides a replay's room (`plan::bounds`) and for what `verify` compares
//! (a policy that makes `q.dead` lose its dead letters is drift the moment it exists).
//!
//! Why not the queue's own `effective_policy_definition`: the management API shows a queue's
//! policy at its next statistics emission, seconds late, while the broker enforces a new
//! policy at once and the policy listings show it at once. So the policy is computed from the
//! listings: a replay that trusted the queue's object could push out the target's own jobs,
//! and a `verify` could pass a `max-length` policy on `q.dead` as "in sync" (see
//! docs/broker-notes.md, Policies, operator policies and the management API).
//!
//! RabbitMQ's rules (`rabbit_policy`, 3.10 and 4.x): a policy applies to a queue when its
//! `apply-to` takes queues (`all`, `queues`, or the queue's type: `classic_queues`,
//! `quorum_queues`, `streams`), its `pattern` (a PCRE regular expression, unanchored) matches
//! the queue's name, and the queue's type supports every key of its definition (a policy with
//! a key the type does not support does not apply at all). Of those, the one with the highest
//! `priority` wins; between equal priorities RabbitMQ takes them in the order of its store,
//! which the API does not show. Operator policies are chosen the same way, and merged into the
//! policy key by key (`rabbit_policy:get/2`, `rabbit_policies:merge_policy_value/3`): a limit
//! set by both is the smaller (`max-length`, `max-length-bytes`, `message-ttl`, `expires`,
//! `delivery-limit`, ...), `overflow` set by both is the operator policy's (RabbitMQ 4.x: 3.10
//! refuses `overflow` in an operator policy; see docs/broker-notes.md, Bounded queues, streams,
//! and who the broker is), a key set
//! by one is taken as it is. Which of the merged value and the queue's argument then decides
//! is the queue type's rule (`plan::bounds`).
//!
//! Whatever cannot be evaluated faithfully (a pattern this regex engine would read otherwise
//! than PCRE, equal priorities that disagree on a limit, a key whose support differs between
//! versions) makes the answer [`Unevaluable`]: the caller then treats the limits as unknown,
//! never as absent.

use serde_json::{Map, Value};

use super::{AppliedPolicy, LiveDefinition};

/// A policy or operator policy as the vhost's listing shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ListedPolicy {
    pub name: String,
    pub pattern: String,
    /// `all` when the listing does not say.
    pub apply_to: String,
    pub priority: f64,
    pub definition: Map<String, Value>,
}

/// Why a queue's effective policy cannot be computed faithfully: in words, naming the policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unevaluable(pub String);

/// What is known of the operator policies.
#[derive(Clone, Copy, Debug)]
pub enum OperatorPolicies<'a> {
    /// The vhost's listing.
    Listed(&'a [ListedPolicy]),
    /// The listing could not be read (the API refused it): what the queue's object
    /// showed at its last statistics emission, seconds old. `None`: it showed no operator
    /// policy; else the effective definition it showed, whose keys merged by the smaller value
    /// (the only ones 3.10 lets an operator policy set, limits and TTLs) bound the operator
    /// policy's.
    AsShown(Option<&'a Map<String, Value>>),
}

/// The keys that decide a replay's room: where two candidates or a policy and an operator
/// policy disagree on one of these, the answer matters.
const LIMIT_KEYS: [&str; 5] = [
    "max-length",
    "max-length-bytes",
    "overflow",
    "dead-letter-exchange",
    "dead-letter-routing-key",
];

/// Keys RabbitMQ merges by taking the smaller of the policy's and the operator policy's
/// (`rabbit_policies:merge_policy_value`).
const MERGED_BY_MIN: [&str; 7] = [
    "max-length",
    "max-length-bytes",
    "message-ttl",
    "expires",
    "delivery-limit",
    "max-in-memory-length",
    "max-in-memory-bytes",
];

/// Policy keys a queue type supports in no version (3.10 to 4.x): a policy holding one does not
/// apply to a queue of that type.
fn never_supported(queue_type: &str) -> &'static [&'static str] {
    match queue_type {
        "classic" => &[
            "max-age",
            "stream-max-segment-size-bytes",
            "initial-cluster-size",
            "delivery-limit",
            "dead-letter-strategy",
        ],
        "quorum" => &[
            "max-priority",
            "queue-mode",
            "ha-mode",
            "ha-params",
            "ha-sync-mode",
            "ha-promote-on-shutdown",
            "ha-promote-on-failure",
            "queue-master-locator",
            "max-age",
            "stream-max-segment-size-bytes",
            "initial-cluster-size",
        ],
        _ => &[],
    }
}

/// Policy keys whose support by a queue type changed between versions: whether a policy
/// holding one applies cannot be told without the broker's own code.
fn sometimes_supported(queue_type: &str) -> &'static [&'static str] {
    match queue_type {
        "classic" => &[
            "queue-leader-locator",
            "max-in-memory-length",
            "max-in-memory-bytes",
            "target-group-size",
            "filter-field-names",
        ],
        "quorum" => &["message-ttl", "single-active-consumer"],
        _ => &[],
    }
}

/// The effective policy definition of the queue `name` of type `queue_type` (`classic`,
/// `quorum`, `stream`): `None` when no policy applies.
pub fn effective_definition(
    name: &str,
    queue_type: &str,
    policies: &[ListedPolicy],
    operator: OperatorPolicies<'_>,
) -> Result<Option<Map<String, Value>>, Unevaluable> {
    effective_policy(name, queue_type, policies, operator).map(|e| e.definition)
}

/// What the broker applies to a queue now: the policy and the operator policy it chose, and
/// their merged definition.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Effective<'a> {
    pub policy: Option<&'a ListedPolicy>,
    /// The operator policy chosen from the listing (`None` too when only the queue's object
    /// showed one: [`OperatorPolicies::AsShown`]).
    pub operator: Option<&'a ListedPolicy>,
    pub definition: Option<Map<String, Value>>,
}

/// The policy and operator policy that apply to the queue `name` of type `queue_type`, chosen
/// as RabbitMQ chooses them, and their merged definition (see the module docs).
pub fn effective_policy<'a>(
    name: &str,
    queue_type: &str,
    policies: &'a [ListedPolicy],
    operator: OperatorPolicies<'a>,
) -> Result<Effective<'a>, Unevaluable> {
    let policy = choose(name, queue_type, policies, "policy")?;
    let mut chosen_operator = None;
    let operator = match operator {
        OperatorPolicies::Listed(listed) => {
            chosen_operator = choose(name, queue_type, listed, "operator policy")?;
            chosen_operator.map(|p| {
                (
                    p.definition.clone(),
                    format!("the operator policy {:?}", p.name),
                )
            })
        }
        // An operator policy sets only keys merged by the smaller value (3.10 accepts no
        // other; 4.x adds `overflow`, which the stale object cannot attribute): what the
        // object showed of those bounds the operator policy's.
        OperatorPolicies::AsShown(shown) => shown.map(|d| {
            let limits: Map<String, Value> = d
                .iter()
                .filter(|(k, _)| MERGED_BY_MIN.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            (limits, "the operator policy the queue showed".to_owned())
        }),
    };
    let effective = |definition| Effective {
        policy,
        operator: chosen_operator,
        definition,
    };
    let Some((op, op_name)) = operator else {
        return Ok(effective(policy.map(|p| p.definition.clone())));
    };
    let Some(policy) = policy else {
        return Ok(effective(Some(op)));
    };
    let mut merged = policy.definition.clone();
    for (key, op_value) in op {
        let Some(value) = merged.get(&key) else {
            merged.insert(key, op_value);
            continue;
        };
        if MERGED_BY_MIN.contains(&key.as_str()) {
            match (value.as_f64(), op_value.as_f64()) {
                (Some(a), Some(b)) if b < a => {
                    merged.insert(key, op_value);
                }
                (Some(_), Some(_)) => {}
                _ if LIMIT_KEYS.contains(&key.as_str()) => {
                    return Err(Unevaluable(format!(
                        "the policy {:?} and {op_name} both set {key:?}, not both as numbers",
                        policy.name
                    )));
                }
                _ => {}
            }
        } else if key == "overflow" || (value.is_boolean() && op_value.is_boolean()) {
            merged.insert(key, op_value);
        } else if LIMIT_KEYS.contains(&key.as_str()) && *value != op_value {
            return Err(Unevaluable(format!(
                "the policy {:?} and {op_name} both set {key:?}, and RabbitMQ's merge of the two \
                 is not known",
                policy.name
            )));
        }
    }
    Ok(effective(Some(merged)))
}

/// `live`'s policies as the broker applies them now, computed from the vhost's listings
/// (`operators`: `None` when the operator policies could not be listed), in place of what the
/// queue's object showed at its last statistics emission: its `policy`, `operator_policy`,
/// `effective_policy_definition` and `applied_policies` (with pattern and definition). A policy
/// set or cleared a moment ago is seen at once, as the broker enforces it; the object shows it
/// seconds later (see the module docs). Without the operator
/// listing, the operator policy the object names is kept with the keys it showed (see
/// [`OperatorPolicies::AsShown`]). `Err`: the listings cannot be evaluated faithfully; `live`
/// is left as the object showed it.
pub fn apply_listed_policies(
    live: &mut LiveDefinition,
    name: &str,
    policies: &[ListedPolicy],
    operators: Option<&[ListedPolicy]>,
) -> Result<(), Unevaluable> {
    let shown_operator = live
        .operator_policy
        .clone()
        .filter(|n| !n.is_empty() && n != "none");
    let shown = match &live.effective_policy_definition {
        Some(Value::Object(d)) if shown_operator.is_some() => Some(d.clone()),
        _ => None,
    };
    let queue_type = live.effective_type();
    let operator = match operators {
        Some(listed) => OperatorPolicies::Listed(listed),
        None => OperatorPolicies::AsShown(shown.as_ref()),
    };
    let effective = effective_policy(name, &queue_type, policies, operator)?;
    let mut applied = Vec::new();
    if let Some(p) = effective.policy {
        applied.push(AppliedPolicy::listed(p, false));
    }
    let operator_name = match (operators, effective.operator) {
        (Some(_), Some(p)) => {
            applied.push(AppliedPolicy::listed(p, true));
            Some(p.name.clone())
        }
        (Some(_), None) => None,
        (None, _) => {
            applied.extend(shown_operator.clone().map(|name| AppliedPolicy {
                name,
                operator: true,
                ..AppliedPolicy::default()
            }));
            shown_operator
        }
    };
    live.policy = effective.policy.map(|p| p.name.clone());
    live.operator_policy = operator_name;
    live.effective_policy_definition = effective.definition.map(Value::Object);
    live.applied_policies = applied;
    Ok(())
}

impl AppliedPolicy {
    fn listed(p: &ListedPolicy, operator: bool) -> AppliedPolicy {
        AppliedPolicy {
            name: p.name.clone(),
            operator,
            pattern: Some(p.pattern.clone()),
            definition: Some(p.definition.clone()),
        }
    }
}

/// The policy of `policies` that applies to the queue: the highest priority among those that
/// match it.
fn choose<'p>(
    name: &str,
    queue_type: &str,
    policies: &'p [ListedPolicy],
    what: &str,
) -> Result<Option<&'p ListedPolicy>, Unevaluable> {
    let mut matching: Vec<&ListedPolicy> = Vec::new();
    for p in policies {
        if applies(name, queue_type, p, what)? {
            matching.push(p);
        }
    }
    let Some(top) = matching.iter().map(|p| p.priority).reduce(f64::max) else {
        return Ok(None);
    };
    let best: Vec<&ListedPolicy> = matching.into_iter().filter(|p| p.priority == top).collect();
    let first = best[0];
    for other in &best[1..] {
        let differs = LIMIT_KEYS
            .iter()
            .any(|k| first.definition.get(*k) != other.definition.get(*k));
        if differs {
            return Err(Unevaluable(format!(
                "the {what}s {:?} and {:?} both match it with priority {top}, and they set its \
                 limits differently: RabbitMQ applies one of them by an order the management \
                 API does not show",
                first.name, other.name
            )));
        }
    }
    Ok(Some(first))
}

/// Whether the policy `p` applies to the queue.
fn applies(
    name: &str,
    queue_type: &str,
    p: &ListedPolicy,
    what: &str,
) -> Result<bool, Unevaluable> {
    let type_matches = match p.apply_to.as_str() {
        "all" | "queues" => true,
        "exchanges" => false,
        "classic_queues" => queue_type == "classic",
        "quorum_queues" => queue_type == "quorum",
        "streams" => queue_type == "stream",
        other => {
            return Err(Unevaluable(format!(
                "the {what} {:?} applies to {other:?}, which queuey does not know",
                p.name
            )));
        }
    };
    if !type_matches
        || !pattern_matches(&p.pattern, name).map_err(|why| {
            Unevaluable(format!(
                "the pattern {:?} of the {what} {:?} {why}",
                p.pattern, p.name
            ))
        })?
    {
        return Ok(false);
    }
    if p.definition
        .keys()
        .any(|k| never_supported(queue_type).contains(&k.as_str()))
    {
        return Ok(false);
    }
    if let Some(key) = p
        .definition
        .keys()
        .find(|k| sometimes_supported(queue_type).contains(&k.as_str()))
    {
        return Err(Unevaluable(format!(
            "the {what} {:?} matches it and sets {key:?}, which some RabbitMQ versions do not \
             support on {queue_type} queues (a policy with such a key does not apply there)",
            p.name
        )));
    }
    Ok(true)
}

/// Whether `pattern` (PCRE, as RabbitMQ's `re:run` reads it: bytes, unanchored) matches
/// `name`; `Err` with why when this engine cannot be trusted to read it as PCRE does.
pub fn pattern_matches(pattern: &str, name: &str) -> Result<bool, String> {
    if !pattern.is_ascii() {
        return Err("has characters beyond ASCII, which PCRE reads byte by byte".to_owned());
    }
    if name.contains('\n') && pattern.contains('$') {
        // PCRE's `$` matches before a final newline too.
        return Err("ends with `$` and the queue's name holds a newline".to_owned());
    }
    // Read differently by the two engines: `{,n}` is a literal for PCRE; `\<`, `\>` and
    // `\b{...}` are word boundaries here and literals there.
    for differs in ["{,", "\\<", "\\>", "\\b{"] {
        if pattern.contains(differs) {
            return Err(format!("uses {differs:?}, which PCRE reads otherwise"));
        }
    }
    compiled_match(pattern, name)
}

/// Whether the compiled `pattern` matches `name`; patterns are compiled once per thread:
/// `verify --all` matches each of a vhost's policies against thousands of queues, and
/// compiling a pattern costs far more than matching it (each match runs on the cached regex,
/// whose search cache is kept too). Bounded: a vhost has few policies, and the cache is
/// emptied past [`COMPILED_AT_MOST`].
fn compiled_match(pattern: &str, name: &str) -> Result<bool, String> {
    type Cache = std::collections::HashMap<String, Option<regex::bytes::Regex>>;
    thread_local! {
        static COMPILED: std::cell::RefCell<Cache> = std::cell::RefCell::default();
    }
    COMPILED.with(|cache| {
        let mut cache = cache.borrow_mut();
        if !cache.contains_key(pattern) {
            if cache.len() >= COMPILED_AT_MOST {
                cache.clear();
            }
            let re = regex::bytes::RegexBuilder::new(pattern)
                .unicode(false)
                .build()
                .ok();
            cache.insert(pattern.to_owned(), re);
        }
        match &cache[pattern] {
            Some(re) => Ok(re.is_match(name.as_bytes())),
            None => Err("uses PCRE syntax queuey cannot evaluate".to_owned()),
        }
    })
}

/// The most patterns [`compiled_match`] keeps.
const COMPILED_AT_MOST: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn policy(name: &str, pattern: &str, apply_to: &str, priority: f64, d: Value) -> ListedPolicy {
        ListedPolicy {
            name: name.into(),
            pattern: pattern.into(),
            apply_to: apply_to.into(),
            priority,
            definition: d.as_object().cloned().unwrap_or_default(),
        }
    }

    fn none() -> OperatorPolicies<'static> {
        OperatorPolicies::Listed(&[])
    }

    #[test]
    fn the_highest_priority_of_the_matching_policies_wins() {
        let ps = [
            policy("low", "^shop", "all", 0.0, json!({"max-length": 100})),
            policy("high", "orders$", "queues", 5.0, json!({"max-length": 3})),
            policy("other", "^billing", "all", 9.0, json!({"max-length": 1})),
            policy(
                "x",
                ".*",
                "exchanges",
                10.0,
                json!({"alternate-exchange": "ae"}),
            ),
        ];
        let d = effective_definition("shop.orders", "classic", &ps, none()).unwrap();
        assert_eq!(d.unwrap()["max-length"], json!(3));
        let d = effective_definition("shop.items", "classic", &ps, none()).unwrap();
        assert_eq!(d.unwrap()["max-length"], json!(100));
        assert_eq!(
            effective_definition("nothing", "classic", &ps, none()).unwrap(),
            None
        );
    }

    /// A pattern is unanchored: `orders` matches `shop.orders.v2`.
    #[test]
    fn a_pattern_matches_anywhere_in_the_name() {
        assert_eq!(pattern_matches("orders", "shop.orders.v2"), Ok(true));
        assert_eq!(pattern_matches("^orders", "shop.orders"), Ok(false));
        assert_eq!(pattern_matches("^shop\\.orders$", "shop.orders"), Ok(true));
        assert_eq!(pattern_matches("^shop\\.orders$", "shopxorders"), Ok(false));
        assert_eq!(pattern_matches("(?i)^SHOP", "shop.orders"), Ok(true));
        assert_eq!(pattern_matches("", "anything"), Ok(true));
    }

    #[test]
    fn what_pcre_reads_otherwise_is_not_guessed() {
        for p in ["a{,3}", "\\<shop", "(?=shop)", "(a)\\1", "é", "\\Z"] {
            assert!(pattern_matches(p, "shop").is_err(), "{p}");
        }
        assert!(pattern_matches("^q$", "q\n").is_err());
        let ps = [policy(
            "look",
            "(?<=x)q",
            "all",
            0.0,
            json!({"max-length": 1}),
        )];
        let Err(Unevaluable(why)) = effective_definition("q", "classic", &ps, none()) else {
            panic!("a lookbehind is not evaluated")
        };
        assert!(why.contains("\"look\""), "{why}");
    }

    #[test]
    fn apply_to_takes_the_queue_type() {
        let ps = [
            policy("c", "^q$", "classic_queues", 1.0, json!({"max-length": 1})),
            policy("qq", "^q$", "quorum_queues", 1.0, json!({"max-length": 2})),
            policy("s", "^q$", "streams", 1.0, json!({"max-length-bytes": 3})),
        ];
        let of = |t: &str| effective_definition("q", t, &ps, none()).unwrap().unwrap();
        assert_eq!(of("classic")["max-length"], json!(1));
        assert_eq!(of("quorum")["max-length"], json!(2));
        assert_eq!(of("stream")["max-length-bytes"], json!(3));
        let odd = [policy("p", "q", "shards", 0.0, json!({"max-length": 1}))];
        assert!(effective_definition("q", "classic", &odd, none()).is_err());
    }

    /// A policy with a key the queue's type does not support does not apply at all: RabbitMQ
    /// then takes the next one.
    #[test]
    fn a_policy_with_a_key_the_type_does_not_support_does_not_apply() {
        let ps = [
            policy(
                "ha",
                ".*",
                "all",
                10.0,
                json!({"ha-mode": "all", "max-length": 1}),
            ),
            policy("limit", "^q$", "all", 0.0, json!({"max-length": 7})),
        ];
        let quorum = effective_definition("q", "quorum", &ps, none()).unwrap();
        assert_eq!(quorum.unwrap()["max-length"], json!(7));
        let classic = effective_definition("q", "classic", &ps, none()).unwrap();
        assert_eq!(classic.unwrap()["max-length"], json!(1));
        let unsure = [policy(
            "ttl",
            "^q$",
            "all",
            0.0,
            json!({"message-ttl": 1000, "max-length": 1}),
        )];
        assert!(effective_definition("q", "quorum", &unsure, none()).is_err());
    }

    #[test]
    fn equal_priorities_are_evaluated_only_when_they_agree_on_the_limits() {
        let agree = [
            policy(
                "a",
                "^q",
                "all",
                1.0,
                json!({"max-length": 5, "expires": 1}),
            ),
            policy("b", "q$", "all", 1.0, json!({"max-length": 5})),
        ];
        let d = effective_definition("q", "classic", &agree, none()).unwrap();
        assert_eq!(d.unwrap()["max-length"], json!(5));
        let disagree = [
            policy("a", "^q", "all", 1.0, json!({"max-length": 5})),
            policy("b", "q$", "all", 1.0, json!({"max-length": 6})),
        ];
        let Err(Unevaluable(why)) = effective_definition("q", "classic", &disagree, none()) else {
            panic!("a tie on the limits is not guessed")
        };
        assert!(why.contains("priority 1"), "{why}");
    }

    /// RabbitMQ's merge: the smaller limit; the operator policy's overflow; a key of one side
    /// taken as it is.
    #[test]
    fn an_operator_policy_merges_by_the_smaller_limit() {
        let ps = [policy(
            "p",
            "^q$",
            "all",
            0.0,
            json!({"max-length": 10, "overflow": "reject-publish"}),
        )];
        let ops = [
            policy(
                "op",
                "^q",
                "queues",
                0.0,
                json!({"max-length": 4, "max-length-bytes": 99}),
            ),
            policy("op-low", ".*", "all", -1.0, json!({"max-length": 1})),
        ];
        let d = effective_definition("q", "classic", &ps, OperatorPolicies::Listed(&ops))
            .unwrap()
            .unwrap();
        assert_eq!(
            (&d["max-length"], &d["max-length-bytes"], &d["overflow"]),
            (&json!(4), &json!(99), &json!("reject-publish"))
        );
        let bigger = [policy("op", "^q", "queues", 0.0, json!({"max-length": 40}))];
        let d = effective_definition("q", "classic", &ps, OperatorPolicies::Listed(&bigger))
            .unwrap()
            .unwrap();
        assert_eq!(d["max-length"], json!(10));
        // RabbitMQ 4.x: the operator policy's overflow replaces the policy's.
        let op_overflow = [policy(
            "op",
            "^q",
            "queues",
            0.0,
            json!({"overflow": "drop-head"}),
        )];
        let d = effective_definition("q", "quorum", &ps, OperatorPolicies::Listed(&op_overflow))
            .unwrap()
            .unwrap();
        assert_eq!(
            (&d["max-length"], &d["overflow"]),
            (&json!(10), &json!("drop-head"))
        );
        let only_op = effective_definition("z", "classic", &[], OperatorPolicies::Listed(&ops))
            .unwrap()
            .unwrap();
        assert_eq!(only_op["max-length"], json!(1));
    }

    /// Without the operator-policy listing, the limits the queue last showed bound the result.
    #[test]
    fn without_the_operator_listing_the_shown_limits_bound_it() {
        let ps = [policy("p", "^q$", "all", 0.0, json!({"max-length": 10}))];
        let shown = json!({"max-length": 3, "overflow": "drop-head"});
        let d = effective_definition(
            "q",
            "classic",
            &ps,
            OperatorPolicies::AsShown(shown.as_object()),
        )
        .unwrap()
        .unwrap();
        assert_eq!(d["max-length"], json!(3));
        assert_eq!(d.get("overflow"), None, "only the limits are taken");
        let d = effective_definition("q", "classic", &ps, OperatorPolicies::AsShown(None))
            .unwrap()
            .unwrap();
        assert_eq!(d["max-length"], json!(10));
    }

    /// verify's view: the listings replace what the queue's object showed (a policy set a moment
    /// ago appears, one cleared goes), with the names, patterns and definitions of those
    /// chosen; without the operator listing, the operator policy the object named is kept.
    #[test]
    fn a_live_definition_takes_the_policies_the_listings_apply_now() {
        let stale = || LiveDefinition {
            policy: Some("old".into()),
            effective_policy_definition: Some(json!({"expires": 1000})),
            ..LiveDefinition::default()
        };
        let ps = [
            policy(
                "maxlen",
                "^q\\.dead$",
                "queues",
                1.0,
                json!({"max-length": 5}),
            ),
            policy("other", "^x$", "all", 9.0, json!({"message-ttl": 1})),
        ];
        let ops = [policy(
            "op",
            "dead",
            "queues",
            0.0,
            json!({"message-ttl": 60_000}),
        )];
        let mut live = stale();
        apply_listed_policies(&mut live, "q.dead", &ps, Some(&ops)).unwrap();
        assert_eq!(
            (live.policy.as_deref(), live.operator_policy.as_deref()),
            (Some("maxlen"), Some("op"))
        );
        assert_eq!(
            live.effective_policy_definition,
            Some(json!({"max-length": 5, "message-ttl": 60_000}))
        );
        let names: Vec<(&str, bool, Option<&str>)> = live
            .applied_policies
            .iter()
            .map(|a| (a.name.as_str(), a.operator, a.pattern.as_deref()))
            .collect();
        assert_eq!(
            names,
            [
                ("maxlen", false, Some("^q\\.dead$")),
                ("op", true, Some("dead"))
            ]
        );
        // Cleared a moment ago: gone, whatever the object still shows.
        let mut live = stale();
        apply_listed_policies(&mut live, "q.dead", &[], Some(&[])).unwrap();
        assert_eq!(
            (
                &live.policy,
                &live.effective_policy_definition,
                live.applied_policies.len()
            ),
            (&None, &None, 0)
        );
        // Without the operator listing: the operator policy the object named, with the keys it
        // showed that an operator policy can set.
        let mut live = LiveDefinition {
            operator_policy: Some("op".into()),
            effective_policy_definition: Some(json!({"message-ttl": 1000, "overflow": "x"})),
            ..LiveDefinition::default()
        };
        apply_listed_policies(&mut live, "q.dead", &ps, None).unwrap();
        assert_eq!(live.operator_policy.as_deref(), Some("op"));
        assert_eq!(
            live.effective_policy_definition,
            Some(json!({"max-length": 5, "message-ttl": 1000}))
        );
        // What cannot be evaluated leaves the object's view as it was.
        let odd = [policy(
            "look",
            "(?<=x)q",
            "all",
            0.0,
            json!({"max-length": 1}),
        )];
        let mut live = stale();
        assert!(apply_listed_policies(&mut live, "q.dead", &odd, Some(&[])).is_err());
        assert_eq!(live, stale());
    }
}
