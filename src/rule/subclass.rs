//! Subclasses in the base tree: whether a class the patch does not touch derives from a class
//! and defines a method of its own by a given name. Python's and Ruby's abstract methods are
//! written `raise NotImplementedError`, and their implementations may all live in files the
//! patch leaves alone.

use super::base_files::BaseFiles;
use std::ops::ControlFlow;

/// The languages whose abstract methods are written as placeholders, by a file's extension:
/// Python (`class Square(Shape):`) and Ruby (`class Square < Shape`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Syntax {
    Python,
    Ruby,
}

fn syntax_of(path: &str) -> Option<(Syntax, &str)> {
    let ext = path.rsplit_once('.').map(|(_, e)| e)?;
    match ext {
        "py" | "pyi" => Some((Syntax::Python, ext)),
        "rb" => Some((Syntax::Ruby, ext)),
        _ => None,
    }
}

/// Whether a file of the base tree, in the language of `file` (Python or Ruby), declares a
/// class deriving from `owner` whose body defines a method `name`: the method `owner.name`
/// is then a contract its subclasses fulfil, not code left unwritten. Reads the base tree
/// within [`BaseFiles`]' budget.
pub(super) fn implements(base: &BaseFiles<'_>, file: &str, owner: &str, name: &str) -> bool {
    let Some((syntax, ext)) = syntax_of(file) else { return false };
    let owner = owner.rsplit(['.', ':']).next().unwrap_or(owner);
    if owner.is_empty() || name.is_empty() {
        return false;
    }
    let suffix = format!(".{ext}");
    let mut found = false;
    base.scan(
        |path| path.ends_with(&suffix),
        |_, text| {
            let holds = |word: &str| memchr::memmem::find(text, word.as_bytes()).is_some();
            found = holds(owner) && holds(name) && defines_in_subclass(text, syntax, owner, name);
            if found { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        },
    );
    found
}

/// Whether `text` declares a class deriving from `owner` (its last name) and, in that class's
/// body (the lines indented past its header), a method `name`.
fn defines_in_subclass(text: &[u8], syntax: Syntax, owner: &str, name: &str) -> bool {
    let text = String::from_utf8_lossy(text);
    let lines: Vec<&str> = text.lines().collect();
    let indent = |line: &str| line.len() - line.trim_start().len();
    lines.iter().enumerate().any(|(at, line)| {
        if !derives_from(line.trim(), syntax, owner) {
            return false;
        }
        let depth = indent(line);
        let body = lines[at + 1..]
            .iter()
            .filter(|l| !l.trim().is_empty())
            .take_while(|l| indent(l) > depth || l.trim_start().starts_with('#'));
        body.into_iter().any(|l| defines(l.trim(), syntax, name))
    })
}

/// Whether `line` (trimmed) is a class header naming `owner` among its bases: `class
/// Square(Shape):`, `class Square(base.Shape, Mixin):` in Python, `class Square < Shape`,
/// `class Square < Shapes::Shape` in Ruby.
fn derives_from(line: &str, syntax: Syntax, owner: &str) -> bool {
    let Some(rest) = line.strip_prefix("class ") else { return false };
    let bases = match syntax {
        Syntax::Python => rest.split_once('(').and_then(|(_, b)| b.split_once(')')).map(|b| b.0),
        Syntax::Ruby => rest.split_once('<').map(|(_, b)| b),
    };
    let Some(bases) = bases else { return false };
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    bases.split(|c: char| !is_name(c)).any(|word| word == owner)
}

/// Whether `line` (trimmed) defines the method `name`: `def name(` in Python (`async def`
/// too), `def name` or `def self.name` in Ruby.
fn defines(line: &str, syntax: Syntax, name: &str) -> bool {
    let line = line.strip_prefix("async ").unwrap_or(line);
    let Some(rest) = line.strip_prefix("def ") else { return false };
    let rest = rest.trim_start();
    let rest = match syntax {
        Syntax::Python => rest,
        Syntax::Ruby => rest.strip_prefix("self.").unwrap_or(rest),
    };
    let Some(after) = rest.strip_prefix(name) else { return false };
    !after
        .starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '?' || c == '!' || c == '=')
}

#[cfg(test)]
mod tests {
    use super::{Syntax, defines_in_subclass};

    #[test]
    fn a_subclass_is_read_with_its_body() {
        let py = "class Square(Shape):\n    side = 1\n\n    def area(self):\n        return 1\n";
        assert!(defines_in_subclass(py.as_bytes(), Syntax::Python, "Shape", "area"));
        let qualified = py.replace("(Shape)", "(shapes.Shape, Mixin)");
        assert!(defines_in_subclass(qualified.as_bytes(), Syntax::Python, "Shape", "area"));
        // The twins: another base, another method, a method of a class below it.
        assert!(!defines_in_subclass(py.as_bytes(), Syntax::Python, "Polygon", "area"));
        assert!(!defines_in_subclass(py.as_bytes(), Syntax::Python, "Shape", "perimeter"));
        let after = "class Square(Shape):\n    side = 1\n\nclass Disc:\n    def area(self):\n        return 2\n";
        assert!(!defines_in_subclass(after.as_bytes(), Syntax::Python, "Shape", "area"));
        let rb = "module Rack\n  class Lint < Handler::Base\n    def call(env)\n      1\n    end\n  end\nend\n";
        assert!(defines_in_subclass(rb.as_bytes(), Syntax::Ruby, "Base", "call"));
        assert!(!defines_in_subclass(rb.as_bytes(), Syntax::Ruby, "Base", "call_with"));
    }
}
