//! `POST /v1/agent`: the AG-UI endpoint. A `RunAgentInput` in, the run's events out as SSE,
//! from its `RUN_STARTED` to its `RUN_FINISHED` (or `RUN_ERROR`).

use axum::extract::State;
use axum::response::Response;

use super::{JsonBody, ServerState, sse_response};
use warrant_demo_agent::RunAgentInput;
use warrant_transports::error::ApiError;
use warrant_transports::sse::{EventStream, StopAt};

/// Starts a run of the demo agent and streams it.
pub(super) async fn run(
    State(state): State<ServerState>,
    JsonBody(input): JsonBody<RunAgentInput>,
) -> Result<Response, ApiError> {
    let started = state.agent().start(input).await?;
    let subscription = state
        .hub()
        .subscribe(&started.thread_id, started.first_seq.saturating_sub(1));
    let stream = EventStream::new(
        subscription,
        state.config().keep_alive,
        StopAt::RunEnd {
            run_id: started.run_id,
            done: started.done,
        },
    );
    Ok(sse_response(stream))
}
