//! JSON inputs read as the orchestrator meant them: an object that names a key twice
//! (`{"patch": "a", "patch": "b"}`) is refused, because readers disagree on which one counts
//! (serde's `Value` keeps the last, others the first) and that difference is an attack.

use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// The first key an object of `bytes` names twice, as a dotted path (`tool_input.file_path`),
/// or `None` (also for input that is not JSON: the real reader reports that).
#[must_use]
pub fn duplicate_key(bytes: &[u8]) -> Option<String> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let error = Walk { path: String::new() }.deserialize(&mut deserializer).err()?;
    let message = error.to_string();
    let key = message.strip_prefix(MARKER)?;
    Some(key.split(" at line ").next().unwrap_or(key).to_owned())
}

const MARKER: &str = "duplicate key ";

/// A visitor that walks any JSON value, failing on the first repeated key.
struct Walk {
    path: String,
}

impl Walk {
    fn child(&self, key: &str) -> Self {
        let path =
            if self.path.is_empty() { key.to_owned() } else { format!("{}.{key}", self.path) };
        Self { path }
    }
}

impl<'de> DeserializeSeed<'de> for Walk {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let child = self.child(&key);
            if !seen.insert(key) {
                return Err(A::Error::custom(format!("{MARKER}{}", child.path)));
            }
            map.next_value_seed(child)?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Walk { path: self.path.clone() })?.is_some() {}
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::duplicate_key;

    #[test]
    fn a_key_named_twice_is_found_at_any_depth() {
        assert_eq!(duplicate_key(br#"{"patch": "a", "patch": "b"}"#).as_deref(), Some("patch"));
        let nested = br#"{"tool_input": {"file_path": "a", "x": [1, {"k": 1, "k": 2}]}}"#;
        assert_eq!(duplicate_key(nested).as_deref(), Some("tool_input.x.k"));
        assert_eq!(duplicate_key(br#"{"a": {"b": 1}, "c": {"b": 2}}"#), None);
        assert_eq!(duplicate_key(b"not json"), None);
        assert_eq!(duplicate_key(br#"[{"a": 1}, {"a": 2}]"#), None);
    }
}
