//! The crate's dependencies point one way: each module uses only modules of a lower layer
//! (`bytemask` <- `finding` <- `path` <- `patch` <- `summary` <- `rule` <- `scratch` <- `review` (the store),
//! `repair` <- the pipelines (a validate run repairs, records and re-judges stored results) <-
//! `report` <- `cli`); and no file imports a file that imports it back.
//!
//! The sources are read as the compiler reads them: from `lib.rs` and `main.rs`, following each
//! `mod` declaration, parsed with `syn`, with test code (`#[cfg(test)]` items and modules) and
//! comments left out. Every path counts, in `use` trees (grouped ones spread out), in code and in
//! macro arguments; `super::` and `self::` are resolved, and the crate root's re-exports
//! (`crate::Config`) are followed to the module they come from.

use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// Layers, lowest first. A module may use modules of lower layers only.
const LAYERS: &[&[&str]] = &[
    &["bytemask", "bigbuf"],
    &["finding", "json"],
    &["path"],
    &["config"],
    &["step", "repo", "patch", "declare"],
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

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// One source file of a crate, as the compiler reaches it.
struct Source {
    /// Below `src/`.
    file: PathBuf,
    /// Its module path (`["contract", "agent"]`; the crate root is `[]`).
    module: Vec<String>,
    /// Every crate path its non-test code names, absolute (`["finding", "Violation"]`).
    named: Vec<Vec<String>>,
}

/// Reads a file below `src/` (the tests plant imports through this).
type Reader<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// The files of the crate rooted at `root` (`lib.rs` or `main.rs`). `alias` is the name the
/// code uses for the library crate (`crate` in the library, `patchgate` in the binary).
fn crate_sources(root: &str, read: Reader<'_>) -> Vec<Source> {
    let mut out = Vec::new();
    let mut queue = vec![(PathBuf::from(root), Vec::new())];
    while let Some((file, module)) = queue.pop() {
        let text = read(&file).unwrap_or_else(|| panic!("read src/{}", file.display()));
        let collector = collect(&file, &text, &module);
        for (name, explicit, inline) in collector.mods {
            let child: Vec<String> = [inline.clone(), vec![name.clone()]].concat();
            let path = child_file(&file, &inline, &name, explicit.as_deref(), read);
            queue.push((path, [module.clone(), child].concat()));
        }
        out.push(Source { file, module, named: collector.named });
    }
    out
}

/// The paths and module declarations of one file's non-test code.
fn collect(file: &Path, text: &str, module: &[String]) -> Collector {
    let parsed = syn::parse_file(text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut collector = Collector::new(module.to_vec());
    collector.visit_file(&parsed);
    collector
}

/// Where the compiler finds `mod name;` declared in `file` (inside inline modules `inline`).
fn child_file(
    file: &Path,
    inline: &[String],
    name: &str,
    explicit: Option<&str>,
    read: Reader<'_>,
) -> PathBuf {
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let parent = file.parent().unwrap_or(Path::new(""));
    let mut dir = if matches!(stem, "mod" | "lib" | "main") {
        parent.to_path_buf()
    } else {
        parent.join(stem)
    };
    if let Some(explicit) = explicit {
        return file.parent().unwrap_or(Path::new("")).join(explicit);
    }
    for part in inline {
        dir = dir.join(part);
    }
    let flat = dir.join(format!("{name}.rs"));
    if read(&flat).is_some() { flat } else { dir.join(name).join("mod.rs") }
}

/// Walks one file's non-test items, collecting the paths they name and the modules they declare.
struct Collector {
    /// The module being walked (inline modules pushed on it).
    module: Vec<String>,
    /// The inline modules of this file around the item being walked.
    inline: Vec<String>,
    named: Vec<Vec<String>>,
    /// `mod name;` declarations: the name, a `#[path]`, and the inline modules around them.
    mods: Vec<(String, Option<String>, Vec<String>)>,
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>().is_ok_and(|m| m.path().is_ident("test"))
    })
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find(|a| a.path().is_ident("path")).and_then(|a| match &a.meta {
        syn::Meta::NameValue(nv) => match &nv.value {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

impl Collector {
    fn new(module: Vec<String>) -> Self {
        Self { module, inline: Vec::new(), named: Vec::new(), mods: Vec::new() }
    }

    /// Record a path given as its segments, resolving `crate`, `self` and `super`; other
    /// paths (locals, external crates) are not the crate's modules.
    fn name(&mut self, segments: &[String], crate_alias: &str) {
        let Some(first) = segments.first() else { return };
        let mut at: Vec<String> = if first == crate_alias || first == "crate" {
            Vec::new()
        } else if first == "self" || first == "super" {
            self.module.clone()
        } else {
            return;
        };
        let mut rest = if first == "self" || first == "super" { segments } else { &segments[1..] };
        while let Some(head) = rest.first() {
            match head.as_str() {
                "super" => {
                    at.pop();
                }
                "self" => {}
                _ => break,
            }
            rest = &rest[1..];
        }
        at.extend(rest.iter().cloned());
        self.named.push(at);
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.named_use(prefix, &n.ident.to_string()),
            syn::UseTree::Rename(r) => self.named_use(prefix, &r.ident.to_string()),
            syn::UseTree::Glob(_) => self.named_use(prefix, ""),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.use_tree(prefix, t)),
        }
    }

    fn named_use(&mut self, prefix: &[String], last: &str) {
        let mut segments = prefix.to_vec();
        if !last.is_empty() {
            segments.push(last.to_owned());
        }
        self.name(&segments, "patchgate");
    }

    /// `crate::a::b`, `super::x` and `patchgate::y` runs inside a macro's tokens.
    fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            if let TokenTree::Group(g) = &trees[i] {
                self.tokens(g.stream());
            }
            let mut segments = Vec::new();
            let mut j = i;
            while let Some(TokenTree::Ident(ident)) = trees.get(j) {
                segments.push(ident.to_string());
                let is_sep = matches!((trees.get(j + 1), trees.get(j + 2)),
                    (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                        if a.as_char() == ':' && b.as_char() == ':');
                if !is_sep {
                    break;
                }
                j += 3;
            }
            if segments.len() > 1 {
                self.name(&segments, "patchgate");
            }
            i = j.max(i) + 1;
        }
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Trait(t) => &t.attrs,
            syn::Item::Macro(m) => &m.attrs,
            syn::Item::Type(t) => &t.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test_only(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let name = m.ident.to_string();
        match &m.content {
            None => self.mods.push((name, path_attr(&m.attrs), self.inline.clone())),
            Some((_, items)) => {
                self.module.push(name.clone());
                self.inline.push(name);
                for item in items {
                    self.visit_item(item);
                }
                self.inline.pop();
                self.module.pop();
            }
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs = match item {
            syn::ImplItem::Fn(f) => &f.attrs,
            syn::ImplItem::Const(c) => &c.attrs,
            _ => return syn::visit::visit_impl_item(self, item),
        };
        if !is_test_only(attrs) {
            syn::visit::visit_impl_item(self, item);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &u.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.name(&segments, "patchgate");
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        self.tokens(mac.tokens.clone());
    }
}

/// The crate root's re-exports: `Config` -> `config`, from `pub use config::Config;`.
fn root_exports(read: Reader<'_>) -> BTreeMap<String, String> {
    let text = read(Path::new("lib.rs")).expect("read src/lib.rs");
    let file = syn::parse_file(&text).expect("parse src/lib.rs");
    let mut out = BTreeMap::new();
    for item in &file.items {
        if let syn::Item::Use(u) = item {
            let mut c = Collector::new(Vec::new());
            c.use_tree(&mut Vec::new(), &u.tree);
            for named in c.named.iter().filter(|n| n.len() >= 2) {
                out.insert(named[named.len() - 1].clone(), named[0].clone());
            }
        }
    }
    out
}

/// Both crates' files: the library's, and the binary's (`main.rs` and `cli/`).
fn all_sources(read: Reader<'_>) -> Vec<Source> {
    let mut all = crate_sources("lib.rs", read);
    all.extend(crate_sources("main.rs", read));
    all
}

/// Every use of a module of the same or a higher layer: `"file uses module"`.
fn upward_uses(sources: &[Source], exports: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = BTreeSet::new();
    for source in sources {
        let Some(own) = source.module.first() else { continue }; // lib.rs, main.rs
        let Some(own_layer) = layer(own) else {
            out.insert(format!("{own}: not in LAYERS; place it"));
            continue;
        };
        for named in &source.named {
            let Some(first) = named.first() else { continue };
            let target = if layer(first).is_some() {
                first.clone()
            } else if let Some(module) = exports.get(first) {
                module.clone()
            } else {
                continue; // a macro or item of the root that re-exports nothing
            };
            if target != *own && layer(&target).is_some_and(|l| l >= own_layer) {
                out.insert(format!("{} uses {target}", source.file.display()));
            }
        }
    }
    out.into_iter().collect()
}

fn read_src(path: &Path) -> Option<String> {
    std::fs::read_to_string(src().join(path)).ok()
}

#[test]
fn every_module_uses_only_lower_layers() {
    let upward = upward_uses(&all_sources(&read_src), &root_exports(&read_src));
    assert!(upward.is_empty(), "imports against the layering:\n{}", upward.join("\n"));
}

/// The sources with `plant` appended to `file`, read again.
fn planted(sources: &[Source], file: &Path, plant: &str) -> Vec<Source> {
    sources
        .iter()
        .map(|s| {
            let named = if s.file == file {
                let text = read_src(file).expect("read") + plant;
                collect(file, &text, &s.module).named
            } else {
                s.named.clone()
            };
            Source { file: s.file.clone(), module: s.module.clone(), named }
        })
        .collect()
}

/// The test reads what the compiler reads: an upward import planted in any `mod.rs` (after its
/// test module, as a grouped `use crate::{...}`, or inside a macro) fails it.
#[test]
fn a_planted_upward_import_in_any_mod_rs_is_found() {
    let sources = all_sources(&read_src);
    let mod_files: Vec<&Source> = sources
        .iter()
        .filter(|s| s.file.file_name().is_some_and(|n| n == "mod.rs"))
        .filter(|s| s.module.first().is_some_and(|m| m != "report" && m != "cli"))
        .collect();
    assert!(mod_files.len() > 10, "only {} mod.rs files found", mod_files.len());
    let plants = [
        "\n#[cfg(test)]\nmod planted_tests {}\n\nuse crate::report::Exit as _;\n",
        "\nuse crate::{finding, report::Exit as _};\n",
        "\nconst _: fn() = || { let _ = crate::report::Exit::Accepted; };\n",
        "\nconst _: &str = stringify!(crate::report::Exit);\n",
    ];
    let exports = root_exports(&read_src);
    for source in mod_files {
        for plant in plants {
            let upward = upward_uses(&planted(&sources, &source.file, plant), &exports);
            let expected = format!("{} uses report", source.file.display());
            assert!(
                upward.contains(&expected),
                "{plant:?} in {} went unseen",
                source.file.display()
            );
        }
    }
}

#[test]
fn test_code_and_comments_do_not_count() {
    let plant = "\n// use crate::report::Exit;\n#[cfg(test)]\nmod more_tests {\n    use crate::report::Exit;\n}\n";
    let sources = planted(&all_sources(&read_src), Path::new("path/mod.rs"), plant);
    let upward = upward_uses(&sources, &root_exports(&read_src));
    assert!(upward.is_empty(), "{upward:?}");
}

/// A file's module, as the modules of files are named: its own module path.
fn file_modules(sources: &[Source]) -> Vec<Vec<String>> {
    sources.iter().map(|s| s.module.clone()).collect()
}

/// Cycles known and owned elsewhere, each with why it is still here. An entry whose cycle is gone
/// fails the test too, so this list only shrinks.
const KNOWN_CYCLES: &[&str] = &[];

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let mut sources = crate_sources("lib.rs", &read_src);
    sources.sort_by(|a, b| a.file.cmp(&b.file)); // cycles are named from their first file
    let modules = file_modules(&sources);
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); sources.len()];
    for (from, source) in sources.iter().enumerate() {
        let me = &modules[from];
        for path in &source.named {
            let target =
                (1..=path.len()).rev().find_map(|k| modules.iter().position(|m| *m == path[..k]));
            // A file may use its own module's `mod.rs` (the module's public types), and the
            // crate root is everyone's.
            if let Some(to) = target.filter(|&to| !me.starts_with(&modules[to])) {
                edges[from].insert(to);
            }
        }
    }
    let name = |i: usize| sources[i].file.display().to_string();
    let mut cycles = Vec::new();
    for start in 0..sources.len() {
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
