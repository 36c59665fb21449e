//! The bounded per-message decision map serves when a tool part cannot be restored.

use rusqlite::Connection;
use warrant_core::part::ToolPart;
use warrant_core::store::Conversations;
use warrant_stores::SqliteConfig;
use warrant_stores::sqlite::SqliteStore;

#[path = "common/mod.rs"]
mod sample;

struct Db {
    store: SqliteStore,
    raw: Connection,
    _dir: tempfile::TempDir,
}

impl Db {
    /// A database whose decision map keeps `limit` calls per message.
    fn open(limit: usize) -> Db {
        let dir = tempfile::tempdir().unwrap();
        let config = SqliteConfig::in_dir(dir.path()).decision_map_limit(limit);
        let store = SqliteStore::with_config(config.clone()).unwrap();
        let raw = Connection::open(&config.path).unwrap();
        Db {
            store,
            raw,
            _dir: dir,
        }
    }

    async fn save(&self, message: &str, part: &ToolPart) {
        self.store
            .upsert_tool_part(&"s1".into(), message, part)
            .await
            .unwrap();
    }

    fn break_every_part(&self) {
        self.raw
            .execute("UPDATE tool_parts SET part = 'garbage'", [])
            .unwrap();
    }

    async fn parts(&self) -> Vec<ToolPart> {
        sample::tool_parts(self.store.messages(&"s1".into()).await.unwrap())
    }
}

#[tokio::test]
async fn a_part_that_cannot_be_read_is_served_by_the_decision_map() {
    let db = Db::open(16);
    db.save("m1", &sample::decided_part("c1")).await;
    db.break_every_part();
    let restored = db.parts().await;
    assert_eq!(restored.len(), 1);
    assert_eq!(
        (
            restored[0].tool_call_id.as_str(),
            restored[0].tool_name.as_str()
        ),
        ("c1", "Bash")
    );
    assert_eq!(
        restored[0].permission_decision,
        Some(sample::decision("c1"))
    );
    assert_eq!(
        restored[0].permission_resolution,
        Some(sample::resolution("c1"))
    );
}

#[tokio::test]
async fn the_decision_map_keeps_only_the_newest_calls_of_a_message() {
    let db = Db::open(3);
    for i in 1..=5 {
        db.save("m1", &sample::decided_part(format!("c{i}"))).await;
    }
    db.save("m2", &sample::decided_part("other")).await;
    let mut stmt = db
        .raw
        .prepare(
            "SELECT tool_call_id FROM tool_parts \
             WHERE decision IS NOT NULL OR resolution IS NOT NULL ORDER BY message, ordinal",
        )
        .unwrap();
    let kept: Vec<String> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(kept, ["c3", "c4", "c5", "other"]);

    db.break_every_part();
    let decided: Vec<bool> = db
        .parts()
        .await
        .iter()
        .map(|p| p.permission_decision.is_some())
        .collect();
    assert_eq!(decided, [false, false, true, true, true, true]);
}

#[tokio::test]
async fn an_unreadable_map_entry_leaves_the_part_without_a_decision() {
    let db = Db::open(16);
    db.save("m1", &sample::decided_part("c1")).await;
    db.break_every_part();
    db.raw
        .execute("UPDATE tool_parts SET decision = '{', resolution = '['", [])
        .unwrap();
    assert_eq!(db.parts().await, [ToolPart::new("c1", "Bash")]);
}

#[tokio::test]
async fn a_part_without_a_decision_adds_nothing_to_the_map() {
    let db = Db::open(16);
    db.save("m1", &ToolPart::new("c1", "Bash")).await;
    let entries: i64 = db
        .raw
        .query_row(
            "SELECT count(*) FROM tool_parts WHERE decision IS NOT NULL OR resolution IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(entries, 0);
}

#[tokio::test]
async fn a_part_written_again_without_its_decision_keeps_its_map_entry() {
    let db = Db::open(16);
    db.save("m1", &sample::decided_part("c1")).await;
    db.save("m1", &ToolPart::new("c1", "Bash")).await;
    db.break_every_part();
    let restored = db.parts().await;
    assert_eq!(
        restored[0].permission_decision,
        Some(sample::decision("c1"))
    );
}

#[tokio::test]
async fn writing_a_kept_part_again_pushes_no_other_part_out_of_the_map() {
    let db = Db::open(2);
    for i in 1..=3 {
        db.save("m1", &sample::decided_part(format!("c{i}"))).await;
    }
    // c2 and c3 are kept; c3 written again (a new state) is no new call of the message.
    db.save("m1", &sample::decided_part("c3")).await;
    db.break_every_part();
    let decided: Vec<bool> = db
        .parts()
        .await
        .iter()
        .map(|p| p.permission_decision.is_some())
        .collect();
    assert_eq!(decided, [false, true, true]);
}
