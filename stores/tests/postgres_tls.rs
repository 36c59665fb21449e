//! TLS to PostgreSQL: the store connects over TLS when the connection string asks for it, and
//! only to a server whose certificate chains to the configured CA and names the host.
//!
//! Needs a server with TLS: `scripts/with-postgres cargo test -p warrant-stores --test
//! postgres_tls` (it makes a throwaway CA and a certificate for 127.0.0.1).
#![cfg(feature = "postgres")]

use warrant_core::store::{AuditLog, StoreErrorKind};
use warrant_stores::postgres::{PostgresConfig, PostgresStore};

#[path = "postgres_common/mod.rs"]
mod pg;
#[path = "common/mod.rs"]
mod sample;

fn config(url: String, dir: &tempfile::TempDir) -> PostgresConfig {
    PostgresConfig::new(url)
        .audit_key_file(dir.path().join("audit-key"))
        .checkpoint_file(None)
}

/// How many of the server's connections to this database use TLS, and how many do not.
async fn connections_by_tls(database: &pg::Database) -> (i64, i64) {
    let (client, connection) = tokio_postgres::connect(&pg::server_url(), tokio_postgres::NoTls)
        .await
        .unwrap();
    let connection = tokio::spawn(connection);
    let (url, _) = database.tls();
    let name = url.rsplit("dbname=").next().unwrap().to_owned();
    let row = client
        .query_one(
            "SELECT count(*) FILTER (WHERE s.ssl), count(*) FILTER (WHERE NOT s.ssl) \
             FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) \
             WHERE a.datname = $1 AND a.application_name = 'warrant'",
            &[&name],
        )
        .await
        .unwrap();
    drop(client);
    let _ = connection.await;
    (row.get(0), row.get(1))
}

#[tokio::test]
async fn a_store_on_tls_works_and_its_connections_are_encrypted() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let (url, ca) = database.tls();
    let store = config(url, &dir).tls_ca_file(ca).connect().await.unwrap();
    let seq = store
        .append_audit(sample::evaluation("s1", "call-tls-1"))
        .await
        .unwrap();
    assert_eq!(
        store.evaluation_of(&"call-tls-1".into()).await.unwrap(),
        Some(seq)
    );
    let notices = store.listen().await.unwrap();
    let (tls, plain) = connections_by_tls(&database).await;
    assert!(
        tls >= 2,
        "the pool and the listener use TLS: {tls} TLS, {plain} plain"
    );
    assert_eq!(plain, 0, "{tls} TLS, {plain} plain");
    drop(notices);
}

#[tokio::test]
async fn a_server_whose_certificate_is_not_trusted_is_refused() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let (url, _) = database.tls();
    // The public web roots do not hold the throwaway CA.
    let err = config(url, &dir).connect().await.unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Unavailable, "{err}");
    assert!(
        err.message.to_lowercase().contains("certificate"),
        "the error says why: {err}"
    );
}

#[tokio::test]
async fn a_host_name_the_certificate_does_not_name_is_refused() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let (url, ca) = database.tls();
    // The certificate names IP 127.0.0.1 only; `localhost` (at that address) is not it.
    let url = url.replace("host=127.0.0.1", "host=localhost hostaddr=127.0.0.1");
    assert!(url.contains("host=localhost"), "{url}");
    let err = config(url, &dir)
        .tls_ca_file(ca)
        .connect()
        .await
        .unwrap_err();
    assert!(
        err.message.to_lowercase().contains("certificate"),
        "the error says why: {err}"
    );
}

#[tokio::test]
async fn sslmode_disable_connects_without_tls() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let (url, _) = database.tls();
    let url = url.replace("sslmode=require", "sslmode=disable");
    let store: PostgresStore = config(url, &dir).connect().await.unwrap();
    assert_eq!(store.evaluation_of(&"none".into()).await.unwrap(), None);
    let (tls, plain) = connections_by_tls(&database).await;
    assert_eq!((tls, plain > 0), (0, true), "{tls} TLS, {plain} plain");
}

#[tokio::test]
async fn a_bad_ca_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-ca.pem");
    let err = PostgresStore::connect_lazy(
        PostgresConfig::new("host=127.0.0.1 sslmode=require").tls_ca_file(&missing),
    )
    .unwrap_err();
    assert_eq!(err.kind, StoreErrorKind::Invalid, "{err}");
    assert!(err.message.contains("no-such-ca.pem"), "{err}");
}

#[tokio::test]
async fn libpq_verify_full_is_accepted_and_verifies() {
    let database = pg::Database::create();
    let dir = tempfile::tempdir().unwrap();
    let (url, ca) = database.tls();
    let url = url.replace("sslmode=require", "sslmode=verify-full");
    let store = config(url, &dir).tls_ca_file(ca).connect().await.unwrap();
    assert_eq!(store.evaluation_of(&"none".into()).await.unwrap(), None);
    let (tls, plain) = connections_by_tls(&database).await;
    assert_eq!((tls > 0, plain), (true, 0), "{tls} TLS, {plain} plain");
}

#[tokio::test]
async fn with_a_ca_configured_a_server_refusing_tls_is_not_spoken_to_in_the_clear() {
    // A stand-in for a server, or for someone between, that answers the TLS request with
    // "no TLS here" (`N`), as under the default sslmode=prefer a client would then go on
    // in the clear.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let asked = tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = [0u8; 8];
        socket.read_exact(&mut request).await.unwrap();
        socket.write_all(b"N").await.unwrap();
        let mut rest = Vec::new();
        let _ = tokio::time::timeout(
            std::time::Duration::from_secs(2),
            socket.read_to_end(&mut rest),
        )
        .await;
        (request, rest)
    });
    let dir = tempfile::tempdir().unwrap();
    let (_, ca) = {
        let database = pg::Database::create();
        database.tls()
    };
    let url = format!("host=127.0.0.1 port={port} user=postgres dbname=postgres");
    let err = config(url, &dir)
        .tls_ca_file(ca)
        .connect()
        .await
        .unwrap_err();
    assert!(err.message.contains("TLS"), "{err}");
    let (request, rest) = asked.await.unwrap();
    // The SSLRequest code (80877103), and nothing after it: no startup message in the clear.
    assert_eq!(request, [0, 0, 0, 8, 4, 210, 22, 47]);
    assert!(rest.is_empty(), "sent in the clear: {rest:?}");
}
