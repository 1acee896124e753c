//! PURE: what the broker counts of one live queue (messages, consumers, a quorum queue's
//! members), as plain data: `live::inspect` fills it from the management API or a passive
//! declare, `output::status` shows it. It lives here, below both, so that `output/` renders
//! plain data and never imports `live/`.

/// Counts of a live queue; each `None` when the broker has not reported it (stats appear a
/// few seconds after a declare) or the source cannot tell (AMQP only knows ready messages).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub messages: Option<u64>,
    pub messages_ready: Option<u64>,
    pub messages_unacknowledged: Option<u64>,
    pub consumers: Option<u64>,
    /// A quorum queue's members, and those of them online (a majority lost: it neither takes
    /// nor gives messages).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members_online: Option<u64>,
}

impl Counts {
    /// `", 1 of 3 members online: no majority, ..."` for a quorum queue that lost its
    /// majority, `", 2 of 3 members online"` for one that lost a member, else nothing.
    pub fn members_text(&self) -> String {
        match (self.members_online, self.members) {
            (Some(on), Some(all)) if on * 2 <= all => format!(
                ", {on} of {all} members online: NO MAJORITY, it can neither take nor give \
                 messages"
            ),
            (Some(on), Some(all)) if on < all => format!(", {on} of {all} members online"),
            _ => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Counts;

    fn members(on: u64, all: u64) -> Counts {
        Counts {
            members: Some(all),
            members_online: Some(on),
            ..Counts::default()
        }
    }

    #[test]
    fn members_text_names_a_lost_member_and_a_lost_majority() {
        assert_eq!(members(3, 3).members_text(), "");
        assert_eq!(members(2, 3).members_text(), ", 2 of 3 members online");
        assert!(
            members(1, 3)
                .members_text()
                .contains("1 of 3 members online: NO MAJORITY")
        );
        assert!(members(1, 2).members_text().contains("NO MAJORITY"));
        assert_eq!(Counts::default().members_text(), "");
    }
}
