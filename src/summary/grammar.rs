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
    /// Whether it is prose with markup (Markdown, HTML): its text is compared word by word (a
    /// paragraph re-wrapped is whitespace) and its structure too (a list item nested deeper by
    /// its indentation is a change).
    pub is_prose: bool,
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
        // `const f = () => ...`, `export default () => ...` and an object literal's `toJSON:
        // function() {...}` are functions; `const n = 1`, `export default {}` and `{n: 1}` are
        // not definitions.
        if matches!(kind, "variable_declarator" | "export_statement" | "pair") {
            let value = node.child_by_field_name("value")?;
            return value.kind().contains("function").then_some(label);
        }
        Some(label)
    }
}

/// How a grammar's text is read.
#[derive(Clone, Copy)]
enum Reading {
    Code,
    Indented,
    Prose,
}

const fn grammar(
    name: &'static str,
    language: fn() -> Language,
    reading: Reading,
    definitions: &'static [(&'static str, &'static str)],
) -> Grammar {
    let is_indented = matches!(reading, Reading::Indented);
    let is_prose = matches!(reading, Reading::Prose);
    Grammar { name, language, is_indented, is_prose, definitions }
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
    ("export_statement", "function"),
    ("pair", "method"),
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
    ("export_statement", "function"),
    ("pair", "method"),
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

const RUBY_DEFS: &[(&str, &str)] = &[
    ("method", "method"),
    ("singleton_method", "method"),
    ("class", "class"),
    ("module", "module"),
];
const KOTLIN_DEFS: &[(&str, &str)] = &[
    ("function_declaration", "function"),
    ("class_declaration", "class"),
    ("object_declaration", "class"),
];
const MARKDOWN_DEFS: &[(&str, &str)] = &[("section", "section")];
const CMAKE_DEFS: &[(&str, &str)] = &[("function_def", "function"), ("macro_def", "macro")];
const TOML_DEFS: &[(&str, &str)] = &[("table", "table"), ("table_array_element", "table")];
const NONE: &[(&str, &str)] = &[];
#[cfg(feature = "php")]
const PHP_DEFS: &[(&str, &str)] = &[
    ("function_definition", "function"),
    ("method_declaration", "method"),
    ("class_declaration", "class"),
    ("interface_declaration", "type"),
    ("trait_declaration", "type"),
    ("enum_declaration", "type"),
];
#[cfg(feature = "csharp")]
const CSHARP_DEFS: &[(&str, &str)] = &[
    ("method_declaration", "method"),
    ("constructor_declaration", "method"),
    ("local_function_statement", "function"),
    ("class_declaration", "class"),
    ("record_declaration", "class"),
    ("struct_declaration", "type"),
    ("interface_declaration", "type"),
    ("enum_declaration", "type"),
    ("namespace_declaration", "module"),
];
#[cfg(feature = "swift")]
const SWIFT_DEFS: &[(&str, &str)] = &[
    ("function_declaration", "function"),
    ("class_declaration", "class"),
    ("protocol_declaration", "type"),
];

use Reading::{Code, Indented, Prose};

const RUST: Grammar = grammar("Rust", || tree_sitter_rust::LANGUAGE.into(), Code, RUST_DEFS);
const PYTHON: Grammar =
    grammar("Python", || tree_sitter_python::LANGUAGE.into(), Indented, PYTHON_DEFS);
const JAVASCRIPT: Grammar =
    grammar("JavaScript", || tree_sitter_javascript::LANGUAGE.into(), Code, JS_DEFS);
// TypeScript files are read with the TSX grammar, a superset but for `<T>value` casts (which
// it reads with an error node, the tokens still compared): one grammar instead of two saves
// 1.5 MB of parse tables. None of the 510 `.ts` files in the corpus's histories parses with
// an error either way.
const TYPESCRIPT: Grammar =
    grammar("TypeScript", || tree_sitter_typescript::LANGUAGE_TSX.into(), Code, TS_DEFS);
const TSX: Grammar = grammar("TSX", || tree_sitter_typescript::LANGUAGE_TSX.into(), Code, TS_DEFS);
const GO: Grammar = grammar("Go", || tree_sitter_go::LANGUAGE.into(), Code, GO_DEFS);
const C: Grammar = grammar("C", || tree_sitter_c::LANGUAGE.into(), Code, C_DEFS);
const CPP: Grammar = grammar("C++", || tree_sitter_cpp::LANGUAGE.into(), Code, CPP_DEFS);
const JAVA: Grammar = grammar("Java", || tree_sitter_java::LANGUAGE.into(), Code, JAVA_DEFS);
const SHELL: Grammar = grammar("shell", || tree_sitter_bash::LANGUAGE.into(), Code, SHELL_DEFS);
const RUBY: Grammar = grammar("Ruby", || tree_sitter_ruby::LANGUAGE.into(), Code, RUBY_DEFS);
const KOTLIN: Grammar =
    grammar("Kotlin", || tree_sitter_kotlin_ng::LANGUAGE.into(), Code, KOTLIN_DEFS);
const YAML: Grammar = grammar("YAML", || tree_sitter_yaml::LANGUAGE.into(), Indented, NONE);
const MARKDOWN: Grammar =
    grammar("Markdown", || tree_sitter_md::LANGUAGE.into(), Prose, MARKDOWN_DEFS);
const TOML: Grammar = grammar("TOML", || tree_sitter_toml_ng::LANGUAGE.into(), Code, TOML_DEFS);
const JSON: Grammar = grammar("JSON", || tree_sitter_json::LANGUAGE.into(), Code, NONE);
const HTML: Grammar = grammar("HTML", || tree_sitter_html::LANGUAGE.into(), Prose, NONE);
const CSS: Grammar = grammar("CSS", || tree_sitter_css::LANGUAGE.into(), Code, NONE);
const CMAKE: Grammar = grammar("CMake", || tree_sitter_cmake::LANGUAGE.into(), Code, CMAKE_DEFS);
#[cfg(feature = "php")]
const PHP: Grammar = grammar("PHP", || tree_sitter_php::LANGUAGE_PHP.into(), Code, PHP_DEFS);
#[cfg(feature = "csharp")]
const CSHARP: Grammar = grammar("C#", || tree_sitter_c_sharp::LANGUAGE.into(), Code, CSHARP_DEFS);
#[cfg(feature = "swift")]
const SWIFT: Grammar = grammar("Swift", || tree_sitter_swift::LANGUAGE.into(), Code, SWIFT_DEFS);

/// The grammar for a repository path, by extension or name (or `None`: the line fallback
/// decides).
#[must_use]
pub fn grammar_for(path: &str) -> Option<Grammar> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase();
    if matches!(name, "Gemfile" | "Rakefile" | "Guardfile" | "Podfile") {
        return Some(RUBY);
    }
    if name == "CMakeLists.txt" {
        return Some(CMAKE);
    }
    Some(match ext.as_str() {
        "rs" => RUST,
        "py" | "pyi" => PYTHON,
        "js" | "mjs" | "cjs" | "jsx" => JAVASCRIPT,
        "ts" | "mts" | "cts" => TYPESCRIPT,
        "tsx" => TSX,
        "go" => GO,
        "c" | "h" => C,
        "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" | "inl" => CPP,
        "java" => JAVA,
        "sh" | "bash" => SHELL,
        "rb" | "rake" | "gemspec" | "ru" => RUBY,
        "kt" | "kts" => KOTLIN,
        "yaml" | "yml" => YAML,
        "md" | "markdown" => MARKDOWN,
        "toml" => TOML,
        "json" => JSON,
        "html" | "htm" | "xhtml" => HTML,
        "css" => CSS,
        "cmake" => CMAKE,
        #[cfg(feature = "php")]
        "php" => PHP,
        #[cfg(feature = "csharp")]
        "cs" => CSHARP,
        #[cfg(feature = "swift")]
        "swift" => SWIFT,
        _ => return None,
    })
}

/// The name a definition node gives itself: its `name` field, else what its declarator,
/// type or first identifier says (`impl Foo`, `int main(void)`).
pub fn definition_name<'t>(node: Node<'_>, text: &'t [u8]) -> Option<&'t [u8]> {
    definition_name_node(node).map(|n| &text[n.byte_range()])
}

/// Whether the definition `node` is marked a test by an annotation or an attribute: `JUnit`'s
/// and `kotlin.test`'s `@Test` (`@ParameterizedTest`, `@org.junit.Test`), C#'s `[Test]` or `[Fact]`,
/// Rust's `#[test]` (`#[tokio::test]`). A test so marked may have any name (`fun
/// sourceBlocksOnSlowWriter()`).
pub fn is_marked_test(node: Node<'_>, text: &[u8]) -> bool {
    static MARK: std::sync::LazyLock<regex::bytes::Regex> = std::sync::LazyLock::new(|| {
        regex::bytes::Regex::new(r"(?:@|\[|#\[)\s*(?:\w+(?:\.|::))*(?:\w*Test|test|Fact|Theory)\b")
            .expect("the test mark pattern is valid")
    });
    // Annotations and modifiers come before the name inside the definition (Java, Kotlin, C#).
    let name_start = definition_name_node(node).map_or(node.start_byte(), |n| n.start_byte());
    if MARK.is_match(&text[node.start_byte()..name_start.max(node.start_byte())]) {
        return true;
    }
    // Rust's attributes are the siblings before it.
    let mut previous = node.prev_named_sibling();
    while let Some(attribute) = previous.filter(|p| p.kind() == "attribute_item") {
        if MARK.is_match(&text[attribute.byte_range()]) {
            return true;
        }
        previous = attribute.prev_named_sibling();
    }
    false
}

/// The node that names a definition ([`definition_name`]).
pub fn definition_name_node(node: Node<'_>) -> Option<Node<'_>> {
    if node.kind() == "section" {
        // A Markdown section is named by its heading.
        let heading = node.named_child(0)?;
        return heading.child_by_field_name("heading_content");
    }
    if let Some(name) = node.child_by_field_name("name") {
        return Some(name);
    }
    if node.kind() == "export_statement" {
        // `export default () => ...` is named by what it exports: `default`.
        let mut cursor = node.walk();
        return node.children(&mut cursor).find(|c| c.kind() == "default");
    }
    if let Some(mut declarator) = node.child_by_field_name("declarator") {
        // `int *f(void)`: the declarator chain ends in the function's name.
        while let Some(inner) = declarator.child_by_field_name("declarator") {
            declarator = inner;
        }
        return Some(declarator);
    }
    if let Some(ty) = node.child_by_field_name("type") {
        return Some(ty);
    }
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|c| is_identifier(c.kind()) || c.kind().ends_with("_key"))
}

/// Whether a leaf of this kind is a name (an identifier of any flavour).
pub fn is_identifier(kind: &str) -> bool {
    kind.ends_with("identifier") || matches!(kind, "constant" | "name" | "variable_name")
}
