//! An executor's reply written the way models write answers: a line of prose, then the result
//! JSON in a ```` ```json ```` block (or after the prose, unfenced). The JSON is taken out when
//! exactly one candidate in the reply reads as a strict JSON object: nothing is guessed, and
//! nothing in it is changed (comments, trailing commas and the like stay the `schema` rule's
//! to report, through a reply that is then not taken out).

use crate::contract::reply::{blocks, decode};
use serde_json::Value;

/// The result JSON found in a reply, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unwrapped {
    /// The JSON text, exactly as in the reply.
    pub json: String,
    /// The 1-based reply line where it starts.
    pub line: usize,
    /// Whether it sat in a fenced block.
    pub is_fenced: bool,
}

/// The one JSON object of `reply`, when the reply is not JSON itself but holds exactly one.
#[must_use]
pub fn unwrap(reply: &[u8]) -> Option<Unwrapped> {
    if serde_json::from_slice::<Value>(reply).is_ok() {
        return None; // JSON already: judged as it is
    }
    let text = decode(reply).ok()?.text;
    let fenced: Vec<Unwrapped> = blocks(&text)
        .into_iter()
        .filter(|b| b.is_json() && is_object(&b.content))
        .map(|b| Unwrapped { line: b.content_line(), json: b.content, is_fenced: true })
        .collect();
    match fenced.len() {
        0 => bare(&text),
        1 => fenced.into_iter().next(),
        _ => None, // several answers: the repair does not choose
    }
}

/// Prose, then an unfenced object from the first line that starts with `{` to the last line
/// that ends with `}`.
fn bare(text: &str) -> Option<Unwrapped> {
    let lines: Vec<&str> = text.split('\n').collect();
    let first = lines.iter().position(|l| l.trim_start().starts_with('{'))?;
    let last = lines.iter().rposition(|l| l.trim_end().ends_with('}'))?;
    let json = lines.get(first..=last)?.join("\n");
    is_object(&json).then(|| Unwrapped { json, line: first + 1, is_fenced: false })
}

fn is_object(text: &str) -> bool {
    matches!(serde_json::from_str::<Value>(text), Ok(Value::Object(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_json_object_after_prose_is_taken_out_fenced_or_not() {
        let fenced = "Done! Here is the result:\n\n```json\n{\"mode\": \"apply\"}\n```\n";
        let found = unwrap(fenced.as_bytes()).expect("found");
        assert_eq!(
            (found.json.trim(), found.line, found.is_fenced),
            ("{\"mode\": \"apply\"}", 4, true)
        );
        let bare = "Here it is.\n{\n  \"mode\": \"apply\"\n}\nThanks.\n";
        let found = unwrap(bare.as_bytes()).expect("found");
        assert_eq!((found.line, found.is_fenced), (2, false));
    }

    #[test]
    fn json_several_answers_and_loose_json_are_left_alone() {
        assert_eq!(unwrap(br#"{"mode": "apply"}"#), None);
        let two = "```json\n{\"a\": 1}\n```\nor\n```json\n{\"a\": 2}\n```\n";
        assert_eq!(unwrap(two.as_bytes()), None);
        let trailing_comma = "Result:\n```json\n{\"a\": 1,}\n```\n";
        assert_eq!(unwrap(trailing_comma.as_bytes()), None);
        assert_eq!(unwrap(b"no json here"), None);
    }
}
