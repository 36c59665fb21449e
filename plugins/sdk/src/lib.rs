//! Write Warrant plugins in Rust: the wire types, the C ABI, and `export_evaluator!`.
//!
//! Two ways to extend Warrant share the same JSON messages ([`wire`]):
//!
//! - an **out-of-process** evaluator, in any language, speaks JSON lines on stdin/stdout (see
//!   `plugins/PROTOCOL.md`);
//! - a **dynamic library** (`crate-type = ["cdylib"]`) implements [`PluginEvaluator`] and calls
//!   [`export_evaluator!`] once. The macro writes the exported C functions; every one of them
//!   catches panics inside the plugin and returns a status, so a plugin author writes no
//!   `unsafe` code.
//!
//! ```
//! use warrant_plugin_sdk::{PluginEvaluator, wire::{EvaluationRequest, Manifest, Reply}};
//!
//! /// Has nothing to say about any call.
//! struct Quiet;
//!
//! impl PluginEvaluator for Quiet {
//!     fn manifest() -> Manifest {
//!         Manifest::new("quiet", "1.0.0").description("Abstains on every call.")
//!     }
//!     fn create(_config: serde_json::Value) -> Result<Self, String> {
//!         Ok(Quiet)
//!     }
//!     fn evaluate(&self, _request: &EvaluationRequest) -> Result<Reply, String> {
//!         Ok(Reply::Abstain)
//!     }
//! }
//!
//! warrant_plugin_sdk::export_evaluator!(Quiet);
//! ```

pub mod abi;
#[doc(hidden)]
pub mod export;
pub mod wire;

/// An evaluator that lives in a dynamic library.
///
/// Instances are shared between threads: `evaluate` may run concurrently.
pub trait PluginEvaluator: Send + Sync + Sized + 'static {
    /// The plugin's name, version, description and role.
    fn manifest() -> wire::Manifest;

    /// An instance from the plugin's configuration table (`null` when there is none).
    ///
    /// # Errors
    ///
    /// A message naming the offending key; the host refuses to start with it.
    fn create(config: serde_json::Value) -> Result<Self, String>;

    /// Looks at one call.
    ///
    /// # Errors
    ///
    /// A message when the plugin cannot judge; the call then asks.
    fn evaluate(&self, request: &wire::EvaluationRequest) -> Result<wire::Reply, String>;
}

/// Exports `$evaluator` (a [`PluginEvaluator`]) through the C ABI of [`abi`].
///
/// Call it once, at the root of a `cdylib` crate.
#[macro_export]
macro_rules! export_evaluator {
    ($evaluator:ty) => {
        #[doc(hidden)]
        #[unsafe(no_mangle)]
        pub extern "C" fn warrant_plugin_abi_version() -> u32 {
            $crate::export::abi_version()
        }

        #[doc(hidden)]
        #[unsafe(no_mangle)]
        pub extern "C" fn warrant_plugin_declaration() -> $crate::abi::Declaration {
            $crate::export::declaration()
        }

        #[doc(hidden)]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn warrant_plugin_describe(
            out: *mut $crate::abi::Buffer,
        ) -> $crate::abi::Status {
            unsafe { $crate::export::describe::<$evaluator>(out) }
        }

        #[doc(hidden)]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn warrant_plugin_create(
            config: *const u8,
            len: usize,
            handle: *mut *mut ::std::ffi::c_void,
            out: *mut $crate::abi::Buffer,
        ) -> $crate::abi::Status {
            unsafe { $crate::export::create::<$evaluator>(config, len, handle, out) }
        }

        #[doc(hidden)]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn warrant_plugin_evaluate(
            handle: *mut ::std::ffi::c_void,
            request: *const u8,
            len: usize,
            out: *mut $crate::abi::Buffer,
        ) -> $crate::abi::Status {
            unsafe { $crate::export::evaluate::<$evaluator>(handle, request, len, out) }
        }

        #[doc(hidden)]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn warrant_plugin_destroy(handle: *mut ::std::ffi::c_void) {
            unsafe { $crate::export::destroy::<$evaluator>(handle) }
        }

        #[doc(hidden)]
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn warrant_plugin_free_buffer(buffer: $crate::abi::Buffer) {
            unsafe { $crate::export::free_buffer(buffer) }
        }
    };
}
