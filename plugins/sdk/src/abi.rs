//! The C ABI between the host and a dynamic plugin: versions first, then JSON byte buffers and
//! opaque handles only.
//!
//! A plugin exports these symbols (the [`export_evaluator!`](crate::export_evaluator) macro
//! writes them):
//!
//! | symbol | signature | when |
//! |---|---|---|
//! | `warrant_plugin_abi_version` | `fn() -> u32` | first, before anything else |
//! | `warrant_plugin_declaration` | `fn() -> Declaration` | only when the ABI version matches |
//! | `warrant_plugin_describe` | `fn(out: *mut Buffer) -> Status` | the [`Manifest`](crate::wire::Manifest) as JSON |
//! | `warrant_plugin_create` | `fn(config: *const u8, len: usize, handle: *mut *mut c_void, out: *mut Buffer) -> Status` | one instance from a JSON config |
//! | `warrant_plugin_evaluate` | `fn(handle: *mut c_void, request: *const u8, len: usize, out: *mut Buffer) -> Status` | one [`Reply`](crate::wire::Reply) per request |
//! | `warrant_plugin_destroy` | `fn(handle: *mut c_void)` | when the host drops the instance |
//! | `warrant_plugin_free_buffer` | `fn(buffer: Buffer)` | for every buffer the plugin filled |
//!
//! Every function but the last two returns a [`Status`]; on an error or a panic the buffer
//! holds a UTF-8 message. A plugin frees what it allocates: the host copies a buffer and hands
//! it back through `warrant_plugin_free_buffer`.

use std::ffi::c_void;

/// The version of this ABI. Any change to a symbol, a signature or a `repr(C)` type bumps it.
pub const ABI_VERSION: u32 = 1;

/// The version of `warrant-core` whose JSON types cross the boundary. The SDK is released in
/// lockstep with `warrant-core` (both take the workspace's version).
pub const CORE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The compiler that built this side (release and commit), baked in by `build.rs`.
pub const RUSTC_VERSION: &str = env!("WARRANT_RUSTC_VERSION");

/// What a call returned.
pub type Status = i32;
/// Success: the buffer holds the JSON answer.
pub const STATUS_OK: Status = 0;
/// The plugin refused: the buffer holds a message.
pub const STATUS_ERROR: Status = 1;
/// The plugin panicked and caught it: the buffer holds the panic message.
pub const STATUS_PANIC: Status = 2;

/// A borrowed UTF-8 string that lives as long as the library (never unloaded).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct StrRef {
    /// The first byte.
    pub ptr: *const u8,
    /// How many bytes.
    pub len: usize,
}

impl StrRef {
    /// A reference to a static string.
    pub const fn new(s: &'static str) -> Self {
        Self {
            ptr: s.as_ptr(),
            len: s.len(),
        }
    }
}

/// What a plugin declares about how it was built, compared before any other call.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Declaration {
    /// [`ABI_VERSION`] of the plugin's SDK.
    pub abi_version: u32,
    /// [`CORE_VERSION`] of the plugin's SDK.
    pub core_version: StrRef,
    /// [`RUSTC_VERSION`] of the plugin's compiler.
    pub rustc_version: StrRef,
}

impl Declaration {
    /// This side's declaration.
    pub const fn current() -> Self {
        Self {
            abi_version: ABI_VERSION,
            core_version: StrRef::new(CORE_VERSION),
            rustc_version: StrRef::new(RUSTC_VERSION),
        }
    }
}

/// Bytes the plugin allocated and the host reads, then hands back to be freed.
#[repr(C)]
#[derive(Debug)]
pub struct Buffer {
    /// The first byte (null when empty).
    pub ptr: *mut u8,
    /// How many bytes are filled.
    pub len: usize,
    /// How many bytes were allocated.
    pub capacity: usize,
}

impl Buffer {
    /// An empty buffer for the plugin to fill.
    pub const fn empty() -> Self {
        Self {
            ptr: std::ptr::null_mut(),
            len: 0,
            capacity: 0,
        }
    }
}

/// The symbols, NUL-terminated for the loader.
pub mod symbol {
    /// `fn() -> u32`.
    pub const ABI_VERSION: &[u8] = b"warrant_plugin_abi_version\0";
    /// `fn() -> Declaration`.
    pub const DECLARATION: &[u8] = b"warrant_plugin_declaration\0";
    /// [`DescribeFn`](super::DescribeFn).
    pub const DESCRIBE: &[u8] = b"warrant_plugin_describe\0";
    /// [`CreateFn`](super::CreateFn).
    pub const CREATE: &[u8] = b"warrant_plugin_create\0";
    /// [`EvaluateFn`](super::EvaluateFn).
    pub const EVALUATE: &[u8] = b"warrant_plugin_evaluate\0";
    /// [`DestroyFn`](super::DestroyFn).
    pub const DESTROY: &[u8] = b"warrant_plugin_destroy\0";
    /// [`FreeBufferFn`](super::FreeBufferFn).
    pub const FREE_BUFFER: &[u8] = b"warrant_plugin_free_buffer\0";
}

/// `warrant_plugin_abi_version`.
pub type AbiVersionFn = extern "C" fn() -> u32;
/// `warrant_plugin_declaration`.
pub type DeclarationFn = extern "C" fn() -> Declaration;
/// `warrant_plugin_describe`.
pub type DescribeFn = unsafe extern "C" fn(out: *mut Buffer) -> Status;
/// `warrant_plugin_create`.
pub type CreateFn = unsafe extern "C" fn(
    config: *const u8,
    len: usize,
    handle: *mut *mut c_void,
    out: *mut Buffer,
) -> Status;
/// `warrant_plugin_evaluate`.
pub type EvaluateFn = unsafe extern "C" fn(
    handle: *mut c_void,
    request: *const u8,
    len: usize,
    out: *mut Buffer,
) -> Status;
/// `warrant_plugin_destroy`.
pub type DestroyFn = unsafe extern "C" fn(handle: *mut c_void);
/// `warrant_plugin_free_buffer`.
pub type FreeBufferFn = unsafe extern "C" fn(buffer: Buffer);
