//! The step's `expect` post-conditions, checked on the patched content in memory.
//!
//! Regexes use the `regex` crate's syntax on bytes, with multi-line mode on (`^`/`$` match at
//! line boundaries), which is what a step author means by `"^fn main"`.

use super::base::BaseTree;
use super::{FileChange, Outcome, ScratchError, violation};
use crate::finding::CheckCode;
use crate::rule::RuleId;
use crate::step::Expect;
use regex::bytes::{Regex, RegexBuilder};

/// Check every entry; a failure is a `not-implemented` violation naming the file and regex.
pub(super) fn check(
    base: &BaseTree<'_>,
    changes: &[FileChange],
    expects: &[Expect],
    outcome: &mut Outcome,
) -> Result<(), ScratchError> {
    for expect in expects {
        let present = expect.present.as_deref().map(|p| compile(&expect.file, p)).transpose()?;
        let absent = expect.absent.as_deref().map(|p| compile(&expect.file, p)).transpose()?;
        let Some(content) = content_after(base, changes, &expect.file)? else {
            outcome.reject(failed(
                &expect.file,
                format!("{} does not exist after the patch, but the step expects it", expect.file),
            ));
            continue;
        };
        if let Some((pattern, _)) = present.filter(|(_, re)| !re.is_match(&content)) {
            outcome.reject(failed(
                &expect.file,
                format!(
                    "{} does not match /{pattern}/ after the patch, as the step expects",
                    expect.file
                ),
            ));
        }
        if let Some((pattern, found)) =
            absent.as_ref().and_then(|(p, re)| Some((p, re.find(&content)?)))
        {
            let line = memchr::memchr_iter(b'\n', &content[..found.start()]).count() + 1;
            outcome.reject(failed(&expect.file, format!("{} still matches /{pattern}/ at line {line} after the patch; the step expects it gone", expect.file)));
        }
    }
    Ok(())
}

fn compile<'p>(file: &str, pattern: &'p str) -> Result<(&'p str, Regex), ScratchError> {
    RegexBuilder::new(pattern).multi_line(true).build().map(|re| (pattern, re)).map_err(|e| {
        ScratchError::BadExpect {
            file: file.to_owned(),
            pattern: pattern.to_owned(),
            reason: e.to_string().lines().last().unwrap_or_default().trim().to_owned(),
        }
    })
}

fn failed(file: &str, message: String) -> crate::rule::Violation {
    violation(RuleId::NotImplemented, CheckCode::ExpectFailed, file, message)
}

/// The file's bytes after the patch: the patched content if the patch touches it, else the
/// base's. `None` when it does not exist then.
fn content_after(
    base: &BaseTree<'_>,
    changes: &[FileChange],
    file: &str,
) -> Result<Option<Vec<u8>>, ScratchError> {
    let wanted = file.trim_start_matches("./");
    if let Some(change) = changes.iter().rev().find(|c| c.path == wanted) {
        return match &change.content {
            Some(content) => content.read(base, &change.path).map(|c| Some(c.into_owned())),
            None => Ok(None),
        };
    }
    match base.entry(wanted.as_bytes())? {
        Some(entry) if !entry.is_tree() => base.blob(entry.oid).map(Some),
        _ => Ok(None),
    }
}
