//! The tool-part reducer against the JSON fixtures the web UI's reducer shares.

use serde_json::Value;
use warrant_core::event::Event;
use warrant_core::part::ToolParts;

#[test]
fn reducer_matches_every_shared_fixture() {
    let dir = format!("{}/../tests/fixtures/reducer", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let fixture: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut parts = ToolParts::default();
        for event in fixture["events"].as_array().unwrap() {
            let event: Event = serde_json::from_value(event.clone())
                .unwrap_or_else(|e| panic!("{}: bad event {event}: {e}", path.display()));
            parts.apply(&event);
        }
        let got = serde_json::to_value(&parts.parts).unwrap();
        assert_eq!(got, fixture["parts"], "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 8, "expected the shared fixtures, found {seen}");
}
