//! The summary in words, one line per fact, as a reviewer reads it: the text report indents
//! these lines and the judge's prompt lists them.

use std::fmt::Write as _;

use crate::finding::{
    ChangeSummary, FileOperation, FileSummary, ItemChange, ItemStatus, TrivialForm,
};

/// Each file's line, then a line per fact about it (indented by two spaces).
#[must_use]
pub fn describe(summary: &ChangeSummary) -> Vec<String> {
    let mut out = Vec::new();
    for file in &summary.files {
        out.push(file_line(file));
        out.extend(facts(file).into_iter().map(|fact| format!("  {fact}")));
    }
    out
}

/// `src/a.py (Python, modified): code`.
fn file_line(file: &FileSummary) -> String {
    let how = file.language.as_deref().unwrap_or("compared line by line");
    let operation = match file.operation {
        FileOperation::Create => "new",
        FileOperation::Delete => "deleted",
        FileOperation::Modify => "modified",
        FileOperation::Rename => "renamed",
        FileOperation::Copy => "copied",
    };
    format!("{} ({how}, {operation}): {}", file.path, file.change.describe())
}

fn facts(file: &FileSummary) -> Vec<String> {
    let mut out: Vec<String> = file.items.iter().take(MAX_ITEMS).map(item_line).collect();
    if file.items.len() > MAX_ITEMS {
        out.push(format!("... and {} more definitions", file.items.len() - MAX_ITEMS));
    }
    for rename in &file.renames {
        let mut line = format!("'{}' replaced by '{}' ({}x)", rename.from, rename.to, rename.count);
        if !rename.left_on.is_empty() {
            let s = if rename.left_on.len() == 1 { "" } else { "s" };
            let _ = write!(line, "; '{}' still on line{s} {}", rename.from, lines(&rename.left_on));
        }
        out.push(line);
    }
    for name in &file.names {
        out.push(format!("'{}': {} before, {} after", name.name, name.before, name.after));
    }
    if file.comments_added + file.comments_removed > 0 {
        out.push(format!(
            "comments: {} added, {} removed",
            file.comments_added, file.comments_removed
        ));
    }
    for (what, list) in [("added", &file.directives_added), ("removed", &file.directives_removed)] {
        if !list.is_empty() {
            out.push(format!("directive comments {what}: {}", list.join(" | ")));
        }
    }
    if file.is_unreferenced {
        out.push("nothing else in the patch names this new file".to_owned());
    }
    out
}

const MAX_ITEMS: usize = 12;

/// `function parse (line 12): changed; its body is now 'return None' (a constant)`.
fn item_line(item: &ItemChange) -> String {
    let status = match item.change {
        ItemStatus::Added => "added",
        ItemStatus::Removed => "removed",
        ItemStatus::Changed => "changed",
        ItemStatus::Moved => "moved unchanged",
        ItemStatus::Renamed => "renamed",
    };
    let mut line = format!("{} {} (line {}): {status}", item.kind, item.name, item.line);
    if let Some(from) = &item.renamed_from {
        let _ = write!(line, " from {from}");
    }
    if let Some(trivial) = &item.trivial {
        let form = match trivial.form {
            TrivialForm::Empty => "empty",
            TrivialForm::Nothing => "does nothing",
            TrivialForm::Constant => "a constant",
            TrivialForm::Placeholder => "a placeholder",
        };
        let was = if item.was_trivial {
            ""
        } else if item.was_refusal {
            ", was an error"
        } else if item.change == ItemStatus::Changed {
            ", was real"
        } else {
            ""
        };
        if trivial.text.is_empty() {
            let _ = write!(line, "; its body is {form}{was}");
        } else {
            let _ = write!(line, "; its body is '{}' ({form}){was}", trivial.text);
        }
    }
    if !item.refers_to.is_empty() && matches!(item.change, ItemStatus::Added | ItemStatus::Changed)
    {
        let new = if item.change == ItemStatus::Added { "refers to" } else { "now also refers to" };
        let _ = write!(line, "; {new} {}", item.refers_to.join(", "));
    }
    line
}

/// `3, 17 and 40`.
fn lines(rows: &[usize]) -> String {
    let words: Vec<String> = rows.iter().map(ToString::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}
