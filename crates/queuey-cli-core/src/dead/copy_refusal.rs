//! PURE: why a copy is not published, asked before it is (its dead letter stays): one variant
//! per reason, so that a caller matches on the reason, and its text, the words the operator
//! reads in a replay's report or in `dead edit`'s error, written once here.

use std::fmt;

use crate::user_id::RefusedUserId;

/// Why a copy is not published: the broker would refuse it (closing the channel or the
/// connection, or dead-lettering it back), or its target has no room for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyRefusal {
    /// Its `user_id` property is another user's, and the connection's user lacks the
    /// `impersonator` tag; `flag`, when the command has one, drops the property from the copies.
    UserId {
        refused: RefusedUserId,
        flag: Option<&'static str>,
    },
    /// Its properties and headers make a content header frame of `len` bytes, over the
    /// connection's `frame_max`: the broker would close the connection.
    HeaderFrame { len: usize, frame_max: u32 },
    /// Its body is over the broker's `max_message_size`, which is `limit`.
    MessageSize { body: u64, limit: u64 },
    /// With `--after`: the queue the hold queue returns its copies to does not exist, so the
    /// broker would drop them when their delay ends.
    ReturnQueueMissing { queue: String },
    /// With `--after`: the hold queue cannot be declared with the library's arguments (the
    /// broker's reply code and text).
    HoldQueueDrift {
        hold: String,
        code: u16,
        text: String,
    },
    /// Its target has no room for it, or its limits could not be read: why, in words
    /// (`dead::target_room`).
    NoRoom(String),
    /// With `--after`: the queue the copy would return to from its hold queue refuses it.
    WhereItReturns(Box<CopyRefusal>),
}

impl fmt::Display for CopyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CopyRefusal::UserId { refused, flag } => f.write_str(&crate::user_id::refused(
                &refused.claimed,
                &refused.user,
                *flag,
            )),
            CopyRefusal::HeaderFrame { len, frame_max } => write!(
                f,
                "its properties and headers would take a {len}-byte frame, over the {frame_max} \
                 bytes a frame may have on this connection (frame_max): the broker would close \
                 the connection; not published"
            ),
            CopyRefusal::MessageSize { body, limit } => {
                f.write_str(&crate::message_size::too_large(*body, *limit))
            }
            CopyRefusal::ReturnQueueMissing { queue } => write!(
                f,
                "its queue {queue:?} does not exist: the broker would drop the copies when they \
                 leave the hold queue"
            ),
            CopyRefusal::HoldQueueDrift { hold, code, text } => write!(
                f,
                "its hold queue {hold:?} cannot be declared with the library's arguments \
                 ({code}): {text}; `queuey verify` shows the drift"
            ),
            CopyRefusal::NoRoom(why) => f.write_str(why),
            CopyRefusal::WhereItReturns(why) => write!(f, "where the copy would return: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_says_why_and_that_the_copy_is_not_published() {
        let frame = CopyRefusal::HeaderFrame {
            len: 4097,
            frame_max: 4096,
        };
        assert_eq!(
            frame.to_string(),
            "its properties and headers would take a 4097-byte frame, over the 4096 bytes a \
             frame may have on this connection (frame_max): the broker would close the \
             connection; not published"
        );
        let size = CopyRefusal::MessageSize { body: 10, limit: 5 };
        assert_eq!(size.to_string(), crate::message_size::too_large(10, 5));
        let user = CopyRefusal::UserId {
            refused: RefusedUserId {
                claimed: "orders-app".into(),
                user: "guest".into(),
            },
            flag: Some("--strip-user-id"),
        };
        assert_eq!(
            user.to_string(),
            crate::user_id::refused("orders-app", "guest", Some("--strip-user-id"))
        );
        let missing = CopyRefusal::ReturnQueueMissing { queue: "q".into() };
        assert_eq!(
            missing.to_string(),
            "its queue \"q\" does not exist: the broker would drop the copies when they leave \
             the hold queue"
        );
        let drift = CopyRefusal::HoldQueueDrift {
            hold: "q.deferred.5000".into(),
            code: 406,
            text: "PRECONDITION_FAILED".into(),
        };
        assert_eq!(
            drift.to_string(),
            "its hold queue \"q.deferred.5000\" cannot be declared with the library's arguments \
             (406): PRECONDITION_FAILED; `queuey verify` shows the drift"
        );
        let back = CopyRefusal::WhereItReturns(Box::new(CopyRefusal::NoRoom("full".into())));
        assert_eq!(back.to_string(), "where the copy would return: full");
    }
}
