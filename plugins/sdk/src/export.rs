//! The plugin side of the C ABI: what [`export_evaluator!`](crate::export_evaluator) calls.
//!
//! Every function catches panics here, inside the plugin: a panic that crossed the boundary
//! would abort the host. Not for direct use.
#![allow(unsafe_code)]

use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::PluginEvaluator;
use crate::abi::{ABI_VERSION, Buffer, Declaration, STATUS_ERROR, STATUS_OK, STATUS_PANIC, Status};
use crate::wire::EvaluationRequest;

/// Runs `f`, catching a panic; writes the answer or the message to `out`.
///
/// # Safety
///
/// `out` is null or points to a writable [`Buffer`].
unsafe fn guarded(out: *mut Buffer, f: impl FnOnce() -> Result<Vec<u8>, String>) -> Status {
    let (status, bytes) = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(bytes)) => (STATUS_OK, bytes),
        Ok(Err(message)) => (STATUS_ERROR, message.into_bytes()),
        Err(panic) => (STATUS_PANIC, panic_message(panic.as_ref()).into_bytes()),
    };
    if !out.is_null() {
        let mut bytes = std::mem::ManuallyDrop::new(bytes);
        // SAFETY: the caller guarantees `out` is writable; the vector's parts are handed over
        // and come back whole through `free_buffer`.
        unsafe {
            out.write(Buffer {
                ptr: bytes.as_mut_ptr(),
                len: bytes.len(),
                capacity: bytes.capacity(),
            });
        }
    }
    status
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let text = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the plugin panicked".to_owned());
    format!("panic: {text}")
}

/// # Safety
///
/// `ptr` is null with `len` 0, or points to `len` readable bytes.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: guaranteed by the caller.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}

/// `warrant_plugin_abi_version`.
pub fn abi_version() -> u32 {
    catch_unwind(|| ABI_VERSION).unwrap_or(0)
}

/// `warrant_plugin_declaration`.
pub fn declaration() -> Declaration {
    Declaration::current()
}

/// `warrant_plugin_describe`.
///
/// # Safety
///
/// As [`DescribeFn`](crate::abi::DescribeFn).
pub unsafe fn describe<E: PluginEvaluator>(out: *mut Buffer) -> Status {
    // SAFETY: forwarded from the caller.
    unsafe {
        guarded(out, || {
            serde_json::to_vec(&E::manifest()).map_err(|e| e.to_string())
        })
    }
}

/// `warrant_plugin_create`.
///
/// # Safety
///
/// As [`CreateFn`](crate::abi::CreateFn).
pub unsafe fn create<E: PluginEvaluator>(
    config: *const u8,
    len: usize,
    handle: *mut *mut c_void,
    out: *mut Buffer,
) -> Status {
    // SAFETY: forwarded from the caller.
    let config = unsafe { bytes(config, len) };
    let run = || {
        let config: serde_json::Value = if config.is_empty() {
            serde_json::Value::Null
        } else {
            serde_json::from_slice(config).map_err(|e| format!("config is not JSON: {e}"))?
        };
        let instance = Box::new(E::create(config)?);
        if handle.is_null() {
            return Err("no place to put the handle".to_owned());
        }
        // SAFETY: `handle` is writable (checked non-null; guaranteed by the caller).
        unsafe { handle.write(Box::into_raw(instance).cast()) };
        Ok(Vec::new())
    };
    // SAFETY: forwarded from the caller.
    unsafe { guarded(out, run) }
}

/// `warrant_plugin_evaluate`.
///
/// # Safety
///
/// As [`EvaluateFn`](crate::abi::EvaluateFn); `handle` came from [`create`] for `E`.
pub unsafe fn evaluate<E: PluginEvaluator>(
    handle: *mut c_void,
    request: *const u8,
    len: usize,
    out: *mut Buffer,
) -> Status {
    // SAFETY: forwarded from the caller.
    let request = unsafe { bytes(request, len) };
    let run = || {
        // SAFETY: `handle` is an `E` made by `create` and not yet destroyed.
        let instance = unsafe { handle.cast::<E>().as_ref() }.ok_or("null handle")?;
        let request: EvaluationRequest =
            serde_json::from_slice(request).map_err(|e| format!("malformed request: {e}"))?;
        let reply = instance.evaluate(&request)?;
        serde_json::to_vec(&reply).map_err(|e| e.to_string())
    };
    // SAFETY: forwarded from the caller.
    unsafe { guarded(out, run) }
}

/// `warrant_plugin_destroy`.
///
/// # Safety
///
/// `handle` came from [`create`] for `E` and is not used again.
pub unsafe fn destroy<E: PluginEvaluator>(handle: *mut c_void) {
    if !handle.is_null() {
        // SAFETY: guaranteed by the caller; a panic in `Drop` is caught here.
        let _ = catch_unwind(AssertUnwindSafe(|| {
            drop(unsafe { Box::from_raw(handle.cast::<E>()) })
        }));
    }
}

/// `warrant_plugin_free_buffer`.
///
/// # Safety
///
/// `buffer` was filled by this plugin and is freed once.
pub unsafe fn free_buffer(buffer: Buffer) {
    if !buffer.ptr.is_null() {
        // SAFETY: the parts came from a `Vec<u8>` in `guarded`.
        drop(unsafe { Vec::from_raw_parts(buffer.ptr, buffer.len, buffer.capacity) });
    }
}
