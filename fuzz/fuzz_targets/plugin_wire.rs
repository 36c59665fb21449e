//! The plugin wire format (`warrant_plugin_sdk::wire`): what a plugin reads (the evaluation
//! request, its configuration) and what the host reads (the hello manifest, replies), the
//! plugin side through the exported C ABI functions themselves.
//!
//! The host's own line readers (`read_hello`, `read_reply` in `plugins/src/process/protocol.rs`)
//! are private; `HostReply` mirrors the shape `read_reply` decodes (`{"id", ...Reply}`).
//!
//! Asserts: no panic; every message that decodes encodes and decodes back to itself (what one
//! side writes, the other reads the same); a request through `warrant_plugin_evaluate` /
//! `warrant_plugin_create` gives status ok or error — never a caught panic — and an ok buffer
//! holds a reply.
#![no_main]

use std::ffi::c_void;

use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};
use warrant_plugin_sdk::PluginEvaluator;
use warrant_plugin_sdk::abi::{Buffer, STATUS_ERROR, STATUS_OK};
use warrant_plugin_sdk::export;
use warrant_plugin_sdk::wire::{EvaluationRequest, Manifest, Reply};

/// The shape of the host's `PluginReply`.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct HostReply {
    id: u64,
    #[serde(flatten)]
    reply: Reply,
}

/// A plugin that reads its whole request: it answers with what it saw.
struct Echo;

impl PluginEvaluator for Echo {
    fn manifest() -> Manifest {
        Manifest::new("echo", "1.0.0")
    }
    fn create(config: serde_json::Value) -> Result<Self, String> {
        match config {
            serde_json::Value::Null | serde_json::Value::Object(_) => Ok(Echo),
            other => Err(format!("config must be a table, got {other}")),
        }
    }
    fn evaluate(&self, request: &EvaluationRequest) -> Result<Reply, String> {
        if request.call.tool_name.is_empty() {
            return Ok(Reply::Abstain);
        }
        Ok(Reply::Error {
            message: format!("{} in {:?}", request.call.tool_name, request.context.mode),
        })
    }
}

fn round_trip<T: Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug>(data: &[u8], floats: bool) {
    if let Ok(value) = serde_json::from_slice::<T>(data) {
        let bytes = serde_json::to_vec(&value).expect("encodes");
        let back = serde_json::from_slice::<T>(&bytes).unwrap_or_else(|e| {
            panic!("{} does not read back ({e}): {}", std::any::type_name::<T>(), String::from_utf8_lossy(&bytes))
        });
        // Without serde_json's `float_roundtrip`, a float may come back one ulp off.
        if !floats {
            assert_eq!(back, value, "{} changes on the way", std::any::type_name::<T>());
        }
    }
}

/// Calls an exported function's body and returns its status and buffer text.
fn answer(call: impl FnOnce(*mut Buffer) -> i32) -> (i32, Vec<u8>) {
    let mut out = Buffer::empty();
    let status = call(&mut out);
    let bytes = if out.ptr.is_null() {
        Vec::new()
    } else {
        // SAFETY: `out` was filled by the plugin side with `len` bytes.
        unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec()
    };
    // SAFETY: filled by the plugin side, freed once.
    unsafe { export::free_buffer(out) };
    (status, bytes)
}

fuzz_target!(|data: &[u8]| {
    let floats = data.iter().any(|b| b".eE".contains(b));
    round_trip::<Reply>(data, false);
    round_trip::<HostReply>(data, false);
    round_trip::<Manifest>(data, false);
    round_trip::<EvaluationRequest>(data, floats);
    if let Ok(reply) = serde_json::from_slice::<Reply>(data) {
        let _ = reply.into_verdict();
    }

    // The plugin side of the C ABI: the configuration, then the request.
    let mut handle: *mut c_void = std::ptr::null_mut();
    // SAFETY: valid pointers to `data` and to locals.
    let (status, message) =
        answer(|out| unsafe { export::create::<Echo>(data.as_ptr(), data.len(), &mut handle, out) });
    assert!(
        status == STATUS_OK || status == STATUS_ERROR,
        "create: status {status}: {}",
        String::from_utf8_lossy(&message)
    );
    if handle.is_null() {
        // SAFETY: as above; no configuration.
        let (status, _) = answer(|out| unsafe { export::create::<Echo>(std::ptr::null(), 0, &mut handle, out) });
        assert_eq!(status, STATUS_OK);
    }
    // SAFETY: `handle` came from `create::<Echo>`.
    let (status, bytes) =
        answer(|out| unsafe { export::evaluate::<Echo>(handle, data.as_ptr(), data.len(), out) });
    match status {
        STATUS_OK => {
            serde_json::from_slice::<Reply>(&bytes).expect("an ok buffer holds a reply");
        }
        STATUS_ERROR => {}
        other => panic!("evaluate: status {other}: {}", String::from_utf8_lossy(&bytes)),
    }
    // SAFETY: `handle` came from `create::<Echo>` and is not used again.
    unsafe { export::destroy::<Echo>(handle) };
});
