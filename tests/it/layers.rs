//! The crate's dependencies point one way: each module uses only modules of a lower layer
//! (`bytemask` <- `finding` <- `path` <- `patch` <- `summary` <- `rule` <- `scratch` <- `review`
//! (the store), `repair` <- the pipelines (a validate run repairs, records and re-judges stored
//! results) <- `report` <- `cli`), read from the `crate::` (and, in the
//! binary, `patchgate::`) paths of every non-test file; and no file imports a file that imports
//! it back, read from the `crate::` and `super::` paths.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Layers, lowest first. A module may use modules of lower layers only.
const LAYERS: &[&[&str]] = &[
    &["bytemask", "bigbuf"],
    &["finding", "json"],
    &["path"],
    &["step", "config", "repo", "patch", "declare"],
    &["summary"],
    &["rule", "contract"],
    &["scratch", "judge"],
    &["review", "repair"],
    &["validate", "hook", "guard"],
    &["batch"],
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

/// A file's module path below `src` (`contract/agent.rs` is `["contract", "agent"]`, a
/// `mod.rs` is its directory's module).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> =
        rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_owned());
    }
    parts
}

/// The `crate::`/`super::` paths a file's code names (comments and its test module left out),
/// each as its segments, with `use super::{a, b::c}` groups spread out.
fn named_paths(text: &str) -> Vec<(bool, Vec<String>)> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let code: Vec<&str> = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
    let code = code.join("\n");
    let ident = |s: &str| -> String {
        s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()
    };
    let mut out = Vec::new();
    for (prefix, is_crate) in [("crate::", true), ("super::", false)] {
        for (at, _) in code.match_indices(prefix) {
            let rest = &code[at + prefix.len()..];
            let items: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                None => vec![rest],
            };
            for item in items {
                let segments: Vec<String> =
                    item.trim().split("::").map(ident).take_while(|s| !s.is_empty()).collect();
                if !segments.is_empty() {
                    out.push((is_crate, segments));
                }
            }
        }
    }
    out
}

/// Cycles known and owned elsewhere, each with why it is still here. An entry whose cycle is gone
/// fails the test too, so this list only shrinks.
const KNOWN_CYCLES: &[&str] = &[];

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort(); // cycles are named from their first file in path order
    let modules: Vec<Vec<String>> =
        files.iter().map(|f| module_path(f.strip_prefix(&src).expect("below src"))).collect();
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); files.len()];
    for (from, file) in files.iter().enumerate() {
        let me = &modules[from];
        let text = std::fs::read_to_string(file).expect("read file");
        for (is_crate, segments) in named_paths(&text) {
            let mut path: Vec<String> =
                if is_crate { Vec::new() } else { me[..me.len().saturating_sub(1)].to_vec() };
            path.extend(segments);
            let target =
                (1..=path.len()).rev().find_map(|k| modules.iter().position(|m| *m == path[..k]));
            // A file may use its own module's `mod.rs` (the module's public types).
            if let Some(to) = target.filter(|&to| !me.starts_with(&modules[to])) {
                edges[from].insert(to);
            }
        }
    }
    let name = |i: usize| modules[i].join("/");
    let mut cycles = Vec::new();
    for start in 0..files.len() {
        // Depth-first from `start`, looking for a way back to it.
        let mut stack = vec![(start, vec![start])];
        let mut seen = BTreeSet::new();
        while let Some((at, trail)) = stack.pop() {
            for &next in &edges[at] {
                if next == start {
                    let names: Vec<String> = trail.iter().map(|&i| name(i)).collect();
                    cycles.push(names.join(" -> "));
                } else if next > start && seen.insert(next) {
                    let mut longer = trail.clone();
                    longer.push(next);
                    stack.push((next, longer));
                }
            }
        }
    }
    let (known, new): (Vec<String>, Vec<String>) =
        cycles.into_iter().partition(|c| KNOWN_CYCLES.contains(&c.as_str()));
    assert!(new.is_empty(), "files that import each other:\n{}", new.join("\n"));
    let gone: Vec<&&str> =
        KNOWN_CYCLES.iter().filter(|k| !known.iter().any(|c| c == **k)).collect();
    assert!(gone.is_empty(), "no longer a cycle, remove from KNOWN_CYCLES: {gone:?}");
}
