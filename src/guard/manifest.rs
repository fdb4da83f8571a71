//! `package.json` where husky installs the hooks: its `prepare` script runs husky (which points
//! `core.hooksPath` at `.husky/_`), and husky 4 reads its hooks from the `husky` key, so a change
//! to either can point git at other hooks after the next `npm install`. The rest of the
//! manifest (dependencies, other scripts, the version) is the agent's to change: a file tool's
//! write is judged on the content it leaves; a shell command's write, whose content the guard
//! cannot see, is refused in such a repository (the file tools can make the same edit).

use serde_json::Value;

/// The manifest, relative to the workspace root.
pub(super) const MANIFEST: &str = "package.json";

/// What the refusal names.
pub(super) const HUSKY_SETTINGS: &str =
    "package.json's husky settings (scripts.prepare, which installs husky's hooks, and husky)";

/// The settings that decide which hooks husky installs.
fn settings(manifest: &Value) -> (Option<&Value>, Option<&Value>) {
    (manifest.pointer("/scripts/prepare"), manifest.get("husky"))
}

/// Whether the manifest `after` a write changes husky's settings of `before`. Text that is
/// not JSON installs nothing (npm refuses it), so only two manifests are compared.
pub(super) fn changes_husky(before: &str, after: &str) -> bool {
    let (Ok(before), Ok(after)) =
        (serde_json::from_str::<Value>(before), serde_json::from_str::<Value>(after))
    else {
        return false;
    };
    settings(&before) != settings(&after)
}

/// The manifest a file tool leaves, from its input and the manifest `before` it: a whole new
/// content (`content`, or `new_text` without `old_text`), or a replacement of `old_string` by
/// `new_string` (`old_text`/`new_text`; every occurrence with `replace_all`). `None` when the
/// call would not apply (the text to replace is not there) or its input is not one of these.
pub(super) fn after(input: &Value, before: &str) -> Option<String> {
    let text = |keys: &[&str]| keys.iter().find_map(|k| input.get(*k)?.as_str());
    let old = text(&["old_string", "old_text"]).filter(|o| !o.is_empty());
    let new = text(&["new_string", "new_text"]);
    match (old, new, text(&["content"])) {
        (Some(old), Some(new), _) => {
            before.contains(old).then_some(())?;
            let is_all = input.get("replace_all").and_then(Value::as_bool) == Some(true);
            Some(if is_all { before.replace(old, new) } else { before.replacen(old, new, 1) })
        }
        (None, _, Some(content)) | (None, Some(content), None) => Some(content.to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const BEFORE: &str = r#"{"name": "app", "scripts": {"prepare": "husky", "test": "jest"},
        "dependencies": {"a": "1"}}"#;

    #[test]
    fn only_husky_s_settings_count() {
        let dep = BEFORE.replace(r#""a": "1""#, r#""a": "2", "b": "1""#);
        assert!(!changes_husky(BEFORE, &dep));
        assert!(!changes_husky(BEFORE, &BEFORE.replace("jest", "vitest")));
        assert!(changes_husky(BEFORE, &BEFORE.replace(r#""husky""#, r#""husky x""#)));
        assert!(changes_husky(BEFORE, &BEFORE.replace(r#""prepare": "husky", "#, "")));
        assert!(changes_husky(BEFORE, &BEFORE.replace(r#""name": "app""#, r#""husky": {}"#)));
        assert!(!changes_husky(BEFORE, "not json"));
    }

    #[test]
    fn the_content_a_file_tool_leaves() {
        let edit = json!({"old_string": "\"husky\"", "new_string": "\"true\""});
        assert!(after(&edit, BEFORE).is_some_and(|a| changes_husky(BEFORE, &a)));
        let write = json!({"content": BEFORE.replace("jest", "vitest")});
        assert!(after(&write, BEFORE).is_some_and(|a| !changes_husky(BEFORE, &a)));
        let missing = json!({"old_string": "nowhere", "new_string": "x"});
        assert_eq!(after(&missing, BEFORE), None);
        let cline = json!({"new_text": "{}"});
        assert_eq!(after(&cline, BEFORE).as_deref(), Some("{}"));
    }
}
