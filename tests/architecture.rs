//! The layers of the crate, checked from its own source: every `crate::MODULE` path (in `use`
//! declarations, `use crate::{a, b}` groups, `super::super::MODULE` up to the root, and plain
//! expressions) of the code outside tests gives an import between two top-level modules of
//! `src/`. Two modules must never import each other, directly or through others, and an import
//! points to its own layer or one below, never up (the table [`LAYERS`]).
//!
//! The same holds between files: every `crate::`, `super::`, `self::` and child-module path of
//! a file (`mod.rs` standing for its folder) gives an import of the file it resolves to, and no
//! two files may import each other, directly or through others ([`file_graph`]; every cycle is
//! reported at once).
//!
//! The same graph draws `docs/architecture.svg` (layers as bands, an arrow for each import
//! that no chain of other imports already implies); the test fails when the picture is out of
//! date. Redraw it with
//!
//! ```text
//! NPUZZLE_WRITE_ARCHITECTURE=1 cargo test --profile test-opt -- architecture
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The layers, top to bottom: (name, modules). A module may import modules of its own layer and
/// of the layers below it. A new top-level module goes in here, with its place in the picture.
const LAYERS: &[(&str, &[&str])] = &[
    ("command line", &["cli"]),
    (
        "engines",
        &[
            "solve", "pdb", "merge", "run", "report", "generate", "predict", "census", "split",
        ],
    ),
    (
        "files, protocols",
        &["results", "external", "instances", "input"],
    ),
    ("solvers", &["approx", "search", "heuristic", "geometry"]),
    ("foundation", &["infra", "board"]),
];

/// Top-level module -> the top-level modules it imports (itself excluded).
type Graph = BTreeMap<String, BTreeSet<String>>;

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level modules: `src/NAME.rs` and `src/NAME/` (`lib.rs` and `main.rs` are the roots).
fn top_level_modules(src: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(src).expect("src/") {
        let path = entry.expect("src/ entry").path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir()
            || (path.extension().is_some_and(|e| e == "rs") && name != "lib" && name != "main")
        {
            out.insert(name);
        }
    }
    out
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable directory")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The source with comments, string literals and character literals blanked out (replaced by
/// spaces, so that braces and paths inside them do not count).
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &[char]| {
        for &ch in s {
            out.push(if ch == '\n' { '\n' } else { ' ' });
        }
    };
    while i < c.len() {
        let rest = &c[i..];
        if rest.starts_with(&['/', '/']) {
            let end = rest.iter().position(|&ch| ch == '\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(&['/', '*']) {
            // Block comments nest in Rust.
            let (mut depth, mut k) = (0usize, 0usize);
            while k < rest.len() {
                if rest[k..].starts_with(&['/', '*']) {
                    depth += 1;
                    k += 2;
                } else if rest[k..].starts_with(&['*', '/']) {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    k += 1;
                }
            }
            blank(&mut out, &rest[..k]);
            i += k;
        } else if rest[0] == 'r'
            && (i == 0
                || !is_ident(c[i - 1])
                || (c[i - 1] == 'b' && (i < 2 || !is_ident(c[i - 2]))))
            && rest.get(1).is_some_and(|&ch| ch == '"' || ch == '#')
            && let Some(k) = raw_string_len(rest)
        {
            blank(&mut out, &rest[..k]);
            i += k;
        } else if rest[0] == '"' {
            let mut k = 1;
            while k < rest.len() && rest[k] != '"' {
                k += if rest[k] == '\\' { 2 } else { 1 };
            }
            let k = (k + 1).min(rest.len());
            blank(&mut out, &rest[..k]);
            i += k;
        } else if rest[0] == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let k = if rest.get(1) == Some(&'\\') {
                rest[2..]
                    .iter()
                    .position(|&ch| ch == '\'')
                    .map_or(1, |p| p + 3)
            } else if rest.get(2) == Some(&'\'') {
                3
            } else {
                1
            };
            blank(&mut out, &rest[..k]);
            i += k;
        } else {
            out.push(rest[0]);
            i += 1;
        }
    }
    out
}

/// The length of a raw string literal `r"..."`, `r#"..."#`, ... at the start of `s`.
fn raw_string_len(s: &[char]) -> Option<usize> {
    let hashes = s[1..].iter().take_while(|&&ch| ch == '#').count();
    if s.get(1 + hashes) != Some(&'"') {
        return None;
    }
    let mut k = 2 + hashes;
    while k < s.len() {
        if s[k] == '"'
            && s[k + 1..]
                .iter()
                .take(hashes)
                .filter(|&&ch| ch == '#')
                .count()
                == hashes
        {
            return Some(k + 1 + hashes);
        }
        k += 1;
    }
    Some(s.len())
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// The code with every item under `#[cfg(test)]` removed; the names of the modules declared
/// `#[cfg(test)] mod NAME;` (their files are test code too) are pushed to `test_files`.
fn without_tests(code: &str, test_files: &mut Vec<String>) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let bytes = out.as_bytes();
        let mut k = at + "#[cfg(test)]".len();
        // The item ends at its first `;` outside braces, or at the brace closing its body.
        let mut depth = 0usize;
        let mut end = bytes.len();
        while k < bytes.len() {
            match bytes[k] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
            k += 1;
        }
        let item = out[at..end].to_string();
        let words: Vec<&str> = item
            .split(|ch: char| !is_ident(ch))
            .filter(|w| !w.is_empty())
            .collect();
        if item.ends_with(';')
            && let Some(p) = words.iter().position(|&w| w == "mod")
            && let Some(name) = words.get(p + 1)
        {
            test_files.push(name.to_string());
        }
        out.replace_range(at..end, &" ".repeat(end - at));
    }
    out
}

/// The module path of a file under `src/`: `run/engine.rs` is `[run, engine]`, `run/mod.rs`
/// is `[run]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file
        .strip_prefix(src)
        .expect("under src/")
        .with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The top-level modules a piece of code (of the module at `path`) names: `crate::X`,
/// `crate::{X, Y::..}`, and `super::` chains that climb to the crate root.
fn referenced(code: &str, path: &[String], modules: &BTreeSet<String>) -> BTreeSet<String> {
    let words = tokens(code);
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < words.len() {
        let start_of_path = i == 0 || words[i - 1] != "::";
        if start_of_path && (words[i] == "crate" || words[i] == "super") {
            // Climb: `crate` is the root; each `super` goes one module up.
            let mut depth = if words[i] == "crate" {
                0
            } else {
                path.len() - 1
            };
            let mut k = i + 1;
            while words[i] == "super"
                && words.get(k) == Some(&"::")
                && words.get(k + 1) == Some(&"super")
            {
                depth = depth.saturating_sub(1);
                k += 2;
            }
            if depth == 0 && words.get(k) == Some(&"::") {
                match words.get(k + 1) {
                    Some(&"{") => {
                        // A group: its top-level names.
                        let mut nest = 0;
                        let mut j = k + 2;
                        let mut first = true;
                        while j < words.len() {
                            match words[j] {
                                "{" => nest += 1,
                                "}" if nest == 0 => break,
                                "}" => nest -= 1,
                                "," if nest == 0 => first = true,
                                w if first && nest == 0 => {
                                    first = false;
                                    if modules.contains(w) {
                                        out.insert(w.to_string());
                                    }
                                }
                                _ => {}
                            }
                            j += 1;
                        }
                    }
                    Some(w) if modules.contains(*w) => {
                        out.insert(w.to_string());
                    }
                    _ => {}
                }
            }
            i = k;
        } else {
            i += 1;
        }
    }
    out
}

/// Identifiers and the punctuation that matters for paths (`::`, `{`, `}`, `,`), in order.
fn tokens(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let ch = b[i];
        if ch.is_ascii_alphanumeric() || ch == b'_' || ch >= 0x80 {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            out.push(&code[start..i]);
        } else if code[i..].starts_with("::") {
            out.push("::");
            i += 2;
        } else {
            if matches!(ch, b'{' | b'}' | b',' | b';') {
                out.push(&code[i..i + 1]);
            }
            i += 1;
        }
    }
    out
}

/// The import graph of the crate's top-level modules, test code left out.
fn import_graph() -> Graph {
    let src = src_dir();
    let modules = top_level_modules(&src);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut sources = Vec::new();
    let mut test_files: BTreeSet<PathBuf> = BTreeSet::new();
    for file in &files {
        let path = module_path(&src, file);
        if path.is_empty() || path == ["lib"] || path == ["main"] {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable source");
        let mut tests = Vec::new();
        let code = without_tests(&code_only(&text), &mut tests);
        // `#[cfg(test)] mod NAME;` in module P is the file P/NAME.rs or P/NAME/mod.rs.
        let dir = src.join(path.join("/"));
        for name in tests {
            test_files.insert(dir.join(format!("{name}.rs")));
            test_files.insert(dir.join(&name).join("mod.rs"));
        }
        sources.push((file.clone(), path, code));
    }
    let mut graph: Graph = modules
        .iter()
        .map(|m| (m.clone(), BTreeSet::new()))
        .collect();
    for (file, path, code) in sources {
        if test_files.contains(&file) {
            continue;
        }
        let top = &path[0];
        for target in referenced(&code, &path, &modules) {
            if &target != top {
                graph
                    .get_mut(top)
                    .expect("a top-level module")
                    .insert(target);
            }
        }
    }
    graph
}

/// A cycle of the graph, if there is one, as `a -> b -> ... -> a`.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        graph: &Graph,
        node: &str,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(p) = stack.iter().position(|s| s == node) {
            let mut cycle = stack[p..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_string());
        for next in &graph[node] {
            if let Some(c) = visit(graph, next, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(graph, m, &mut Vec::new(), &mut done))
}

/// The layer of each module (0 = top).
fn layer_of() -> BTreeMap<&'static str, usize> {
    LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, ms))| ms.iter().map(move |&m| (m, i)))
        .collect()
}

#[test]
fn no_two_top_level_modules_import_each_other_and_imports_point_down() {
    let graph = import_graph();
    let layer = layer_of();
    let unplaced: Vec<&String> = graph
        .keys()
        .filter(|m| !layer.contains_key(m.as_str()))
        .collect();
    assert!(
        unplaced.is_empty(),
        "top-level module(s) {unplaced:?} have no layer: add them to LAYERS in tests/architecture.rs"
    );
    let gone: Vec<&&str> = layer.keys().filter(|m| !graph.contains_key(**m)).collect();
    assert!(
        gone.is_empty(),
        "LAYERS in tests/architecture.rs names {gone:?}, not modules of src/"
    );
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "top-level modules import each other: {} (src/**/*.rs, `crate::` paths outside tests)",
            cycle.join(" -> ")
        );
    }
    let upward: Vec<String> = graph
        .iter()
        .flat_map(|(from, tos)| tos.iter().map(move |to| (from, to)))
        .filter(|(from, to)| layer[to.as_str()] < layer[from.as_str()])
        .map(|(from, to)| {
            format!(
                "{from} ({}) imports {to} ({})",
                LAYERS[layer[from.as_str()]].0,
                LAYERS[layer[to.as_str()]].0
            )
        })
        .collect();
    assert!(
        upward.is_empty(),
        "imports that point up a layer:\n  {}",
        upward.join("\n  ")
    );
}

#[test]
fn the_scanner_sees_paths_and_skips_comments_strings_and_tests() {
    let modules: BTreeSet<String> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let text = r##"
        use crate::a::X;
        use crate::{b, c::{Y, Z}};
        // crate::d in a comment
        /* crate::d /* nested */ crate::d */
        const S: &str = "crate::d {";
        const R: &str = r#"crate::d""#;
        fn f<'x>(c: char) -> bool { c == '{' && super::super::e::ok() }
        #[cfg(test)]
        mod tests { use crate::d; fn g() { let _ = "}"; } }
        #[cfg(test)]
        mod more;
        fn h() { crate::f::run() }
    "##;
    let mut tests = Vec::new();
    let code = without_tests(&code_only(text), &mut tests);
    let path = vec!["m".to_string(), "n".to_string()];
    let found = referenced(&code, &path, &modules);
    let expected: BTreeSet<String> = ["a", "b", "c", "e", "f"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, expected);
    assert_eq!(tests, ["more"]);
    // Two cycles are found and named; a chain is not a cycle.
    let graph = |edges: &[(&str, &str)]| {
        let mut g: Graph = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    assert_eq!(find_cycle(&graph(&[("a", "b"), ("b", "c")])), None);
    assert_eq!(
        find_cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "a")]))
            .unwrap()
            .join(" -> "),
        "a -> b -> c -> a"
    );
}

/// The full paths a `use` tree or path expression starting at `words[i]` names: `a::b::{c,
/// d::{e, self}}` is `a::b::c`, `a::b::d::e` and `a::b::d` (a `self` inside a group stands
/// for the path before it).
fn expand_paths<'a>(words: &[&'a str], mut i: usize) -> Vec<Vec<&'a str>> {
    let mut prefix = Vec::new();
    while let Some(&w) = words.get(i) {
        if w == "{" {
            let mut out = Vec::new();
            let (mut j, mut nest) = (i + 1, 0usize);
            let mut item_start = true;
            while let Some(&w) = words.get(j) {
                match w {
                    "{" => nest += 1,
                    "}" if nest == 0 => break,
                    "}" => nest -= 1,
                    "," if nest == 0 => item_start = true,
                    _ if item_start && nest == 0 => {
                        item_start = false;
                        for tail in expand_paths(words, j) {
                            let mut full = prefix.clone();
                            full.extend(tail.into_iter().filter(|&t| t != "self"));
                            out.push(full);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            return out;
        }
        if w == "::" || w == "}" || w == "," || w == ";" {
            return vec![prefix];
        }
        prefix.push(w);
        if words.get(i + 1) != Some(&"::") {
            break;
        }
        i += 2;
    }
    vec![prefix]
}

/// The file modules (module paths of files, `mod.rs` standing for its folder) that the code of
/// the file module `path` names through `crate::`, `super::`, `self::` or a child module's
/// name, each resolved to the longest file module its path starts with. The file's own module
/// and its ancestors are left out: a child naming what its enclosing module declares or
/// re-exports is how Rust nests modules; the cycles that matter run between files sideways.
fn file_references(
    code: &str,
    path: &[String],
    files: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let words = tokens(code);
    let mut out = BTreeSet::new();
    for i in 0..words.len() {
        if i > 0 && words[i - 1] == "::" || words.get(i + 1) != Some(&"::") {
            continue;
        }
        let first = words[i];
        let mut child = path.to_vec();
        child.push(first.to_string());
        let base = match first {
            "crate" => Vec::new(),
            "self" => path.to_vec(),
            "super" => path[..path.len().saturating_sub(1)].to_vec(),
            _ if files.contains(&child) => path.to_vec(),
            _ => continue,
        };
        for full in expand_paths(&words, i) {
            let mut segments = full.iter();
            let mut module = base.clone();
            if first == "crate" || first == "self" || first == "super" {
                segments.next();
            }
            let mut segments = segments.peekable();
            while segments.peek() == Some(&&"super") {
                module.pop();
                segments.next();
            }
            let mut resolved = module.clone();
            for seg in segments {
                module.push(seg.to_string());
                if files.contains(&module) {
                    resolved = module.clone();
                } else {
                    break;
                }
            }
            if !path.starts_with(&resolved) {
                out.insert(resolved);
            }
        }
    }
    out
}

/// The import graph of the crate's files (module paths joined by `/`), test code left out.
fn file_graph() -> Graph {
    let src = src_dir();
    let mut all = Vec::new();
    rust_files(&src, &mut all);
    let paths: BTreeSet<Vec<String>> = all.iter().map(|f| module_path(&src, f)).collect();
    let mut test_files: BTreeSet<PathBuf> = BTreeSet::new();
    let mut sources = Vec::new();
    for file in &all {
        let path = module_path(&src, file);
        let text = std::fs::read_to_string(file).expect("readable source");
        let mut tests = Vec::new();
        let code = without_tests(&code_only(&text), &mut tests);
        let dir = src.join(path.join("/"));
        for name in tests {
            test_files.insert(dir.join(format!("{name}.rs")));
            test_files.insert(dir.join(&name).join("mod.rs"));
        }
        sources.push((file.clone(), path, code));
    }
    let mut graph = Graph::new();
    for (file, path, code) in sources {
        if test_files.contains(&file) || path == ["main"] {
            continue;
        }
        let targets = file_references(&code, &path, &paths);
        let node = graph.entry(path.join("/")).or_default();
        node.extend(targets.iter().map(|t| t.join("/")));
        for t in targets {
            graph.entry(t.join("/")).or_default();
        }
    }
    graph
}

/// Every cycle of the graph: one per strongly connected component of more than one node, as
/// the component's sorted nodes and one cycle through them (`a -> b -> a`).
fn all_cycles(graph: &Graph) -> Vec<(Vec<String>, Vec<String>)> {
    // Tarjan's algorithm.
    struct Tarjan<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, (usize, usize)>,
        stack: Vec<&'g str>,
        components: Vec<Vec<String>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, (n, n));
            self.stack.push(v);
            for w in &self.graph[v] {
                let low = match self.index.get(w.as_str()) {
                    None => {
                        self.visit(w);
                        self.index[w.as_str()].1
                    }
                    Some(&(i, _)) if self.stack.contains(&w.as_str()) => i,
                    Some(_) => continue,
                };
                let e = self.index.get_mut(v).unwrap();
                e.1 = e.1.min(low);
            }
            let (i, low) = self.index[v];
            if i == low {
                let at = self.stack.iter().position(|&s| s == v).unwrap();
                let mut c: Vec<String> = self.stack.drain(at..).map(str::to_string).collect();
                c.sort();
                if c.len() > 1 {
                    self.components.push(c);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        components: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.components
        .into_iter()
        .map(|c| {
            let inside: Graph = c
                .iter()
                .map(|v| {
                    (
                        v.clone(),
                        graph[v].iter().filter(|w| c.contains(w)).cloned().collect(),
                    )
                })
                .collect();
            let cycle = find_cycle(&inside).expect("a component of two or more nodes has a cycle");
            (c, cycle)
        })
        .collect()
}

#[test]
fn no_two_files_import_each_other() {
    let cycles: Vec<String> = all_cycles(&file_graph())
        .into_iter()
        .map(|(_, cycle)| cycle.join(" -> "))
        .collect();
    assert!(
        cycles.is_empty(),
        "files import each other (src/**/*.rs, `crate::`, `super::`, `self::` and child paths \
         outside tests; `mod.rs` is its folder):\n  {}",
        cycles.join("\n  ")
    );
}

#[test]
fn the_file_scanner_resolves_paths_and_finds_every_cycle() {
    let files: BTreeSet<Vec<String>> = ["a", "a/b", "a/c", "a/c/d", "e"]
        .iter()
        .map(|p| p.split('/').map(str::to_string).collect())
        .collect();
    let text =
        "use super::c::{d::X, self}; use crate::e; fn f() { super::super::a::Y; self::z::W; }";
    let path: Vec<String> = vec!["a".into(), "b".into()];
    let found: BTreeSet<String> = file_references(&code_only(text), &path, &files)
        .into_iter()
        .map(|p| p.join("/"))
        .collect();
    // `super::super::a` is an ancestor (left out); `self::z` is no file (this file itself).
    assert_eq!(
        found,
        ["a/c", "a/c/d", "e"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
    // A child module named without a prefix, from its parent.
    let parent: Vec<String> = vec!["a".into()];
    let found = file_references(&code_only("fn g() { c::d::run() }"), &parent, &files);
    assert_eq!(
        found,
        [vec!["a".to_string(), "c".into(), "d".into()]]
            .into_iter()
            .collect()
    );
    // Two separate cycles both reported; a chain is none.
    let mut g = Graph::new();
    for (x, y) in [
        ("bfs", "sparse"),
        ("sparse", "bfs"),
        ("p", "q"),
        ("q", "r"),
        ("r", "p"),
        ("r", "s"),
    ] {
        g.entry(x.to_string()).or_default().insert(y.to_string());
        g.entry(y.to_string()).or_default();
    }
    let cycles: Vec<String> = all_cycles(&g)
        .into_iter()
        .map(|(_, c)| c.join(" -> "))
        .collect();
    assert_eq!(cycles.len(), 2, "{cycles:?}");
    assert!(
        cycles.contains(&"bfs -> sparse -> bfs".to_string()),
        "{cycles:?}"
    );
    assert!(
        cycles.contains(&"p -> q -> r -> p".to_string()),
        "{cycles:?}"
    );
    g.get_mut("sparse").unwrap().clear();
    assert!(all_cycles(&g).len() == 1);
}

/// The imports no chain of two or more other imports implies (what the picture draws).
fn reduced(graph: &Graph) -> Vec<(String, String)> {
    let reach = |from: &str, skip: &str| {
        // Whether `skip`'s target is reachable from `from` without the direct edge.
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&str> = graph[from]
            .iter()
            .map(String::as_str)
            .filter(|&t| t != skip)
            .collect();
        while let Some(m) = todo.pop() {
            if m == skip {
                return true;
            }
            if seen.insert(m) {
                todo.extend(graph[m].iter().map(String::as_str));
            }
        }
        false
    };
    let mut out = Vec::new();
    for (from, tos) in graph {
        for to in tos {
            if !reach(from, to) {
                out.push((from.clone(), to.clone()));
            }
        }
    }
    out
}

/// The picture: one band per layer, a box per module, an arrow per import of [`reduced`].
fn architecture_svg(graph: &Graph) -> String {
    const WIDTH: f64 = 960.0;
    const LABEL: f64 = 130.0;
    const BAND: f64 = 96.0;
    const BOX_H: f64 = 30.0;
    let height = BAND * LAYERS.len() as f64 + 40.0;
    let mut centre: BTreeMap<&str, (f64, f64, f64)> = BTreeMap::new();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
         viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"13\">"
    );
    s.push_str(
        "<!-- Drawn by tests/architecture.rs from the imports of src/; do not edit. -->\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" \
         markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">\
         <path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>\n",
    );
    let _ = writeln!(
        s,
        "<text x=\"10\" y=\"24\" font-size=\"14\">Imports between the top-level modules \
         of src/ (those a chain of others implies left out): down or sideways, never up.</text>"
    );
    for (i, (name, modules)) in LAYERS.iter().enumerate() {
        let top = 40.0 + BAND * i as f64;
        let fill = if i % 2 == 0 { "#f3f3f3" } else { "#e6ebf2" };
        let _ = writeln!(
            s,
            "<rect x=\"0\" y=\"{top}\" width=\"{WIDTH}\" height=\"{BAND}\" fill=\"{fill}\"/>\
             <text x=\"10\" y=\"{}\" fill=\"#333\">{name}</text>",
            top + BAND / 2.0 + 4.0
        );
        let slot = (WIDTH - LABEL) / modules.len() as f64;
        let box_w = (slot - 20.0).min(110.0);
        for (k, m) in modules.iter().enumerate() {
            let cx = LABEL + slot * (k as f64 + 0.5);
            let cy = top + BAND / 2.0;
            centre.insert(m, (cx, cy, box_w));
        }
    }
    for (from, to) in reduced(graph) {
        let (x1, y1, _) = centre[from.as_str()];
        let (x2, y2, w2) = centre[to.as_str()];
        let d = if (y1 - y2).abs() < 1.0 {
            // Same layer: an arc under the boxes, ending at the target's side.
            let (sx, ex) = (
                x1,
                if x2 > x1 {
                    x2 - w2 / 4.0
                } else {
                    x2 + w2 / 4.0
                },
            );
            let bottom = y1 + BOX_H / 2.0;
            format!(
                "M{sx:.1},{bottom:.1} C{sx:.1},{:.1} {ex:.1},{:.1} {ex:.1},{bottom:.1}",
                bottom + 26.0,
                bottom + 26.0
            )
        } else {
            let (sy, ey) = (y1 + BOX_H / 2.0, y2 - BOX_H / 2.0);
            let mid = (sy + ey) / 2.0;
            format!("M{x1:.1},{sy:.1} C{x1:.1},{mid:.1} {x2:.1},{mid:.1} {x2:.1},{ey:.1}")
        };
        let _ = writeln!(
            s,
            "<path d=\"{d}\" fill=\"none\" stroke=\"#555\" stroke-opacity=\"0.6\" \
             marker-end=\"url(#arrow)\"><title>{from} imports {to}</title></path>"
        );
    }
    for (m, (cx, cy, w)) in &centre {
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{BOX_H}\" rx=\"5\" \
             fill=\"white\" stroke=\"#333\"/><text x=\"{cx:.1}\" y=\"{:.1}\" \
             text-anchor=\"middle\" font-family=\"monospace\">{m}</text>",
            cx - w / 2.0,
            cy - BOX_H / 2.0,
            cy + 4.5
        );
    }
    s.push_str("</svg>\n");
    s
}

#[test]
fn the_architecture_picture_is_drawn_from_the_imports() {
    let graph = import_graph();
    if find_cycle(&graph).is_some() {
        return; // The test above names the cycle; there are no layers to draw.
    }
    let svg = architecture_svg(&graph);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.svg");
    if std::env::var_os("NPUZZLE_WRITE_ARCHITECTURE").is_some() {
        std::fs::write(&path, &svg).expect("docs/architecture.svg written");
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == svg,
        "docs/architecture.svg does not show the imports of src/ as they are; redraw it with \
         NPUZZLE_WRITE_ARCHITECTURE=1 cargo test --profile test-opt -- architecture"
    );
}

/// The architecture guide stays a short read (issue 45: at most 600 words), and names every
/// top-level module of `src/` the layer table above knows.
#[test]
fn the_architecture_guide_is_short_and_names_every_module() {
    let text = std::fs::read_to_string(src_dir().join("../docs/ARCHITECTURE.md")).unwrap();
    let words = text.split_whitespace().count();
    assert!(
        words <= 600,
        "docs/ARCHITECTURE.md has {words} words (at most 600)"
    );
    for (_, modules) in LAYERS {
        for m in *modules {
            assert!(
                text.contains(&format!("`{m}")),
                "docs/ARCHITECTURE.md does not name {m}"
            );
        }
    }
}
