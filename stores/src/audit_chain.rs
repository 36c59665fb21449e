//! What every store with a keyed audit chain shares: the canonical JSON of a record, the
//! keyed link (HMAC-SHA-256 under the audit key over every column of a row), where the audit
//! key comes from, and the checkpoint file of the chain's head.
//!
//! The text and hashes are exactly those of the SQLite store, so a record hashes the same
//! whichever store keeps it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use hmac::Mac;
use serde_json::Value;
use warrant_core::audit::{AuditBreak, AuditHead, AuditProblem, AuditVerification, GENESIS};
use warrant_core::store::StoreError;

use crate::error::{corrupt, unavailable};
use crate::files;
use crate::sqlite::{AUDIT_KEY_ENV, AuditKey};

/// The MAC of a link (the type `AuditKey::mac` returns).
type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// The record's JSON as it is stored and hashed: object keys sorted, no whitespace, so the
/// same record always has the same text.
pub(crate) fn canonical_json(value: &Value) -> String {
    let mut out = Vec::with_capacity(512);
    write_canonical(value, &mut out);
    // Only serde_json's output and ASCII punctuation were written: valid UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Writes keys and scalars with serde_json's own encoder straight into `out`.
fn write_canonical(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            if !entries.is_sorted_by(|a, b| a.0 <= b.0) {
                entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            }
            out.push(b'{');
            for (i, (key, value)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_scalar(key, out);
                out.push(b':');
                write_canonical(value, out);
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(item, out);
            }
            out.push(b']');
        }
        scalar => write_scalar(scalar, out),
    }
}

fn write_scalar<T: serde::Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) {
    // Writing a string, a number, a bool or null into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, value);
}

/// The canonical JSON of any serializable value, written straight from its `Serialize`
/// implementation: the same text as [`canonical_json`] of the value's `serde_json::Value`,
/// without building that tree. Objects are written entry by entry, then their entries are put
/// in key order (the last of equal keys wins, as in a `Value` map).
///
/// # Errors
///
/// What `serde_json::to_value` refuses: a map key that is not a string, a number or a
/// boolean, or an error of the value's own `Serialize`.
pub(crate) fn canonical_json_of<T: serde::Serialize + ?Sized>(
    value: &T,
) -> Result<String, serde_json::Error> {
    let mut out = Canonical {
        out: Vec::with_capacity(1024),
    };
    value.serialize(&mut out)?;
    // Only serde_json's output and ASCII punctuation were written: valid UTF-8.
    Ok(String::from_utf8(out.out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// The serializer behind [`canonical_json_of`].
struct Canonical {
    out: Vec<u8>,
}

/// One entry of an object being written: its key and where `"key":value` sits in the output.
struct Entry {
    key: std::borrow::Cow<'static, str>,
    start: usize,
    end: usize,
}

/// An object being written: entries go to the output as they come, and are put in key order
/// when it ends.
struct Object<'a> {
    ser: &'a mut Canonical,
    /// Where the first entry starts (just after `{`).
    start: usize,
    entries: Vec<Entry>,
    /// A key given by `serialize_key`, waiting for its value.
    key: Option<std::borrow::Cow<'static, str>>,
    /// Closes `{"Variant":` around the object (a struct variant).
    variant: bool,
}

/// An array being written.
struct Array<'a> {
    ser: &'a mut Canonical,
    first: bool,
    /// Closes `{"Variant":` around the array (a tuple variant).
    variant: bool,
}

impl Canonical {
    fn scalar<T: serde::Serialize + ?Sized>(&mut self, value: &T) -> Result<(), serde_json::Error> {
        serde_json::to_writer(&mut self.out, value)
    }

    /// Writes what `serde_json::to_value` makes of a value (floats and big integers), then
    /// that value.
    fn as_value<T: serde::Serialize>(&mut self, value: T) -> Result<(), serde_json::Error> {
        let value = serde_json::to_value(value)?;
        write_canonical(&value, &mut self.out);
        Ok(())
    }

    /// Opens `{"Variant":`.
    fn open_variant(&mut self, variant: &str) -> Result<(), serde_json::Error> {
        self.out.push(b'{');
        self.scalar(variant)?;
        self.out.push(b':');
        Ok(())
    }

    fn object(&mut self, variant: bool) -> Object<'_> {
        self.out.push(b'{');
        let start = self.out.len();
        Object {
            ser: self,
            start,
            entries: Vec::new(),
            key: None,
            variant,
        }
    }

    fn array(&mut self, variant: bool) -> Array<'_> {
        self.out.push(b'[');
        Array {
            ser: self,
            first: true,
            variant,
        }
    }
}

impl Object<'_> {
    fn entry<T: serde::Serialize + ?Sized>(
        &mut self,
        key: std::borrow::Cow<'static, str>,
        value: &T,
    ) -> Result<(), serde_json::Error> {
        if !self.entries.is_empty() {
            self.ser.out.push(b',');
        }
        let start = self.ser.out.len();
        self.ser.scalar(key.as_ref())?;
        self.ser.out.push(b':');
        value.serialize(&mut *self.ser)?;
        let end = self.ser.out.len();
        self.entries.push(Entry { key, start, end });
        Ok(())
    }

    fn close(self) -> Result<(), serde_json::Error> {
        let Object {
            ser,
            start,
            mut entries,
            variant,
            ..
        } = self;
        // Written in order (and so without a repeated key), the text stands as written.
        if !entries.windows(2).all(|w| w[0].key < w[1].key) {
            // Stable: of equal keys, the last written stays last, and wins below.
            entries.sort_by(|a, b| a.key.cmp(&b.key));
            let written = ser.out.split_off(start);
            let mut first = true;
            for (i, entry) in entries.iter().enumerate() {
                if entries.get(i + 1).is_some_and(|next| next.key == entry.key) {
                    continue;
                }
                if !first {
                    ser.out.push(b',');
                }
                first = false;
                ser.out
                    .extend_from_slice(&written[entry.start - start..entry.end - start]);
            }
        }
        ser.out.push(b'}');
        if variant {
            ser.out.push(b'}');
        }
        Ok(())
    }
}

impl Array<'_> {
    fn item<T: serde::Serialize + ?Sized>(&mut self, value: &T) -> Result<(), serde_json::Error> {
        if !self.first {
            self.ser.out.push(b',');
        }
        self.first = false;
        value.serialize(&mut *self.ser)
    }

    fn close(self) -> Result<(), serde_json::Error> {
        self.ser.out.push(b']');
        if self.variant {
            self.ser.out.push(b'}');
        }
        Ok(())
    }
}

/// A map key as `serde_json::to_value` spells it: a string, or a number or boolean as text.
fn map_key<T: serde::Serialize + ?Sized>(
    key: &T,
) -> Result<std::borrow::Cow<'static, str>, serde_json::Error> {
    match serde_json::to_value(key)? {
        Value::String(s) => Ok(s.into()),
        Value::Number(n) => Ok(n.to_string().into()),
        Value::Bool(b) => Ok(if b { "true" } else { "false" }.into()),
        _ => Err(serde::ser::Error::custom("key must be a string")),
    }
}

impl<'a> serde::Serializer for &'a mut Canonical {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Array<'a>;
    type SerializeTuple = Array<'a>;
    type SerializeTupleStruct = Array<'a>;
    type SerializeTupleVariant = Array<'a>;
    type SerializeMap = Object<'a>;
    type SerializeStruct = Object<'a>;
    type SerializeStructVariant = Object<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Self::Error> {
        self.scalar(&v)
    }
    fn serialize_i8(self, v: i8) -> Result<(), Self::Error> {
        self.scalar(&v)
    }
    fn serialize_i16(self, v: i16) -> Result<(), Self::Error> {
        self.scalar(&v)
    }
    fn serialize_i32(self, v: i32) -> Result<(), Self::Error> {
        self.scalar(&v)
    }
    fn serialize_i64(self, v: i64) -> Result<(), Self::Error> {
        self.scalar(&v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), Self::Error> {
        self.as_value(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Self::Error> {
        self.scalar(&v)
    }
    fn serialize_u16(self, v: u16) -> Result<(), Self::Error> {
        self.scalar(&v)
    }
    fn serialize_u32(self, v: u32) -> Result<(), Self::Error> {
        self.scalar(&v)
    }
    fn serialize_u64(self, v: u64) -> Result<(), Self::Error> {
        self.scalar(&v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), Self::Error> {
        self.as_value(v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Self::Error> {
        self.as_value(v)
    }
    fn serialize_f64(self, v: f64) -> Result<(), Self::Error> {
        self.as_value(v)
    }
    fn serialize_char(self, v: char) -> Result<(), Self::Error> {
        self.scalar(&v)
    }
    fn serialize_str(self, v: &str) -> Result<(), Self::Error> {
        self.scalar(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Self::Error> {
        // `to_value` makes bytes an array of numbers.
        let mut array = self.array(false);
        for byte in v {
            array.item(byte)?;
        }
        array.close()
    }
    fn serialize_none(self) -> Result<(), Self::Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_some<T: serde::Serialize + ?Sized>(self, value: &T) -> Result<(), Self::Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Self::Error> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Self::Error> {
        self.serialize_none()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Self::Error> {
        self.scalar(variant)
    }
    fn serialize_newtype_struct<T: serde::Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: serde::Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        self.open_variant(variant)?;
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Array<'a>, Self::Error> {
        Ok(self.array(false))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Array<'a>, Self::Error> {
        Ok(self.array(false))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Array<'a>, Self::Error> {
        Ok(self.array(false))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Array<'a>, Self::Error> {
        self.open_variant(variant)?;
        Ok(self.array(true))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Object<'a>, Self::Error> {
        Ok(self.object(false))
    }
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Object<'a>, Self::Error> {
        if name == RAW_VALUE {
            return Err(serde::ser::Error::custom(
                "a raw JSON value has no canonical form here",
            ));
        }
        Ok(self.object(false))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Object<'a>, Self::Error> {
        self.open_variant(variant)?;
        Ok(self.object(true))
    }
}

/// The struct name serde_json gives a `RawValue`.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// The array traits: each element is an item of the array.
macro_rules! array_of {
    ($($trait:ident :: $method:ident),*) => {$(
        impl serde::ser::$trait for Array<'_> {
            type Ok = ();
            type Error = serde_json::Error;
            fn $method<T: serde::Serialize + ?Sized>(
                &mut self,
                value: &T,
            ) -> Result<(), Self::Error> {
                self.item(value)
            }
            fn end(self) -> Result<(), Self::Error> {
                self.close()
            }
        }
    )*};
}

array_of!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl serde::ser::SerializeMap for Object<'_> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_key<T: serde::Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Self::Error> {
        self.key = Some(map_key(key)?);
        Ok(())
    }
    fn serialize_value<T: serde::Serialize + ?Sized>(
        &mut self,
        value: &T,
    ) -> Result<(), Self::Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| serde::ser::Error::custom("a map value came without its key"))?;
        self.entry(key, value)
    }
    fn serialize_entry<K: serde::Serialize + ?Sized, V: serde::Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), Self::Error> {
        let key = map_key(key)?;
        self.entry(key, value)
    }
    fn end(self) -> Result<(), Self::Error> {
        self.close()
    }
}

/// The struct traits: each field is an entry of the object.
macro_rules! object_of {
    ($($trait:ident),*) => {$(
        impl serde::ser::$trait for Object<'_> {
            type Ok = ();
            type Error = serde_json::Error;
            fn serialize_field<T: serde::Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Self::Error> {
                self.entry(key.into(), value)
            }
            fn end(self) -> Result<(), Self::Error> {
                self.close()
            }
        }
    )*};
}

object_of!(SerializeStruct, SerializeStructVariant);

/// The columns of an audit row a link covers, besides its seq and `prev_hash`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Columns<'a> {
    pub session_id: &'a str,
    pub tool_call_id: &'a str,
    pub at: i64,
    pub record: &'a str,
}

/// The keyed hash of a link: HMAC-SHA-256 (hex) under the audit key over a version tag and
/// every column of the row (seq, `prev_hash`, session, tool call id, `at`, record), each
/// length-prefixed so that no two rows share an input.
pub(crate) fn keyed_link(key: &AuditKey, seq: u64, prev_hash: &str, row: &Columns<'_>) -> String {
    hex::encode(link_mac(key, seq, prev_hash, row).finalize().into_bytes())
}

/// Whether `hash` is the keyed hash of the row (compared in constant time).
pub(crate) fn keyed_link_matches(
    key: &AuditKey,
    seq: u64,
    prev_hash: &str,
    row: &Columns<'_>,
    hash: &str,
) -> bool {
    hex::decode(hash).is_ok_and(|bytes| {
        link_mac(key, seq, prev_hash, row)
            .verify_slice(&bytes)
            .is_ok()
    })
}

fn link_mac(key: &AuditKey, seq: u64, prev_hash: &str, row: &Columns<'_>) -> HmacSha256 {
    let mut mac = key.mac();
    let at = row.at.to_string();
    let seq = seq.to_string();
    let fields: [&[u8]; 7] = [
        b"warrant audit link v3",
        seq.as_bytes(),
        prev_hash.as_bytes(),
        row.session_id.as_bytes(),
        row.tool_call_id.as_bytes(),
        at.as_bytes(),
        row.record.as_bytes(),
    ];
    for field in fields {
        mac.update(&(field.len() as u64).to_be_bytes());
        mac.update(field);
    }
    mac
}

/// Where the audit key comes from, in order: the configuration's key, `WARRANT_AUDIT_KEY`,
/// the key file. A missing key file is created (mode 0600) only when the log holds no keyed
/// record yet (`log_key_id` is `None`); its directory must exist (a missing one is a
/// configuration error, never created on another disk than meant).
pub(crate) fn resolve_key(
    configured: Option<&AuditKey>,
    key_file: &Path,
    log_key_id: Option<&str>,
) -> Result<AuditKey, StoreError> {
    if let Some(key) = configured {
        return Ok(key.clone());
    }
    if let Ok(text) = std::env::var(AUDIT_KEY_ENV) {
        return AuditKey::from_hex(&text, AUDIT_KEY_ENV);
    }
    if key_file.exists() {
        return AuditKey::read_file(key_file);
    }
    if let Some(id) = log_key_id {
        return Err(corrupt(
            format!("the audit key file {} is missing", key_file.display()),
            format!(
                "the audit log was written with the key of id {id}; restore the file or set \
                 {AUDIT_KEY_ENV} (a new key would make every record look forged)"
            ),
        ));
    }
    let key = AuditKey::generate()?;
    key.write_new_file(key_file)?;
    tracing::info!(path = %key_file.display(), key_id = %key.id(), "created the audit key file");
    Ok(key)
}

/// Appends the head to the checkpoint file (created with mode 0600).
pub(crate) fn append_checkpoint(path: &Path, head: &AuditHead) -> Result<(), StoreError> {
    files::append_private(path)
        .and_then(|mut file| file.write_all(format!("{head}\n").as_bytes()))
        .map_err(|e| {
            unavailable(
                format!("appending to the checkpoint file {}", path.display()),
                e,
            )
        })
}

/// What the checkpoint file holds.
pub(crate) enum Checkpoints {
    /// No file.
    Absent,
    /// Its heads, by seq.
    Heads(Vec<AuditHead>),
    /// A line that is not a head: the file was damaged.
    Unreadable(String),
}

/// Reads the checkpoint file.
pub(crate) fn read_checkpoints(path: &Path) -> Result<Checkpoints, StoreError> {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Checkpoints::Absent),
        Err(e) => {
            return Err(unavailable(
                format!("reading the checkpoint file {}", path.display()),
                e,
            ));
        }
    };
    let mut heads = Vec::new();
    for (n, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| {
            unavailable(format!("reading the checkpoint file {}", path.display()), e)
        })?;
        if line.trim().is_empty() {
            continue;
        }
        match line.parse::<AuditHead>() {
            Ok(head) => heads.push(head),
            Err(e) => {
                return Ok(Checkpoints::Unreadable(format!(
                    "line {} of the checkpoint file {}: {}",
                    n + 1,
                    path.display(),
                    e.message
                )));
            }
        }
    }
    heads.sort_by_key(|h| h.seq);
    Ok(Checkpoints::Heads(heads))
}

/// What a record that fails its keyed hash was: edited, or written without the audit key.
pub(crate) const UNSOUND_KEYED: &str = "a column or its contents do not match its keyed hash: \
                                         it was edited, or written without the audit key";

/// Verifying a keyed audit chain, record by record, as every store does it: the report so
/// far, the last sound link, and the heads known from outside the log (checkpoint file,
/// expected head) still to meet. The first break found is the one reported.
pub(crate) struct Walk {
    /// What was found.
    pub report: AuditVerification,
    /// The last record that verified (`0` and [`GENESIS`] before the first).
    pub last: AuditHead,
    anchors: std::iter::Peekable<std::vec::IntoIter<(AuditHead, String)>>,
    anchored: bool,
    checkpoint: Option<PathBuf>,
}

impl Walk {
    /// A walk of a log whose head row says `head`, checked with the key of id `key_id`.
    pub fn new(head: &AuditHead, key_id: String) -> Self {
        Self {
            report: AuditVerification {
                records: 0,
                head_seq: head.seq,
                head_hash: head.hash.clone(),
                key_id,
                legacy_records: 0,
                checkpoint_seq: None,
                first_bad: None,
            },
            last: AuditHead {
                seq: 0,
                hash: GENESIS.to_owned(),
            },
            anchors: Vec::new().into_iter().peekable(),
            anchored: false,
            checkpoint: None,
        }
    }

    /// Records a break, unless an earlier one was found.
    pub fn broken(&mut self, seq: u64, problem: AuditProblem, detail: String) {
        if self.report.first_bad.is_none() {
            self.report.first_bad = Some(AuditBreak {
                seq,
                problem,
                detail,
            });
        }
    }

    /// Whether a break was found.
    pub fn is_broken(&self) -> bool {
        self.report.first_bad.is_some()
    }

    /// Takes the heads known from outside the log: the checkpoint file's (read as `found`
    /// from `path`) and an expected head. False when the checkpoint file is unreadable
    /// (reported as unanchored: the walk ends there).
    pub fn anchor(
        &mut self,
        checkpoint: Option<(&Path, Checkpoints)>,
        expect: Option<&AuditHead>,
    ) -> bool {
        let mut checks: Vec<(AuditHead, String)> = Vec::new();
        self.anchored = expect.is_some();
        if let Some((path, found)) = checkpoint {
            self.checkpoint = Some(path.to_path_buf());
            match found {
                Checkpoints::Absent => {}
                Checkpoints::Unreadable(evidence) => {
                    self.broken(0, AuditProblem::Unanchored, evidence);
                    return false;
                }
                Checkpoints::Heads(heads) => {
                    self.anchored = true;
                    self.report.checkpoint_seq = heads.last().map(|h| h.seq);
                    let source = format!("the checkpoint file {}", path.display());
                    checks.extend(heads.into_iter().map(|h| (h, source.clone())));
                }
            }
        }
        if let Some(expect) = expect {
            checks.push((expect.clone(), "the expected head".to_owned()));
        }
        checks.sort_by_key(|(h, _)| h.seq);
        self.anchors = checks.into_iter().peekable();
        // Heads at seq 0 name the empty log.
        while let Some((h, source)) = self.anchors.next_if(|(h, _)| h.seq == 0) {
            if h.hash != GENESIS {
                self.broken(
                    0,
                    AuditProblem::Edited,
                    format!("{source} names a record 0"),
                );
            }
        }
        true
    }

    /// Checks that record `seq` follows the last one: no gap, chained to its hash. `sound`
    /// says whether the record matches its own hash (then a wrong link blames its
    /// predecessor). True when a break was reported.
    pub fn link(&mut self, seq: u64, prev_hash: &str, sound: bool) -> bool {
        let last = self.last.clone();
        if seq != last.seq + 1 {
            self.broken(
                last.seq + 1,
                AuditProblem::Missing,
                format!("the log skips from {} to {seq}", last.seq),
            );
            true
        } else if prev_hash != last.hash {
            // A record sound on its own but chained to another hash means its predecessor
            // changed.
            let culprit = if seq > 1 && sound { last.seq } else { seq };
            self.broken(
                culprit,
                AuditProblem::Edited,
                format!(
                    "record {seq} is chained to a hash record {} does not have",
                    last.seq
                ),
            );
            true
        } else {
            false
        }
    }

    /// Meets the outside heads at record `seq`, whose hash is `hash`.
    pub fn meet_anchors(&mut self, seq: u64, hash: &str) {
        while let Some((h, source)) = self.anchors.next_if(|(h, _)| h.seq <= seq) {
            if h.seq < seq {
                continue; // a gap already reported
            }
            if h.hash != hash {
                self.broken(
                    seq,
                    AuditProblem::Edited,
                    format!("{source} records another hash for it"),
                );
            }
        }
    }

    /// After the last record: an outside head past it means records were cut off.
    pub fn end_of_records(&mut self) {
        let last = self.last.seq;
        let rest = std::mem::replace(&mut self.anchors, Vec::new().into_iter().peekable());
        if let Some((h, source)) = rest.last() {
            self.broken(
                last + 1,
                AuditProblem::Missing,
                format!("the log ends at {last} but {source} names record {}", h.seq),
            );
        }
    }

    /// After the last record: the log must end at its head row, and something outside the
    /// database must say where it ends (records after `unanchored_after`).
    pub fn end_at_head(&mut self, head: &AuditHead, unanchored_after: u64) {
        let last = self.last.clone();
        if head.seq > last.seq {
            self.broken(
                last.seq + 1,
                AuditProblem::Missing,
                format!(
                    "the log ends at {} but its head is at {}",
                    last.seq, head.seq
                ),
            );
        } else if head.seq == last.seq && head.hash != last.hash {
            self.broken(
                last.seq,
                AuditProblem::Edited,
                "its hash does not match the log's head".to_owned(),
            );
        } else if head.seq < last.seq {
            self.broken(
                head.seq + 1,
                AuditProblem::Edited,
                format!(
                    "records after the head at {} were added outside the log",
                    head.seq
                ),
            );
        }
        if !self.anchored && last.seq > unanchored_after {
            let detail = match &self.checkpoint {
                Some(path) => format!(
                    "the checkpoint file {} is missing, so a truncated log cannot be told from \
                     an intact one; pass --expect-head SEQ:HASH from a copy kept elsewhere",
                    path.display()
                ),
                None => "no checkpoint file and no expected head".to_owned(),
            };
            self.broken(last.seq, AuditProblem::Unanchored, detail);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use warrant_core::audit::AuditRecord;

    use super::*;

    #[test]
    fn the_canonical_text_sorts_keys_and_drops_whitespace() {
        let value = json!({"z": 1, "a": [1, 2.5, "x", {"k\"ey": null, "b": false}], "m": {}});
        assert_eq!(
            canonical_json(&value),
            r#"{"a":[1,2.5,"x",{"b":false,"k\"ey":null}],"m":{},"z":1}"#
        );
    }

    /// The text `canonical_json_of` must reproduce: the record's `Value`, canonicalized.
    fn through_value<T: serde::Serialize>(value: &T) -> String {
        canonical_json(&serde_json::to_value(value).unwrap())
    }

    #[test]
    fn audit_records_of_every_kind_have_the_text_their_value_has() {
        let evaluation = r#"{"at":1796095342369,"decision":{"behavior":"allow","evaluator":{"name":"policy","version":"0.1.0"},"reason":"`git status` only reads.","reasonCode":"shell_read_only","risk":"safe","source":"policy","toolCallId":"c91"},"inputDigest":"e0d3e391760d0a9b6c24bf66cecfc5a66557784782cbc704052385bf6e9bb287","kind":"evaluation","mode":"default","sessionId":"s3","toolCallId":"c91","toolName":"Bash","trace":{"decidedBy":"policy","entries":[{"behavior":"allow","elapsedMicros":5,"evaluator":"policy","outcome":"decided","reasonCode":"shell_read_only","strength":4},{"elapsedMicros":1,"evaluator":"rule","outcome":"abstained"},{"elapsedMicros":0,"evaluator":"auto_classifier","outcome":"skipped"}]}}"#;
        let others = [
            json!({"kind": "resolution", "resolution": {"toolCallId": "c1", "behavior": "deny",
                "source": "user", "actionId": "deny", "scope": "once",
                "message": "no \"quotes\" \\ or \n newlines \u{1} é ☃"}}),
            json!({"kind": "expiry", "reason": "expired after 30 s"}),
            json!({"kind": "cancel", "reason": "the agent stopped waiting"}),
            json!({"kind": "grant_revoked", "grantId": "g-1", "description": "Bash(git:*) in s1"}),
        ];
        let mut records: Vec<AuditRecord> = vec![serde_json::from_str(evaluation).unwrap()];
        for event in others {
            let mut record = json!({"at": -5, "sessionId": "s\u{7f}1", "toolCallId": "c1",
                "toolName": "mcp__a__b"});
            record
                .as_object_mut()
                .unwrap()
                .extend(event.as_object().unwrap().clone());
            records.push(serde_json::from_value(record).unwrap());
        }
        for record in &records {
            let text = canonical_json_of(record).unwrap();
            assert_eq!(text, through_value(record));
        }
        assert_eq!(canonical_json_of(&records[0]).unwrap(), evaluation);
    }

    #[derive(serde::Serialize)]
    struct Inner {
        z: Option<u8>,
        a: f32,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
    }

    #[derive(serde::Serialize)]
    #[serde(tag = "kind")]
    enum Tagged {
        Second { b: i64, a: Vec<Inner> },
    }

    #[derive(serde::Serialize)]
    enum Shapes {
        Unit,
        Newtype(Inner),
        Tuple(u8, &'static str),
        Struct { y: bool, x: () },
    }

    #[derive(serde::Serialize)]
    struct Outer {
        zeta: Vec<Shapes>,
        #[serde(flatten)]
        tagged: Tagged,
        /// Shadows the flattened field of the same name: the last written wins.
        b: &'static str,
        numbers: std::collections::BTreeMap<i32, f64>,
        flags: std::collections::HashMap<bool, char>,
        bytes: serde_bytes_like::Bytes,
        wide: (u128, i128),
        tuple: (u8,),
        unit: (),
    }

    /// Bytes serialized as bytes (`serialize_bytes`), not as a sequence.
    mod serde_bytes_like {
        pub struct Bytes(pub &'static [u8]);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
    }

    #[test]
    fn every_shape_serde_writes_has_the_text_its_value_has() {
        let inner = || Inner {
            z: None,
            a: 0.1,
            skipped: None,
        };
        let outer = Outer {
            zeta: vec![
                Shapes::Unit,
                Shapes::Newtype(inner()),
                Shapes::Tuple(7, "t"),
                Shapes::Struct { y: true, x: () },
            ],
            tagged: Tagged::Second {
                b: -3,
                a: vec![inner(), inner()],
            },
            b: "outer",
            numbers: [(-1, 1e300), (2, f64::NAN), (10, -0.0)].into(),
            flags: [(true, 'é')].into(),
            bytes: serde_bytes_like::Bytes(&[0, 255]),
            wide: (u128::from(u64::MAX), -1),
            tuple: (1,),
            unit: (),
        };
        assert_eq!(canonical_json_of(&outer).unwrap(), through_value(&outer));
    }

    /// A small deterministic generator of JSON values, nested and with awkward strings.
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    fn generated(seed: &mut u64, depth: u32) -> Value {
        let words = [
            "", "a", "B", "a\"b", "\\", "\n", "é", "\u{0}", "zz", "a0", "☃",
        ];
        let word = |seed: &mut u64| words[(next(seed) % words.len() as u64) as usize];
        match next(seed) % if depth == 0 { 5 } else { 7 } {
            0 => Value::Null,
            1 => Value::Bool(next(seed).is_multiple_of(2)),
            2 => json!(next(seed) as i64),
            3 => json!(f64::from(next(seed) as u32) / 7.0),
            4 => json!(word(seed)),
            5 => Value::Array(
                (0..next(seed) % 4)
                    .map(|_| generated(seed, depth - 1))
                    .collect(),
            ),
            _ => Value::Object(
                (0..next(seed) % 5)
                    .map(|i| (format!("{}{i}", word(seed)), generated(seed, depth - 1)))
                    .collect(),
            ),
        }
    }

    #[test]
    fn generated_values_have_the_text_canonical_json_gives_them() {
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2_000 {
            let value = generated(&mut seed, 4);
            assert_eq!(canonical_json_of(&value).unwrap(), canonical_json(&value));
        }
    }

    #[test]
    fn a_link_matches_its_own_row_only() {
        let key = AuditKey::from_bytes(vec![7u8; 32]).unwrap();
        let row = Columns {
            session_id: "s1",
            tool_call_id: "c1",
            at: 5,
            record: "{}",
        };
        let hash = keyed_link(&key, 1, warrant_core::audit::GENESIS, &row);
        assert!(keyed_link_matches(
            &key,
            1,
            warrant_core::audit::GENESIS,
            &row,
            &hash
        ));
        assert!(!keyed_link_matches(
            &key,
            2,
            warrant_core::audit::GENESIS,
            &row,
            &hash
        ));
        let other = Columns { at: 6, ..row };
        assert!(!keyed_link_matches(
            &key,
            1,
            warrant_core::audit::GENESIS,
            &other,
            &hash
        ));
    }
}
