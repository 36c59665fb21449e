//! Checks a call's input against the tool's JSON schema (the subset tools declare: `type`,
//! `required`, `properties`, `additionalProperties`, `items`, `enum`, lengths and bounds).

use serde_json::{Map, Value};

/// Checks `input` against `schema`; the error names the offending field.
pub(crate) fn check(schema: &Value, input: &Value) -> Result<(), String> {
    at(schema, input, "")
}

/// The most keys a map may hold for [`get`] to scan it rather than hash the key.
const SCAN: usize = 8;

/// `map`'s value for `key`. A schema or an input holds a few keys, which a scan compares in
/// fewer steps than hashing the key takes; a map's keys are unique, so both find the same.
fn get<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if map.len() <= SCAN {
        map.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        map.get(key)
    }
}

fn field(path: &str) -> String {
    if path.is_empty() {
        "the input".to_owned()
    } else {
        format!("field \"{path}\"")
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn has_type(v: &Value, ty: &str) -> bool {
    match ty {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "number" => v.is_number(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        // An unknown type name constrains nothing this checker can verify.
        _ => true,
    }
}

fn at(schema: &Value, value: &Value, path: &str) -> Result<(), String> {
    let schema = match schema {
        Value::Bool(false) => return Err(format!("{} is not allowed", field(path))),
        Value::Object(s) => s,
        _ => return Ok(()),
    };
    if let Some(ty) = get(schema, "type") {
        let (single, list) = match ty {
            Value::String(t) => (Some(t.as_str()), &[][..]),
            Value::Array(ts) => (None, ts.as_slice()),
            _ => (None, &[][..]),
        };
        let names = || {
            single
                .into_iter()
                .chain(list.iter().filter_map(Value::as_str))
        };
        if names().next().is_some() && !names().any(|t| has_type(value, t)) {
            return Err(format!(
                "{} must be {}, not {}",
                field(path),
                names().collect::<Vec<_>>().join(" or "),
                type_name(value)
            ));
        }
    }
    if let Some(Value::Array(allowed)) = get(schema, "enum")
        && !allowed.contains(value)
    {
        return Err(format!(
            "{} must be one of {}",
            field(path),
            Value::Array(allowed.clone())
        ));
    }
    match value {
        Value::Object(map) => object(schema, map, path),
        Value::Array(items) => {
            if let Some(item) = get(schema, "items") {
                for (i, v) in items.iter().enumerate() {
                    at(item, v, &format!("{path}[{i}]"))?;
                }
            }
            Ok(())
        }
        Value::String(s) => {
            let len = s.chars().count() as u64;
            bound(
                schema,
                "minLength",
                |m| len >= m,
                || format!("{} is too short", field(path)),
            )?;
            bound(
                schema,
                "maxLength",
                |m| len <= m,
                || format!("{} is too long", field(path)),
            )
        }
        Value::Number(n) => {
            let n = n.as_f64().unwrap_or(f64::NAN);
            let ok = |key: &str, f: fn(f64, f64) -> bool| {
                get(schema, key)
                    .and_then(Value::as_f64)
                    .is_none_or(|m| f(n, m))
            };
            if !ok("minimum", |n, m| n >= m) || !ok("maximum", |n, m| n <= m) {
                return Err(format!("{} is out of range", field(path)));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn bound(
    schema: &Map<String, Value>,
    key: &str,
    ok: impl Fn(u64) -> bool,
    err: impl Fn() -> String,
) -> Result<(), String> {
    match get(schema, key).and_then(Value::as_u64) {
        Some(m) if !ok(m) => Err(err()),
        _ => Ok(()),
    }
}

fn object(schema: &Map<String, Value>, map: &Map<String, Value>, path: &str) -> Result<(), String> {
    if let Some(Value::Array(required)) = get(schema, "required") {
        for key in required.iter().filter_map(Value::as_str) {
            if get(map, key).is_none() {
                return Err(format!("{} is required", field(&join(path, key))));
            }
        }
    }
    let properties = get(schema, "properties").and_then(Value::as_object);
    for (key, v) in map {
        let sub = join(path, key);
        match properties.and_then(|p| get(p, key)) {
            Some(prop) => at(prop, v, &sub)?,
            None => match get(schema, "additionalProperties") {
                Some(Value::Bool(false)) => return Err(format!("{} is not allowed", field(&sub))),
                Some(extra @ Value::Object(_)) => at(extra, v, &sub)?,
                _ => {}
            },
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "required": ["command"],
            "additionalProperties": false,
            "properties": {
                "command": {"type": "string", "minLength": 1},
                "timeout": {"type": "integer", "minimum": 0},
                "mode": {"enum": ["a", "b"]},
                "tags": {"type": "array", "items": {"type": "string"}}
            }
        })
    }

    #[test]
    fn a_valid_input_passes() {
        assert_eq!(
            check(
                &schema(),
                &json!({"command": "ls", "timeout": 5, "tags": ["x"]})
            ),
            Ok(())
        );
    }

    #[test]
    fn every_problem_names_its_field() {
        let cases = [
            (json!([]), "the input must be object, not an array"),
            (json!({}), "field \"command\" is required"),
            (
                json!({"command": 1}),
                "field \"command\" must be string, not an integer",
            ),
            (json!({"command": ""}), "field \"command\" is too short"),
            (
                json!({"command": "ls", "timeout": 1.5}),
                "field \"timeout\" must be integer, not a number",
            ),
            (
                json!({"command": "ls", "timeout": -1}),
                "field \"timeout\" is out of range",
            ),
            (
                json!({"command": "ls", "mode": "c"}),
                "field \"mode\" must be one of [\"a\",\"b\"]",
            ),
            (
                json!({"command": "ls", "tags": [1]}),
                "field \"tags[0]\" must be string, not an integer",
            ),
            (
                json!({"command": "ls", "extra": true}),
                "field \"extra\" is not allowed",
            ),
        ];
        for (input, message) in cases {
            assert_eq!(check(&schema(), &input), Err(message.to_owned()), "{input}");
        }
    }
}
