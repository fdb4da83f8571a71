//! What tests look like across the common languages: test files by their path, and the file a
//! test file is about (`cobra_test.go` tests `cobra.go`).

/// Directories that hold tests.
const TEST_DIRS: [&str; 9] =
    ["test", "tests", "testing", "__tests__", "spec", "specs", "test_suite", "testdata", "e2e"];

/// Whether `path` is a test file: under a test directory, or named like one (`x_test.go`,
/// `test_x.py`, `x.test.ts`, `x.spec.js`, `XTest.java`).
pub(super) fn is_test_path(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    let file = parts.next().unwrap_or(path);
    parts.any(|dir| TEST_DIRS.contains(&dir)) || stem_under_test(file).is_some()
}

/// The stem of the file a test file named `file` is about (`cobra` for `cobra_test.go`,
/// `auth` for `test_auth.py`, `response` for `spec_response.rb`), or `None` when `file` is not
/// named like a test.
pub(super) fn stem_under_test(file: &str) -> Option<&str> {
    let stem = file.split('.').next().unwrap_or(file);
    let dotted = file.split('.').nth(1).filter(|s| matches!(*s, "test" | "spec"));
    let found = stem
        .strip_suffix("_test")
        .or_else(|| stem.strip_prefix("test_"))
        .or_else(|| stem.strip_prefix("spec_"))
        .or_else(|| stem.strip_suffix("_spec"))
        .or_else(|| stem.strip_suffix("Test").filter(|s| !s.is_empty()))
        .or_else(|| stem.strip_suffix("Tests").filter(|s| !s.is_empty()))
        .or(dotted.map(|_| stem));
    found.filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_files_by_directory_and_by_name() {
        for path in [
            "cobra_test.go",
            "tests/test_auth.py",
            "test/unit/a.js",
            "src/a.test.ts",
            "lib/a.spec.js",
            "src/test/java/FooTest.java",
            "test_suite/tests/regression/issue2846.rs",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in
            ["cobra.go", "src/testament.rs", "latest.py", "contest/a.rs", "Test.java", "spec.rb"]
        {
            assert!(!is_test_path(path), "{path}");
        }
        assert_eq!(stem_under_test("cobra_test.go"), Some("cobra"));
        assert_eq!(stem_under_test("test_auth.py"), Some("auth"));
        assert_eq!(stem_under_test("spec_response.rb"), Some("response"));
        assert_eq!(stem_under_test("index.spec.ts"), Some("index"));
        assert_eq!(stem_under_test("FooTest.java"), Some("Foo"));
        assert_eq!(stem_under_test("cobra.go"), None);
    }
}
