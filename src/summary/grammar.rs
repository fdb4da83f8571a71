//! The languages patchgate parses: each grammar by file name, and which of its syntax nodes are
//! definitions (the items a summary lists).

use tree_sitter::{Language, Node};

/// A language patchgate parses.
#[derive(Clone, Copy, Debug)]
pub struct Grammar {
    /// Its name, for reports (`Rust`).
    pub name: &'static str,
    language: fn() -> Language,
    /// Whether a line's indentation is syntax (Python, YAML).
    pub is_indented: bool,
    /// Definition node kinds and what each is called in a summary.
    definitions: &'static [(&'static str, &'static str)],
}

impl Grammar {
    /// The tree-sitter language.
    pub fn language(&self) -> Language {
        (self.language)()
    }

    /// What a definition node of `kind` is called (`function`), or `None` for other nodes.
    pub fn definition(&self, node: Node<'_>) -> Option<&'static str> {
        let kind = node.kind();
        let (_, label) = self.definitions.iter().find(|(k, _)| *k == kind)?;
        // `const f = () => ...` is a function; `const n = 1` is not a definition.
        if kind == "variable_declarator" {
            let value = node.child_by_field_name("value")?;
            return value.kind().contains("function").then_some(label);
        }
        Some(label)
    }
}

const fn grammar(
    name: &'static str,
    language: fn() -> Language,
    is_indented: bool,
    definitions: &'static [(&'static str, &'static str)],
) -> Grammar {
    Grammar { name, language, is_indented, definitions }
}

const RUST_DEFS: &[(&str, &str)] = &[
    ("function_item", "function"),
    ("function_signature_item", "function"),
    ("struct_item", "type"),
    ("enum_item", "type"),
    ("union_item", "type"),
    ("trait_item", "trait"),
    ("impl_item", "impl"),
    ("mod_item", "module"),
    ("macro_definition", "macro"),
];
const PYTHON_DEFS: &[(&str, &str)] =
    &[("function_definition", "function"), ("class_definition", "class")];
const JS_DEFS: &[(&str, &str)] = &[
    ("function_declaration", "function"),
    ("generator_function_declaration", "function"),
    ("class_declaration", "class"),
    ("method_definition", "method"),
    ("variable_declarator", "function"),
];
const TS_DEFS: &[(&str, &str)] = &[
    ("function_declaration", "function"),
    ("generator_function_declaration", "function"),
    ("function_signature", "function"),
    ("class_declaration", "class"),
    ("abstract_class_declaration", "class"),
    ("method_definition", "method"),
    ("method_signature", "method"),
    ("abstract_method_signature", "method"),
    ("variable_declarator", "function"),
    ("interface_declaration", "type"),
    ("type_alias_declaration", "type"),
    ("enum_declaration", "type"),
    ("internal_module", "module"),
];
const GO_DEFS: &[(&str, &str)] = &[
    ("function_declaration", "function"),
    ("method_declaration", "method"),
    ("type_spec", "type"),
];
const C_DEFS: &[(&str, &str)] = &[
    ("function_definition", "function"),
    ("struct_specifier", "type"),
    ("union_specifier", "type"),
    ("enum_specifier", "type"),
];
const CPP_DEFS: &[(&str, &str)] = &[
    ("function_definition", "function"),
    ("struct_specifier", "type"),
    ("union_specifier", "type"),
    ("enum_specifier", "type"),
    ("class_specifier", "class"),
    ("namespace_definition", "module"),
];
const JAVA_DEFS: &[(&str, &str)] = &[
    ("method_declaration", "method"),
    ("constructor_declaration", "method"),
    ("class_declaration", "class"),
    ("record_declaration", "class"),
    ("interface_declaration", "type"),
    ("enum_declaration", "type"),
];
const SHELL_DEFS: &[(&str, &str)] = &[("function_definition", "function")];

const RUST: Grammar = grammar("Rust", || tree_sitter_rust::LANGUAGE.into(), false, RUST_DEFS);
const PYTHON: Grammar =
    grammar("Python", || tree_sitter_python::LANGUAGE.into(), true, PYTHON_DEFS);
const JAVASCRIPT: Grammar =
    grammar("JavaScript", || tree_sitter_javascript::LANGUAGE.into(), false, JS_DEFS);
const TYPESCRIPT: Grammar =
    grammar("TypeScript", || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(), false, TS_DEFS);
const TSX: Grammar = grammar("TSX", || tree_sitter_typescript::LANGUAGE_TSX.into(), false, TS_DEFS);
const GO: Grammar = grammar("Go", || tree_sitter_go::LANGUAGE.into(), false, GO_DEFS);
const C: Grammar = grammar("C", || tree_sitter_c::LANGUAGE.into(), false, C_DEFS);
#[cfg(feature = "cpp")]
const CPP: Grammar = grammar("C++", || tree_sitter_cpp::LANGUAGE.into(), false, CPP_DEFS);
const JAVA: Grammar = grammar("Java", || tree_sitter_java::LANGUAGE.into(), false, JAVA_DEFS);
const SHELL: Grammar = grammar("shell", || tree_sitter_bash::LANGUAGE.into(), false, SHELL_DEFS);

/// The grammar for a repository path, by extension (or `None`: the line fallback decides).
#[must_use]
pub fn grammar_for(path: &str) -> Option<Grammar> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase();
    Some(match ext.as_str() {
        "rs" => RUST,
        "py" | "pyi" => PYTHON,
        "js" | "mjs" | "cjs" | "jsx" => JAVASCRIPT,
        "ts" | "mts" | "cts" => TYPESCRIPT,
        "tsx" => TSX,
        "go" => GO,
        "c" | "h" => C,
        #[cfg(feature = "cpp")]
        "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "ipp" => CPP,
        "java" => JAVA,
        "sh" | "bash" => SHELL,
        _ => return None,
    })
}

/// Kept for the C++ grammar's table when the feature is off.
#[cfg(not(feature = "cpp"))]
const _: &[(&str, &str)] = CPP_DEFS;

/// The name a definition node gives itself: its `name` field, else what its declarator,
/// type or first identifier says (`impl Foo`, `int main(void)`).
pub fn definition_name<'t>(node: Node<'_>, text: &'t [u8]) -> Option<&'t [u8]> {
    let at = |n: Node<'_>| Some(&text[n.byte_range()]);
    if let Some(name) = node.child_by_field_name("name") {
        return at(name);
    }
    if let Some(mut declarator) = node.child_by_field_name("declarator") {
        // `int *f(void)`: the declarator chain ends in the function's name.
        while let Some(inner) = declarator.child_by_field_name("declarator") {
            declarator = inner;
        }
        return at(declarator);
    }
    if let Some(ty) = node.child_by_field_name("type") {
        return at(ty);
    }
    let mut cursor = node.walk();
    let first = node.named_children(&mut cursor).find(|c| is_identifier(c.kind()));
    first.and_then(at)
}

/// Whether a leaf of this kind is a name (an identifier of any flavour).
pub fn is_identifier(kind: &str) -> bool {
    kind.ends_with("identifier") || matches!(kind, "constant" | "name" | "variable_name")
}
