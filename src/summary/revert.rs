//! What a fix takes back of the step before it, read on the syntax trees of three images of
//! one file: before the step, after it (the fix's base) and after the fix. A function or method
//! the step changed that the fix restores to its form before the step, and one the step added
//! or changed that the fix removes, undo the step there, whatever else the fix does.

use super::{Base, compare, grammar_for, image, tokens};
use crate::patch::{FilePatch, Operation};

/// A definition the fix takes back.
#[derive(Debug, PartialEq, Eq)]
pub struct Reverted {
    /// `function`, `method` or `class`.
    pub kind: &'static str,
    /// Its qualified name.
    pub name: String,
    /// Whether the fix removes it, the step having added or changed it (else the fix restores
    /// its old form).
    pub is_removed: bool,
}

/// The definitions of one file that the fix `fix` takes back from the step `step` (both entries
/// for the same path), the base tree holding the file as the step left it. Empty when the file
/// has no grammar, is too large, or a hunk is not where it says.
#[must_use]
pub fn reverted(fix: &FilePatch<'_>, step: &FilePatch<'_>, base: &dyn Base) -> Vec<Reverted> {
    read(fix, step, base).unwrap_or_default()
}

fn read(fix: &FilePatch<'_>, step: &FilePatch<'_>, base: &dyn Base) -> Option<Vec<Reverted>> {
    if fix.operation != Operation::Modify || fix.binary.is_some() || step.binary.is_some() {
        return None;
    }
    let path = String::from_utf8_lossy(fix.old_path.as_deref()?).into_owned();
    let grammar = grammar_for(&path)?;
    let after_step = base.content(&path).filter(|c| c.len() <= image::MAX_IMAGE)?;
    let before_step = image::unpatched(&after_step, step)?;
    let after_fix = image::patched(&after_step, fix)?;
    let before = tokens::read(grammar, &before_step)?;
    let stepped = tokens::read(grammar, &after_step)?;
    let fixed = tokens::read(grammar, &after_fix)?;
    let find = |image: &tokens::Image<'_>, def: &tokens::Definition| {
        image.definitions.iter().position(|d| d.kind == def.kind && d.name == def.name)
    };
    let mut out = Vec::new();
    for (j, def) in stepped.definitions.iter().enumerate() {
        let is_callable = matches!(def.kind, "function" | "method");
        if !is_callable && def.kind != "class" {
            continue;
        }
        match (find(&before, def), find(&fixed, def)) {
            // Added by the step, removed by the fix: the outermost one only.
            (None, None) => {
                let is_inner_removed = def.parent.is_some_and(|p| {
                    let parent = &stepped.definitions[p];
                    find(&before, parent).is_none() && find(&fixed, parent).is_none()
                });
                if !is_inner_removed {
                    out.push(Reverted { kind: def.kind, name: def.name.clone(), is_removed: true });
                }
            }
            // Changed by the step, removed by the fix, with its parent left.
            (Some(i), None) => {
                let is_parent_left =
                    def.parent.is_none_or(|p| find(&fixed, &stepped.definitions[p]).is_some());
                let was_changed = compare::own_code(&stepped, j) != compare::own_code(&before, i);
                if is_parent_left && was_changed {
                    out.push(Reverted { kind: def.kind, name: def.name.clone(), is_removed: true });
                }
            }
            (Some(i), Some(k)) if is_callable => {
                let old = compare::own_code(&before, i);
                let is_restored =
                    compare::own_code(&fixed, k) == old && compare::own_code(&stepped, j) != old;
                if is_restored {
                    out.push(Reverted {
                        kind: def.kind,
                        name: def.name.clone(),
                        is_removed: false,
                    });
                }
            }
            _ => {}
        }
    }
    Some(out)
}
