//! Listening for the events other instances append: PostgreSQL's `LISTEN` on
//! [`EVENT_CHANNEL`], on a connection of its own.

use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};
use warrant_core::ids::SessionId;

use futures::{Stream, StreamExt};
use tokio::sync::mpsc;
use tokio_postgres::AsyncMessage;
use warrant_core::events::NoticeSource;
use warrant_core::store::{StoreError, StoreErrorKind};

use super::error::Context;

/// The channel every appended event is notified on, with the payload `<session>:<seq>`.
pub const EVENT_CHANNEL: &str = "warrant_events";

pub use warrant_core::events::EventNotice;

/// Reads a notification's payload (`<session>:<seq>`; the session may hold colons).
fn parse(payload: &str) -> Option<EventNotice> {
    let (session, seq) = payload.rsplit_once(':')?;
    Some(EventNotice {
        session_id: session.to_owned().into(),
        seq: seq.parse().ok()?,
    })
}

/// The notices of appended events, in the order their transactions committed; from
/// [`PostgresStore::listen`](super::PostgresStore::listen).
///
/// The stream yields an error and ends when its connection is lost: notices sent meanwhile
/// are missed, so a subscriber then reads the event log to catch up. Dropping it closes the
/// connection.
pub struct EventNotices {
    notices: mpsc::UnboundedReceiver<Result<EventNotice, StoreError>>,
    _client: tokio_postgres::Client,
    connection: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for EventNotices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventNotices").finish_non_exhaustive()
    }
}

impl Stream for EventNotices {
    type Item = Result<EventNotice, StoreError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Option<Self::Item>> {
        self.notices.poll_recv(cx)
    }
}

impl Drop for EventNotices {
    fn drop(&mut self) {
        self.connection.abort();
    }
}

#[async_trait::async_trait]
impl NoticeSource for super::PostgresStore {
    async fn listen(&self) -> Result<warrant_core::events::EventNotices, StoreError> {
        Ok(Box::pin(super::PostgresStore::listen(self).await?))
    }

    async fn last_seq(&self, session_id: &SessionId) -> Result<Option<u64>, StoreError> {
        let (client, _) = self.ready_client().await?;
        let row = client
            .query_opt(
                "SELECT last_seq FROM event_heads WHERE session_id = $1",
                &[&session_id.as_str()],
            )
            .await
            .context("reading a session's last event position")?;
        row.map(|r| {
            let seq: i64 = r.try_get(0).context("event seq")?;
            super::error::from_db(seq, "event seq")
        })
        .transpose()
    }
}

/// Opens a connection of its own, listens on [`EVENT_CHANNEL`], and forwards each notice.
pub(crate) async fn listen(
    config: &tokio_postgres::Config,
    tls: tokio_postgres_rustls::MakeRustlsConnect,
) -> Result<EventNotices, StoreError> {
    let (client, mut connection) = config.connect(tls).await.context("connecting a listener")?;
    let (send, notices) = mpsc::unbounded_channel();
    let connection = tokio::spawn(async move {
        let mut messages = futures::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) if n.channel() == EVENT_CHANNEL => {
                    let notice = parse(n.payload()).ok_or_else(|| {
                        StoreError::new(
                            StoreErrorKind::Corrupt,
                            format!(
                                "postgres, a notice on {EVENT_CHANNEL} is not <session>:<seq>: {:?}",
                                n.payload()
                            ),
                        )
                    });
                    if send.send(notice).is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    let _ = send.send(Err::<EventNotice, _>(e).context("listening for events"));
                    return;
                }
            }
        }
        let _ = send.send(Err(StoreError::new(
            StoreErrorKind::Unavailable,
            "postgres, listening for events: the connection closed",
        )));
    });
    let listening = client
        .batch_execute(&format!("LISTEN {EVENT_CHANNEL}"))
        .await
        .context("listening for events");
    if let Err(e) = listening {
        connection.abort();
        return Err(e);
    }
    Ok(EventNotices {
        notices,
        _client: client,
        connection,
    })
}

#[cfg(test)]
mod tests {
    use super::{EventNotice, parse};

    #[test]
    fn a_payload_names_its_session_and_seq() {
        assert_eq!(
            parse("team:a:17"),
            Some(EventNotice {
                session_id: "team:a".into(),
                seq: 17
            })
        );
        assert_eq!(parse("no-seq"), None);
        assert_eq!(parse("s:x"), None);
    }
}
