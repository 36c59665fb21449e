//! A fresh database per test on the PostgreSQL server that `WARRANT_TEST_POSTGRES_URL`
//! names (`scripts/with-postgres` starts a throwaway one and sets it). Without it, every
//! PostgreSQL test fails saying how to run them.
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};

use tokio_postgres::NoTls;

/// The environment variable naming the test server.
pub const URL_ENV: &str = "WARRANT_TEST_POSTGRES_URL";

/// The test server's connection string (a role that may `CREATE DATABASE`).
///
/// # Panics
///
/// When [`URL_ENV`] is unset: the PostgreSQL tests never pass without a server.
pub fn server_url() -> String {
    match std::env::var(URL_ENV) {
        Ok(url) if !url.trim().is_empty() => url,
        _ => panic!(
            "{URL_ENV} is not set, so the PostgreSQL store cannot be tested. Run the tests \
             beside a throwaway cluster with `scripts/with-postgres cargo test -p warrant-stores` \
             (needs PostgreSQL's server binaries: apt-get install postgresql), or set {URL_ENV} \
             to the connection string of a server where the role may CREATE DATABASE"
        ),
    }
}

/// `url` with its database replaced by `name` (a URL's path, or a `dbname=` of the
/// key-value form).
pub fn with_dbname(url: &str, name: &str) -> String {
    for scheme in ["postgresql://", "postgres://"] {
        if let Some(rest) = url.strip_prefix(scheme) {
            let (main, query) = match rest.split_once('?') {
                Some((main, query)) => (main, format!("?{query}")),
                None => (rest, String::new()),
            };
            let authority = main.split_once('/').map_or(main, |(a, _)| a);
            return format!("{scheme}{authority}/{name}{query}");
        }
    }
    format!("{url} dbname={name}")
}

/// Runs SQL on the server's `url` from a thread of its own (the callers are synchronous
/// factories and `Drop`).
fn run_admin(url: String, sql: String) -> Result<(), String> {
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async move {
            let (client, connection) = tokio_postgres::connect(&url, NoTls)
                .await
                .map_err(|e| format!("connecting to the test server: {e:?}"))?;
            let connection = tokio::spawn(connection);
            let result = client
                .batch_execute(&sql)
                .await
                .map_err(|e| format!("{sql}: {e:?}"));
            drop(client);
            let _ = connection.await;
            result
        })
    })
    .join()
    .map_err(|_| "the admin thread panicked".to_owned())?
}

/// A database of its own for one test, dropped with it.
pub struct Database {
    /// Its connection string.
    pub url: String,
    name: String,
    server: String,
}

impl Database {
    /// Creates an empty database on the test server.
    ///
    /// # Panics
    ///
    /// When there is no test server or it refuses.
    pub fn create() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let server = server_url();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(
            "warrant_test_{}_{}_{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        run_admin(server.clone(), format!("CREATE DATABASE \"{name}\""))
            .unwrap_or_else(|e| panic!("creating a test database: {e}"));
        Self {
            url: with_dbname(&server, &name),
            name,
            server,
        }
    }

    /// This database over TCP with TLS required (`WARRANT_TEST_POSTGRES_TLS_URL`), and the CA
    /// file its server certificate chains to (`WARRANT_TEST_POSTGRES_TLS_CA`).
    ///
    /// # Panics
    ///
    /// When the test server offers no TLS (`scripts/with-postgres` sets both).
    pub fn tls(&self) -> (String, std::path::PathBuf) {
        let var = |name: &str| match std::env::var(name) {
            Ok(value) if !value.trim().is_empty() => value,
            _ => panic!(
                "{name} is not set, so TLS to PostgreSQL cannot be tested: run the tests with \
                 scripts/with-postgres (it makes a CA and the server's certificate with openssl)"
            ),
        };
        let url = var("WARRANT_TEST_POSTGRES_TLS_URL");
        let ca = var("WARRANT_TEST_POSTGRES_TLS_CA");
        (with_dbname(&url, &self.name), ca.into())
    }

    /// Runs SQL in this database as the test server's role (to damage it, or to end its
    /// connections).
    pub fn execute(&self, sql: &str) {
        run_admin(self.url.clone(), sql.to_owned()).unwrap_or_else(|e| panic!("{e}"));
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let sql = format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name);
        if let Err(e) = run_admin(self.server.clone(), sql) {
            eprintln!("the test database {} was not dropped: {e}", self.name);
        }
    }
}

#[test]
fn the_database_name_is_replaced_in_both_forms() {
    assert_eq!(
        with_dbname("postgresql://u:p@h:5/postgres?sslmode=disable", "t"),
        "postgresql://u:p@h:5/t?sslmode=disable"
    );
    assert_eq!(with_dbname("postgres://h", "t"), "postgres://h/t");
    assert_eq!(
        with_dbname("host=/tmp port=5 dbname=postgres", "t"),
        "host=/tmp port=5 dbname=postgres dbname=t"
    );
}
