//! PURE: whether the broker takes a copy's `user_id` property from this connection, and the
//! refusal that says it does not.
//!
//! RabbitMQ checks a published message's `user_id` against the connection's authenticated user
//! (`rabbit_channel:check_user_id_header`, the same rule on 3.x and 4.x): no `user_id`, or the
//! user's own name, passes; any other value passes only when the user has the `impersonator`
//! tag, and otherwise the broker closes the publisher's *channel* with 406
//! PRECONDITION_FAILED, "user_id property set to 'orders-app' but authenticated user was
//! 'guest'". A dead letter keeps the `user_id` its application published it with, so an
//! operator connected as another user cannot publish its copy: on the publisher's channel that
//! would fail every copy in flight with it, and every rerun at the same place.
//!
//! The user name comes from the URL. Whether the user has the tag, the AMQP client cannot read;
//! a publish to nowhere with another `user_id` can (`broker::user_id`): the broker checks the
//! property before routing, so an ack says the user may set any `user_id`, and a channel close
//! with the refusal text says it may not, and names the authenticated user. One probe answers
//! for the whole connection (the broker's only exception is the tag). With EXTERNAL or
//! ANONYMOUS the URL names no user: a probe then learns it.

/// The routing key of a probe: through the default exchange to a queue no client may declare
/// (`amq.` names are reserved), so a probe the broker takes is routed nowhere.
pub const PROBE_ROUTING_KEY: &str = "amq.queuey.user-id-probe";

/// Where a copy that replaces a quorum message on its last delivery keeps a `user_id` the
/// broker would refuse from this connection (`broker::acker::Rescuer`): the message cannot be
/// returned (that would end it) and the copy cannot carry the property.
pub const HEADER_USER_ID: &str = "x-queuey-user-id";

/// A `user_id` the broker refuses from this connection: the one a copy claims, and the
/// connection's user, who lacks the `impersonator` tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefusedUserId {
    pub claimed: String,
    pub user: String,
}

/// What the broker does with a copy carrying some `user_id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It takes it.
    Passes,
    /// It refuses it: the connection's user is `user`, without the `impersonator` tag.
    Refused { user: String },
    /// Not known yet: a probe with this `user_id` would tell.
    Unknown,
}

/// What queuey knows of one connection's user: its name, whether it has the `impersonator`
/// tag, and (its name unknown) a `user_id` the broker took.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserIdCheck {
    user: Option<String>,
    impersonator: Option<bool>,
    taken: Option<String>,
}

impl UserIdCheck {
    /// A connection authenticated as `user` (`None`: the URL does not say, EXTERNAL or
    /// ANONYMOUS).
    pub fn new(user: Option<String>) -> UserIdCheck {
        UserIdCheck {
            user,
            ..UserIdCheck::default()
        }
    }

    /// The broker's rule, from what is known.
    pub fn verdict(&self, user_id: Option<&str>) -> Verdict {
        let Some(claimed) = user_id else {
            return Verdict::Passes;
        };
        if self.impersonator == Some(true)
            || self.user.as_deref() == Some(claimed)
            || self.taken.as_deref() == Some(claimed)
        {
            return Verdict::Passes;
        }
        match (&self.user, self.impersonator) {
            (Some(user), Some(false)) => Verdict::Refused { user: user.clone() },
            _ => Verdict::Unknown,
        }
    }

    /// The broker took a probe claiming `claimed`.
    pub fn took(&mut self, claimed: &str) {
        match &self.user {
            Some(user) if user != claimed => self.impersonator = Some(true),
            Some(_) => {}
            // The user's own name, or it impersonates: a second name taken tells which.
            None => match &self.taken {
                Some(before) if before != claimed => self.impersonator = Some(true),
                _ => self.taken = Some(claimed.to_owned()),
            },
        }
    }

    /// The broker refused a probe: the authenticated user is `user`, without the tag.
    pub fn refused(&mut self, user: &str) {
        self.user = Some(user.to_owned());
        self.impersonator = Some(false);
    }
}

/// The claimed `user_id` and the authenticated user a refusal names: the reply text of
/// RabbitMQ's channel close, with or without its `PRECONDITION_FAILED - ` prefix. `None` for
/// any other text.
pub fn parse_refusal(text: &str) -> Option<(String, String)> {
    const START: &str = "user_id property set to '";
    const MIDDLE: &str = "' but authenticated user was '";
    let text = text.strip_prefix("PRECONDITION_FAILED - ").unwrap_or(text);
    let rest = text.strip_prefix(START)?;
    // Names may hold quotes: the last separator is the broker's.
    let at = rest.rfind(MIDDLE)?;
    let claimed = &rest[..at];
    let user = rest[at + MIDDLE.len()..].strip_suffix('\'')?;
    Some((claimed.to_owned(), user.to_owned()))
}

/// The ways out of a refused `user_id`: connect as that user, give the connection's user the
/// tag, or (`flag`, when the command has one) drop the property from the copies.
pub fn way_out(user_id: &str, user: &str, flag: Option<&str>) -> String {
    match flag {
        Some(flag) => format!(
            "connect as {user_id:?}, give {user:?} the impersonator tag, or run again with \
             {flag} to publish the copies without user_id"
        ),
        None => format!("connect as {user_id:?}, or give {user:?} the impersonator tag"),
    }
}

/// The hint of an error for a refused `user_id`: the ways out, and the command that gives the
/// tag.
pub fn hint(user_id: &str, user: &str, flag: Option<&str>) -> String {
    format!(
        "{}; the tag: {}",
        way_out(user_id, user, flag),
        crate::shell::add_user_tag_advice(user, "impersonator")
    )
}

/// Why a copy carrying `user_id` stays, for a report: the property, the user, and the way out.
pub fn refused(user_id: &str, user: &str, flag: Option<&str>) -> String {
    format!(
        "its user_id property is {user_id:?} and queuey is connected as {user:?}, which lacks \
         the impersonator tag: the broker would refuse the copy (and close the channel); not \
         published. {}",
        capitalised(&way_out(user_id, user, flag))
    )
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(user: &str) -> UserIdCheck {
        UserIdCheck::new(Some(user.to_owned()))
    }

    #[test]
    fn no_user_id_and_the_users_own_pass_without_asking() {
        let c = check("guest");
        assert_eq!(c.verdict(None), Verdict::Passes);
        assert_eq!(c.verdict(Some("guest")), Verdict::Passes);
        // Compared as the broker compares: exactly, bytes and case.
        assert_eq!(c.verdict(Some("Guest")), Verdict::Unknown);
        assert_eq!(c.verdict(Some("")), Verdict::Unknown);
        assert_eq!(c.verdict(Some("orders-app")), Verdict::Unknown);
    }

    #[test]
    fn a_refused_probe_refuses_every_other_user_id() {
        let mut c = check("guest");
        c.refused("guest");
        let refused = Verdict::Refused {
            user: "guest".into(),
        };
        assert_eq!(c.verdict(Some("orders-app")), refused);
        assert_eq!(c.verdict(Some("billing")), refused);
        assert_eq!(c.verdict(Some("")), refused);
        assert_eq!(c.verdict(Some("guest")), Verdict::Passes);
        assert_eq!(c.verdict(None), Verdict::Passes);
    }

    #[test]
    fn a_taken_probe_is_the_impersonator_tag_every_user_id_passes() {
        let mut c = check("ops");
        c.took("orders-app");
        assert_eq!(c.verdict(Some("orders-app")), Verdict::Passes);
        assert_eq!(c.verdict(Some("billing")), Verdict::Passes);
        // Taking the user's own name tells nothing.
        let mut c = check("ops");
        c.took("ops");
        assert_eq!(c.verdict(Some("billing")), Verdict::Unknown);
    }

    #[test]
    fn without_a_user_name_probes_learn_it() {
        // EXTERNAL: the first name taken may be the user's own.
        let mut c = UserIdCheck::new(None);
        assert_eq!(c.verdict(Some("orders-app")), Verdict::Unknown);
        c.took("orders-app");
        assert_eq!(c.verdict(Some("orders-app")), Verdict::Passes);
        assert_eq!(c.verdict(Some("billing")), Verdict::Unknown);
        // A second name taken: the user impersonates.
        c.took("billing");
        assert_eq!(c.verdict(Some("anyone")), Verdict::Passes);
        // A refusal names the user.
        let mut c = UserIdCheck::new(None);
        c.refused("O=client,CN=ops");
        assert_eq!(c.verdict(Some("O=client,CN=ops")), Verdict::Passes);
        assert_eq!(
            c.verdict(Some("billing")),
            Verdict::Refused {
                user: "O=client,CN=ops".into()
            }
        );
    }

    #[test]
    fn the_brokers_refusal_is_read_with_or_without_its_prefix() {
        // As 3.10.8 and 4.3.6 word it.
        let text = "PRECONDITION_FAILED - user_id property set to 'orders-app' but \
                    authenticated user was 'guest'";
        let both = Some(("orders-app".to_owned(), "guest".to_owned()));
        assert_eq!(parse_refusal(text), both);
        assert_eq!(
            parse_refusal(text.trim_start_matches("PRECONDITION_FAILED - ")),
            both
        );
        assert_eq!(
            parse_refusal("user_id property set to 'a' but x' but authenticated user was 'b'"),
            Some(("a' but x".to_owned(), "b".to_owned()))
        );
        assert_eq!(
            parse_refusal("user_id property set to '' but authenticated user was 'guest'"),
            Some((String::new(), "guest".to_owned()))
        );
        assert_eq!(
            parse_refusal("message size 9 is larger than configured max size 8"),
            None
        );
        assert_eq!(
            parse_refusal("user_id property set to 'a' but authenticated user was 'b"),
            None
        );
    }

    #[test]
    fn a_refusal_names_the_property_the_user_and_every_way_out() {
        let why = refused("orders-app", "guest", Some("--strip-user-id"));
        for part in [
            "user_id property is \"orders-app\"",
            "connected as \"guest\"",
            "Connect as \"orders-app\"",
            "impersonator tag",
            "--strip-user-id",
            "not published",
        ] {
            assert!(why.contains(part), "{part}: {why}");
        }
        let why = refused("orders-app", "guest", None);
        assert!(!why.contains("--"), "{why}");
    }
}
