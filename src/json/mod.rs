//! JSON inputs read as the orchestrator meant them: an object that names a key twice
//! (`{"patch": "a", "patch": "b"}`) is refused, because readers disagree on which one counts
//! (serde's `Value` keeps the last, others the first) and that difference is an attack.
//!
//! [`decode`] reads a document once: the value and the first repeated key come from the same
//! pass, so a caller never parses an input (a result can carry a patch of megabytes) twice.
//!
//! A key that is a known field spelt in another case (`{"patch": "a", "Patch": "b"}`) is the
//! same attack by other means: Go's `encoding/json` and .NET's case-insensitive readers match
//! keys without regard to case and keep the last, so [`case_variant`] finds such keys for the
//! callers that know their fields.

mod in_place;

pub use in_place::{Kept, decode_owned};

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::RefCell;
use std::fmt;

/// One JSON document, read once.
#[derive(Debug)]
pub struct Decoded {
    /// The value as `serde_json::from_slice` gives it (a repeated key keeps its last value), or
    /// the reader's error.
    pub value: Result<Value, serde_json::Error>,
    /// The first key an object names twice, as a dotted path (`tool_input.file_path`), when one
    /// was met before the end (or before the first syntax error).
    pub duplicate: Option<String>,
}

/// Read `bytes` as one JSON document, noting the first repeated key.
#[must_use]
pub fn decode(bytes: &[u8]) -> Decoded {
    let duplicate = RefCell::new(None);
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = Build { path: "", duplicate: &duplicate }
        .deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value));
    Decoded { value, duplicate: duplicate.into_inner() }
}

/// The first key an object of `bytes` names twice, as a dotted path (`tool_input.file_path`),
/// or `None` (also for input that is not JSON: the real reader reports that).
#[must_use]
pub fn duplicate_key(bytes: &[u8]) -> Option<String> {
    decode(bytes).duplicate
}

/// The first key of `keys` that is not one of `known` but equals one of them when case is
/// ignored the way Go's `encoding/json` and .NET's `OrdinalIgnoreCase` ignore it, with the
/// known key it stands for: `("Patch", "patch")`, `("fileſWritten", "filesWritten")` (Go
/// folds the long s into `s`), `("fılesWritten", "filesWritten")` (.NET upper-cases the
/// dotless i to `I`).
#[must_use]
pub fn case_variant<'k, 'a>(
    keys: impl IntoIterator<Item = &'a str>,
    known: &[&'k str],
) -> Option<(&'a str, &'k str)> {
    keys.into_iter().filter(|key| !known.contains(key)).find_map(|key| {
        let folded = fold(key);
        known.iter().find(|k| fold(k) == folded).map(|k| (key, *k))
    })
}

/// `text` with every character upper-cased and then lower-cased: one form for all the
/// spellings a case-insensitive reader takes as the same (`K`, `k` and the Kelvin sign; `S`,
/// `s` and the long s; `I` and the dotless i).
fn fold(text: &str) -> String {
    text.chars().flat_map(char::to_uppercase).flat_map(char::to_lowercase).collect()
}

/// A visitor that builds any JSON value at `path`, noting the first repeated key.
struct Build<'a> {
    path: &'a str,
    duplicate: &'a RefCell<Option<String>>,
}

impl Build<'_> {
    fn child_path(&self, key: &str) -> String {
        if self.path.is_empty() { key.to_owned() } else { format!("{}.{key}", self.path) }
    }
}

impl<'de> DeserializeSeed<'de> for Build<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Build<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = self.child_path(&key);
            let value = map.next_value_seed(Build { path: &path, duplicate: self.duplicate })?;
            if object.insert(key, value).is_some() {
                self.duplicate.borrow_mut().get_or_insert(path);
            }
        }
        Ok(Value::Object(object))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) =
            seq.next_element_seed(Build { path: self.path, duplicate: self.duplicate })?
        {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::{case_variant, decode, duplicate_key};

    #[test]
    fn a_known_key_in_another_case_is_found_as_go_and_dotnet_read_it() {
        let known = ["patch", "filesWritten", "mode"];
        let found = |keys: &[&'static str]| case_variant(keys.iter().copied(), &known);
        assert_eq!(found(&["patch", "Patch"]), Some(("Patch", "patch")));
        assert_eq!(found(&["FILESWRITTEN"]), Some(("FILESWRITTEN", "filesWritten")));
        assert_eq!(found(&["fileſWritten"]), Some(("fileſWritten", "filesWritten")));
        assert_eq!(found(&["fılesWritten"]), Some(("fılesWritten", "filesWritten")));
        assert_eq!(found(&["MODE", "mode"]), Some(("MODE", "mode")));
        assert_eq!(found(&["patch", "mode", "extra", "patches"]), None);
    }

    #[test]
    fn a_key_named_twice_is_found_at_any_depth() {
        assert_eq!(duplicate_key(br#"{"patch": "a", "patch": "b"}"#).as_deref(), Some("patch"));
        let nested = br#"{"tool_input": {"file_path": "a", "x": [1, {"k": 1, "k": 2}]}}"#;
        assert_eq!(duplicate_key(nested).as_deref(), Some("tool_input.x.k"));
        assert_eq!(duplicate_key(br#"{"a": {"b": 1}, "c": {"b": 2}}"#), None);
        assert_eq!(duplicate_key(b"not json"), None);
        assert_eq!(duplicate_key(br#"[{"a": 1}, {"a": 2}]"#), None);
    }

    #[test]
    fn the_value_is_what_serde_json_reads() {
        let inputs: [&[u8]; 8] = [
            br#"{"b": [1, -2, 3.5, 1e400, true, null, "\u00e9"], "a": {"x": {}}}"#,
            br#"{"k": 1, "j": 2, "k": 3}"#,
            b"18446744073709551615",
            b"[1, 2",
            b"{} trailing",
            b"",
            br#"{"a": "\x"}"#,
            br#"{"a": 1, "a": 2, oops"#,
        ];
        for input in inputs {
            let ours = decode(input).value.map_err(|e| e.to_string());
            let theirs =
                serde_json::from_slice::<serde_json::Value>(input).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{}", String::from_utf8_lossy(input));
        }
        assert_eq!(decode(br#"{"a": 1, "a": 2, oops"#).duplicate.as_deref(), Some("a"));
    }

    #[test]
    fn nesting_is_bounded_as_serde_json_bounds_it() {
        let deep = "[".repeat(10_000);
        let error = decode(deep.as_bytes()).value.expect_err("too deep");
        assert!(error.to_string().contains("recursion limit"), "{error}");
    }
}
