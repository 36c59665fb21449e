//! Messages and their tool parts, decision and resolution included.

use warrant_core::ids::SessionId;
use warrant_core::part::{Message, MessagePart, ToolPart, ToolState};

use super::Subject;
use super::sample;

/// Each message's id with the call ids of its tool parts, in order.
fn shape(messages: &[Message]) -> Vec<(&str, Vec<&str>)> {
    messages
        .iter()
        .map(|m| {
            let calls = m.parts.iter().filter_map(|p| match p {
                MessagePart::Tool(t) => Some(t.tool_call_id.as_str()),
                _ => None,
            });
            (m.id.as_str(), calls.collect())
        })
        .collect()
}

async fn save(s: &Subject, session: &SessionId, message: &str, part: &ToolPart) {
    s.store
        .upsert_tool_part(session, message, part)
        .await
        .unwrap();
}

/// A new tool part creates its assistant message.
pub async fn a_new_tool_part_creates_its_assistant_message(s: Subject) {
    assert!(s.store.messages(&"s1".into()).await.unwrap().is_empty());
    let part = ToolPart::new("c1", "Bash");
    save(&s, &"s1".into(), "m1", &part).await;
    let expected = Message {
        id: "m1".to_owned(),
        role: "assistant".to_owned(),
        parts: vec![MessagePart::Tool(part)],
    };
    assert_eq!(s.store.messages(&"s1".into()).await.unwrap(), [expected]);
}

/// Upserting a part replaces it in place.
pub async fn upserting_a_part_replaces_it_in_place(s: Subject) {
    save(&s, &"s1".into(), "m1", &ToolPart::new("c1", "Bash")).await;
    save(&s, &"s1".into(), "m1", &ToolPart::new("c2", "view")).await;
    let mut running = ToolPart::new("c1", "Bash");
    running.state = ToolState::Running;
    running.permission_decision = Some(sample::decision("c1"));
    save(&s, &"s1".into(), "m1", &running).await;
    let messages = s.store.messages(&"s1".into()).await.unwrap();
    assert_eq!(shape(&messages), [("m1", vec!["c1", "c2"])]);
    assert_eq!(sample::tool_parts(messages)[0], running);
}

/// Decision and resolution survive a restart.
pub async fn decision_and_resolution_survive_a_restart(mut s: Subject) {
    let part = sample::decided_part("c1");
    save(&s, &"s1".into(), "m1", &part).await;
    s.restart();
    let restored = sample::tool_parts(s.store.messages(&"s1".into()).await.unwrap());
    // The sample part carries both a decision and a resolution.
    assert_eq!(restored, [part]);
}

/// Messages belong to their session.
pub async fn messages_belong_to_their_session(s: Subject) {
    save(&s, &"s1".into(), "m1", &ToolPart::new("c1", "Bash")).await;
    save(&s, &"s2".into(), "m1", &ToolPart::new("c2", "Bash")).await;
    assert_eq!(
        shape(&s.store.messages(&"s1".into()).await.unwrap()),
        [("m1", vec!["c1"])]
    );
    assert_eq!(
        shape(&s.store.messages(&"s2".into()).await.unwrap()),
        [("m1", vec!["c2"])]
    );
}

/// Parts and messages keep their order.
pub async fn parts_and_messages_keep_their_order(s: Subject) {
    for (message, call) in [
        ("m2", "a"),
        ("m1", "b"),
        ("m2", "c"),
        ("m1", "d"),
        ("m2", "a"),
    ] {
        save(&s, &"s1".into(), message, &ToolPart::new(call, "Bash")).await;
    }
    let messages = s.store.messages(&"s1".into()).await.unwrap();
    assert_eq!(
        shape(&messages),
        [("m2", vec!["a", "c"]), ("m1", vec!["b", "d"])]
    );
}
