//! The token comparison per language: each shape the line comparison got wrong, and its twin
//! that is still superficial.

use super::{ChangeKind as Change, grammar_for, summary_of};

/// Compare `old` and `new` as the file `name`, on its syntax tree.
fn change(name: &str, old: &str, new: &str) -> Change {
    let file = summary_of(name, old, new);
    assert!(file.language.is_some(), "{name} read on its syntax tree");
    file.change
}

#[test]
fn every_listed_language_has_a_grammar_and_others_fall_back() {
    for name in ["a.rs", "a.py", "a.js", "a.jsx", "a.ts", "a.tsx", "a.go", "a.c", "a.h", "A.java"] {
        assert!(grammar_for(name).is_some(), "{name}");
    }
    assert!(grammar_for("run.sh").is_some());
    for name in ["a.cpp", "a.cc", "a.hpp", "a.rb", "Gemfile", "a.kt", "a.kts"] {
        assert!(grammar_for(name).is_some(), "{name}");
    }
    for name in ["README.md", "a.yaml", "a.yml", "a.toml", "a.json", "a.html", "a.css"] {
        assert!(grammar_for(name).is_some(), "{name}");
    }
    // PHP, C# and Swift only in builds with their features (their size).
    for (name, is_built) in [
        ("a.php", cfg!(feature = "php")),
        ("a.cs", cfg!(feature = "csharp")),
        ("a.swift", cfg!(feature = "swift")),
    ] {
        assert_eq!(grammar_for(name).is_some(), is_built, "{name}");
    }
    for name in ["Makefile", "a.unknown", "noext", "a.txt", "a.cfg"] {
        assert!(grammar_for(name).is_none(), "{name}");
    }
}

#[test]
fn a_statement_moved_out_of_a_try_block_is_code() {
    let old = "try {\n  a();\n  b();\n} catch (e) {}\n";
    let new = "try {\n  a();\n} catch (e) {}\nb();\n";
    assert_eq!(change("x.js", old, new), Change::Code);
    assert_eq!(change("x.ts", old, new), Change::Code);
    let reindented = "try {\n    a();\n    b();\n} catch (e) {}\n";
    assert_eq!(change("x.js", old, reindented), Change::Whitespace, "the twin");
    let py_old = "try:\n    a()\n    b()\nexcept E:\n    pass\n";
    let py_new = "try:\n    a()\nexcept E:\n    pass\nb()\n";
    assert_eq!(change("x.py", py_old, py_new), Change::Code);
}

#[test]
fn swapped_or_moved_statements_are_code() {
    let old = "fn f() {\n    let a = 1;\n    let b = 2;\n}\n";
    let new = "fn f() {\n    let b = 2;\n    let a = 1;\n}\n";
    assert_eq!(change("x.rs", old, new), Change::Code);
    let spaced = "fn f() {\n    let a = 1;\n\n    let b  =  2;\n}\n";
    assert_eq!(change("x.rs", old, spaced), Change::Whitespace, "the twin");
    let old = "func f() {\n\tuse(x)\n\tx := 1\n}\n";
    let new = "func f() {\n\tx := 1\n\tuse(x)\n}\n";
    assert_eq!(change("x.go", old, new), Change::Code);
}

#[test]
fn a_space_inside_a_string_literal_is_code() {
    let cases = [
        ("x.go", "var s = \"a:b\"\n", "var s = \"a: b\"\n"),
        ("X.java", "class X { String s = \"ab\"; }\n", "class X { String s = \"a b\"; }\n"),
        ("x.c", "char *s = \"ab\";\n", "char *s = \"a b\";\n"),
        ("x.py", "s = 'ab'\n", "s = 'a b'\n"),
        ("x.js", "const s = `ab`;\n", "const s = `a b`;\n"),
    ];
    for (name, old, new) in cases {
        assert_eq!(change(name, old, new), Change::Code, "{name}");
    }
    assert_eq!(
        change("x.go", "var s = \"a:b\"\n", "var  s  =  \"a:b\"\n"),
        Change::Whitespace,
        "the twin: spaces outside the literal"
    );
}

#[test]
fn python_indentation_is_code() {
    let old = "if x:\n    a()\nb()\n";
    let new = "if x:\n    a()\n    b()\n";
    assert_eq!(change("x.py", old, new), Change::Code);
    assert_eq!(change("x.py", old, "if x:\n    a()  \n\nb()\n"), Change::Whitespace, "the twin");
}

#[test]
fn python_compares_indentation_levels_not_columns() {
    // A body re-indented as a whole, and the lines inside brackets (layout, not syntax): the
    // same code, as Python's tokenizer reads it.
    let old = "class A:\n    def f(\n        self,\n        x,\n    ):\n        if x:\n            a()\n        b()\n\nc()\n";
    let shifted = "class A:\n        def f(\n                self,\n                x,\n        ):\n            if x:\n                    a()\n            b()\n\nc()\n";
    assert_eq!(change("x.py", old, shifted), Change::Whitespace);
    let call = "x = f(\n    1,\n    2,\n)\n";
    let realigned = "x = f(\n        1,\n  2,\n)\n";
    assert_eq!(change("x.py", call, realigned), Change::Whitespace, "continuation lines");
    // The twins: a statement moved out of its block, or into the one before it, is code.
    let out_of_if = old.replace("            a()\n        b()", "            a()\n            b()");
    assert_eq!(change("x.py", old, &out_of_if), Change::Code);
    let out_of_class = old.replace("\n\nc()", "\n\n    c()");
    assert_eq!(change("x.py", old, &out_of_class), Change::Code);
    // Literals joined by the compiler, on lines of their own: the layout between them is
    // whitespace; a space inside one is code (the twin).
    let joined = "m = (\n    \"a \"\n    \"b\"\n)\n";
    let rejoined = "m = (\n        \"a \"\n  \"b\"\n)\n";
    assert_eq!(change("x.py", joined, rejoined), Change::Whitespace);
    assert_eq!(change("x.py", joined, &joined.replace("\"a \"", "\"a\"")), Change::Code);
    let c = "const char *s =\n    \"a \"\n    \"b\";\n";
    assert_eq!(change("x.c", c, &c.replace("    \"b", "\t\"b")), Change::Whitespace);
    let yaml = "a:\n  b: 1\n  c: 2\nd: 3\n";
    assert_eq!(change("ci.yml", yaml, "a:\n    b: 1\n    c: 2\nd: 3\n"), Change::Whitespace);
    assert_eq!(change("ci.yml", yaml, "a:\n  b: 1\nc: 2\nd: 3\n"), Change::Code, "the twin");
}

#[test]
fn directive_comments_are_directives_not_comments() {
    let cases = [
        ("x.js", "// eslint-disable-next-line no-console\n"),
        ("x.ts", "// @ts-expect-error\n"),
        ("x.js", "/* istanbul ignore next */\n"),
        ("x.py", "# noqa: E501\n"),
        ("x.py", "# type: ignore\n"),
        ("x.go", "//go:build linux\n"),
        ("x.go", "//nolint:gosec\n"),
        ("x.sh", "#!/bin/sh\n"),
        ("x.py", "#!/usr/bin/env python3\n"),
        ("x.c", "// NOLINTNEXTLINE\n"),
    ];
    for (name, directive) in cases {
        let old = "x = f(1);\n";
        let new = format!("{directive}{old}");
        assert_eq!(change(name, old, &new), Change::Directive, "{name}: {directive}");
        let plain = format!("// explain the call\n{old}").replace("//", comment_marker(name));
        assert_eq!(change(name, old, &plain), Change::Comment, "the twin in {name}");
    }
    let old = "fn f() {}\n";
    // An attribute that silences a lint is a directive; any other attribute is code.
    assert_eq!(change("x.rs", old, "#[allow(dead_code)]\nfn f() {}\n"), Change::Directive);
    assert_eq!(change("x.rs", old, "#[inline]\nfn f() {}\n"), Change::Code);
    assert_eq!(change("x.rs", old, "/// Does f.\nfn f() {}\n"), Change::Comment, "the twin");
}

fn comment_marker(name: &str) -> &'static str {
    let ext = name.rsplit('.').next().unwrap_or_default();
    if matches!(ext, "py" | "sh") { "#" } else { "//" }
}

#[test]
fn shell_parameter_expansions_are_not_comments() {
    let old = "echo \"${x#pre}\" $#\n";
    assert_eq!(change("x.sh", old, "echo \"${x#post}\" $#\n"), Change::Code);
    assert_eq!(change("x.sh", "n=$#\n", "n=$1\n"), Change::Code);
    assert_eq!(change("x.sh", "echo hi # one\n", "echo hi # two\n"), Change::Comment, "the twin");
}

#[test]
fn comment_changes_in_c_family_and_java() {
    assert_eq!(change("x.cpp", "int a; // one\n", "int a; // two\n"), Change::Comment);
    assert_eq!(change("x.c", "/* one */ int a;\n", "/* two */ int a;\n"), Change::Comment);
    let old = "class X {\n  /** Old. */\n  void f() {}\n}\n";
    let new = "class X {\n  /** New. */\n  void f() {}\n}\n";
    assert_eq!(change("X.java", old, new), Change::Comment);
    assert_eq!(
        change("x.tsx", "const a = <b/>; // one\n", "const a = <b/>; // two\n"),
        Change::Comment
    );
}

#[test]
fn a_python_docstring_is_documentation() {
    let old = "def f():\n    \"\"\"Old.\"\"\"\n    return 1\n";
    let new = "def f():\n    \"\"\"New words.\"\"\"\n    return 1\n";
    assert_eq!(change("x.py", old, new), Change::Comment);
    let code = "def f():\n    \"\"\"Old.\"\"\"\n    return 2\n";
    assert_eq!(change("x.py", old, code), Change::Code);
}

#[test]
fn a_doctest_example_in_a_python_docstring_is_code() {
    let old = "class P:\n    \"\"\"Match.\n\n    >>> p = P(\"all\")\n    >>> p.ok()\n    True\n\n    Done.\n    \"\"\"\n";
    let example = old.replace("P(\"all\")", "P(\"all://\")");
    assert_eq!(change("x.py", old, &example), Change::Code);
    let output = old.replace("    True\n", "    False\n");
    assert_eq!(change("x.py", old, &output), Change::Code, "the expected output is compared too");
    let prose = old.replace("Match.", "Match a pattern.").replace("Done.", "Done here.");
    assert_eq!(change("x.py", old, &prose), Change::Comment, "the twin: the prose around it");
}

#[test]
fn a_doctest_in_a_rust_doc_comment_is_code() {
    let old = "/// Adds.\n///\n/// ```\n/// assert_eq!(add(1, 2), 3);\n/// ```\n///\n/// Done.\nfn add(a: u8, b: u8) -> u8 {\n    a + b\n}\n";
    let example = old.replace("3);", "4);");
    assert_eq!(change("x.rs", old, &example), Change::Code, "cargo test runs it");
    let attribute = old.replace("/// ```\n/// assert", "/// ```should_panic\n/// assert");
    assert_eq!(change("x.rs", old, &attribute), Change::Code, "the fence's attributes are code");
    let prose = old.replace("Adds.", "Adds two numbers.").replace("Done.", "Done here.");
    assert_eq!(change("x.rs", old, &prose), Change::Comment, "the twin: the prose around it");
    let text = old.replace("/// ```\n/// assert", "/// ```text\n/// assert");
    let text_edited = text.replace("3);", "4);");
    assert_eq!(change("x.rs", &text, &text_edited), Change::Comment, "a text block is prose");
    let inner = old.replace("///", "//!");
    assert_eq!(change("x.rs", &inner, &inner.replace("3);", "4);")), Change::Code, "//! too");
    let plain = old.replace("///", "//");
    assert_eq!(change("x.rs", &plain, &plain.replace("3);", "4);")), Change::Comment, "not docs");
    let block = "/**\n * Adds.\n *\n * ```no_run\n * add(1, 2);\n * ```\n */\nfn add() {}\n";
    assert_eq!(change("x.rs", block, &block.replace("(1, 2)", "(2, 1)")), Change::Code, "/** */");
    assert_eq!(change("x.rs", block, &block.replace("Adds.", "Sums.")), Change::Comment);
}

#[test]
fn a_hash_inside_a_yaml_string_or_url_is_not_a_comment() {
    let old = "a:\n  b: \"x # y\"\n  url: http://h/#top\n";
    let string = "a:\n  b: \"x # z\"\n  url: http://h/#top\n";
    assert_eq!(change("ci.yml", old, string), Change::Code);
    let url = "a:\n  b: \"x # y\"\n  url: http://h/#end\n";
    assert_eq!(change("ci.yml", old, url), Change::Code);
    let comment = "a:\n  b: \"x # y\" # a note\n  url: http://h/#top\n";
    assert_eq!(change("ci.yml", old, comment), Change::Comment, "the twin");
    let reindented = "a:\n  b: \"x # y\"\nurl: http://h/#top\n";
    assert_eq!(change("ci.yml", old, reindented), Change::Code, "indentation is YAML's syntax");
}

#[test]
fn markdown_structure_and_order_are_changes_and_rewrapping_is_not() {
    let old = "# Title\n\n- one\n- two\n- three\n\nSome words here\nand more.\n";
    let nested = "# Title\n\n- one\n  - two\n- three\n\nSome words here\nand more.\n";
    assert_eq!(change("a.md", old, nested), Change::Code, "a list item nested by indentation");
    let reordered = "# Title\n\n- two\n- one\n- three\n\nSome words here\nand more.\n";
    assert_eq!(change("a.md", old, reordered), Change::Code, "a list re-ordered");
    let moved = "# Title\n\nSome words here\nand more.\n\n- one\n- two\n- three\n";
    assert_eq!(change("a.md", old, moved), Change::Code, "a paragraph moved");
    let rewrapped = "# Title\n\n- one\n- two\n- three\n\nSome words\nhere and more.\n";
    assert_eq!(change("a.md", old, rewrapped), Change::Whitespace, "the twin: re-wrapped");
    let commented = format!("{old}\n<!-- a note -->\n");
    assert_eq!(change("a.md", old, &commented), Change::Comment);
    let directive = format!("{old}\n<!-- markdownlint-disable MD013 -->\n");
    assert_eq!(change("a.md", old, &directive), Change::Directive, "a markdownlint directive");
    // An HTML comment inside a paragraph or a list item is a comment too; words beside it and
    // the same text inside a code block are not.
    let inline =
        "# Title\n\n- one\n- two\n  <!-- a note -->\n- three\n\nSome words here\nand more.\n";
    assert_eq!(change("a.md", old, inline), Change::Comment, "a comment in a list item");
    let in_paragraph = old.replace("here\n", "here <!-- a note -->\n");
    assert_eq!(change("a.md", old, &in_paragraph), Change::Comment, "a comment in a paragraph");
    let with_words = old.replace("here\n", "here <!-- a note --> now\n");
    assert_eq!(change("a.md", old, &with_words), Change::Code);
    // A comment on a line of its own splits the paragraph or list it stands in, or opens a
    // section above the first heading: the words are the same, nothing shows it. With a word
    // or a list item added beside it, the change is code (the twins).
    let split = old.replace("here\n", "here\n<!-- a note -->\n");
    assert_eq!(change("a.md", old, &split), Change::Comment, "a paragraph split by a comment");
    let list = old.replace("- two\n", "- two\n<!-- a note -->\n");
    assert_eq!(change("a.md", old, &list), Change::Comment, "a list split by a comment");
    let top = format!("<!-- a note -->\n{old}");
    assert_eq!(change("a.md", old, &top), Change::Comment, "a comment above the first heading");
    let top_directive = format!("<!-- markdownlint-disable MD013 -->\n{old}");
    assert_eq!(change("a.md", old, &top_directive), Change::Directive);
    let list_and_item = old.replace("- two\n", "- two\n<!-- a note -->\n- four\n");
    assert_eq!(change("a.md", old, &list_and_item), Change::Code, "the twin: an item added");
    let split_and_word = old.replace("here\n", "here\n<!-- a note -->\nnow\n");
    assert_eq!(change("a.md", old, &split_and_word), Change::Code, "the twin: a word added");
    let table = "<table>\n  <tr>\n    <td>a</td>\n  </tr>\n</table>\n";
    let in_table = table.replace("  </tr>", "    <!-- a note -->\n  </tr>");
    assert_eq!(change("a.md", table, &in_table), Change::Comment, "a comment in an HTML block");
    let cell = table.replace("<td>a</td>", "<td>b</td>");
    assert_eq!(change("a.md", table, &cell), Change::Code, "the twin: the block's text");
    let fenced = "```\nx = 1\n```\n";
    let in_code = "```\nx = 1\n<!-- a note -->\n```\n";
    assert_eq!(change("a.md", fenced, in_code), Change::Code, "text of a code block");
}

#[test]
fn ruby_interpolation_in_a_heredoc_is_code() {
    let old = "def f\n  <<~TXT\n    a #{b} c\n  TXT\nend\n";
    let new = "def f\n  <<~TXT\n    a #{d} c\n  TXT\nend\n";
    assert_eq!(change("a.rb", old, new), Change::Code);
    let comment = "def f # the text\n  <<~TXT\n    a #{b} c\n  TXT\nend\n";
    assert_eq!(change("a.rb", old, comment), Change::Comment, "the twin");
}

#[test]
fn comments_in_the_added_languages_are_comments() {
    let cases = [
        ("a.kt", "fun f() = 1\n", "// why\nfun f() = 1\n"),
        ("a.rb", "x = 1\n", "# why\nx = 1\n"),
        ("a.toml", "[a]\nb = 1\n", "[a]\n# why\nb = 1\n"),
        ("a.css", ".a { color: red; }\n", "/* why */\n.a { color: red; }\n"),
        ("a.html", "<p>x</p>\n", "<!-- why -->\n<p>x</p>\n"),
        ("a.hpp", "int f();\n", "/// why\nint f();\n"),
    ];
    for (name, old, new) in cases {
        assert_eq!(change(name, old, new), Change::Comment, "{name}");
        let code = new
            .replace('1', "2")
            .replace("red", "blue")
            .replace(">x<", ">y<")
            .replace("f()", "g()");
        assert_eq!(change(name, old, &code), Change::Code, "the twin in {name}");
    }
    assert_eq!(change("a.json", "{\"a\": 1}\n", "{\n  \"a\": 1\n}\n"), Change::Whitespace);
    assert_eq!(change("a.json", "{\"a\": 1}\n", "{\"a\": 2}\n"), Change::Code);
}

#[test]
fn markdown_whitespace_that_renders_is_a_change() {
    // Inside a code block whitespace is printed as written: a blank line removed, tabs turned
    // into spaces, a line re-indented.
    let old = "# T\n\n```go\nimport (\n\n  \"a\"\n)\n\nfunc f() {\n\tg()\n}\n```\n";
    let blank = old.replace("import (\n\n", "import (\n");
    assert_eq!(change("a.md", old, &blank), Change::Code, "a blank line in a code block");
    let retab = old.replace("\tg()", "  g()");
    assert_eq!(change("a.md", old, &retab), Change::Code, "a code block re-indented");
    let indented = "# T\n\nText.\n\n    a  b\n    c\n\nMore.\n";
    let spaced = indented.replace("a  b", "a b");
    assert_eq!(change("a.md", indented, &spaced), Change::Code, "spaces in an indented block");
    // The twin: trailing whitespace in a code block prints nothing.
    let trailing = old.replace("\tg()", "\tg()  ");
    assert_eq!(change("a.md", old, &trailing), Change::Whitespace, "the twin: trailing spaces");
    // A list whose items a blank line separates is loose (its items are paragraphs): removing
    // the blank lines makes it tight.
    let loose = "# T\n\n* one\n* two\n\n* three\n\nText.\n";
    let tight = "# T\n\n* one\n* two\n* three\n\nText.\n";
    assert_eq!(change("a.md", loose, tight), Change::Code, "a loose list made tight");
    let moved_blank = "# T\n\n* one\n* two\n* three\n\n\nText.\n";
    assert_eq!(change("a.md", tight, moved_blank), Change::Whitespace, "the twin: after the list");
    // A space inside a code span is a break opportunity (a table column that wraps).
    let table = "| a | b |\n|---|---|\n| `f(x,y)` | z |\n";
    let wraps = table.replace("`f(x,y)`", "`f(x, y)`");
    assert_eq!(change("a.md", table, &wraps), Change::Code, "a space in a code span");
    let padded = table.replace("| z |", "|   z |");
    assert_eq!(change("a.md", table, &padded), Change::Whitespace, "the twin: cell padding");
}
