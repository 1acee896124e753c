//! Two small tools of the peek's rounds: a channel method whose reply is read later, and a
//! stream's next item when it is already here.

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

use futures_util::{Stream, StreamExt};

use super::session::Session;
use crate::error::Result;

/// A method of the peek's channel whose frame is on its way and whose reply is read later, so
/// that the broker's round trip overlaps the caller's work.
pub(super) enum Sent<'a, T> {
    Answered(Result<T>),
    Owed(Pin<Box<dyn Future<Output = Result<T>> + 'a>>),
}

impl<'a, T> Sent<'a, T> {
    /// Polls `method` once: lapin queues a method's frame on the first poll, so every frame
    /// sent on the channel afterwards (an ack) reaches the broker behind it.
    pub(super) async fn send(
        mut method: Pin<Box<dyn Future<Output = Result<T>> + 'a>>,
    ) -> Sent<'a, T> {
        match std::future::poll_fn(|cx| Poll::Ready(method.as_mut().poll(cx))).await {
            Poll::Ready(r) => Sent::Answered(r),
            Poll::Pending => Sent::Owed(method),
        }
    }

    /// The reply, waited for as [`Session::owed`] waits.
    pub(super) async fn reply(self, session: &Session, what: &str, queue: &str) -> Result<T> {
        match self {
            Sent::Answered(r) => r,
            Sent::Owed(method) => session.owed(what, &[queue], method).await,
        }
    }
}

/// The stream's next item when it is already here: one poll in this task's context (its waker
/// registered), `None` when it is not.
pub(super) async fn ready_next<S: Stream + Unpin>(stream: &mut S) -> Option<Option<S::Item>> {
    std::future::poll_fn(|cx| match stream.poll_next_unpin(cx) {
        std::task::Poll::Ready(item) => std::task::Poll::Ready(Some(item)),
        std::task::Poll::Pending => std::task::Poll::Ready(None),
    })
    .await
}
