//! The crate's dependencies point one way: each module uses only modules of a lower layer
//! (`finding` <- `path` <- `patch` <- `rule` <- `scratch` <- the pipelines <- `review` (which
//! validates stored results again) <- `report` <- `cli`).
//! Read from the `crate::` (and, in the binary, `patchgate::`) paths of every non-test file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Layers, lowest first. A module may use modules of lower layers only.
const LAYERS: &[&[&str]] = &[
    &["finding", "json"],
    &["path"],
    &["step", "config", "repo", "patch", "declare"],
    &["rule", "contract"],
    &["scratch"],
    &["validate", "hook", "guard"],
    &["review"],
    &["report"],
    &["cli"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "tests") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            if name != "tests" && !name.ends_with("_tests") {
                out.push(path);
            }
        }
    }
}

/// The modules a file's code (its inline test module cut off) refers to.
fn uses(text: &str, prefixes: &[&str]) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let mut out = BTreeSet::new();
    for prefix in prefixes {
        for (at, _) in code.match_indices(prefix) {
            let rest = &code[at + prefix.len()..];
            let name: String =
                rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut upward = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("below src");
        let first = rel.components().next().expect("a component");
        let module = first.as_os_str().to_string_lossy().trim_end_matches(".rs").to_owned();
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(own) = layer(&module) else {
            upward.push(format!("{module}: not in LAYERS; place it"));
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read file");
        let prefixes: &[&str] = if module == "cli" { &["patchgate::"] } else { &["crate::"] };
        for used in uses(&text, prefixes) {
            match layer(&used) {
                Some(l) if used == module || l < own => {}
                Some(_) => upward.push(format!("{} uses {used}", rel.display())),
                None => {} // an item of the crate root (`crate::Config`) or a macro
            }
        }
    }
    assert!(upward.is_empty(), "imports against the layering:\n{}", upward.join("\n"));
}
