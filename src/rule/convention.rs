//! New files a language's or a tool's convention loads without any other file naming them:
//! a Go, Java, Kotlin, C# or Swift file in a directory that already holds files of its
//! language (compiled with its package), a pytest `conftest.py` or a `sitecustomize.py`, a
//! Cargo build script or binary (a package's `__init__.py` runs only when something imports
//! the package). Such a file changes the program even when
//! nothing in the patch refers to it; any other new file nothing refers to is a script of its
//! own.

use super::Base;

/// Extensions whose files are compiled with every file of their directory (the package).
const PACKAGE_LANGUAGES: [&str; 6] = ["go", "java", "kt", "cs", "swift", "scala"];

/// File names a tool loads from where they are.
const LOADED_NAMES: [&str; 5] =
    ["conftest.py", "sitecustomize.py", "build.rs", "main.rs", "lib.rs"];

/// Whether a convention loads the new file at `path`, whose text is `text` (see the module's
/// documentation). Without a base tree only the file's name can say so. A Go file joins its
/// directory's package only under the same package clause: a `package main` among `package
/// cobra` files is a program of its own.
pub(super) fn loads(path: &str, text: &[u8], base: Option<&dyn Base>) -> bool {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let is_rust = std::path::Path::new(name).extension().is_some_and(|e| e == "rs");
    let is_cargo_binary = is_rust && (dir.ends_with("src/bin") || dir.contains("src/bin/"));
    if LOADED_NAMES.contains(&name) || is_cargo_binary {
        return true;
    }
    let Some((_, ext)) = name.rsplit_once('.') else { return false };
    let ext = ext.to_ascii_lowercase();
    if !PACKAGE_LANGUAGES.contains(&ext.as_str()) {
        return false;
    }
    let Some(base) = base else { return false };
    let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
    let sibling = base.files().iter().find(|f| {
        f.strip_prefix(&prefix).is_some_and(|rest| {
            !rest.contains('/')
                && rest != name
                && rest.rsplit_once('.').is_some_and(|(_, e)| e.eq_ignore_ascii_case(&ext))
                && !(ext == "go" && rest.ends_with("_test.go"))
        })
    });
    let Some(sibling) = sibling else { return false };
    ext != "go" || {
        let theirs = base.content(sibling).and_then(|t| go_package(&t));
        theirs.is_none() || theirs == go_package(text)
    }
}

/// The name a Go file's package clause gives (`package cobra`), read from its first lines that
/// are not comments.
fn go_package(text: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(text);
    let line = text.lines().map(str::trim).find(|l| l.starts_with("package "))?;
    line.split_whitespace().nth(1).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::loads;

    #[derive(Debug)]
    struct Files(Vec<String>);

    impl super::Base for Files {
        fn contains(&self, path: &str) -> bool {
            self.0.iter().any(|f| f == path)
        }
        fn files(&self) -> &[String] {
            &self.0
        }
        fn content(&self, path: &str) -> Option<Vec<u8>> {
            let is_go = std::path::Path::new(path).extension().is_some_and(|e| e == "go");
            is_go.then(|| b"// Package cmd.\npackage cmd\n".to_vec())
        }
    }

    #[test]
    fn a_file_of_an_existing_package_is_loaded_and_a_lone_script_is_not() {
        let base = Files(
            ["cmd/root.go", "pkg/a.py", "src/Main.java", "README.md"].map(String::from).to_vec(),
        );
        let base = Some(&base as &dyn super::Base);
        let cmd = b"package cmd\n\nfunc init() {}\n";
        for loaded in ["cmd/extra.go", "src/Helper.java", "pkg/conftest.py", "src/bin/tool.rs"] {
            assert!(loads(loaded, cmd, base), "{loaded}");
        }
        // The twins: a Go file where no Go package is or under another package clause, a
        // Python module or package nothing imports, a Rust file outside `src/bin`.
        let main = b"// Reproduce.\npackage main\n\nfunc main() {}\n";
        assert!(!loads("cmd/repro.go", main, base), "package main among package cmd");
        let lone = ["reproduce_issue.go", "tools/extra.go", "pkg/reproduce.py", "a/__init__.py"];
        for lone in lone.into_iter().chain(["repro.rs"]) {
            assert!(!loads(lone, cmd, base), "{lone}");
        }
        assert!(!loads("cmd/extra.go", cmd, None), "without a base tree, only names say");
    }
}
