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

    /// A database whose map keeps `limit` calls, with decided calls `c1` to `c{calls}` in
    /// message `m1`.
    async fn with_calls(limit: usize, calls: usize) -> Db {
        let db = Db::open(limit);
        for i in 1..=calls {
            db.save("m1", &sample::decided_part(format!("c{i}"))).await;
        }
        db
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

    /// The tool call ids the decision map holds an entry for: parts above their message's
    /// floor with a decision or a resolution, in order.
    fn map(&self) -> Vec<String> {
        let mut stmt = self
            .raw
            .prepare(
                "SELECT p.tool_call_id FROM tool_parts p JOIN messages m ON m.id = p.message \
                 WHERE p.ordinal > m.map_floor \
                 AND (p.decision IS NOT NULL OR p.resolution IS NOT NULL) \
                 ORDER BY p.message, p.ordinal",
            )
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }

    /// The floor of a call's message, and whether the call's part holds a decision in its
    /// columns (served by the map or not).
    fn floor_and_columns(&self, call: &str) -> (i64, bool) {
        self.raw
            .query_row(
                "SELECT m.map_floor, p.decision IS NOT NULL FROM messages m \
                 JOIN tool_parts p ON p.message = m.id WHERE p.tool_call_id = ?1",
                [call],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap()
    }

    /// Which parts of `s1` come back with a decision once no part's JSON can be read.
    async fn decided(&self) -> Vec<bool> {
        self.break_every_part();
        self.parts()
            .await
            .iter()
            .map(|p| p.permission_decision.is_some())
            .collect()
    }

    /// The store opened again over the same database, its map keeping `limit` calls.
    fn reopen(self, limit: usize) -> Db {
        let Db { store, raw, _dir } = self;
        drop(store);
        let config = SqliteConfig::in_dir(_dir.path()).decision_map_limit(limit);
        Db {
            store: SqliteStore::with_config(config).unwrap(),
            raw,
            _dir,
        }
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
    assert_eq!(db.map(), ["c3", "c4", "c5", "other"]);

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

#[tokio::test]
async fn a_part_falling_out_of_the_map_is_not_written_again() {
    // The message's floor moves; the part that fell out keeps its page, columns included.
    let db = Db::with_calls(3, 5).await;
    assert_eq!(db.floor_and_columns("c1"), (2, true));
    assert_eq!(db.floor_and_columns("c2"), (2, true));
    assert_eq!(db.map(), ["c3", "c4", "c5"]);
    assert_eq!(db.decided().await, [false, false, true, true, true]);
}

#[tokio::test]
async fn a_lowered_limit_applies_to_the_parts_written_after_it() {
    let db = Db::with_calls(4, 6).await;
    let db = db.reopen(2);
    db.save("m1", &sample::decided_part("c7")).await;
    // c7 pushes out the part two places back (c5) and nothing older, as before.
    assert_eq!(db.map(), ["c3", "c4", "c6", "c7"]);
    let db = db.reopen(4);
    db.save("m1", &sample::decided_part("c8")).await;
    assert_eq!(db.map(), ["c3", "c6", "c7", "c8"]);
    assert_eq!(
        db.decided().await,
        [false, false, true, false, false, true, true, true]
    );
}

#[tokio::test]
async fn a_part_decided_again_after_falling_out_is_served_again() {
    let db = Db::with_calls(2, 4).await;
    db.save("m1", &sample::decided_part("c1")).await;
    // c1 takes its decision again (as when falling out cleared its columns); c2 stays out.
    assert_eq!(db.map(), ["c1", "c3", "c4"]);
    db.save("m1", &sample::decided_part("c5")).await;
    assert_eq!(db.map(), ["c1", "c4", "c5"]);
    assert_eq!(db.decided().await, [true, false, false, true, true]);
}

#[tokio::test]
async fn a_version_6_map_keeps_what_it_served_and_its_floor_then_moves() {
    let db = Db::with_calls(5, 5).await;
    // As version 6 left it: the columns of the parts that fell out cleared, no floor.
    sample::downgrade_to_v7(&db.raw);
    db.raw
        .execute_batch(
            "UPDATE tool_parts SET decision = NULL, resolution = NULL WHERE ordinal <= 2; \
             ALTER TABLE messages DROP COLUMN map_floor; PRAGMA user_version = 6;",
        )
        .unwrap();
    let db = db.reopen(3);
    assert_eq!(db.store.migrated_from(), 6);
    assert_eq!(db.map(), ["c3", "c4", "c5"]);
    db.save("m1", &sample::decided_part("c6")).await;
    assert_eq!(db.floor_and_columns("c3"), (3, true));
    assert_eq!(db.map(), ["c4", "c5", "c6"]);
    assert_eq!(db.decided().await, [false, false, false, true, true, true]);
}
