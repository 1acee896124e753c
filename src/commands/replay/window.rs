//! The replay's window: a place per dead letter (or file line) between its read and its
//! settling, and a byte budget for the bodies read and not yet published.
//!
//! A [`Place`] is owned by the job that holds it: the read stage takes one, the publish stage
//! hands it on with the copy's outcome, and the settle stage drops it once the dead letter is
//! acked or kept. A job dropped anywhere (a stage that fails, a channel closed) gives its place
//! and its bytes back by being dropped: nothing is counted by hand.
//!
//! Where it sits (`replay/mod.rs`): the reader takes a place once stage 3 lets a copy go, the
//! settle stage (5) frees it.

use tokio::sync::{Semaphore, SemaphorePermit};

/// The places and the byte budget of one run.
pub(super) struct Window {
    places: Semaphore,
    bytes: Semaphore,
    budget: u32,
    size: usize,
}

/// One place of the window, with the bytes its body holds of the budget until it is published.
pub(super) struct Place<'w> {
    _place: SemaphorePermit<'w>,
    bytes: Option<SemaphorePermit<'w>>,
}

impl<'w> Place<'w> {
    /// The body was published (the copy keeps no bytes of it in queuey): its bytes go back to
    /// the budget; the place stays until the dead letter is settled.
    pub(super) fn take_bytes(&mut self) -> Option<SemaphorePermit<'w>> {
        self.bytes.take()
    }
}

impl Window {
    /// A window of `size` places (at least one) and `budget` bytes (at least one).
    pub(super) fn new(size: usize, budget: usize) -> Window {
        let budget = u32::try_from(budget).unwrap_or(u32::MAX).max(1);
        let size = size.max(1);
        Window {
            places: Semaphore::new(size),
            bytes: Semaphore::new(budget as usize),
            budget,
            size,
        }
    }

    /// How many places.
    pub(super) fn size(&self) -> usize {
        self.size
    }

    /// What a body of `body` bytes holds of the budget: its length, at least 1, at most the
    /// whole budget (a body larger than the budget goes alone).
    pub(super) fn weight(&self, body: &[u8]) -> u32 {
        u32::try_from(body.len())
            .unwrap_or(u32::MAX)
            .clamp(1, self.budget)
    }

    /// Waits for a place and, for a body, its `weight` of the budget; `None` once the window
    /// is closed (the stage that frees places has stopped).
    pub(super) async fn admit(&self, weight: u32) -> Option<Place<'_>> {
        let place = self.places.acquire().await.ok()?;
        let bytes = match weight {
            0 => None,
            w => Some(self.bytes.acquire_many(w).await.ok()?),
        };
        Some(Place {
            _place: place,
            bytes,
        })
    }

    /// Wakes a stage waiting for a place or bytes: nobody will free any now.
    pub(super) fn close(&self) {
        self.places.close();
        self.bytes.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A place dropped anywhere is free again, and so are its bytes; bytes taken at publish go
    /// back while the place stays held.
    #[tokio::test]
    async fn a_dropped_place_gives_back_its_place_and_its_bytes() {
        let w = Window::new(2, 100);
        let a = w.admit(60).await.expect("a place");
        let mut b = w.admit(40).await.expect("a place");
        assert_eq!(w.places.available_permits(), 0);
        assert_eq!(w.bytes.available_permits(), 0);
        drop(b.take_bytes());
        assert_eq!(w.bytes.available_permits(), 40);
        assert_eq!(w.places.available_permits(), 0);
        drop(a);
        assert_eq!(
            (w.places.available_permits(), w.bytes.available_permits()),
            (1, 100)
        );
        drop(b);
        assert_eq!(w.places.available_permits(), 2);
        assert_eq!(
            w.weight(&[0; 500]),
            100,
            "a body over the budget holds all of it"
        );
        assert_eq!(w.weight(&[]), 1);
        w.close();
        assert!(w.admit(1).await.is_none(), "a closed window admits nothing");
    }
}
