//! The production engine as a library call: `warrant::Setup` builds what `warrant serve`
//! runs, takes evaluators of the host's own, and names what is wrong when it cannot.

use std::sync::{Arc, Mutex};

use serde_json::json;
use warrant::{Config, Setup, SetupError};
use warrant_core::catalog::ToolCatalog;
use warrant_core::prelude::*;
use warrant_core::testkit::evaluator_fn;

struct Dirs {
    workspace: tempfile::TempDir,
    data: tempfile::TempDir,
}

fn fresh() -> (Config, Dirs) {
    let dirs = Dirs {
        workspace: tempfile::tempdir().unwrap(),
        data: tempfile::tempdir().unwrap(),
    };
    let config = Config {
        workspace: Some(dirs.workspace.path().to_path_buf()),
        data_dir: dirs.data.path().to_path_buf(),
        ..Config::default()
    };
    (config, dirs)
}

fn shell(id: &str, command: &str) -> ToolCall {
    ToolCall::new("s1", id, "Bash", json!({ "command": command }))
}

#[tokio::test]
async fn the_default_setup_decides_like_warrant_serve_and_keeps_a_verified_audit_log() {
    let (config, _dirs) = fresh();
    let engine = Setup::new(config).build().await.unwrap();
    assert_eq!(
        engine.chain().evaluator_names(),
        ["policy", "rule", "auto_classifier", "full_access"]
    );
    let read = engine
        .authorize(shell("c1", "git status"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(read.decision.behavior, Behavior::Allow);
    let push = engine
        .authorize(shell("c2", "git push"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(push.decision.behavior, Behavior::Ask);
    // The store is the SQLite database in the data directory, durable across engines.
    let verification = engine.verify_audit(None).await.unwrap();
    assert!(verification.is_intact());
    assert_eq!(verification.records, 2);
}

#[tokio::test]
async fn warrants_own_files_are_protected_from_every_call() {
    let (config, dirs) = fresh();
    let engine = Setup::new(config).build().await.unwrap();
    let target = dirs.data.path().join("warrant.db");
    let call = ToolCall::new(
        "s1",
        "c1",
        "Write",
        json!({ "file_path": target.display().to_string(), "content": "x" }),
    );
    let authorization = engine
        .authorize(
            call,
            AuthorizeOptions {
                mode: PermissionMode::FullAccess,
                announce: false,
            },
        )
        .await
        .unwrap();
    assert_eq!(authorization.decision.behavior, Behavior::Deny);
}

#[tokio::test]
async fn warrants_configuration_and_records_are_not_read_by_any_call() {
    let (mut config, dirs) = fresh();
    // A configuration under another name, holding the token, inside the workspace.
    let file = dirs.workspace.path().join("sidecar.toml");
    std::fs::write(&file, "token = \"s3cret-token-value\"\n").unwrap();
    config.source = Some(file.clone());
    let engine = Setup::new(config).build().await.unwrap();
    let database = dirs.data.path().join("warrant.db");
    for (id, tool, input) in [
        (
            "r1",
            "Read",
            json!({ "file_path": file.display().to_string() }),
        ),
        ("r2", "Bash", json!({ "command": "cat sidecar.toml" })),
        (
            "r3",
            "Read",
            json!({ "file_path": database.display().to_string() }),
        ),
    ] {
        let call = ToolCall::new("s1", id, tool, input);
        let authorization = engine
            .authorize(
                call,
                AuthorizeOptions {
                    mode: PermissionMode::FullAccess,
                    announce: false,
                },
            )
            .await
            .unwrap();
        assert_eq!(authorization.decision.behavior, Behavior::Deny, "{id}");
    }
    // Other files of the workspace are read as before.
    let call = shell("r4", "ls");
    let authorization = engine
        .authorize(call, AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(authorization.decision.behavior, Behavior::Allow);
}

#[tokio::test]
async fn an_added_evaluator_gets_the_engines_catalog_and_decides_under_its_own_name() {
    let (config, _dirs) = fresh();
    let seen: Arc<Mutex<Option<ToolCatalog>>> = Arc::default();
    let seen_by_factory = Arc::clone(&seen);
    let engine = Setup::new(config)
        .evaluator(move |cx| {
            *seen_by_factory.lock().unwrap() = Some((*cx.catalog).clone());
            Ok(Arc::new(evaluator_fn(
                "no_deploys",
                PermissionDecisionSource::Policy,
                |call, _cx| {
                    let command = call.input["command"].as_str().unwrap_or_default();
                    if command.starts_with("./deploy") {
                        Verdict::decide(
                            Stance::HardDeny,
                            Rationale::new(
                                "plugin_no_deploys_deny",
                                "Deploys are off.",
                                Risk::High,
                            ),
                        )
                    } else {
                        Verdict::Abstain
                    }
                },
            )))
        })
        .build()
        .await
        .unwrap();
    assert_eq!(
        seen.lock().unwrap().as_ref(),
        Some(&*engine.catalog()),
        "one catalog: the factory's is the engine's"
    );
    assert_eq!(
        engine.chain().evaluator_names(),
        [
            "policy",
            "rule",
            "auto_classifier",
            "full_access",
            "no_deploys"
        ]
    );
    let deploy = engine
        .authorize(shell("c1", "./deploy prod"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(deploy.decision.behavior, Behavior::Deny);
    assert_eq!(deploy.decision.reason_code, "plugin_no_deploys_deny");
    assert_eq!(deploy.decision.evaluator.unwrap().name, "no_deploys");
    // The defaults still decide everything else.
    let read = engine
        .authorize(shell("c2", "ls"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(read.decision.behavior, Behavior::Allow);
}

#[tokio::test]
async fn a_failing_factory_a_missing_workspace_and_a_bad_plugin_are_named() {
    let (config, _dirs) = fresh();
    let error = Setup::new(config)
        .evaluator(|_| Err("the key file /etc/guard.key is missing".to_owned()))
        .build()
        .await
        .unwrap_err();
    assert!(matches!(error, SetupError::Evaluator { .. }));
    assert_eq!(
        error.to_string(),
        "evaluator extra evaluator 1: the key file /etc/guard.key is missing"
    );

    let (mut config, dirs) = fresh();
    let missing = dirs.workspace.path().join("nowhere");
    config.workspace = Some(missing.clone());
    let error = Setup::new(config).build().await.unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("workspace {} is not a directory", missing.display())
    );

    let (mut config, _dirs) = fresh();
    config.plugins.evaluators = Some(vec!["policy".into(), "polcy".into()]);
    let error = Setup::new(config).build().await.unwrap_err();
    assert!(matches!(error, SetupError::Plugins(_)), "{error}");
    assert!(error.to_string().contains("polcy"), "{error}");
}

#[tokio::test]
async fn a_configured_store_is_used_and_pending_requests_are_adopted_when_asked() {
    let (config, _dirs) = fresh();
    let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
    let first = Setup::new(config.clone())
        .store(Arc::clone(&store))
        .build()
        .await
        .unwrap();
    let asked = first
        .authorize(shell("c1", "git push"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(asked.decision.behavior, Behavior::Ask);
    drop(asked);

    // A process sharing the store (an agent hook) adopts the request instead of ending it.
    let sharing = Setup::new(config.clone())
        .store(Arc::clone(&store))
        .adopt_pending()
        .build()
        .await
        .unwrap();
    assert_eq!(sharing.pending_requests().len(), 1);
    // A restarted server ends it as interrupted.
    let restarted = Setup::new(config)
        .store(Arc::clone(&store))
        .build()
        .await
        .unwrap();
    assert!(restarted.pending_requests().is_empty());
    assert!(restarted.resolve(&"c1".into(), "allow_once").await.is_err());
}

#[tokio::test]
async fn the_store_is_picked_by_its_registered_name() {
    let (mut config, dirs) = fresh();
    config.store.kind = "memory".into();
    let engine = Setup::new(config).build().await.unwrap();
    engine
        .authorize(shell("c1", "git status"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(engine.verify_audit(None).await.unwrap().records, 1);
    assert!(
        std::fs::read_dir(dirs.data.path())
            .unwrap()
            .next()
            .is_none(),
        "the memory store writes nothing in the data directory"
    );

    let (mut config, _dirs) = fresh();
    config.store.kind = "sqlight".into();
    let error = Setup::new(config).build().await.unwrap_err();
    let message = error.to_string();
    assert!(message.contains("sqlight"), "{message}");
    assert!(
        message.contains("sqlite"),
        "the known stores are listed: {message}"
    );

    // The SQLite store's own keys: a file elsewhere than the data directory.
    let (mut config, dirs) = fresh();
    let file = dirs.workspace.path().join("elsewhere.db");
    config.store.options.insert("path".into(), json!(file));
    let engine = Setup::new(config).build().await.unwrap();
    engine
        .authorize(shell("c1", "git status"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert!(file.exists());
    // … and protected like the data directory: no call writes it, whatever the mode.
    let overwrite = ToolCall::new(
        "s1",
        "c2",
        "Write",
        json!({ "file_path": format!("{}-wal", file.display()), "content": "x" }),
    );
    let authorization = engine
        .authorize(
            overwrite,
            AuthorizeOptions {
                mode: PermissionMode::FullAccess,
                announce: false,
            },
        )
        .await
        .unwrap();
    assert_eq!(authorization.decision.behavior, Behavior::Deny);

    // A key the store does not have is named.
    let (mut config, _dirs) = fresh();
    config
        .store
        .options
        .insert("busy_timout_ms".into(), json!(5));
    let error = Setup::new(config).build().await.unwrap_err();
    assert!(error.to_string().contains("busy_timout_ms"), "{error}");
}

#[tokio::test]
async fn the_postgres_store_is_picked_by_name_and_keeps_its_key_in_the_data_directory() {
    let Ok(server) = std::env::var("WARRANT_TEST_POSTGRES_URL") else {
        panic!(
            "WARRANT_TEST_POSTGRES_URL is not set: run the tests beside a throwaway cluster \
             with `scripts/with-postgres cargo test -p warrant --test setup` (scripts/test does)"
        );
    };
    let database = format!("warrant_setup_{}", std::process::id());
    let created = std::process::Command::new("psql")
        .arg(&server)
        .args(["-q", "-c", &format!("CREATE DATABASE {database}")])
        .status()
        .expect("psql runs");
    assert!(created.success(), "the test database is created");
    let url = format!("{server} dbname={database}");

    let (mut config, dirs) = fresh();
    config.store.kind = "postgres".into();
    config.store.options.insert("url".into(), json!(url));
    let engine = Setup::new(config.clone()).build().await.unwrap();
    let push = engine
        .authorize(shell("c1", "git push"), AuthorizeOptions::default())
        .await
        .unwrap();
    assert_eq!(push.decision.behavior, Behavior::Ask);
    assert!(engine.verify_audit(None).await.unwrap().is_intact());
    assert!(dirs.data.path().join("postgres.audit-key").exists());
    drop(push);
    drop(engine);

    // A second instance on the same database sees the same log and the pending request.
    let second = Setup::new(config).adopt_pending().build().await.unwrap();
    assert_eq!(second.verify_audit(None).await.unwrap().records, 1);
    assert_eq!(second.pending_requests().len(), 1);

    // A key the store does not have is named.
    let (mut config, _dirs) = fresh();
    config.store.kind = "postgres".into();
    config.store.options.insert("url".into(), json!(url));
    config.store.options.insert("pool_sise".into(), json!(2));
    let error = Setup::new(config).build().await.unwrap_err();
    assert!(error.to_string().contains("pool_sise"), "{error}");
}
