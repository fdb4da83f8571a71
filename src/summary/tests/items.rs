//! Definitions, trivial bodies, renames, moves, directives and scripts, per language, each
//! shape with its twin.

use super::{
    Base, ChangeKind, ItemStatus, TrivialForm, Wants, summarize, summary_of, summary_wanting,
};

/// `name`'s item in the summary of `old` -> `new`.
fn item(file: &str, old: &str, new: &str, name: &str) -> super::ItemChange {
    let summary = summary_of(file, old, new);
    let found = summary.items.iter().find(|i| i.name == name);
    found.unwrap_or_else(|| panic!("no item {name} in {summary:#?}")).clone()
}

/// One function per language, with a real body and with each stub form.
const STUBS: &[(&str, &str, &[&str], TrivialForm)] = &[
    (
        "a.py",
        "def f(x):\n    return compute(x) + 1\n",
        &["def f(x):\n    pass\n", "def f(x):\n    ...\n"],
        TrivialForm::Nothing,
    ),
    (
        "a.py",
        "def f(x):\n    return compute(x) + 1\n",
        &[
            "def f(x):\n    return None\n",
            "def f(x):\n    return 0\n",
            "def f(x):\n    \"\"\"Doc.\"\"\"\n    return {}\n",
        ],
        TrivialForm::Constant,
    ),
    (
        "a.py",
        "def f(x):\n    return compute(x) + 1\n",
        &["def f(x):\n    raise NotImplementedError()\n"],
        TrivialForm::Placeholder,
    ),
    (
        "a.rs",
        "fn f(x: u8) -> u8 {\n    compute(x) + 1\n}\n",
        &[
            "fn f(x: u8) -> u8 {\n    todo!()\n}\n",
            "fn f(x: u8) -> u8 {\n    unimplemented!(\"later\")\n}\n",
        ],
        TrivialForm::Placeholder,
    ),
    (
        "a.rs",
        "fn f(x: u8) -> u8 {\n    compute(x) + 1\n}\n",
        &["fn f(x: u8) -> u8 {\n    0\n}\n", "fn f(x: u8) -> u8 {\n    Default::default()\n}\n"],
        TrivialForm::Constant,
    ),
    ("a.rs", "fn f(x: u8) {\n    compute(x);\n}\n", &["fn f(x: u8) {}\n"], TrivialForm::Empty),
    (
        "a.go",
        "package a\n\nfunc f(x int) int {\n\treturn compute(x) + 1\n}\n",
        &[
            "package a\n\nfunc f(x int) int {\n\tpanic(\"not implemented\")\n}\n",
            "package a\n\nfunc f(x int) int {\n\tpanic(\"TODO\")\n}\n",
        ],
        TrivialForm::Placeholder,
    ),
    (
        "a.go",
        "package a\n\nfunc f(x int) int {\n\treturn compute(x) + 1\n}\n",
        &["package a\n\nfunc f(x int) int {\n\treturn 0\n}\n"],
        TrivialForm::Constant,
    ),
    (
        "a.js",
        "function f(x) {\n  return compute(x) + 1;\n}\n",
        &[
            "function f(x) {\n  throw new Error(\"TODO\");\n}\n",
            "function f(x) {\n  throw new Error('not implemented');\n}\n",
        ],
        TrivialForm::Placeholder,
    ),
    (
        "a.js",
        "function f(x) {\n  return compute(x) + 1;\n}\n",
        &["function f(x) {}\n"],
        TrivialForm::Empty,
    ),
    (
        "a.ts",
        "export function f(x: number): number {\n  return compute(x) + 1;\n}\n",
        &[
            "export function f(x: number): number {\n  return 0;\n}\n",
            "export function f(x: number): number {\n  return null;\n}\n",
        ],
        TrivialForm::Constant,
    ),
    (
        "a.ts",
        "const f = (x: number) => compute(x) + 1;\n",
        &["const f = (x: number) => 0;\n"],
        TrivialForm::Constant,
    ),
    (
        "A.java",
        "class A {\n  int f(int x) {\n    return compute(x) + 1;\n  }\n}\n",
        &["class A {\n  int f(int x) {\n    throw new UnsupportedOperationException();\n  }\n}\n"],
        TrivialForm::Placeholder,
    ),
    (
        "A.java",
        "class A {\n  int f(int x) {\n    return compute(x) + 1;\n  }\n}\n",
        &["class A {\n  int f(int x) {\n    return 0;\n  }\n}\n"],
        TrivialForm::Constant,
    ),
    (
        "a.c",
        "int f(int x) {\n  return compute(x) + 1;\n}\n",
        &["int f(int x) {\n  return 0;\n}\n", "int f(int x) {\n  return -1;\n}\n"],
        TrivialForm::Constant,
    ),
    (
        "a.kt",
        "fun f(x: Int) {\n    compute(x)\n}\n",
        &["fun f(x: Int) {}\n", "fun f(x: Int) {\n}\n"],
        TrivialForm::Empty,
    ),
    (
        // A body that cannot give the declared result: code not written yet.
        "a.kt",
        "fun <S : Sink> S.f(x: Int): S {\n    return compute(x)\n}\n",
        &["fun <S : Sink> S.f(x: Int): S {}\n"],
        TrivialForm::Placeholder,
    ),
    (
        "a.rs",
        "fn f(x: u8) -> u8 {\n    compute(x) + 1\n}\n",
        &["fn f(x: u8) -> u8 {}\n"],
        TrivialForm::Placeholder,
    ),
    (
        "a.go",
        "package a\n\nfunc f(x int) error {\n\treturn compute(x)\n}\n",
        &["package a\n\nfunc f(x int) error {\n}\n"],
        TrivialForm::Placeholder,
    ),
    (
        "a.ts",
        "function f(x: number): void {\n  compute(x);\n}\n",
        &["function f(x: number): void {}\n"],
        TrivialForm::Empty,
    ),
    (
        "a.kt",
        "fun f(x: Int): Int {\n    return compute(x) + 1\n}\n",
        &["fun f(x: Int): Int {\n    TODO()\n}\n", "fun f(x: Int): Int = TODO()\n"],
        TrivialForm::Placeholder,
    ),
    (
        "a.js",
        "export default async (x) => {\n  await compute(x);\n};\n",
        &["export default async (x) => {};\n"],
        TrivialForm::Empty,
    ),
    (
        "a.ts",
        "export default function (x: number) {\n  return compute(x) + 1;\n}\n",
        &["export default function (x: number) {\n  return null;\n}\n"],
        TrivialForm::Constant,
    ),
    (
        "a.sh",
        "f() {\n  compute \"$1\"\n}\n",
        &["f() {\n  return\n}\n", "f() {\n  return 0\n}\n"],
        TrivialForm::Nothing,
    ),
];

#[test]
fn a_body_replaced_by_a_stub_is_trivial_in_every_language() {
    for (file, old, stubs, form) in STUBS {
        let name = if file.starts_with("A.") {
            "A.f"
        } else if old.starts_with("export default") {
            "default" // anonymous: named by what it exports
        } else {
            "f"
        };
        for stub in *stubs {
            let found = item(file, old, stub, name);
            assert_eq!(found.change, ItemStatus::Changed, "{file}: {stub}");
            let trivial = found.trivial.unwrap_or_else(|| panic!("{file}: {stub} is trivial"));
            // `return 0` in shell is a status, read as doing nothing or a constant alike.
            if !file.starts_with("a.sh") {
                assert_eq!(trivial.form, *form, "{file}: {stub}");
            }
            assert!(!found.was_trivial, "{file}: the body was real");
        }
        // The twin: the body changed into other real code is not trivial.
        let real = old.replace("compute", "calculate");
        let found = item(file, old, &real, name);
        assert_eq!(found.change, ItemStatus::Changed, "{file}");
        assert!(found.trivial.is_none(), "{file}: a real body: {found:?}");
    }
}

#[test]
fn a_method_of_an_object_literal_is_a_definition_and_a_value_is_not() {
    let old =
        "const proto = {\n  toJSON: function() {\n    return build(this);\n  },\n  size: 2,\n};\n";
    let new = old.replace("return build(this);", "return null;");
    let method = item("a.js", old, &new, "toJSON");
    assert_eq!(method.change, ItemStatus::Changed);
    assert_eq!(method.trivial.map(|t| t.form), Some(TrivialForm::Constant));
    // The twin: a property whose value is no function is no definition.
    let valued = old.replace("size: 2", "size: 3");
    let summary = summary_of("a.js", old, &valued);
    assert!(summary.items.iter().all(|i| i.name != "size"), "{summary:#?}");
}

#[test]
fn an_extracted_helper_is_added_and_the_caller_refers_to_it() {
    let old = "def load(path):\n    text = open(path).read()\n    text = text.strip()\n    return parse(text)\n";
    let new = "def _read(path):\n    text = open(path).read()\n    return text.strip()\n\n\ndef load(path):\n    return parse(_read(path))\n";
    let summary = summary_of("a.py", old, new);
    let helper = summary.items.iter().find(|i| i.name == "_read").expect("the helper");
    assert_eq!(helper.change, ItemStatus::Added);
    assert!(helper.trivial.is_none(), "{helper:?}");
    let caller = summary.items.iter().find(|i| i.name == "load").expect("the caller");
    assert_eq!(caller.change, ItemStatus::Changed);
    assert!(caller.refers_to.contains(&"_read".to_owned()), "{caller:?}");
    // The twin: a helper added as a stub.
    let stub = "def _read(path):\n    pass\n\n\ndef load(path):\n    text = open(path).read()\n    text = text.strip()\n    return parse(text)\n";
    let summary = summary_of("a.py", old, stub);
    let helper = summary.items.iter().find(|i| i.name == "_read").expect("the helper");
    assert_eq!(helper.trivial.as_ref().map(|t| t.form), Some(TrivialForm::Nothing));
    assert!(summary.items.iter().all(|i| i.name != "load"), "load is unchanged: {summary:?}");
}

#[test]
fn an_abstract_method_and_its_implementation_are_both_listed() {
    let old = "class Base:\n    pass\n";
    let new = "class Base:\n    def run(self):\n        raise NotImplementedError()\n\n\nclass Fast(Base):\n    def run(self):\n        return go(self)\n";
    let summary = summary_of("a.py", old, new);
    let base = summary.items.iter().find(|i| i.name == "Base.run").expect("Base.run");
    assert_eq!(base.kind, "method");
    assert_eq!(base.trivial.as_ref().map(|t| t.form), Some(TrivialForm::Placeholder));
    let fast = summary.items.iter().find(|i| i.name == "Fast.run").expect("Fast.run");
    assert_eq!(fast.change, ItemStatus::Added);
    assert!(fast.trivial.is_none());
}

#[test]
fn a_branch_with_a_placeholder_arm_is_no_trivial_body() {
    let old = "fn f(x: u8) -> u8 {\n    compute(x) + 1\n}\n";
    let arm = "fn f(x: u8) -> u8 {\n    match x {\n        0 => compute(x),\n        _ => unimplemented!(),\n    }\n}\n";
    let summary = summary_of("a.rs", old, arm);
    let f = summary.items.iter().find(|i| i.name == "f").expect("f");
    assert!(f.trivial.is_none(), "{f:?}");
    let old = "def f(x):\n    return compute(x)\n";
    let branch = "def f(x):\n    if x:\n        return compute(x)\n    else:\n        raise NotImplementedError()\n";
    let summary = summary_of("a.py", old, branch);
    let f = summary.items.iter().find(|i| i.name == "f").expect("f");
    assert!(f.trivial.is_none(), "{f:?}");
    // The twin: the placeholder as the whole body.
    let stub = "fn f(x: u8) -> u8 {\n    unimplemented!()\n}\n";
    let summary = summary_of("a.rs", "fn f(x: u8) -> u8 {\n    compute(x) + 1\n}\n", stub);
    let f = summary.items.iter().find(|i| i.name == "f").expect("f");
    assert_eq!(f.trivial.as_ref().map(|t| t.form), Some(TrivialForm::Placeholder));
}

#[test]
fn a_rename_lists_the_old_name_where_it_is_left() {
    let old = "fn load_cfg() -> u8 { 1 }\n\nfn main() {\n    let a = load_cfg();\n    let b = load_cfg();\n    let c = load_cfg();\n}\n";
    let full = old.replace("load_cfg", "load_config");
    let summary = summary_of("a.rs", old, &full);
    let rename = summary.renames.iter().find(|r| r.from == "load_cfg").expect("the rename");
    assert_eq!(rename.to, "load_config");
    assert!(rename.left_on.is_empty(), "{rename:?}");
    assert!(
        summary
            .items
            .iter()
            .any(|i| i.change == ItemStatus::Renamed
                && i.renamed_from.as_deref() == Some("load_cfg"))
    );
    // The twin: one use left behind.
    let partial = full.replacen("let c = load_config();", "let c = load_cfg();", 1);
    let summary = summary_of("a.rs", old, &partial);
    let rename = summary.renames.iter().find(|r| r.from == "load_cfg").expect("the rename");
    assert_eq!(rename.left_on, [6], "{rename:?}");
}

#[test]
fn a_renamed_parameter_or_local_variable_is_local_and_a_module_name_is_not() {
    let old = "def total(items, rate):\n    acc = 0\n    for it in items:\n        acc += it * rate\n    return acc\n\n\nRATE = 2\n";
    let new = old.replace("acc", "sum_").replace("rate", "factor");
    let summary = summary_of("a.py", old, &new);
    let local = |from: &str| {
        let found = summary.renames.iter().find(|r| r.from == from);
        found.unwrap_or_else(|| panic!("{from}: {:?}", summary.renames)).is_local
    };
    assert!(local("acc"), "a local variable");
    assert!(local("rate"), "a parameter");
    // The twins: a name of the module, used at its top level, and a member (`self.rate`).
    let old = "RATE = 2\n\n\ndef total(x):\n    return x * RATE * RATE\n";
    let summary = summary_of("a.py", old, &old.replace("RATE", "FACTOR"));
    assert!(summary.renames.iter().any(|r| r.from == "RATE" && !r.is_local), "{summary:?}");
    let old =
        "class A:\n    def total(self, x):\n        self.rate = x\n        return self.rate\n";
    let summary = summary_of("a.py", old, &old.replace("rate", "factor"));
    assert!(summary.renames.iter().any(|r| r.from == "rate" && !r.is_local), "{summary:?}");
}

#[test]
fn names_the_step_asks_about_are_counted_before_and_after() {
    let old = "def foo():\n    return 1\n\n\nx = foo()\n# foo in a comment\n";
    let new = "def bar():\n    return 1\n\n\nx = foo()\n# foo in a comment\n";
    let wants = Wants { is_full: false, names: vec!["foo".into(), "bar".into()] };
    let summary = summary_wanting("a.py", old, new, &wants);
    let foo = summary.names.iter().find(|n| n.name == "foo").expect("foo");
    assert_eq!((foo.before, foo.after), (2, 1), "comments do not count: {foo:?}");
    assert_eq!(foo.lines_after, [5]);
    let bar = summary.names.iter().find(|n| n.name == "bar").expect("bar");
    assert_eq!((bar.before, bar.after), (0, 1));
}

#[test]
fn a_name_s_definitions_and_its_uses_outside_them_are_counted() {
    let wants = Wants { is_full: false, names: vec!["walk".into()] };
    let old = "def walk(n):\n    return walk(n - 1)\n\n\ndef run():\n    return walk(3)\n";
    // The body emptied: still defined, still called from `run`.
    let emptied = old.replace("return walk(n - 1)", "pass");
    let summary = summary_wanting("a.py", old, &emptied, &wants);
    let walk = summary.names.iter().find(|n| n.name == "walk").expect("walk");
    assert_eq!((walk.defined_before, walk.defined_after), (1, 1), "{walk:?}");
    assert_eq!((walk.outside_before, walk.outside_after), (1, 1), "the recursive call is inside");
    // The twin: the definition removed, its caller kept.
    let removed = "def run():\n    return walk(3)\n";
    let summary = summary_wanting("a.py", old, removed, &wants);
    let walk = summary.names.iter().find(|n| n.name == "walk").expect("walk");
    assert_eq!((walk.defined_before, walk.defined_after), (1, 0), "{walk:?}");
    assert_eq!((walk.outside_before, walk.outside_after), (1, 1));
}

#[test]
fn a_signature_declares_and_a_method_defines() {
    let old = "interface Git {\n  init(): void\n}\n";
    let new = "interface Git {\n  init(): void\n  version(): string\n}\n";
    assert!(item("a.ts", old, new, "Git.version").is_declaration);
    // The twin: a method with a body.
    let old = "class Git {\n  init(): void {}\n}\n";
    let new =
        "class Git {\n  init(): void {}\n  version(): string {\n    return run('v')\n  }\n}\n";
    assert!(!item("a.ts", old, new, "Git.version").is_declaration);
    // Kotlin's `expect fun` and an interface's `fun`, Java's abstract method: no body.
    let old = "fun a(): Int = 1\n";
    let new = "fun a(): Int = 1\nexpect fun version(): String\n";
    assert!(item("a.kt", old, new, "version").is_declaration);
    let new = "fun a(): Int = 1\nactual fun version(): String {\n    return run(\"v\")\n}\n";
    assert!(!item("a.kt", old, new, "version").is_declaration);
    let old = "abstract class G {\n}\n";
    let new = "abstract class G {\n  abstract String version();\n}\n";
    assert!(item("G.java", old, new, "G.version").is_declaration);
    // A Ruby method without statements is empty, not declared.
    let new = "class G\n  def version\n  end\nend\n";
    assert!(!item("g.rb", "class G\nend\n", new, "G.version").is_declaration);
}

#[test]
fn an_annotation_or_attribute_marks_a_test_whatever_its_name() {
    let old = "class PipeTest {\n}\n";
    let new = "class PipeTest {\n  @Test\n  fun sourceBlocks() {\n    check()\n  }\n}\n";
    assert!(item("PipeTest.kt", old, new, "PipeTest.sourceBlocks").is_test);
    let new = "class PipeTest {\n  @org.junit.jupiter.api.ParameterizedTest\n  void blocks() {\n    check();\n  }\n}\n";
    assert!(item("PipeTest.java", old, new, "PipeTest.blocks").is_test);
    let new = "use x::y;\n\n#[tokio::test]\nasync fn blocks() {\n    check();\n}\n";
    assert!(item("pipe.rs", "use x::y;\n", new, "blocks").is_test);
    // The twins: other annotations and attributes, a test-like word that is not the mark.
    let new =
        "class PipeTest {\n  @Suppress(\"unused\")\n  fun sourceBlocks() {\n    check()\n  }\n}\n";
    assert!(!item("PipeTest.kt", old, new, "PipeTest.sourceBlocks").is_test);
    let new = "class PipeTest {\n  @VisibleForTesting\n  void blocks() {\n    check();\n  }\n}\n";
    assert!(!item("PipeTest.java", old, new, "PipeTest.blocks").is_test);
    let new = "use x::y;\n\n#[inline]\nfn blocks() {\n    check();\n}\n";
    assert!(!item("pipe.rs", "use x::y;\n", new, "blocks").is_test);
}

#[test]
fn a_definition_moved_unchanged_is_a_move() {
    let old = "fn a() {\n    one();\n}\n\nfn b() {\n    two();\n}\n\nfn c() {\n    three();\n}\n";
    let new = "fn b() {\n    two();\n}\n\nfn c() {\n    three();\n}\n\nfn a() {\n    one();\n}\n";
    let summary = summary_of("a.rs", old, new);
    assert_eq!(summary.change, ChangeKind::Move, "{summary:#?}");
    assert!(summary.items.iter().any(|i| i.name == "a" && i.change == ItemStatus::Moved));
    // The twin: moved and changed on the way.
    let changed = new.replace("one();", "one(1);");
    assert_eq!(summary_of("a.rs", old, &changed).change, ChangeKind::Code);
    let py_old = "def a():\n    return 1\n\n\ndef b():\n    return 2\n";
    let py_new = "def b():\n    return 2\n\n\ndef a():\n    return 1\n";
    assert_eq!(summary_of("a.py", py_old, py_new).change, ChangeKind::Move);
    // A Python definition spans its decorators: moved with them, it is a move; a decorator
    // changed on the way is code (the twin).
    let (a, b, c) = (
        "@mark\ndef a():\n    return 1\n",
        "@mark\ndef b():\n    return 2\n",
        "@mark\ndef c():\n    return 3\n",
    );
    let (deco_old, deco_new) = (format!("{a}\n\n{b}\n\n{c}"), format!("{b}\n\n{c}\n\n{a}"));
    let moved = summary_of("a.py", &deco_old, &deco_new);
    assert_eq!(moved.change, ChangeKind::Move, "{moved:#?}");
    let item = moved.items.iter().find(|i| i.name == "a").expect("a listed");
    assert_eq!((item.change, item.line), (ItemStatus::Moved, 12), "listed at its `def` line");
    let redecorated = deco_new.replace("@mark\ndef a", "@skip\ndef a");
    assert_eq!(summary_of("a.py", &deco_old, &redecorated).change, ChangeKind::Code);
    // Statements swapped inside a body are code, not a move.
    let swapped = "fn a() {\n    two();\n    one();\n}\n";
    let unswapped = "fn a() {\n    one();\n    two();\n}\n";
    assert_eq!(summary_of("a.rs", unswapped, swapped).change, ChangeKind::Code);
}

#[test]
fn a_method_moved_inside_its_class_is_a_move() {
    let rb_old = "class P
  def a
    one
  end

  def b
    two
  end
end
";
    let rb_new = "class P
  def b
    two
  end

  def a
    one
  end
end
";
    let summary = summary_of("p.rb", rb_old, rb_new);
    assert_eq!(summary.change, ChangeKind::Move, "{summary:#?}");
    let py_old =
        "class P:\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2\n";
    let py_new =
        "class P:\n    def b(self):\n        return 2\n\n    def a(self):\n        return 1\n";
    assert_eq!(summary_of("p.py", py_old, py_new).change, ChangeKind::Move);
    // The twins: moved into another class is code (the method now belongs elsewhere), and
    // changed on the way is code.
    let other = "class P:\n    def b(self):\n        return 2\n\nclass Q:\n    def a(self):\n        return 1\n";
    let two = "class P:\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2\n\nclass Q:\n    pass\n";
    assert_eq!(summary_of("p.py", two, other).change, ChangeKind::Code);
    let changed = rb_new.replace("one", "one(1)");
    assert_eq!(summary_of("p.rb", rb_old, &changed).change, ChangeKind::Code);
}

#[test]
fn a_directive_added_instead_of_a_fix_is_a_directive_not_a_comment() {
    let cases = [
        ("a.py", "x = f(y)\n", "x = f(y)  # type: ignore\n", "# type: ignore"),
        ("a.ts", "const x = f(y);\n", "// @ts-ignore\nconst x = f(y);\n", "// @ts-ignore"),
        (
            "a.js",
            "const x = f(y);\n",
            "// eslint-disable-next-line no-undef\nconst x = f(y);\n",
            "// eslint-disable-next-line no-undef",
        ),
        ("a.py", "import os\n", "import os  # noqa: F401\n", "# noqa: F401"),
    ];
    for (file, old, new, directive) in cases {
        let summary = summary_of(file, old, new);
        assert_eq!(summary.change, ChangeKind::Directive, "{file}");
        assert_eq!(summary.directives_added, [directive], "{file}");
    }
    // The twin: a comment that mentions a directive word is a comment.
    for text in ["# uses the global config", "# the pragma is gone", "# coding: style note"] {
        let summary = summary_of(
            "a.py",
            "a = 1\nb = 2\nx = f(y)\n",
            &format!("a = 1\nb = 2\nx = f(y)  {text}\n"),
        );
        assert_eq!(summary.change, ChangeKind::Comment, "{text}");
        assert_eq!(summary.comments_added, 1);
    }
}

#[test]
fn a_new_file_nothing_else_names_is_unreferenced() {
    let script = "diff --git a/reproduce_bug.py b/reproduce_bug.py\nnew file mode 100644\n--- /dev/null\n+++ b/reproduce_bug.py\n@@ -0,0 +1,2 @@\n+import lib\n+print(lib.run())\n";
    let parsed = crate::patch::parse(script.as_bytes(), &crate::patch::ParseOptions::default());
    let summary = super::summarize(&parsed.patch.files, None, &Wants::default());
    assert!(summary.files[0].is_unreferenced);
    // The twin: a new module the patch imports elsewhere.
    let module = format!(
        "{script}diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -1 +1,2 @@\n import os\n+import reproduce_bug\n"
    );
    let parsed = crate::patch::parse(module.as_bytes(), &crate::patch::ParseOptions::default());
    let summary = super::summarize(&parsed.patch.files, None, &Wants::default());
    assert!(!summary.files[0].is_unreferenced);
}

#[test]
fn a_generated_file_is_code_whose_definitions_are_not_read() {
    let body = "function o(e) {\n  return e.map(t => t + 1);\n}\n";
    let stub = "function o(e) {\n}\n";
    let pad = format!("var a=\"{}\";\n", "x".repeat(600));
    let (minified, minified_stub) = (format!("{pad}{body}"), format!("{pad}{stub}"));
    let header = "// Code generated by gen.go. DO NOT EDIT.\n";
    let (generated, generated_stub) = (format!("{header}{body}"), format!("{header}{stub}"));
    for (old, new) in [(&minified, &minified_stub), (&generated, &generated_stub)] {
        let summary = summary_of("dist/a.js", old, new);
        assert!(summary.is_generated, "{old}");
        assert_eq!(summary.change, ChangeKind::Code);
        assert!(summary.items.is_empty(), "{:?}", summary.items);
    }
    // The twins: the same function in a hand-written file, and a header the patch writes.
    let summary = summary_of("src/a.js", body, stub);
    assert!(!summary.is_generated);
    assert!(summary.items.iter().any(|i| i.name == "o" && i.trivial.is_some()), "{summary:?}");
    let summary = summary_of("src/a.js", body, &generated_stub);
    assert!(!summary.is_generated, "the patch's own header proves nothing");
}

#[test]
fn the_base_s_attributes_mark_files_generated() {
    #[derive(Debug)]
    struct Tree(&'static str, &'static str);
    impl Base for Tree {
        fn contains(&self, _: &str) -> bool {
            true
        }
        fn files(&self) -> &[String] {
            &[]
        }
        fn content(&self, path: &str) -> Option<Vec<u8>> {
            match path {
                ".gitattributes" => Some(self.0.as_bytes().to_vec()),
                "dist/index.js" => Some(self.1.as_bytes().to_vec()),
                _ => None,
            }
        }
    }
    let old = "function o(e) {\n  return e.map(t => t + 1);\n}\n";
    let new = "function o(e) {\n}\n";
    let text = super::diff("dist/index.js", old, new);
    let parsed = crate::patch::parse(text.as_bytes(), &crate::patch::ParseOptions::default());
    let read = |attributes: &'static str| {
        let base = Tree(attributes, old);
        summarize(&parsed.patch.files, Some(&base), &Wants::full()).files.remove(0)
    };
    assert!(read("dist/** linguist-generated=true\n").is_generated);
    // The twins: another attribute, another folder, and the attribute unset again.
    assert!(!read("dist/** -diff\n").is_generated);
    assert!(!read("lib/** linguist-generated\n").is_generated);
    assert!(!read("dist/** linguist-generated\n*.js -linguist-generated\n").is_generated);
}

#[test]
fn a_body_that_only_refused_is_marked() {
    for (file, old, new, name) in [
        (
            "a.rs",
            "fn f() -> Result<(), E> {\n    Err(bad_type(Unit))\n}\n",
            "fn f() -> Result<(), E> {\n    Ok(())\n}\n",
            "f",
        ),
        ("a.py", "def f(x):\n    raise TypeError(\"no\")\n", "def f(x):\n    return None\n", "f"),
        (
            "a.go",
            "package a\n\nfunc f() error {\n\treturn fmt.Errorf(\"no\")\n}\n",
            "package a\n\nfunc f() error {\n\treturn nil\n}\n",
            "f",
        ),
        (
            "a.ts",
            "function f(x: number) {\n  throw new TypeError(\"no\");\n}\n",
            "function f(x: number) {\n  return 0;\n}\n",
            "f",
        ),
    ] {
        let found = item(file, old, new, name);
        assert!(found.was_refusal, "{file}: {found:?}");
        assert!(found.trivial.is_some(), "{file}");
        // The twin: a body that computed, emptied the same way.
        let computed = old
            .replace("Err(bad_type(Unit))", "write(Unit)")
            .replace("raise TypeError(\"no\")", "return write(x)")
            .replace("return fmt.Errorf(\"no\")", "return write()")
            .replace("throw new TypeError(\"no\");", "return write(x);");
        let found = item(file, &computed, new, name);
        assert!(!found.was_refusal, "{file}: {found:?}");
    }
}

#[test]
fn a_fix_that_takes_the_step_back_is_read_per_definition() {
    use crate::patch::{ParseOptions, parse};
    let before = "def f(x):\n    return x\n\n\ndef g(x):\n    return x * 2\n";
    let after = "def f(x):\n    return x + 1\n\n\ndef g(x):\n    return x * 2\n\n\ndef h(x):\n    return f(x)\n";
    let step_diff = super::diff("a.py", before, after);
    let step = parse(step_diff.as_bytes(), &ParseOptions::default());
    let base = super::OneFile("a.py", after);
    let reverted = |fixed: &str| {
        let fix_diff = super::diff("a.py", after, fixed);
        let fix = parse(fix_diff.as_bytes(), &ParseOptions::default());
        super::reverted(&fix.patch.files[0], &step.patch.files[0], &base)
    };
    // `f` restored to its form before the step, while `g` gets a real change.
    let restored = after.replace("x + 1", "x").replace("x * 2", "x * 3");
    let found = reverted(&restored);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].name == "f" && !found[0].is_removed, "{found:?}");
    // `h`, which the step added, removed.
    let removed = after.replace("\n\n\ndef h(x):\n    return f(x)\n", "\n");
    let found = reverted(&removed);
    assert!(found.len() == 1 && found[0].name == "h" && found[0].is_removed, "{found:?}");
    // `f`, which the step changed, removed; `g`, which it left, removed is no undoing.
    let without_f = after.replace("def f(x):\n    return x + 1\n\n\n", "");
    let found = reverted(&without_f);
    assert!(found.len() == 1 && found[0].name == "f" && found[0].is_removed, "{found:?}");
    assert!(reverted(&after.replace("def g(x):\n    return x * 2\n\n\n", "")).is_empty());
    // The twin: `f` changed again, into something new; `g`, which the step left, changed.
    assert!(reverted(&after.replace("x + 1", "x + 2")).is_empty());
    assert!(reverted(&after.replace("x * 2", "x")).is_empty());
}

#[test]
fn a_constructor_whose_work_moves_into_its_initializer_list_is_not_emptied() {
    let old = "struct V : B {\n    explicit V(const std::string &n) : B(n) {\n        check_ = [](int x) { return x > 0; };\n    }\n};\n";
    let moved = "struct V : B {\n    explicit V(const std::string &n) : B(n, [](int x) { return x > 0; }) {}\n};\n";
    let found = item("a.hpp", old, moved, "V.V");
    assert_eq!(found.change, ItemStatus::Changed);
    assert!(found.trivial.is_none(), "{found:?}");
    // The twin: the body emptied, the initializer list as it was.
    let emptied = "struct V : B {\n    explicit V(const std::string &n) : B(n) {}\n};\n";
    let found = item("a.hpp", old, emptied, "V.V");
    assert_eq!(found.trivial.map(|t| t.form), Some(TrivialForm::Empty));
    assert!(!found.was_trivial);
}

#[test]
fn a_body_that_returned_a_default_value_was_trivial() {
    let old = "std::string to_string(int) {\n    return std::string{};\n}\n";
    let found =
        item("a.cpp", old, "std::string to_string(int) {\n    return {};\n}\n", "to_string");
    assert!(found.trivial.is_some() && found.was_trivial, "{found:?}");
    // The twin: a body that built its string from the argument did something.
    let old = "std::string to_string(int v) {\n    return std::string(format(v));\n}\n";
    let found =
        item("a.cpp", old, "std::string to_string(int v) {\n    return {};\n}\n", "to_string");
    assert!(found.trivial.is_some() && !found.was_trivial, "{found:?}");
}

#[test]
fn a_definition_moved_under_an_annotation_its_neighbours_share_is_a_move() {
    // The diff keeps the `@Suppress` line (the same above every function) in place and moves
    // the rest: the definition still moved unchanged.
    let def = |name: &str, ann: &str| {
        format!("{ann}internal inline fun ByteString.{name}(): Int {{\n  return {name}Code\n}}\n")
    };
    let ann = "@Suppress(\"NOTHING_TO_INLINE\")\n";
    let c = format!("{ann}internal inline fun c(data: ByteArray) = ByteString(data)\n");
    let old = format!("package okio\n\n{}\n{}\n{c}", def("a", ann), def("b", ann));
    let new = format!("package okio\n\n{}\n{}\n{c}", def("b", ann), def("a", ann));
    let moved = summary_of("B.kt", &old, &new);
    assert_eq!(moved.change, ChangeKind::Move, "{moved:#?}");
    let java = |first: &str, second: &str| format!("class G {{\n{first}\n{second}}}\n");
    let (x, y) = (
        "  @Override\n  public int x() {\n    return 1;\n  }\n",
        "  @Override\n  public int y() {\n    return 2;\n  }\n",
    );
    assert_eq!(summary_of("G.java", &java(x, y), &java(y, x)).change, ChangeKind::Move);
    // The twins: moved and changed on the way, its body or its annotation.
    let changed = new.replace("return aCode", "return aCode + 1");
    assert_eq!(summary_of("B.kt", &old, &changed).change, ChangeKind::Code);
    let unannotated = format!("package okio\n\n{}\n{}\n{c}", def("b", ann), def("a", ""));
    assert_eq!(summary_of("B.kt", &old, &unannotated).change, ChangeKind::Code);
}
