//! A shell tool asked to run its command in the background (`run_in_background`,
//! `is_background`) detaches it as `&` with no `wait` does: never a proven allow.

mod support;

use serde_json::json;
use support::{call, context, decided, policy, verdict, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::evaluator::Stance;

#[tokio::test]
async fn a_command_run_in_the_background_is_open() {
    let ws = workspace();
    std::fs::write(ws.path().join("README.md"), "hi\n").expect("README");
    let cx = context(PermissionMode::Default, ws.path());
    let p = policy();
    for (field, command) in [
        ("run_in_background", "tail -f README.md"),
        ("run_in_background", "sleep 99999"),
        ("run_in_background", "yes"),
        ("is_background", "cat /dev/urandom"),
    ] {
        for value in [json!(true), json!("true"), json!(1)] {
            let c = call("Bash", json!({ "command": command, field: value }));
            let (stance, _) = decided(verdict(&p, &c, &cx).await);
            assert_eq!(stance, Stance::DefaultAsk, "{command} {field}={value}");
        }
    }
    for value in [json!(false), json!(null)] {
        for field in ["run_in_background", "is_background"] {
            let c = call("Bash", json!({ "command": "cat README.md", field: value }));
            let (stance, _) = decided(verdict(&p, &c, &cx).await);
            assert_eq!(stance, Stance::PolicyAllow, "{field}={value}");
        }
    }
}
