//! JSON as every entry point reads it: a repeated key, at any depth, is refused. Parsers
//! disagree on which of two equal keys wins (`serde_json` keeps the last, many others the
//! first), so a call whose input holds `{"command": "ls", "command": "rm -rf ~"}` could be
//! judged by one value and run with the other.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// The path (`/input/command`) of the first key repeated within one object of `text`, at any
/// depth; `None` when every object's keys are distinct or `text` is not JSON (its parser
/// then says why).
pub fn repeated_key(text: &str) -> Option<String> {
    let mut de = serde_json::Deserializer::from_str(text);
    // Deep nesting is refused by the parser's own limit, as it is when the text is parsed.
    Walk { path: "" }.deserialize(&mut de).ok().flatten()
}

/// Walks one JSON value, answering the path of its first repeated key.
struct Walk<'p> {
    path: &'p str,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// The path of `key` below `path`, escaped as a JSON pointer.
fn child(path: &str, key: &str) -> String {
    format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"))
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut seen = HashSet::new();
        let mut found = None;
        while let Some(key) = map.next_key::<String>()? {
            let here = child(self.path, &key);
            if found.is_some() {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            found = map.next_value_seed(Walk { path: &here })?;
            if found.is_none() && !seen.insert(key) {
                found = Some(here);
            }
        }
        Ok(found)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        let mut index = 0usize;
        loop {
            if found.is_some() {
                if seq.next_element::<IgnoredAny>()?.is_none() {
                    break;
                }
                continue;
            }
            let here = format!("{}/{index}", self.path);
            match seq.next_element_seed(Walk { path: &here })? {
                Some(inner) => found = inner,
                None => break,
            }
            index += 1;
        }
        Ok(found)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// Parses `text` as JSON, refusing a repeated key at any depth.
///
/// # Errors
///
/// Why it is not read: the parser's error, or the path of the repeated key.
pub fn from_str_unique<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    match repeated_key(text) {
        Some(path) => Err(format!("the key `{path}` is repeated")),
        None => Ok(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_are_found_at_any_depth() {
        assert_eq!(repeated_key(r#"{"a":1,"b":2}"#), None);
        assert_eq!(repeated_key(r#"{"a":1,"a":2}"#).as_deref(), Some("/a"));
        assert_eq!(
            repeated_key(r#"{"input":{"command":"ls","command":"rm -rf ~"}}"#).as_deref(),
            Some("/input/command")
        );
        assert_eq!(
            repeated_key(r#"{"edits":[{"p":1},{"p":1,"p":2}]}"#).as_deref(),
            Some("/edits/1/p")
        );
        assert_eq!(
            repeated_key(r#"{"a/b~":{"x":1,"x":1}}"#).as_deref(),
            Some("/a~1b~0/x")
        );
        // Equal keys in different objects are not repeats; escapes are compared decoded.
        assert_eq!(repeated_key(r#"[{"a":1},{"a":1}]"#), None);
        assert_eq!(
            repeated_key(r#"{"command":"ls","comm\u0061nd":"x"}"#).as_deref(),
            Some("/command")
        );
        assert_eq!(repeated_key("not json"), None);
    }

    #[test]
    fn parsing_refuses_a_repeated_key_and_names_it() {
        let ok: serde_json::Value = from_str_unique(r#"{"a":[1,{"b":null}]}"#).unwrap();
        assert_eq!(ok["a"][1]["b"], serde_json::Value::Null);
        let err = from_str_unique::<serde_json::Value>(r#"{"a":{"b":1,"b":2}}"#).unwrap_err();
        assert!(err.contains("`/a/b`"), "{err}");
        assert!(from_str_unique::<serde_json::Value>("{").is_err());
    }
}
