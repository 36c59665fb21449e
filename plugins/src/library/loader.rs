//! The dynamic loader: every `unsafe` line of the host lives here.
//!
//! A library is opened once and never unloaded (its `Library` is leaked): code or data of a
//! plugin may still be referenced after its last handle is dropped. The ABI version is read
//! first, the declaration second, and nothing else is called unless both match.
#![allow(unsafe_code)]

use std::ffi::c_void;
use std::path::Path;
use std::ptr::NonNull;

use libloading::Library;
use warrant_plugin_sdk::abi::{
    AbiVersionFn, Buffer, CreateFn, DeclarationFn, DescribeFn, DestroyFn, EvaluateFn, FreeBufferFn,
    STATUS_ERROR, STATUS_OK, STATUS_PANIC, Status, StrRef, symbol,
};

use super::compat::{check_abi, check_declaration};

/// The longest version string read from a declaration.
const MAX_VERSION_BYTES: usize = 256;

/// The functions of a library that passed the version checks.
#[derive(Clone, Copy)]
pub(crate) struct Plugin {
    describe: DescribeFn,
    create: CreateFn,
    evaluate: EvaluateFn,
    destroy: DestroyFn,
    free_buffer: FreeBufferFn,
}

/// Opens the library at `path` (absolute), checks its versions and finds its functions.
pub(crate) fn open(path: &Path) -> Result<Plugin, String> {
    // SAFETY: loading runs the library's initialisers; only libraries named by absolute path
    // in configuration are loaded, which is the trust the operator gave them.
    let library = unsafe { Library::new(path) }.map_err(|e| format!("cannot load: {e}"))?;
    let library: &'static Library = Box::leak(Box::new(library));

    // SAFETY: the signature of this one symbol is the same in every ABI version.
    let abi_version = unsafe { function::<AbiVersionFn>(library, symbol::ABI_VERSION) }?;
    check_abi(abi_version())?;

    // SAFETY: the ABI version matched, so the declaration has this ABI's layout.
    let declaration = unsafe { function::<DeclarationFn>(library, symbol::DECLARATION) }?;
    let declared = declaration();
    // SAFETY: the declaration's strings point into the library, which is never unloaded.
    let (core, rustc) = unsafe { (text(declared.core_version)?, text(declared.rustc_version)?) };
    check_declaration(declared.abi_version, core, rustc)?;

    // SAFETY: the versions matched, so these symbols have the signatures of this ABI.
    unsafe {
        Ok(Plugin {
            describe: function(library, symbol::DESCRIBE)?,
            create: function(library, symbol::CREATE)?,
            evaluate: function(library, symbol::EVALUATE)?,
            destroy: function(library, symbol::DESTROY)?,
            free_buffer: function(library, symbol::FREE_BUFFER)?,
        })
    }
}

/// # Safety
///
/// `T` is the type of the symbol `name` in `library`.
unsafe fn function<T: Copy>(library: &'static Library, name: &[u8]) -> Result<T, String> {
    // SAFETY: forwarded from the caller; the library outlives the copy (never unloaded).
    let symbol = unsafe { library.get::<T>(name) }.map_err(|e| {
        let name = String::from_utf8_lossy(&name[..name.len() - 1]);
        format!("not a Warrant plugin: no {name} symbol ({e})")
    })?;
    Ok(*symbol)
}

/// # Safety
///
/// `s` points to `s.len` bytes that live as long as the library.
unsafe fn text(s: StrRef) -> Result<&'static str, String> {
    if s.ptr.is_null() || s.len > MAX_VERSION_BYTES {
        return Err("refused: its declaration is malformed".to_owned());
    }
    // SAFETY: guaranteed by the caller; the length is bounded above.
    let bytes = unsafe { std::slice::from_raw_parts(s.ptr, s.len) };
    std::str::from_utf8(bytes).map_err(|_| "refused: its declaration is not UTF-8".to_owned())
}

impl Plugin {
    /// The plugin's manifest, as JSON.
    pub fn describe(&self) -> Result<Vec<u8>, String> {
        let mut out = Buffer::empty();
        // SAFETY: `out` is a valid buffer for the plugin to fill.
        let status = unsafe { (self.describe)(&mut out) };
        self.answer(status, out)
    }

    /// One instance made from `config` (JSON).
    pub fn create(&self, config: &[u8]) -> Result<Instance, String> {
        let mut handle: *mut c_void = std::ptr::null_mut();
        let mut out = Buffer::empty();
        // SAFETY: `config` is readable for its length; `handle` and `out` are writable.
        let status = unsafe { (self.create)(config.as_ptr(), config.len(), &mut handle, &mut out) };
        self.answer(status, out)?;
        let handle = NonNull::new(handle).ok_or("the plugin made no instance")?;
        Ok(Instance {
            plugin: *self,
            handle,
        })
    }

    /// Copies a buffer the plugin filled, hands it back, and reads the status.
    fn answer(&self, status: Status, out: Buffer) -> Result<Vec<u8>, String> {
        let bytes = if out.ptr.is_null() {
            Vec::new()
        } else {
            // SAFETY: the plugin filled `out` with `len` readable bytes.
            unsafe { std::slice::from_raw_parts(out.ptr, out.len) }.to_vec()
        };
        // SAFETY: `out` came from this plugin and is freed once, here.
        unsafe { (self.free_buffer)(out) };
        let message = || String::from_utf8_lossy(&bytes).into_owned();
        match status {
            STATUS_OK => Ok(bytes),
            STATUS_ERROR => Err(format!("the plugin reported an error: {}", message())),
            STATUS_PANIC => Err(format!("the plugin caught its own {}", message())),
            other => Err(format!("the plugin returned an unknown status {other}")),
        }
    }
}

/// An instance made by a plugin, destroyed by it when dropped.
pub(crate) struct Instance {
    plugin: Plugin,
    handle: NonNull<c_void>,
}

// SAFETY: the SDK requires plugin instances to be `Send + Sync`, and the functions that take
// the handle are safe to call from any thread.
unsafe impl Send for Instance {}
// SAFETY: as above.
unsafe impl Sync for Instance {}

impl Instance {
    /// Evaluates one request (JSON) and returns the reply (JSON).
    pub fn evaluate(&self, request: &[u8]) -> Result<Vec<u8>, String> {
        let mut out = Buffer::empty();
        // SAFETY: the handle is live until `drop`; `request` is readable, `out` writable.
        let status = unsafe {
            (self.plugin.evaluate)(
                self.handle.as_ptr(),
                request.as_ptr(),
                request.len(),
                &mut out,
            )
        };
        self.plugin.answer(status, out)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: the handle came from this plugin's `create` and is not used again.
        unsafe { (self.plugin.destroy)(self.handle.as_ptr()) };
    }
}
