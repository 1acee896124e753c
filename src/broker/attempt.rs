//! One attempt at one address, and whether its failure means that nothing answers there: the
//! AMQP and API clients tell it, `broker::addresses` decides from it whether to try the next.

use crate::error::Error;

/// A failed attempt at one address, and whether it means that nothing answers there (the next
/// address may be tried) rather than a refusal the user has to fix.
#[derive(Debug)]
pub struct Failed {
    pub error: Error,
    pub no_answer: bool,
}

impl Failed {
    /// Something answered, and refused (or the attempt failed before reaching the address).
    pub fn answered(error: Error) -> Failed {
        Failed {
            error,
            no_answer: false,
        }
    }

    /// Nothing answered at the address.
    pub fn unanswered(error: Error) -> Failed {
        Failed {
            error,
            no_answer: true,
        }
    }
}
