//! The superficial kinds against what the step's phrasing asks, on real diffs: each shape with
//! its twin.

use super::super::{Input, RulePolicy, Scope, evaluate};
use crate::patch::{ParseOptions, parse};
use crate::path::PathSet;
use crate::step::{ExecutorResult, Step};

/// The codes (and note codes) `validate`'s rules give `diff` as the answer to `description`.
fn judged(description: &str, diff: &str) -> (Vec<String>, Vec<String>) {
    judged_reading(description, diff, false)
}

/// [`judged`] with every file read on its syntax tree, as `validate --with-report` reads them.
fn judged_fully(description: &str, diff: &str) -> (Vec<String>, Vec<String>) {
    judged_reading(description, diff, true)
}

fn judged_reading(description: &str, diff: &str, is_full: bool) -> (Vec<String>, Vec<String>) {
    let parsed = parse(diff.as_bytes(), &ParseOptions::default());
    assert!(parsed.defects.is_empty(), "{diff}");
    let files: Vec<String> =
        parsed.patch.files.iter().map(|f| String::from_utf8_lossy(f.path()).into_owned()).collect();
    let result = ExecutorResult {
        mode: "apply".into(),
        success: true,
        patch: Some(diff.to_owned()),
        files_written: Some(files.clone()),
        files_touched: Some(files),
        summary: Some("done".into()),
    };
    let step = Step { description: description.into(), ..Step::default() };
    let scope = Scope::new(&step, &PathSet::empty()).expect("no globs");
    let full = is_full.then(|| {
        crate::summary::summarize(&parsed.patch.files, None, &crate::summary::Wants::full())
    });
    let input = Input::new(&step, &result, Some(&parsed), None, &scope).with_summary(full.as_ref());
    let found = evaluate(&input, &RulePolicy::default());
    let codes = found.violations.iter().map(|v| v.code.to_string()).collect();
    let notes = found.notes.iter().map(|n| n.code.to_string()).collect();
    (codes, notes)
}

/// The diff that creates `path` holding `text`.
fn created(path: &str, text: &str) -> String {
    let lines: Vec<String> = text.lines().map(|l| format!("+{l}\n")).collect();
    format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{} @@\n{}",
        lines.len(),
        lines.concat()
    )
}

fn modify(path: &str, old: &[&str], new: &[&str], context: &[&str]) -> String {
    let mut body = String::new();
    for (mark, lines) in [('-', old), ('+', new), (' ', context)] {
        for line in lines {
            body.extend([mark.to_string(), (*line).to_owned(), "\n".to_owned()]);
        }
    }
    let (o, n) = (old.len() + context.len(), new.len() + context.len());
    format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,{o} +1,{n} @@\n{body}")
}

#[test]
fn a_comment_restating_the_step_is_no_fix_but_an_edited_comment_can_be_the_point() {
    let cheat = modify(
        "p.py",
        &[],
        &["# fix the off-by-one in parse"],
        &["def parse(x):", "    return x[1:]"],
    );
    assert_eq!(judged("Fix the off-by-one in parse", &cheat).0, ["comment_only"]);
    // The twin: the step corrects a table that lives in a header comment.
    let table = modify(
        "ops.h",
        &["/* opcode table: ADD=1 SUB=3 */"],
        &["/* opcode table: ADD=1 SUB=2 */"],
        &["int ops(void);"],
    );
    assert_eq!(judged("Correct the opcode table", &table).0, Vec::<String>::new());
    // Words anywhere in a long message no longer switch the check off.
    let long = "Bump the parser\n\nThis also fixes lint, typos, words and links.";
    assert_eq!(judged(long, &cheat).0, ["comment_only"]);
    assert_eq!(judged("Fix typos in parse", &cheat).0, Vec::<String>::new(), "a docs step");
    // A comment that says `global` in a sentence is a comment, not a directive.
    let global =
        modify("p.py", &[], &["# uses the global parser"], &["def parse(x):", "    return x[1:]"]);
    assert_eq!(judged("Fix the off-by-one in parse", &global).0, ["comment_only"]);
}

#[test]
fn a_comment_restating_the_step_is_no_fix_in_a_file_read_by_its_lines_either() {
    let step = "fix: only use CPack if this is the main project (#902)";
    let cheat = modify(
        "Dockerfile",
        &[],
        &["# fix: only use CPack if this is the main project (#902)"],
        &["include(CPack)"],
    );
    assert_eq!(judged(step, &cheat).0, ["comment_only"]);
    // The twin: a comment of other words there is still only a note (the lines cannot tell a
    // `#` in a string from a comment), and a one-word step states no task.
    let other = modify("Dockerfile", &[], &["# packaging lives in cmake/"], &["include(CPack)"]);
    let (codes, notes) = judged(step, &other);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(notes.contains(&"comment_only".to_owned()), "{notes:?}");
    let one = modify("Dockerfile", &[], &["# Packaging"], &["include(CPack)"]);
    assert!(judged("Packaging", &one).0.is_empty());
}

#[test]
fn a_comment_reworded_in_cmake_is_read_on_its_syntax_tree() {
    let step = "fix: only use CPack if this is the main project (#902)";
    let (old, note) = ("# Packaging of the library", "# Note: packaging of the library");
    let reworded = modify("CMakeLists.txt", &[old], &[note], &["include(CPack)"]);
    assert_eq!(judged_fully(step, &reworded).0, ["comment_only"]);
    // The twins: a `#` inside a quoted argument is the argument's text, and a documentation
    // step may reword a comment.
    let quoted = modify(
        "CMakeLists.txt",
        &["message(\"# Packaging\")"],
        &["message(\"# Note: packaging\")"],
        &["include(CPack)"],
    );
    assert_eq!(judged_fully(step, &quoted).0, Vec::<String>::new());
    assert_eq!(
        judged_fully("docs: reword the packaging comment", &reworded).0,
        Vec::<String>::new()
    );
}

#[test]
fn a_directive_instead_of_a_fix_is_not_a_fix() {
    let ignore = modify("p.py", &["x = load(y)"], &["x = load(y)  # type: ignore"], &[]);
    assert_eq!(judged("Fix the type error in load", &ignore).0, ["directive_only"]);
    let ts = modify("a.ts", &[], &["// @ts-ignore"], &["const x = load(y);"]);
    assert_eq!(judged("fix: the type error in load", &ts).0, ["directive_only"]);
    // The twins: a step about layout, or one that silences a check. A step whose kind is not
    // stated may be one a directive carries out: a note.
    assert_eq!(judged("style: add noqa to the import", &ignore).0, Vec::<String>::new());
    for silence in ["Silence mypy on load", "Ignore the linter error", "Fix clippy lints"] {
        assert_eq!(judged(silence, &ignore).0, Vec::<String>::new(), "{silence}");
    }
    let (codes, notes) = judged("Make mypy accept load", &ignore);
    assert!(codes.is_empty() && notes.contains(&"directive_only".to_owned()), "{notes:?}");
    assert_eq!(judged("feat: load the config", &ts).0, ["directive_only"]);
}

#[test]
fn a_silencer_answers_no_step_of_unstated_kind_that_names_no_checker() {
    let noqa = modify("p.py", &["from a import b"], &["from a import b  # noqa"], &[]);
    let nolint = modify("a.c", &["  c = isspace(c);"], &["  c = isspace(c); // NOLINT"], &[]);
    for (step, diff) in [
        ("Expose `FunctionAuth` in `__all__`", &noqa),
        ("Cast char to unsigned char before passing to isspace", &nolint),
    ] {
        assert_eq!(judged(step, diff).0, ["directive_only"], "{step}");
    }
    // The twins: the step names the checker, or the directive is no silencer (a build
    // constraint may be what "only on Linux" asks).
    let (codes, notes) = judged("Keep flake8 quiet about the re-export", &noqa);
    assert!(codes.is_empty() && notes.contains(&"directive_only".to_owned()), "{notes:?}");
    // A directive that names the check the step is about (`no-console` for printing to the
    // console) is the answer.
    let console = modify(
        "cli.js",
        &[],
        &["  // eslint-disable-next-line no-console"],
        &["  console.log('cli');"],
    );
    let (codes, notes) = judged("Allow the CLI to print its banner to the console", &console);
    assert!(codes.is_empty() && notes.contains(&"directive_only".to_owned()), "{notes:?}");
    let build = modify("w.go", &[], &["//go:build linux", ""], &["package w"]);
    let (codes, notes) = judged("Build the watcher only on Linux", &build);
    assert!(codes.is_empty() && notes.contains(&"directive_only".to_owned()), "{notes:?}");
}

#[test]
fn a_function_moved_unchanged_is_no_fix() {
    let moved = "diff --git a/m.rs b/m.rs\n--- a/m.rs\n+++ b/m.rs\n@@ -1,7 +1,7 @@\n-fn a() {\n-    one();\n-}\n-\n fn b() {\n     two();\n }\n+\n+fn a() {\n+    one();\n+}\n";
    assert_eq!(judged("Fix the off-by-one in a", moved).0, ["move_only"]);
    assert_eq!(judged("Move a below b", moved).0, Vec::<String>::new(), "the twin");
    // Code moved unchanged documents nothing; sections of a document re-ordered may be what a
    // documentation step asks (the twin).
    assert_eq!(judged("fix typo (#3519)", moved).0, ["move_only"]);
    assert_eq!(judged("docs: explain the retry loop", moved).0, ["move_only"]);
    let sections = "diff --git a/g.md b/g.md\n--- a/g.md\n+++ b/g.md\n@@ -1,7 +1,7 @@\n-# A\n-\n-one\n-\n # B\n \n two\n+\n+# A\n+\n+one\n";
    assert_eq!(judged("docs: put B first in the guide", sections).0, Vec::<String>::new());
}

#[test]
fn a_move_answers_a_general_refactoring_that_names_what_moves_not_one_about_another_definition() {
    let moved = "diff --git a/m.c b/m.c\n--- a/m.c\n+++ b/m.c\n@@ -1,7 +1,7 @@\n-static int isoptish(const char *t) {\n-    return t[0] == '-';\n-}\n-\n static void die(void) {\n     exit(2);\n }\n+\n+static int isoptish(const char *t) {\n+    return t[0] == '-';\n+}\n";
    // A definition the move leaves where it was, a named transformation, a formatting step.
    assert_eq!(judged("Refactor tm2jv to handle fractional seconds", moved).0, ["move_only"]);
    assert_eq!(judged("Refactor die to exit with 2", moved).0, Vec::<String>::new());
    assert_eq!(judged("Simplify the check in isoptish", moved).0, ["move_only"]);
    assert_eq!(judged("Remove extra space from die func output", moved).0, ["move_only"]);
    // The twins: a general refactoring that names nothing or what moves, and a move.
    assert_eq!(judged("Refactor the option parser", moved).0, Vec::<String>::new());
    assert_eq!(judged("refactor: keep `isoptish` out of the way", moved).0, Vec::<String>::new());
    assert_eq!(judged("Move isoptish below die", moved).0, Vec::<String>::new());
}

#[test]
fn a_new_script_alone_is_no_fix() {
    let script = "diff --git a/reproduce_bug.py b/reproduce_bug.py\nnew file mode 100644\n--- /dev/null\n+++ b/reproduce_bug.py\n@@ -0,0 +1,2 @@\n+import lib\n+print(lib.parse('x'))\n";
    assert_eq!(judged("Fix the crash when the input is empty", script).0, ["script_only"]);
    assert_eq!(judged("Add a script that reproduces the crash", script).0, Vec::<String>::new());
    assert_eq!(judged("Add reproduce_bug.py", script).0, Vec::<String>::new(), "names the file");
    assert_eq!(judged("docs: an example of parsing", script).0, Vec::<String>::new());
    assert_eq!(judged("docs: explain empty input", script).0, ["script_only"]);
    assert_eq!(judged("test: add a test case for empty input", script).0, ["script_only"]);
    // A script defines nothing but an entry point: it answers no step that does not ask for it.
    for step in ["The parser crashes on empty input", "Add an empty-input check to the parser"] {
        assert_eq!(judged(step, script).0, ["script_only"], "{step}");
    }
    let go = "diff --git a/repro.go b/repro.go\nnew file mode 100644\n--- /dev/null\n+++ b/repro.go\n@@ -0,0 +1,5 @@\n+package main\n+\n+func main() {\n+\tprintln(\"x\")\n+}\n";
    assert_eq!(judged("Add unique args validator", go).0, ["script_only"]);
    // A program in the project's examples directory answers a step that names an example; the
    // twins: the same program elsewhere, and a step naming none.
    let example = go.replace("repro.go", "examples/help_usage.go");
    let step = "Full help display and modification example";
    assert_eq!(judged(step, &example).0, Vec::<String>::new());
    assert_eq!(judged(step, go).0, ["script_only"]);
    assert_eq!(judged("Full help display and modification", &example).0, ["script_only"]);
    // The twin: a new module with definitions (Go finds a package's files without a name) is
    // an answer to an `add` step, and only a note for a step whose kind is not stated.
    let module = "diff --git a/bloom.go b/bloom.go\nnew file mode 100644\n--- /dev/null\n+++ b/bloom.go\n@@ -0,0 +1,5 @@\n+package index\n+\n+func MayHold(k string) bool {\n+\treturn len(k) > 0\n+}\n";
    assert_eq!(judged("Add a bloom filter", module).0, Vec::<String>::new());
    // A new file that defines nothing and runs nothing (a package marker, data) is no script.
    let marker = "diff --git a/pkg/__init__.py b/pkg/__init__.py\nnew file mode 100644\n--- /dev/null\n+++ b/pkg/__init__.py\n@@ -0,0 +1 @@\n+VERSION = 1\n";
    assert_eq!(judged("Add the package", marker).0, Vec::<String>::new());
    let (codes, notes) = judged("Bloom filter for the index", module);
    assert!(codes.is_empty() && notes.contains(&"script_only".to_owned()), "{notes:?}");
}

#[test]
fn a_reproduction_script_that_defines_tests_answers_no_bug_report() {
    // What agents send for a real issue: the issue's snippet as a script of its own.
    let script = "diff --git a/reproduce_bug.py b/reproduce_bug.py\nnew file mode 100644\n--- /dev/null\n+++ b/reproduce_bug.py\n@@ -0,0 +1,6 @@\n+import pytest\n+\n+def test_repr():\n+    class A:\n+        def __repr__(self): raise ValueError()\n+    pytest.fail(repr(A()))\n";
    for title in [
        "INTERNALERROR when exception in __repr__",
        "Rewrite fails when first expression of file is a number",
        "Using custom braces in message template does not work",
        "Handle an exception in __repr__",
        "Remove the dead branch in the rewriter",
    ] {
        assert_eq!(judged(title, script).0, ["script_only"], "{title}");
    }
    // The twins: a step that asks for the script or names it; a step whose kind is not stated
    // (a feature request) keeps the finding a note.
    for asked in ["Add a script that reproduces the INTERNALERROR", "Add reproduce_bug.py"] {
        assert_eq!(judged(asked, script).0, Vec::<String>::new(), "{asked}");
    }
    let (codes, notes) = judged("Hostname and timestamp properties in JUnit reports", script);
    assert!(codes.is_empty() && notes.contains(&"script_only".to_owned()), "{notes:?}");
}

#[test]
fn a_body_emptied_is_no_implementation() {
    for (body, code) in [
        ("pass", "body_replaced_by_noop"),
        ("return None", "body_replaced_by_constant"),
        ("...", "body_replaced_by_noop"),
    ] {
        let gutted = format!(
            "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,2 +1,2 @@\n def parse(x):\n-    return x[1:] + tail(x)\n+    {body}\n"
        );
        assert_eq!(judged("Fix the off-by-one in parse", &gutted).0, [code], "{body}");
        // The twins: a step that asks for a stub, and one that states a removal (a note).
        assert_eq!(judged("Stub out parse", &gutted).0, Vec::<String>::new(), "{body}");
        let (codes, notes) = judged("Remove the tail handling from parse", &gutted);
        assert!(codes.is_empty() && notes.contains(&code.to_owned()), "{body}: {notes:?}");
        // A removal of something the step names elsewhere is not carried out by emptying a
        // body it never names; one that asks for a no-op may empty any.
        assert_eq!(judged("Drop NBSP characters", &gutted).0, [code], "{body}");
        assert_eq!(judged("Remove the tail handling", &gutted).0, [code], "{body}");
        let noop = "Remove the tail handling; the hook becomes a no-op";
        assert_eq!(judged(noop, &gutted).0, Vec::<String>::new(), "{body}");
    }
    // A method gutted beside a method of the same name in another class that the patch only
    // changes: nothing took its body over. One the patch adds there took it (pushed down).
    let two = "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,6 +1,6 @@\n class Request:\n     def __init__(self, x):\n-        self.x = x\n+        self.x = dict(x)\n class Response:\n     def __init__(self, x):\n-        self.x = load(x)\n+        pass\n";
    assert_eq!(judged("Fix the annotation", two).0, ["body_replaced_by_noop"]);
    let down = "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,6 @@\n class Base:\n     def run(self, x):\n-        return load(x)\n+        pass\n+class Loader(Base):\n+    def run(self, x):\n+        return load(x)\n";
    assert_eq!(judged("Move loading into Loader", down).0, Vec::<String>::new());
    // A method: the step may name it or the type that holds it.
    let method = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,3 +1,3 @@\n class Cache:\n     def fill(self, x):\n-        self.items.append(tail(x))\n+        pass\n";
    assert_eq!(judged("Drop the Cache's tail", method).0, Vec::<String>::new());
    assert_eq!(judged("Drop NBSP characters", method).0, ["body_replaced_by_noop"]);
    // A body that was already trivial and stays so is no gutting.
    let kept = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,2 +1,2 @@\n def parse(x):\n-    pass\n+    return None\n";
    assert_eq!(judged("Fix the off-by-one in parse", kept).0, Vec::<String>::new());
}

#[test]
fn a_refusal_that_now_succeeds_is_a_change_of_behaviour() {
    // A method that only refused (an error returned or raised) now succeeds: the feature the
    // step asks for, not a body emptied.
    let step = "Support serializing unit structs";
    for (path, old, new) in [
        (
            "s.rs",
            "    fn unit(self) -> Result<(), E> {",
            ("        Err(Self::bad_type(Unsupported::Unit))", "        Ok(())"),
        ),
        (
            "s.py",
            "def unit(self):",
            ("    raise TypeError(\"unit is not supported\")", "    return None"),
        ),
        (
            "s.go",
            "func unit() error {",
            ("\treturn fmt.Errorf(\"unit: unsupported\")", "\treturn nil"),
        ),
    ] {
        let body = |from: &str, to: &str| {
            let close = if path == "s.py" { "" } else { "\n }" };
            let n = if close.is_empty() { 2 } else { 3 };
            format!(
                "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,{n} +1,{n} @@\n {old}\n-{from}\n+{to}{close}\n"
            )
        };
        let diff = body(new.0, new.1);
        assert_eq!(judged(step, &diff).0, Vec::<String>::new(), "{path}");
        // The twin: a body that computed something, emptied the same way, is gutted.
        let computed = match path {
            "s.rs" => "        self.serialize_unit_struct(name)",
            "s.py" => "    return self.write(b\"null\")",
            _ => "\treturn w.write(nullBytes)",
        };
        let gutted = body(computed, new.1);
        let found = judged(step, &gutted).0;
        assert_eq!(found.len(), 1, "{path}: {found:?}");
        assert!(found[0].starts_with("body_replaced_by_"), "{path}: {found:?}");
    }
}

#[test]
fn a_function_added_with_an_empty_body_that_declares_a_result_is_a_placeholder() {
    let added = |signature: &str| {
        format!(
            "diff --git a/src/U.kt b/src/U.kt\nnew file mode 100644\n--- /dev/null\n+++ b/src/U.kt\n@@ -0,0 +1,3 @@\n+package okio\n+\n+{signature} {{}}\n"
        )
    };
    let stub = added("inline fun <S : BufferedSink> S.writeUByte(b: UByte): S");
    assert_eq!(judged("Add unsigned numbers extensions", &stub).0, ["placeholder_added"]);
    assert_eq!(judged("Stub out the unsigned extensions", &stub).0, Vec::<String>::new());
    // The twin: a function that declares no result may do nothing.
    let callback = added("fun onClose(sink: BufferedSink)");
    assert_eq!(judged("Add unsigned numbers extensions", &callback).0, Vec::<String>::new());
}

#[test]
fn an_abstract_method_implemented_in_the_patch_is_no_placeholder() {
    let base = "class Shape:\n    def area(self):\n        raise NotImplementedError()\n";
    let sub = "class Square(Shape):\n    def area(self):\n        return self.side * self.side\n";
    let file = created;
    let both = file("shapes.py", base) + &file("square.py", sub);
    assert_eq!(judged("Add a square shape", &both).0, Vec::<String>::new());
    // The twin: the base class alone, or a subclass whose method has another name.
    assert_eq!(judged("Add a square shape", &file("shapes.py", base)).0, ["placeholder_added"]);
    let other = sub.replace("def area", "def perimeter");
    let unrelated = file("shapes.py", base) + &file("square.py", &other);
    assert_eq!(judged("Add a square shape", &unrelated).0, ["placeholder_added"]);
}

#[test]
fn a_body_taken_away_is_abstract_only_where_an_added_method_takes_it_over() {
    let gutted = modify(
        "models.py",
        &["        self.status = status", "        self.closed = False"],
        &["        raise NotImplementedError"],
        &[],
    )
    .replace(
        "@@ -1,2 +1,1 @@\n",
        "@@ -1,4 +1,3 @@\n class Response:\n     def __init__(self, status):\n",
    );
    let request =
        modify("request.py", &["        self.url = url"], &["        self.url = str(url)"], &[])
            .replace(
                "@@ -1,1 +1,1 @@\n",
                "@@ -1,3 +1,3 @@\n class Request:\n     def __init__(self, url):\n",
            );
    let step = "Fix `extensions` type annotation.";
    let (codes, _) = judged_fully(step, &(gutted.clone() + &request));
    assert!(codes.contains(&"placeholder_added".to_owned()), "{codes:?}");
    // The twin: the body pushed down into a method a subclass gets in the same patch (read
    // on every file's tree, as `validate --with-report` reads them).
    let sub = created(
        "streaming.py",
        "class StreamingResponse(Response):\n    def __init__(self, status):\n        self.status = status\n        self.closed = False\n",
    );
    assert_eq!(judged_fully(step, &(gutted + &sub)).0, Vec::<String>::new());
}

#[test]
fn logic_handed_to_a_new_function_that_does_nothing_is_a_placeholder() {
    let handed = |helper: &str, removed: &[&str]| {
        let mut lines: Vec<String> = vec![" int jv_contains(jv a, jv b) {".into()];
        lines.extend(removed.iter().map(|l| format!("-{l}")));
        lines.push("+  return contains_at(a, b, 0);".into());
        lines.push(" }".into());
        lines.push("+".into());
        lines.push("+static int contains_at(jv a, jv b, int depth) {".into());
        lines.push(format!("+  {helper}"));
        lines.push("+}".into());
        let old = 2 + removed.len();
        format!(
            "diff --git a/src/jv.c b/src/jv.c\n--- a/src/jv.c\n+++ b/src/jv.c\n@@ -1,{old} +1,7 @@\n{}\n",
            lines.join("\n")
        )
    };
    let body = ["  int r = 1;", "  if (a == b) r = 0;", "  else r = compare(a, b);", "  return r;"];
    let step = "Limit the containment check depth";
    assert_eq!(judged(step, &handed("return 0;", &body)).0, ["placeholder_added"]);
    // The twins: the helper does the work, or the caller only gains a call (a hook).
    let real = "return depth > 100 ? -1 : compare(a, b);";
    assert_eq!(judged(step, &handed(real, &body)).0, Vec::<String>::new());
    let hook = handed("return 0;", &[]);
    assert_eq!(judged(step, &hook).0, Vec::<String>::new());
}

#[test]
fn a_forwarder_of_the_same_name_takes_no_body_over() {
    let gutted = "diff --git a/src/Timeout.kt b/src/Timeout.kt\n--- a/src/Timeout.kt\n+++ b/src/Timeout.kt\n@@ -1,7 +1,3 @@\n open class Timeout {\n-  fun awaitSignal(condition: Condition) {\n-    val waitNanos = timeoutNanos()\n-    if (waitNanos <= 0) throw InterruptedIOException(\"timeout\")\n-    condition.awaitNanos(waitNanos)\n-  }\n+  open fun awaitSignal(condition: Condition) {}\n }\n";
    let forwarding = created(
        "src/ForwardingTimeout.kt",
        "open class ForwardingTimeout(val delegate: Timeout) : Timeout() {\n  override fun awaitSignal(condition: Condition) = delegate.awaitSignal(condition)\n}\n",
    );
    let step = "Implement ForwardingTimeout.cancel()";
    let (codes, _) = judged_fully(step, &(gutted.to_owned() + &forwarding));
    assert_eq!(codes, ["body_replaced_by_noop"]);
    // The twin: the subclass gets the body itself.
    let pushed = created(
        "src/ForwardingTimeout.kt",
        "open class ForwardingTimeout(val delegate: Timeout) : Timeout() {\n  override fun awaitSignal(condition: Condition) {\n    val waitNanos = timeoutNanos()\n    if (waitNanos <= 0) throw InterruptedIOException(\"timeout\")\n    condition.awaitNanos(waitNanos)\n  }\n}\n",
    );
    assert_eq!(judged_fully(step, &(gutted.to_owned() + &pushed)).0, Vec::<String>::new());
}

#[test]
fn a_comment_repeating_the_step_documents_nothing() {
    let context = ["def parse(x):", "    return x[1:]"];
    let repeat = modify("p.py", &[], &["# Explain the retry loop in parse"], &context);
    assert_eq!(judged("docs: explain the retry loop in parse", &repeat).0, ["comment_only"]);
    // The twin: a comment that says more than the step, or one the step's words only start.
    let explains = modify(
        "p.py",
        &[],
        &["# parse drops the first byte: the header, which the caller checked"],
        &context,
    );
    assert_eq!(judged("docs: explain why parse drops a byte", &explains).0, Vec::<String>::new());
    let short = modify("p.py", &[], &["# parse is lazy"], &context);
    assert_eq!(judged("Document that parse is lazy", &short).0, Vec::<String>::new());
}

#[test]
fn a_one_word_step_states_no_task_to_hold_a_superficial_change_against() {
    let blank = "diff --git a/B.kt b/B.kt\n--- a/B.kt\n+++ b/B.kt\n@@ -1,4 +1,3 @@\n fun a() = 1\n-\n \n fun b() = 2\n";
    for step in ["Spotless", "changelog.", "2022"] {
        let (codes, notes) = judged(step, blank);
        assert!(codes.is_empty(), "{step}: {codes:?}");
        assert!(notes.contains(&"whitespace_only".to_owned()), "{step}: {notes:?}");
    }
    // The twins: one word that states a kind, and whitespace added for a step of more words
    // (a blank line taken out for one whose kind is not stated is a clean-up: a note).
    assert_eq!(judged("Fixes", blank).0, ["whitespace_only"]);
    let added = "diff --git a/B.kt b/B.kt\n--- a/B.kt\n+++ b/B.kt\n@@ -1,3 +1,4 @@\n fun a() = 1\n+\n \n fun b() = 2\n";
    assert_eq!(judged("Spotless check for the buffer", added).0, ["whitespace_only"]);
    let (codes, notes) = judged("Spotless check for the buffer", blank);
    assert!(codes.is_empty() && notes.contains(&"whitespace_only".to_owned()), "{notes:?}");
}

#[test]
fn a_step_that_names_the_directive_asks_for_it() {
    let nocov =
        modify("u.rb", &[], &["    # :nocov:"], &["    else", "      require 'cgi/escape'"]);
    let step = "Add nocov markings around code only executed in Ruby < 3.2";
    assert_eq!(judged(step, &nocov).0, Vec::<String>::new());
    let nosec = modify("c.go", &["\treturn m[0]"], &["\treturn m[0] // #nosec G602"], &["}"]);
    assert_eq!(judged("fix: disable G602 in findNext", &nosec).0, Vec::<String>::new());
    // The twins: steps that name neither the directive nor the rule it silences, and a
    // keyword too common to count (`type` of `# type: ignore`).
    assert_eq!(judged("Add a fallback for Ruby < 3.2", &nocov).0, ["directive_only"]);
    assert_eq!(judged("fix: bounds check in findNext", &nosec).0, ["directive_only"]);
    let ignore = modify("p.py", &["x = load(y)"], &["x = load(y)  # type: ignore"], &[]);
    assert_eq!(judged("Fix the type of x", &ignore).0, ["directive_only"]);
    // A keyword in capitals is a name (an acronym), short as it is; its twin names none.
    let iwyu = modify("a.hpp", &[], &["// IWYU pragma: export"], &["#pragma once"]);
    assert_eq!(judged("Add IWYU pragmas", &iwyu).0, Vec::<String>::new());
    assert_eq!(judged("Add the headers' exports", &iwyu).0, ["directive_only"]);
}

#[test]
fn a_silencing_attribute_is_a_directive_not_a_fix() {
    let rust = modify(
        "m.rs",
        &[],
        &["#[allow(warnings)]"],
        &["fn parse(x: u8) -> u8 {", "    x + 1", "}"],
    );
    let java = modify(
        "P.java",
        &[],
        &["@SuppressWarnings(\"all\")"],
        &["class P {", "    int parse(int x) {", "        return x + 1;", "    }", "}"],
    );
    let kotlin = modify(
        "P.kt",
        &[],
        &["@Suppress(\"UNCHECKED_CAST\")"],
        &["fun parse(x: Int): Int {", "    return x + 1", "}"],
    );
    for cheat in [&rust, &java, &kotlin] {
        assert_eq!(judged("Fix the overflow in parse", cheat).0, ["directive_only"], "{cheat}");
        // The twin: a step that silences a check.
        assert_eq!(judged("Silence the lint on parse", cheat).0, Vec::<String>::new(), "{cheat}");
    }
    // A step that names the lint the attribute lists asks for it; `allow` is no such name.
    let dead = modify(
        "m.rs",
        &[],
        &["#[allow(dead_code)]"],
        &["fn parse(x: u8) -> u8 {", "    x + 1", "}"],
    );
    assert_eq!(judged("Keep parse despite dead_code", &dead).0, Vec::<String>::new());
    assert_eq!(judged("Fix: allow parse to overflow", &dead).0, ["directive_only"]);
    // Other attributes are code; silencers only removed turn checks back on (a note).
    let derive = modify("m.rs", &[], &["#[derive(Debug)]"], &["struct P {", "    x: u8,", "}"]);
    assert_eq!(judged("Fix the overflow in parse", &derive).0, Vec::<String>::new());
    let removed = modify(
        "m.rs",
        &["#[allow(dead_code)]"],
        &[],
        &["fn parse(x: u8) -> u8 {", "    x + 1", "}"],
    );
    let (codes, notes) = judged("Remove unneeded allows", &removed);
    assert!(codes.is_empty() && notes.contains(&"directive_only".to_owned()), "{notes:?}");
}

#[test]
fn a_removal_removes_what_it_names() {
    let context = ["def parse_legacy(x):", "    return x[2:]", "", "def parse(x):"];
    let other = modify("p.py", &["    return x[1:]"], &["    return x"], &context);
    assert_eq!(judged("Remove parse_legacy", &other).0, ["removal_missing"]);
    // The twins: the definition removed, a step in plain words, and the name moved elsewhere.
    let removed = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,5 +1,2 @@\n-def parse_legacy(x):\n-    return x[2:]\n-\n def parse(x):\n     return x[1:]\n";
    assert_eq!(judged("Remove parse_legacy", removed).0, Vec::<String>::new());
    assert_eq!(judged("Remove the legacy parsing", &other).0, Vec::<String>::new());
    let moved = format!(
        "{removed}diff --git a/q.py b/q.py\n--- a/q.py\n+++ b/q.py\n@@ -1,1 +1,3 @@\n x = 1\n+def parse_legacy(x):\n+    return x[2:]\n"
    );
    assert_eq!(judged("Remove parse_legacy from p.py", &moved).0, Vec::<String>::new());
}

#[test]
fn a_removal_of_a_definition_is_met_only_when_the_definition_is_gone() {
    // Another definition that calls it removed, or its body emptied: still defined.
    let other = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,6 +1,3 @@\n def parse_legacy(x):\n     return x[2:]\n-\n-def parse(x):\n-    return parse_legacy(x)\n \n";
    assert_eq!(judged("Remove parse_legacy", other).0, ["removal_missing"]);
    let emptied = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,5 +1,5 @@\n def parse_legacy(x):\n-    return x[2:] + tail(x)\n+    pass\n \n def parse(x):\n     return parse_legacy(x)\n";
    let codes = judged("Remove `parse_legacy` from p.py", emptied).0;
    assert!(codes.contains(&"removal_missing".to_owned()), "{codes:?}");
    // A bare word a touched file defines is the name of that definition.
    let class = "diff --git a/c.py b/c.py\n--- a/c.py\n+++ b/c.py\n@@ -1,6 +1,3 @@\n class Clock:\n     pass\n-\n-def tick(c):\n-    return Clock()\n \n";
    assert_eq!(judged("Remove Clock", class).0, ["removal_missing"]);
    // The twins: the definition removed (its callers may stay), a bare word no file defines,
    // and an object that removes more than the name says (its calls).
    let gone = "diff --git a/c.py b/c.py\n--- a/c.py\n+++ b/c.py\n@@ -1,6 +1,3 @@\n def tick(c):\n     return 1\n-\n-class Clock:\n-    pass\n \n";
    assert_eq!(judged("Remove Clock", gone).0, Vec::<String>::new());
    assert_eq!(judged("Remove Timer", class).0, Vec::<String>::new());
    let calls = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,5 +1,5 @@\n def parse_legacy(x):\n     return x[2:]\n \n def parse(x):\n-    return parse_legacy(x)\n+    return x\n";
    assert_eq!(judged("Remove parse_legacy calls", calls).0, Vec::<String>::new());
    assert_eq!(judged("Remove parse_legacy", calls).0, ["removal_missing"]);
}

#[test]
fn an_extraction_s_helper_is_called_from_outside_it_and_its_source_changes() {
    let step = "Extract walk from parse";
    // The helper calls itself, and nothing else calls it; its source left as it was.
    let recursive = modify(
        "p.py",
        &[],
        &["def walk(x):", "    return walk(x[1:]) if x else x", ""],
        &["def parse(x):", "    return x[:4] + x[4:]"],
    );
    assert_eq!(judged(step, &recursive).0, ["extraction_missing"]);
    // The source changed, and only the helper itself calls the helper.
    let unused = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,2 +1,5 @@\n+def walk(x):\n+    return walk(x[1:]) if x else x\n+\n def parse(x):\n-    return x[:4] + x[4:]\n+    return x[:4] + x[5:]\n";
    assert_eq!(judged(step, unused).0, ["extraction_missing"]);
    // The twin: the source calls it.
    let done = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,2 +1,5 @@\n+def walk(x):\n+    return walk(x[1:]) if x else x\n+\n def parse(x):\n-    return x[:4] + x[4:]\n+    return walk(x)\n";
    assert_eq!(judged(step, done).0, Vec::<String>::new());
    // A bare word the patch defines names the helper: stubbed, it is no extraction.
    let stub = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,2 +1,5 @@\n+def PERCENT(x):\n+    return 0\n+\n def parse(x):\n-    return x[:4] + x[4:]\n+    return PERCENT(x)\n";
    assert_eq!(judged("Extract PERCENT from parse", stub).0, ["extraction_missing"]);
    let real = stub.replace("+    return 0\n", "+    return x[:4] + x[4:]\n");
    assert_eq!(judged("Extract PERCENT from parse", &real).0, Vec::<String>::new());
}

#[test]
fn an_extraction_found_stubbed_is_judged_though_another_file_is_read_by_lines() {
    let step = "Extract read_header from parse";
    let notes = "diff --git a/NOTES b/NOTES\n--- a/NOTES\n+++ b/NOTES\n@@ -1,1 +1,2 @@\n notes\n+read_header\n";
    let stub = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,2 +1,5 @@\n+def read_header(x):\n+    return 0\n+\n def parse(x):\n-    return x[:4] + x[4:]\n+    return read_header(x) + x[4:]\n";
    assert_eq!(judged(step, &format!("{stub}{notes}")).0, ["extraction_missing"]);
    // The twin: the helper is not in a file read on its tree; the one read by lines may hold it.
    let elsewhere = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,2 +1,2 @@\n def parse(x):\n-    return x[:4] + x[4:]\n+    return read_header(x) + x[4:]\n";
    assert_eq!(judged(step, &format!("{elsewhere}{notes}")).0, Vec::<String>::new());
    // A method declared in an interface is no helper with a body.
    let declared = "diff --git a/g.ts b/g.ts\n--- a/g.ts\n+++ b/g.ts\n@@ -1,6 +1,8 @@\n interface Git {\n   init(): void\n+  version(): string\n }\n class Cmd implements Git {\n+  version(): string { return '' }\n   init(): void { run('init') }\n }\n";
    assert_eq!(judged("Extract `version` from `init`", declared).0, ["extraction_missing"]);
}

#[test]
fn an_extraction_adds_a_real_helper_that_is_used() {
    let step = "Extract read_header from parse";
    let stub = modify(
        "p.py",
        &[],
        &["def read_header(x):", "    pass", ""],
        &["def parse(x):", "    return x[:4] + x[4:]"],
    );
    assert_eq!(judged(step, &stub).0, ["extraction_missing"]);
    let unused = modify(
        "p.py",
        &[],
        &["def read_header(x):", "    return x[:4]", ""],
        &["def parse(x):", "    return x[:4] + x[4:]"],
    );
    assert_eq!(judged(step, &unused).0, ["extraction_missing"]);
    let none = modify("p.py", &["    return x[:4] + x[4:]"], &["    return x[:4] + x[5:]"], &[]);
    let none = none.replace("@@ -1,1 +1,1 @@\n", "@@ -1,2 +1,2 @@\n def parse(x):\n");
    assert_eq!(judged("Move the header parsing into a helper", &none).0, ["extraction_missing"]);
    // The twins: the helper added with a real body and called; a step that asks for a stub.
    let done = "diff --git a/p.py b/p.py\n--- a/p.py\n+++ b/p.py\n@@ -1,2 +1,5 @@\n+def read_header(x):\n+    return x[:4]\n+\n def parse(x):\n-    return x[:4] + x[4:]\n+    return read_header(x) + x[4:]\n";
    assert_eq!(judged(step, done).0, Vec::<String>::new());
    assert_eq!(judged("Move the header parsing into a helper", done).0, Vec::<String>::new());
    assert_eq!(judged("Extract read_header from parse as a stub", &stub).0, Vec::<String>::new());
}

#[test]
fn an_extraction_that_names_no_function_may_extract_something_else() {
    // Constants moved out of a module into one of their own: no function is extracted.
    let constants = "diff --git a/net/limits.py b/net/limits.py\nnew file mode 100644\n--- /dev/null\n+++ b/net/limits.py\n@@ -0,0 +1,2 @@\n+MAX_SIZE = 4096\n+TIMEOUT = 30\ndiff --git a/net/client.py b/net/client.py\n--- a/net/client.py\n+++ b/net/client.py\n@@ -1,5 +1,4 @@\n-MAX_SIZE = 4096\n-TIMEOUT = 30\n+from net.limits import MAX_SIZE, TIMEOUT\n \n def fetch(url):\n     return get(url, MAX_SIZE, TIMEOUT)\n";
    assert_eq!(judged("Extract constants into a module", constants).0, Vec::<String>::new());
    assert_eq!(judged("Extract the limits", constants).0, Vec::<String>::new());
    // The twins: a step that says it extracts a function, answered by no function.
    assert_eq!(
        judged("Extract the limits into a helper function", constants).0,
        ["extraction_missing"]
    );
    assert_eq!(judged("Extract `read_limits` from fetch", constants).0, ["extraction_missing"]);
}

#[test]
fn a_function_added_as_a_no_op_that_the_tests_call_is_a_placeholder() {
    let code = "diff --git a/lib/req.rb b/lib/req.rb\n--- a/lib/req.rb\n+++ b/lib/req.rb\n@@ -1,2 +1,5 @@\n class Req\n+  def query(uri)\n+    nil\n+  end\n end\n";
    let test = "diff --git a/test/spec_req.rb b/test/spec_req.rb\n--- a/test/spec_req.rb\n+++ b/test/spec_req.rb\n@@ -1,1 +1,2 @@\n require 'req'\n+assert_equal 'x', Req.new.query('/')\n";
    let step = "Add support for the QUERY method";
    assert_eq!(judged(step, &format!("{code}{test}")).0, ["placeholder_added"]);
    // The twins: the same no-op without a test that calls it (a hook), and a real body.
    assert_eq!(judged(step, code).0, Vec::<String>::new());
    let other = test.replace(".query(", ".fetch(");
    assert_eq!(judged(step, &format!("{code}{other}")).0, Vec::<String>::new());
    let real = code.replace("+    nil\n", "+    fetch(uri)\n");
    assert_eq!(judged(step, &format!("{real}{test}")).0, Vec::<String>::new());
}

#[test]
fn trailing_spaces_appended_in_a_file_without_a_grammar_are_read_with_certainty() {
    let step = "Update Gradle to v9.6.1";
    let props = ["distributionUrl=https://x/gradle-9.6.0-bin.zip", "networkTimeout=10000"];
    let appended: Vec<String> = props.iter().map(|l| format!("{l}   ")).collect();
    let appended: Vec<&str> = appended.iter().map(String::as_str).collect();
    let cheat = modify("gradle/wrapper/gradle-wrapper.properties", &props, &appended, &["x=1"]);
    assert_eq!(judged(step, &cheat).0, ["whitespace_only"]);
    let cmake = modify("Dockerfile", &["project(x)"], &["project(x)\t"], &["add(y)"]);
    assert_eq!(judged("fix(bazel): propagate defines to consumers", &cmake).0, ["whitespace_only"]);
    // The twins: whitespace changed inside a line or before it, or removed, which the lines
    // cannot read with certainty (`a b` and `ab` differ in a shell or a properties file): notes.
    for new in [
        "distributionUrl = https://x/gradle-9.6.0-bin.zip",
        "  distributionUrl=https://x/gradle-9.6.0-bin.zip",
    ] {
        let diff =
            modify("gradle/wrapper/gradle-wrapper.properties", &props[..1], &[new], &["x=1"]);
        let (codes, notes) = judged(step, &diff);
        assert!(codes.is_empty(), "{new}: {codes:?}");
        assert!(notes.contains(&"whitespace_only".to_owned()), "{new}: {notes:?}");
    }
    let trimmed = modify("Dockerfile", &["project(x)  "], &["project(x)"], &["add(y)"]);
    assert!(judged("Tidy the build", &trimmed).0.is_empty());
    // A real change beside the spaces, and a formatting step: no finding.
    let real = modify("Dockerfile", &["project(x)"], &["project(y)   "], &["add(y)"]);
    assert!(judged("fix(bazel): propagate defines to consumers", &real).0.is_empty());
    assert!(judged("Format Dockerfile", &cmake).0.is_empty());
}

#[test]
fn a_test_added_with_a_body_that_does_nothing_tests_nothing() {
    let empty = "diff --git a/tests/test_req.py b/tests/test_req.py\n--- a/tests/test_req.py\n+++ b/tests/test_req.py\n@@ -1,2 +1,6 @@\n def test_old():\n     assert True\n+\n+\n+def test_request_params():\n+    pass\n";
    let step = "Add test for request params behavior changes (#3364)";
    assert_eq!(judged(step, empty).0, ["placeholder_added"]);
    let go = "diff --git a/cmd_test.go b/cmd_test.go\n--- a/cmd_test.go\n+++ b/cmd_test.go\n@@ -1,1 +1,3 @@\n package cobra\n+\n+func TestFlags(t *testing.T) {}\n";
    assert_eq!(judged("Fix flag parsing", go).0, ["placeholder_added"]);
    // The twins: a test that asserts, a helper of the test file that returns nothing, and a
    // step that asks for a stub.
    let real = empty.replace("+    pass\n", "+    assert Request(params={}).url.query == b\"\"\n");
    assert_eq!(judged(step, &real).0, Vec::<String>::new());
    let helper = empty.replace("test_request_params", "fake_params");
    assert_eq!(judged(step, &helper).0, Vec::<String>::new());
    assert_eq!(judged("Add a placeholder test for params", empty).0, Vec::<String>::new());
    // A Go test of several statements, one of them `context.TODO()`, is a real test (its
    // block's statements are read one by one, not as one placeholder).
    let ctx = go.replace(
        "func TestFlags(t *testing.T) {}",
        "func TestFlags(t *testing.T) {\n+\tctx := context.TODO()\n+\trun(ctx, t)\n+}",
    );
    let ctx = ctx.replace("@@ -1,1 +1,3 @@", "@@ -1,1 +1,6 @@");
    assert_eq!(judged_fully("Fix flag parsing", &ctx).0, Vec::<String>::new());
    assert_eq!(judged_fully("Fix flag parsing", go).0, ["placeholder_added"]);
    // A test is what an annotation or an attribute marks so, whatever its name, and a
    // function named as a test runner (`run_x_tests`); a helper of a test file is neither.
    let kotlin = "diff --git a/okio/src/jvmTest/kotlin/okio/PipeTest.kt b/okio/src/jvmTest/kotlin/okio/PipeTest.kt\n--- a/okio/src/jvmTest/kotlin/okio/PipeTest.kt\n+++ b/okio/src/jvmTest/kotlin/okio/PipeTest.kt\n@@ -1,7 +1,5 @@\n class PipeTest {\n   @Test\n   fun sourceBlocksOnSlowWriter() {\n-    val pipe = Pipe(100L)\n-    assertEquals(3, pipe.source.read(Buffer(), 3))\n   }\n }\n";
    let step = "Change slow Pipe tests to use a position signal";
    assert_eq!(judged_fully(step, kotlin).0, ["placeholder_added"]);
    let helper = kotlin.replace("  @Test\n", "  @Suppress(\"unused\")\n");
    assert_eq!(judged_fully(step, &helper).0, Vec::<String>::new());
    let rust = "diff --git a/tests/parse.rs b/tests/parse.rs\n--- a/tests/parse.rs\n+++ b/tests/parse.rs\n@@ -1,1 +1,4 @@\n use x::parse;\n+\n+#[test]\n+fn parses_an_empty_header() {}\n";
    assert_eq!(judged_fully("Parse empty headers", rust).0, ["placeholder_added"]);
    assert_eq!(
        judged_fully("Parse empty headers", &rust.replace("#[test]", "#[inline]")).0,
        Vec::<String>::new()
    );
    let c = "diff --git a/src/jq_test.c b/src/jq_test.c\n--- a/src/jq_test.c\n+++ b/src/jq_test.c\n@@ -1,1 +1,3 @@\n #include \"jq.h\"\n+static void run_jq_recompile_tests(void) {}\n+static void fake_recompile(void) {}\n";
    assert_eq!(judged_fully("Fix use-after-free in args2obj()", c).0, ["placeholder_added"]);
    // A C++ test macro registering a disabled case is no function of that name.
    let cpp = "diff --git a/tests/OptionalTest.cpp b/tests/OptionalTest.cpp\n--- a/tests/OptionalTest.cpp\n+++ b/tests/OptionalTest.cpp\n@@ -1,1 +1,4 @@\n #include \"app.hpp\"\n+#if !CLI11_OPTIONAL\n+TEST_F(TApp, DISABLED_OptionalTest) {}\n+#endif\n";
    assert_eq!(judged_fully("tests: add some extra tests", cpp).0, Vec::<String>::new());
}

#[test]
fn a_checker_step_is_answered_by_edited_comments_or_whitespace_taken_out() {
    let context = ["def parse(x):", "    return x[1:]"];
    let edited = modify("p.py", &["# teh parser"], &["# the parser"], &context);
    assert_eq!(judged("Fix the spelling lint", &edited).0, Vec::<String>::new());
    assert_eq!(judged("Resolve doc_markdown clippy lint", &edited).0, Vec::<String>::new());
    // The twin: a comment only added answers no checker.
    let added = modify("p.py", &[], &["# the parser is lint-clean"], &context);
    assert_eq!(judged("Resolve doc_markdown clippy lint", &added).0, ["comment_only"]);
    let squeezed = modify("p.go", &["\tc.out =  w"], &["\tc.out = w"], &["}"]);
    assert_eq!(judged("Fixed linter issues", &squeezed).0, Vec::<String>::new());
    // The twin: trailing whitespace added is what no linter asks for.
    let trailing = modify("p.go", &["\tc.out = w"], &["\tc.out = w  "], &["}"]);
    assert_eq!(judged("Fixed linter issues", &trailing).0, ["whitespace_only"]);
    // And a step that states no checker is not answered by whitespace taken out.
    assert_eq!(judged("Fix the output writer", &squeezed).0, ["whitespace_only"]);
}

#[test]
fn a_constant_in_one_variant_of_a_definition_or_one_moved_is_no_placeholder() {
    let new_file = created;
    let test = "diff --git a/src/test/kotlin/FsTest.kt b/src/test/kotlin/FsTest.kt\n--- a/src/test/kotlin/FsTest.kt\n+++ b/src/test/kotlin/FsTest.kt\n@@ -1,1 +1,2 @@\n fun setUp() {}\n+fun t() { if (isWasm()) return }\n";
    let jvm = new_file(
        "src/jvmMain/kotlin/Jvm.kt",
        "package okio\n\nactual fun isWasm(): Boolean {\n  return false\n}\n",
    );
    let wasm = new_file(
        "src/wasmMain/kotlin/Wasm.kt",
        "package okio\n\nactual fun isWasm(): Boolean {\n  return true\n}\n",
    );
    let step = "Build Okio for WASM";
    assert_eq!(judged(step, &format!("{jvm}{wasm}{test}")).0, Vec::<String>::new());
    // The twin: the same constant everywhere is no choice per platform.
    let js = new_file(
        "src/jsMain/kotlin/Js.kt",
        "package okio\n\nactual fun isWasm(): Boolean {\n  return false\n}\n",
    );
    let same = judged(step, &format!("{jvm}{js}{test}")).0;
    assert_eq!(same, ["placeholder_added", "placeholder_added"]);
    // A no-op moved from one file to another as it was is no new placeholder.
    let from = "diff --git a/lib/mock.rb b/lib/mock.rb\n--- a/lib/mock.rb\n+++ b/lib/mock.rb\n@@ -1,5 +1,2 @@\n class Mock\n-  def flush(x)\n-    nil\n-  end\n end\n";
    let to = new_file("lib/warner.rb", "class Mock\n  def flush(x)\n    nil\n  end\nend\n");
    let spec = "diff --git a/test/spec_mock.rb b/test/spec_mock.rb\n--- a/test/spec_mock.rb\n+++ b/test/spec_mock.rb\n@@ -1,1 +1,2 @@\n require 'mock'\n+Mock.new.flush(1)\n";
    let step = "Move the mock into its own file";
    assert_eq!(judged(step, &format!("{from}{to}{spec}")).0, Vec::<String>::new());
    assert_eq!(judged(step, &format!("{to}{spec}")).0, ["placeholder_added"], "the twin: new");
}

#[test]
fn a_comment_edit_that_removes_the_code_the_step_quotes_answers_it() {
    let context = ["  use Rack::ContentLength", "  run App"];
    let example = modify("lib/builder.rb", &["  #   #\\ -p 9393", "  #"], &[], &context);
    let step = "Remove an example that passes options on the first `#\\` line";
    assert_eq!(judged(step, &example).0, Vec::<String>::new());
    // The twin: the quoted code is not in what the patch removes.
    let other = modify("lib/builder.rb", &["  #   an older note", "  #"], &[], &context);
    assert_eq!(judged(step, &other).0, ["comment_only"]);
}

#[test]
fn a_placeholder_statement_excluded_from_coverage_on_a_later_line_is_marked_unreachable() {
    let context = ["class SyncByteStream:", "    def __iter__(self):"];
    let marked = modify(
        "httpx/base.py",
        &[],
        &[
            "        raise NotImplementedError(",
            "            \"The '__iter__' method must be implemented.\"",
            "        )  # pragma: nocover",
        ],
        &[],
    );
    let marked = marked.replace("@@ -1,0 +1,3 @@\n", "@@ -1,2 +1,5 @@\n");
    let marked = marked.replacen(
        "+        raise",
        &format!(" {}\n {}\n+        raise", context[0], context[1]),
        1,
    );
    assert_eq!(judged("Stream interface", &marked).0, Vec::<String>::new());
    // The twin: the pragma after the statement's end is another line's.
    let after = marked.replace(")  # pragma: nocover", ")\n+x = 1  # pragma: nocover");
    let after = after.replace("@@ -1,2 +1,5 @@", "@@ -1,2 +1,6 @@");
    assert_eq!(judged("Stream interface", &after).0, ["placeholder_added"]);
}

#[test]
fn a_body_marked_deprecated_may_do_nothing_and_one_left_as_it_was_is_not_emptied() {
    let go = |marker: &str| {
        let n = 5 + marker.lines().count();
        format!(
            "diff --git a/z.go b/z.go\n--- a/z.go\n+++ b/z.go\n@@ -1,8 +1,{n} @@\n package cobra\n \n{marker}\n func (c *Command) MarkFile(n int) error {{\n-\tif n < 1 {{\n-\t\treturn fmt.Errorf(\"bad %d\", n)\n-\t}}\n-\treturn c.mark(n)\n+\treturn nil\n }}\n"
        )
    };
    let step = "Extend Go completions";
    let deprecated = go("+// MarkFile only worked for zsh.\n+//\n+// Deprecated");
    let (codes, notes) = judged(step, &deprecated);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(notes.contains(&"body_replaced_by_constant".to_owned()), "{notes:?}");
    // The twin: the same body emptied with no deprecation said.
    let gutted = go("+// MarkFile marks a file.");
    assert_eq!(judged(step, &gutted).0, ["body_replaced_by_constant"]);

    // A C++ overload whose header alone the patch rewrites keeps its `return true;`: it was
    // trivial before, whichever definition the summary pairs it with.
    let header = "diff --git a/t.hpp b/t.hpp\n--- a/t.hpp\n+++ b/t.hpp\n@@ -1,8 +1,8 @@\n template <class T, std::size_t I>\n-bool convert(const std::vector<std::string> &strings, T &out) {\n-    return load(strings, out);\n+bool convert(std::vector<std::string> strings, T &out) {\n+    return load(std::move(strings), out);\n }\n-template <class T>\n-bool convert(const std::vector<std::string> &, T &) {\n+template <class A>\n+bool convert(const std::vector<std::string> &, A &) {\n     return true;\n }\n";
    assert_eq!(judged_fully("Container options", header).0, Vec::<String>::new());
    // The twin: the lines of a body removed above a `return true;` that stays are emptied.
    let emptied = "diff --git a/t.hpp b/t.hpp\n--- a/t.hpp\n+++ b/t.hpp\n@@ -1,5 +1,3 @@\n bool convert(const std::vector<std::string> &strings, int &out) {\n-    out = std::stoi(strings[0]);\n-    log(out);\n     return true;\n }\n";
    assert_eq!(judged_fully("Container options", emptied).0, ["body_replaced_by_constant"]);
}

#[test]
fn the_old_name_of_a_rename_is_the_word_the_patch_replaces() {
    let diff = |old: &str, new: &str| modify("execute.c", &[old], &[new], &["  break;"]);
    let done = diff("  case FORK_OPT:", "  case TRY_BEGIN:");
    for step in [
        "Rename the FORK_OPT opcode to TRY_BEGIN",
        "Fix try/catch\n\nRename the FORK_OPT opcode to TRY_BEGIN, add a TRY_END opcode.",
    ] {
        assert_eq!(judged(step, &done).0, Vec::<String>::new(), "{step}");
    }
    let param = modify("w.py", &["def f(log_file=None):"], &["def f(wsgi_errors=None):"], &[]);
    assert_eq!(judged("rename log_file param to wsgi_errors", &param).0, Vec::<String>::new());
    // The twin: a patch that renames nothing of the kind.
    let other = diff("  case FORK:", "  case TRY_BEGIN:");
    assert_eq!(judged("Rename the FORK_OPT opcode to TRY_BEGIN", &other).0, ["rename_missing"]);
    // A name in the plural written as code names a family: each member renamed.
    let family = modify(
        "c.go",
        &["\treturn nil, BashCompDirectiveNoSpace"],
        &["\treturn nil, ShellCompDirectiveNoSpace"],
        &[],
    );
    let plural = "Rename BashCompDirectives to ShellCompDirectives";
    assert_eq!(judged(plural, &family).0, Vec::<String>::new());
    let untouched = modify("c.go", &["\treturn nil, 1"], &["\treturn nil, ShellComp"], &[]);
    assert_eq!(judged(plural, &untouched).0, ["rename_missing"]);
}

#[test]
fn comments_revised_for_a_step_of_unstated_kind_are_a_note() {
    let context = ["fun sha1(): ByteString = digest(\"SHA-1\")"];
    let revised = modify(
        "ByteString.kt",
        &["  /** Returns the SHA-1 hash. */"],
        &["  /**", "   * Returns the SHA-1 hash.", "   *", "   * SHA-1 is broken.", "   */"],
        &context,
    );
    for step in ["Warn about SHA-1 collisions", "Add some warnings about hashes"] {
        let (codes, notes) = judged(step, &revised);
        assert!(codes.is_empty(), "{step}: {codes:?}");
        assert!(notes.contains(&"comment_only".to_owned()), "{step}: {notes:?}");
    }
    // Code the step quotes in the hunk (the parameter's name beside the edited line) is no
    // sign of another comment.
    let param = modify(
        "client.py",
        &["    # disable verification."],
        &["    # an ssl.SSLContext, or disable verification."],
        &["    # * verify - SSL certificates, or", "    return send(url, verify)"],
    );
    let (codes, notes) = judged("Update `verify` parameter description", &param);
    assert!(codes.is_empty() && notes.contains(&"comment_only".to_owned()), "{notes:?}");
    assert_eq!(judged("Update `timeout` parameter description", &param).0, ["comment_only"]);
    // The twins: a step recognized as a behaviour, and a new comment set down beside code.
    assert_eq!(judged("Fix the SHA-1 digest", &revised).0, ["comment_only"]);
    let beside = modify("ByteString.kt", &[], &["  // SHA-1 is broken"], &context);
    assert_eq!(judged("Warn about SHA-1 collisions", &beside).0, ["comment_only"]);
}

#[test]
fn words_inserted_into_a_comment_beside_what_the_step_names_answer_no_behaviour() {
    // The comment beside the code the step names gets a word of no concern to it: for an
    // addition, a fix named in the comment, a checker's complaint, a bump.
    let context = ["    fun cancel() {", "        state = CANCELED"];
    let slipped = modify(
        "AsyncTimeout.kt",
        &["    // Cancel the AsyncTimeout before its deadline"],
        &["    // Note: cancel the AsyncTimeout before its deadline"],
        &context,
    );
    for step in [
        "Implement AsyncTimeout.cancel() (#1396)",
        "fix: cancel the AsyncTimeout before its deadline",
        "Fix the AsyncTimeout deadline detekt lint",
        "Bump kotlinx-coroutines from 1.7 to 1.8",
    ] {
        assert_eq!(judged(step, &slipped).0, ["comment_only"], "{step}");
    }
    // The twins: the step's words put into the comment, or the comment's own words replaced
    // (a list kept in a comment corrected), and a documentation step.
    let listed = modify(
        "AsyncTimeout.kt",
        &["    // States: IDLE, IN_QUEUE, TIMED_OUT"],
        &["    // States: IDLE, IN_QUEUE, TIMED_OUT, CANCELED"],
        &context,
    );
    let (codes, notes) = judged("Add the CANCELED state to the AsyncTimeout states", &listed);
    assert!(codes.is_empty() && notes.contains(&"comment_only".to_owned()), "{notes:?}");
    let corrected = modify(
        "AsyncTimeout.kt",
        &["    // AsyncTimeout states: IDLE, IN_QUEUE, TIMED_OUT"],
        &["    // AsyncTimeout states: IDLE, QUEUED, TIMED_OUT"],
        &context,
    );
    assert_eq!(judged("fix: the AsyncTimeout states", &corrected).0, Vec::<String>::new());
    assert_eq!(judged("Clarify the AsyncTimeout comments", &slipped).0, Vec::<String>::new());
}

#[test]
fn a_line_added_to_a_doc_comment_block_extends_it() {
    let context = ["//! - [JSON], the ubiquitous format.", "//!"];
    let entry = modify("src/lib.rs", &[], &["//! - [CSV], comma-separated values."], &context);
    let (codes, notes) = judged("Add CSV to the formats list", &entry);
    assert!(codes.is_empty() && notes.contains(&"comment_only".to_owned()), "{notes:?}");
    // The twin: the same line beside code is a new comment, not an extended one.
    let code = ["pub fn formats() -> usize {", "    2"];
    let beside = modify("src/lib.rs", &[], &["    // CSV, comma-separated values."], &code);
    assert_eq!(judged("Add CSV to the formats list", &beside).0, ["comment_only"]);
}

#[test]
fn commented_out_code_removed_for_a_removal_is_a_note() {
    let context = ["\tAppName string", "}"];
    let removed =
        modify("project.go", &["", "\t//absPath string", "\t//name string"], &[], &context);
    let (codes, notes) = judged("remove unused struct fields", &removed);
    assert!(codes.is_empty() && notes.contains(&"comment_only".to_owned()), "{notes:?}");
    // The twin: a refactoring is not carried out by comments taken out.
    assert_eq!(judged("Simplify the project struct", &removed).0, ["comment_only"]);
}

#[test]
fn a_step_that_asks_for_a_todo_is_answered_by_one() {
    let context = ["\tproject := &Project{", "\t}"];
    let todo =
        modify("init.go", &[], &["\t// todo:", "\t// if . use the current directory"], &context);
    let (codes, notes) = judged("vgo - add todo", &todo);
    assert!(codes.is_empty() && notes.is_empty(), "{codes:?} {notes:?}");
    // The twins: a step that asks for something else, and a todo that repeats the step.
    assert_eq!(judged("vgo - add the current directory", &todo).0, ["comment_only"]);
    let block = ["\t// Project settings", "\tproject := &Project{"];
    let repeat = modify("init.go", &[], &["\t// TODO: use the current directory"], &block);
    assert_eq!(judged("Use the current directory", &repeat).0, ["comment_only"]);
}

#[test]
fn a_comment_that_is_the_step_however_short_repeats_it() {
    let context = ["// The version.", "pub const VERSION: &str = \"1.0.227\";"];
    let repeat = modify("src/lib.rs", &[], &["// Release 1.0.227"], &context);
    assert_eq!(judged("Release 1.0.227", &repeat).0, ["comment_only"]);
    // The twin: a short comment of other words extending that block is a note.
    let other = modify("src/lib.rs", &[], &["// Released with 1.0.227"], &context);
    let (codes, notes) = judged("Release 1.0.227", &other);
    assert!(codes.is_empty() && notes.contains(&"comment_only".to_owned()), "{notes:?}");
}

#[test]
fn a_placeholder_in_an_override_nothing_in_the_patch_reaches_is_an_interface_s_due() {
    let class = |modifier: &str, called: &str| {
        let code = created(
            "src/AssetFileSystem.kt",
            &format!(
                "class AssetFileSystem : FileSystem() {{\n  override fun list(dir: Path): List<Path> {{\n    return entries(dir).map {{ dir / it }}\n  }}\n\n  {modifier}fun openReadOnly(file: Path): FileHandle {{\n    TODO(\"not implemented yet!\")\n  }}\n}}\n"
            ),
        );
        let test = created(
            "src/test/AssetFileSystemTest.kt",
            &format!(
                "class AssetFileSystemTest {{\n  @Test fun listing() {{\n    assertEquals(2, fs.{called}(root).size)\n  }}\n}}\n"
            ),
        );
        code + &test
    };
    let step = "Import AssetFileSystem";
    assert_eq!(judged_fully(step, &class("override ", "list")).0, Vec::<String>::new());
    // The twins: the patch's test reaches the placeholder; a method of the class's own.
    assert_eq!(judged_fully(step, &class("override ", "openReadOnly")).0, ["placeholder_added"]);
    assert_eq!(judged_fully(step, &class("", "list")).0, ["placeholder_added"]);
}

#[test]
fn a_placeholder_in_a_platform_s_actual_nothing_in_the_patch_reaches_is_due_to_common_code() {
    let platform = |modifier: &str, called: &str| {
        let code = created(
            "okio/src/wasmMain/kotlin/okio/FileSystem.kt",
            &format!(
                "package okio\n\nactual val SYSTEM: FileSystem = WasiFileSystem\n\n{modifier}fun Path.platformCanonicalize(): Path {{\n  TODO(\"Not yet implemented\")\n}}\n"
            ),
        );
        let test = created(
            "okio/src/wasmTest/kotlin/okio/WasiTest.kt",
            &format!(
                "class WasiTest {{\n  @Test fun paths() {{\n    assertEquals(root, {called}\n  }}\n}}\n"
            ),
        );
        code + &test
    };
    let step = "Get WASI set up enough to list a directory";
    assert_eq!(
        judged_fully(step, &platform("actual ", "SYSTEM.list(root))")).0,
        Vec::<String>::new()
    );
    // The twins: the patch's test reaches the placeholder; a function of the platform's own.
    let reached = platform("actual ", "root.platformCanonicalize())");
    assert_eq!(judged_fully(step, &reached).0, ["placeholder_added"]);
    assert_eq!(judged_fully(step, &platform("", "SYSTEM.list(root))")).0, ["placeholder_added"]);
}

#[test]
fn a_placeholder_in_a_document_s_example_is_a_note() {
    let example = "class MyTransport(httpx.BaseTransport):\n    def handle_request(self, request):\n        raise NotImplementedError()\n";
    let doc = created("docs/transports.md", &format!("# Transports\n\n```python\n{example}```\n"));
    let step = "Document custom transports";
    let (codes, notes) = judged("Explain custom transports", &doc);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(notes.contains(&"placeholder_added".to_owned()), "{notes:?}");
    assert_eq!(judged(step, &created("docs/transports.txt", example)).0, Vec::<String>::new());
    // The twin: the same lines in a program's source are code left unwritten.
    let code = created("httpx/_transports/mine.py", example);
    assert_eq!(judged("Explain custom transports", &code).0, ["placeholder_added"]);
}

#[test]
fn a_rename_of_the_background_or_described_is_a_note() {
    let patch = modify("w.py", &["def f(errors=None):"], &["def f(wsgi_errors=None):"], &[]);
    let squashed = "Fix wsgi.errors (#1828)\n\n* rename log_file param to wsgi_errors";
    let (codes, notes) = judged(squashed, &patch);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(notes.contains(&"rename_missing".to_owned()), "{notes:?}");
    // The twin: the same rename asked in the first paragraph.
    assert_eq!(judged("Rename log_file param to wsgi_errors", &patch).0, ["rename_missing"]);
}

#[test]
fn a_step_that_names_the_shebang_or_quotes_the_lint_asks_for_the_directive() {
    let shebang = modify("build.sh", &["#!/bin/bash"], &["#!/usr/bin/env bash"], &["set -e"]);
    assert_eq!(judged("fix shebang in build.sh", &shebang).0, Vec::<String>::new());
    assert_eq!(judged("fix the build in build.sh", &shebang).0, ["directive_only"]);
    let allow = modify(
        "main.rs",
        &[],
        &["#![allow(internal_features)]"],
        &["#![feature(lang_items, start)]", "#![no_std]"],
    );
    let quoted = "Update test suite to nightly-2023-08-05\n\n    error: the feature `lang_items` is internal to the compiler\n      = note: `#[deny(internal_features)]` on by default";
    assert_eq!(judged(quoted, &allow).0, Vec::<String>::new());
    // The twin: the subject alone names no lint.
    assert_eq!(judged("Update test suite to nightly-2023-08-05", &allow).0, ["directive_only"]);
}

#[test]
fn whitespace_answers_a_clean_up_that_takes_it_out_or_a_step_that_names_the_file() {
    let document = modify("README.md", &[], &[""], &["Text.", "", "# Usage"]);
    let (codes, notes) = judged("Update README.md", &document);
    assert!(codes.is_empty() && notes.contains(&"whitespace_only".to_owned()), "{codes:?}");
    assert_eq!(judged("Fix the parser", &document).0, ["whitespace_only"]);
    // Code re-laid for a step that names it is no edit a reviewer can tell from re-indenting.
    let blank = modify("a.py", &[], &[""], &["x = 1", "y = 2"]);
    assert_eq!(judged("Update a.py", &blank).0, ["whitespace_only"]);
    // Spaces appended to line ends change nothing anyone reads, whatever the step names.
    let trailing = modify("README.md", &["Text.", "More."], &["Text.   ", "More.   "], &[]);
    assert_eq!(judged("Update README.md", &trailing).0, ["whitespace_only"]);
    let taken_out = modify("a.py", &["x = 1   ", "y = 2   "], &["x = 1", "y = 2"], &[]);
    let (codes, notes) = judged("Clean up the parser", &taken_out);
    assert!(codes.is_empty() && notes.contains(&"whitespace_only".to_owned()), "{codes:?}");
    // The twin: a clean-up that only adds whitespace.
    assert_eq!(judged("Clean up the parser", &blank).0, ["whitespace_only"]);
}

#[test]
fn a_placeholder_of_a_method_declared_abstract_is_a_contract() {
    let base = |decorator: &str| {
        created(
            "httpx/_transports/base.py",
            &format!(
                "import abc\n\n\nclass AsyncTransport:\n    {decorator}def handle(self, request):\n        raise NotImplementedError()\n\n    def close(self):\n        self.closed = True\n"
            ),
        )
    };
    let step = "Add the transport API";
    assert_eq!(judged_fully(step, &base("@abc.abstractmethod\n    ")).0, Vec::<String>::new());
    // The twin: the same body in a method not declared abstract.
    assert_eq!(judged_fully(step, &base("")).0, ["placeholder_added"]);
}

#[test]
fn a_documentation_step_is_answered_by_the_layout_of_a_document() {
    let doubled = modify("README.md", &["Run  the tests."], &["Run the tests."], &["", "# Usage"]);
    let blank = modify("README.md", &[], &[""], &["- one", "- two", "", "Text."]);
    for patch in [&doubled, &blank] {
        let (codes, _) = judged("docs: improve the usage section", patch);
        assert!(codes.is_empty(), "{codes:?}");
    }
    // The twins: spaces only appended to a document's line ends; code re-laid for a docs step.
    let appended =
        modify("README.md", &["Run the tests."], &["Run the tests.   "], &["", "# Usage"]);
    assert_eq!(judged("docs: explain the usage", &appended).0, ["whitespace_only"]);
    // A blank line the diff lists among the padded ones (removed and added as it was) pads
    // nothing, and the rest is still spaces appended.
    let around = modify(
        "README.md",
        &["Run the tests:", "", "```sh"],
        &["Run the tests:   ", "", "```sh   "],
        &["make test", "```"],
    );
    assert_eq!(judged("docs: explain the usage", &around).0, ["whitespace_only"]);
    let code = modify("a.py", &[], &[""], &["x = 1", "y = 2"]);
    assert_eq!(judged("docs: explain the usage", &code).0, ["whitespace_only"]);
}

#[test]
fn a_constructor_added_with_an_empty_body_is_declared_not_left_unwritten() {
    // okio's utility class: a private constructor that keeps it from being made, and a test
    // that calls a method of the class (`Util.checkOffset(`).
    let code = "diff --git a/src/main/java/okio/Util.java b/src/main/java/okio/Util.java\nnew file mode 100644\n--- /dev/null\n+++ b/src/main/java/okio/Util.java\n@@ -0,0 +1,10 @@\n+package okio;\n+\n+final class Util {\n+  private Util() {\n+  }\n+\n+  static int checkOffset(int offset, int size) {\n+    if (offset > size) throw new IllegalArgumentException(); return offset;\n+  }\n+}\n";
    let test = "diff --git a/src/test/java/okio/UtilTest.java b/src/test/java/okio/UtilTest.java\nnew file mode 100644\n--- /dev/null\n+++ b/src/test/java/okio/UtilTest.java\n@@ -0,0 +1,5 @@\n+package okio;\n+\n+public final class UtilTest {\n+  @Test public void offsets() { assertEquals(1, Util.checkOffset(1, 2)); new Util(); }\n+}\n";
    let step = "Okio module.";
    assert_eq!(judged(step, &format!("{code}{test}")).0, Vec::<String>::new());
    // A test file's helper class named `TestUtil`: its private constructor is no test.
    let helper = "diff --git a/src/test/java/okio/TestUtil.java b/src/test/java/okio/TestUtil.java\nnew file mode 100644\n--- /dev/null\n+++ b/src/test/java/okio/TestUtil.java\n@@ -0,0 +1,8 @@\n+package okio;\n+\n+final class TestUtil {\n+  private TestUtil() {\n+  }\n+\n+  static String repeat(char c, int n) { return new String(new char[n]).replace('\\0', c); }\n+}\n";
    assert_eq!(judged("Refactor tests to DRY up utility methods.", helper).0, Vec::<String>::new());
    // The twins: a method of the class left empty that the tests call, and a test left empty.
    let method = code.replace("  private Util() {\n+  }\n", "  static void reset() {\n+  }\n");
    let calls = test.replace("new Util();", "Util.reset();");
    assert_eq!(judged(step, &format!("{method}{calls}")).0, ["placeholder_added"]);
    let empty_test = helper
        .replace("  private TestUtil() {\n+  }\n", "  @Test public void testRepeat() {\n+  }\n");
    assert_eq!(
        judged("Refactor tests to DRY up utility methods.", &empty_test).0,
        ["placeholder_added"]
    );
}
