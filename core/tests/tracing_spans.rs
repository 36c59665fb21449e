//! Authorize, decide and resolve run in spans, and every evaluator's answer is an event with
//! its timing, for an embedder's tracing subscriber.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tracing::Subscriber;
use tracing_subscriber::Layer;
use tracing_subscriber::layer::{Context, SubscriberExt};
use warrant_core::prelude::*;
use warrant_core::testkit::evaluator_fn;

#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Vec<String>>>);

impl<S: Subscriber> Layer<S> for Seen {
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        _id: &tracing::span::Id,
        _ctx: Context<'_, S>,
    ) {
        self.0
            .lock()
            .unwrap()
            .push(format!("span {}", attrs.metadata().name()));
    }

    fn on_event(&self, event: &tracing::Event<'_>, _ctx: Context<'_, S>) {
        #[derive(Default)]
        struct Fields(Vec<String>);
        impl tracing::field::Visit for Fields {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                self.0.push(format!("{}={value:?}", field.name()));
            }
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        self.0
            .lock()
            .unwrap()
            .push(format!("event {}", fields.0.join(" ")));
    }
}

#[tokio::test(flavor = "current_thread")]
async fn authorize_decide_and_resolve_are_spans_with_per_evaluator_timing() {
    let seen = Seen::default();
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(seen.clone()));
    let asks = evaluator_fn("asker", PermissionDecisionSource::Policy, |_, _| {
        Verdict::decide(
            Stance::DefaultAsk,
            Rationale::new("shell_write", "Writes.", Risk::Medium),
        )
    });
    let engine = Engine::builder(Chain::builder().evaluator(asks).build())
        .build()
        .await
        .unwrap();
    let call = ToolCall::new("s1", "c1", "Bash", json!({"command": "touch x"}));
    engine
        .authorize(call, AuthorizeOptions::default())
        .await
        .unwrap();
    engine.resolve(&"c1".into(), "deny").await.unwrap();
    let seen = seen.0.lock().unwrap().clone();
    for name in ["span authorize", "span decide", "span resolve"] {
        assert!(seen.iter().any(|s| s == name), "{name} in {seen:?}");
    }
    let answered = seen
        .iter()
        .find(|s| s.contains("evaluator answered"))
        .unwrap_or_else(|| panic!("an evaluator event in {seen:?}"));
    assert!(answered.contains("evaluator=\"asker\""), "{answered}");
    assert!(answered.contains("elapsed_micros="), "{answered}");
}
