//! Writing a part to a long message stays cheap: the statements that number a new part and
//! bound the decision map (the newest parts' decision columns) find a message's parts by ordinal through an index, never by
//! walking every part of the message (SQLite's own query plan says so); a session is read
//! back in index order, its parts' JSON never sorted.

use warrant_stores::SqliteConfig;

use common::{fresh_database as fresh, plan};

#[path = "common/mod.rs"]
mod common;

#[test]
fn a_messages_parts_are_found_by_ordinal_through_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let conn = fresh(dir.path());

    let next = plan(
        &conn,
        "SELECT coalesce(max(ordinal), 0) + 1 FROM tool_parts WHERE message = 1",
    );
    assert!(next.contains("tool_parts_by_ordinal"), "{next}");

    let bound = plan(
        &conn,
        "SELECT rowid FROM tool_parts WHERE message = 1 AND ordinal = 5 \
         AND (decision IS NOT NULL OR resolution IS NOT NULL)",
    );
    assert!(bound.contains("tool_parts_by_ordinal"), "{bound}");
}

/// The query `SqliteStore::messages` runs.
const READ: &str = "SELECT m.id, m.message_id, m.role, p.tool_call_id, p.tool_name, p.part, \
                    p.decision, p.resolution \
                    FROM messages m \
                    LEFT JOIN tool_parts p ON p.message = m.id \
                    WHERE m.session_id = 's' ORDER BY m.message_id, p.ordinal";

#[test]
fn a_session_is_read_back_without_sorting_its_parts() {
    let dir = tempfile::tempdir().unwrap();
    let conn = fresh(dir.path());
    let read = plan(&conn, READ);
    assert!(read.contains("tool_parts_by_ordinal"), "{read}");
    assert!(
        !read.contains("TEMP B-TREE"),
        "the parts stream in index order: {read}"
    );
}

#[tokio::test]
async fn messages_read_back_in_the_order_they_were_created_whatever_their_ids() {
    use warrant_core::part::{MessagePart, ToolPart};
    use warrant_core::store::Conversations;

    let dir = tempfile::tempdir().unwrap();
    let store = SqliteConfig::in_dir(dir.path()).open().unwrap();
    let session = "s".into();
    // Ids that sort otherwise than they were created, parts written out of message order.
    let writes = [
        ("m2", "a"),
        ("m10", "b"),
        ("m1", "c"),
        ("m2", "d"),
        ("m10", "e"),
    ];
    for (message, call) in writes {
        let part = ToolPart::new(call, "Bash");
        store
            .upsert_tool_part(&session, message, &part)
            .await
            .unwrap();
    }
    let read: Vec<(String, Vec<String>)> = store
        .messages(&session)
        .await
        .unwrap()
        .into_iter()
        .map(|m| {
            let calls = m
                .parts
                .iter()
                .map(|p| match p {
                    MessagePart::Tool(t) => t.tool_call_id.as_str().to_owned(),
                    other => panic!("a tool part: {other:?}"),
                })
                .collect();
            (m.id, calls)
        })
        .collect();
    let expect = |id: &str, calls: &[&str]| {
        (
            id.to_owned(),
            calls.iter().map(|c| (*c).to_owned()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        read,
        [
            expect("m2", &["a", "d"]),
            expect("m10", &["b", "e"]),
            expect("m1", &["c"]),
        ]
    );
}
