//! The audit key: the HMAC key of the audit chain. It lives outside the database (a key file
//! of mode 0600 beside it, or `WARRANT_AUDIT_KEY`), so whoever can write the database alone
//! cannot forge a link. Its bytes never reach a log, a stream or an error message.

use std::fmt;
use std::io::Write;
use std::path::Path;

use hmac::{Hmac, Mac};
use sha2::Sha256;
use warrant_core::store::StoreError;

use crate::error::unavailable;
use crate::files;

/// The environment variable that supplies the audit key (hex, at least 32 bytes); it wins
/// over the key file.
pub const AUDIT_KEY_ENV: &str = "WARRANT_AUDIT_KEY";

/// The fewest bytes an audit key has.
pub const MIN_KEY_BYTES: usize = 32;

pub(crate) type HmacSha256 = Hmac<Sha256>;

/// An HMAC-SHA-256 key for the audit chain. `Debug` shows its [id](AuditKey::id), never its
/// bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct AuditKey(Vec<u8>);

impl fmt::Debug for AuditKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AuditKey(id {})", self.id())
    }
}

impl AuditKey {
    /// A key from its bytes.
    ///
    /// # Errors
    ///
    /// `Invalid` when it has fewer than [`MIN_KEY_BYTES`] bytes.
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Result<Self, StoreError> {
        let bytes = bytes.into();
        if bytes.len() < MIN_KEY_BYTES {
            return Err(StoreError::new(
                warrant_core::store::StoreErrorKind::Invalid,
                format!(
                    "an audit key has at least {MIN_KEY_BYTES} bytes; this one has {}",
                    bytes.len()
                ),
            ));
        }
        Ok(Self(bytes))
    }

    /// A key from hex digits (surrounding whitespace ignored); `source` names where they
    /// came from in errors, which never quote the digits.
    ///
    /// # Errors
    ///
    /// `Invalid` when the text is not hex or is shorter than [`MIN_KEY_BYTES`] bytes.
    pub fn from_hex(text: &str, source: &str) -> Result<Self, StoreError> {
        let text = text.trim();
        let bytes = hex::decode(text).map_err(|e| {
            StoreError::new(
                warrant_core::store::StoreErrorKind::Invalid,
                format!(
                    "{source} does not hold an audit key in hex ({e}; {} characters); \
                     write {} hex digits, e.g. from `openssl rand -hex {MIN_KEY_BYTES}`",
                    text.len(),
                    MIN_KEY_BYTES * 2
                ),
            )
        })?;
        Self::from_bytes(bytes)
            .map_err(|e| StoreError::new(e.kind, format!("{source}: {}", e.message)))
    }

    /// A new random key.
    ///
    /// # Errors
    ///
    /// `Unavailable` when the system has no randomness to give.
    pub fn generate() -> Result<Self, StoreError> {
        let mut bytes = vec![0u8; MIN_KEY_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| unavailable("generating an audit key", e))?;
        Ok(Self(bytes))
    }

    /// A public name of the key (16 hex digits of an HMAC of a fixed text), to tell keys
    /// apart without revealing them.
    pub fn id(&self) -> String {
        let mut mac = self.mac();
        mac.update(b"warrant audit key id");
        hex::encode(&mac.finalize().into_bytes()[..8])
    }

    /// A fresh HMAC under this key.
    pub(crate) fn mac(&self) -> HmacSha256 {
        HmacSha256::new_from_slice(&self.0).expect("HMAC takes a key of any length")
    }

    /// Reads the key file at `path`.
    ///
    /// # Errors
    ///
    /// `Unavailable` when it cannot be read; `Invalid` when group or others may read it, or
    /// it holds no key.
    pub(crate) fn read_file(path: &Path) -> Result<Self, StoreError> {
        files::check_private(path, "the audit key file")?;
        let text = std::fs::read_to_string(path).map_err(|e| {
            unavailable(format!("reading the audit key file {}", path.display()), e)
        })?;
        Self::from_hex(&text, &format!("the audit key file {}", path.display()))
    }

    /// Writes a new key file at `path` (mode 0600), refusing to replace one.
    pub(crate) fn write_new_file(&self, path: &Path) -> Result<(), StoreError> {
        let what = || format!("writing the audit key file {}", path.display());
        let mut file = files::create_private(path).map_err(|e| unavailable(what(), e))?;
        file.write_all(format!("{}\n", hex::encode(&self.0)).as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| unavailable(what(), e))
    }
}

pub(crate) use crate::audit_chain::resolve_key as resolve;
