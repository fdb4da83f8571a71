//! A reply's lists bounded before the reply is built: `[limits] files` bounds each list of an
//! agent reply as it bounds the file entries of a patch and each path list of an executor's
//! reply. [`first_over`] reads the JSON once without building it, counting each list's items,
//! and stops at the first list over the bound, holding only the pointer to where it is: a reply
//! of a million paths is refused in one pass, with memory for its nesting, not its items.

use super::escape_pointer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::{self, Write as _};

/// The JSON pointer of the first list in `text` with more than `max` items, `None` when every
/// list is within the bound. In text that is not strict JSON only the lists before the first
/// error count (the lenient reader builds such a reply, and [`first_over_in`] bounds it).
pub(super) fn first_over(text: &str, max: usize) -> Option<String> {
    let scan = Scan { max, pointer: RefCell::new(String::new()), found: RefCell::new(None) };
    let mut reader = serde_json::Deserializer::from_str(text);
    // An error is either the end of the scan (a list over the bound) or text that is not JSON.
    let _ = (&scan).deserialize(&mut reader);
    scan.found.into_inner()
}

/// [`first_over`] for a value already built, in the same order: a list's first `max + 1` items
/// are looked into before the list itself is found too long.
pub(super) fn first_over_in(value: &Value, max: usize) -> Option<String> {
    let below = |token: &str, child: &Value| {
        first_over_in(child, max).map(|rest| format!("/{}{rest}", escape_pointer(token)))
    };
    match value {
        Value::Array(items) => {
            let inner = items.iter().take(max.saturating_add(1)).enumerate();
            let found = inner.into_iter().find_map(|(i, v)| below(&i.to_string(), v));
            found.or_else(|| (items.len() > max).then(String::new))
        }
        Value::Object(map) => map.iter().find_map(|(k, v)| below(k, v)),
        _ => None,
    }
}

/// The scan's state: the pointer to where it is (one buffer, grown and cut back as it goes in
/// and out, so an item costs no allocation), and what it found.
struct Scan {
    max: usize,
    pointer: RefCell<String>,
    found: RefCell<Option<String>>,
}

impl Scan {
    /// Scan one value below the current pointer extended by what `token` appends.
    fn child<E>(
        &self,
        token: impl FnOnce(&mut String),
        next: impl FnOnce(&Self) -> Result<Option<()>, E>,
    ) -> Result<Option<()>, E> {
        let len = self.pointer.borrow().len();
        token(&mut self.pointer.borrow_mut());
        let result = next(self);
        self.pointer.borrow_mut().truncate(len);
        result
    }
}

impl<'de> DeserializeSeed<'de> for &Scan {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, reader: D) -> Result<(), D::Error> {
        reader.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for &Scan {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
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

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        let mut count = 0usize;
        loop {
            // Writing to a `String` cannot fail.
            let token = |p: &mut String| {
                let _ = write!(p, "/{count}");
            };
            if self.child(token, |scan| items.next_element_seed(scan))?.is_none() {
                return Ok(());
            }
            count += 1;
            if count > self.max {
                *self.found.borrow_mut() = Some(self.pointer.borrow().clone());
                return Err(de::Error::custom("a list over the bound"));
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<(), A::Error> {
        while let Some(key) = entries.next_key::<Cow<'de, str>>()? {
            let token = |p: &mut String| p.extend(["/", &escape_pointer(&key)]);
            self.child(token, |scan| entries.next_value_seed(scan).map(Some))?;
        }
        Ok(())
    }
}
