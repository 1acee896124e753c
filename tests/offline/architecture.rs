//! What the crate boundary cannot say, checked over the source text. The pure core is a crate of
//! its own (`crates/queuey-cli-core`, whose manifest has no lapin, HTTP client, clap or tokio):
//! that it reaches no other layer is a compile error, not a test. Here: no import circle between
//! the files of either crate (`super::` paths included), lapin and reqwest only below
//! `src/broker/`, clap only in the CLI layer (`src/cli/`, `src/lib.rs`), the settings, broker
//! and output layers never reaching the commands (nor `output/` and `broker/` reaching
//! `live/`), no table drawn outside `src/output/`, no file over 600 lines of code outside its
//! tests, and docs/design.md's file map naming every source file and nothing that is not there.
//!
//! A module is a file; `crate::a::b::Item` and `super::Item` name the deepest file they reach.
//! Only the code before a file's `#[cfg(test)]` counts: tests may import anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_CODE_LINES: usize = 600;

/// Known breaches, each to be removed when it is mended: none now. A breach not listed here
/// fails; a listed one that is mended fails too, until it goes.
const KNOWN_LAPIN_OUTSIDE_BROKER: [&str; 0] = [];
const KNOWN_LONG_FILES: [&str; 0] = [];
/// Import circles known, each to be broken: (`super::` paths were not read before).
const KNOWN_CIRCLES: [&[&str]; 0] = [];

/// The source roots: the CLI crate's and the core crate's.
const ROOTS: [&str; 2] = ["src", "crates/queuey-cli-core/src"];

fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string()
}

type Module = Vec<String>;

struct Source {
    path: PathBuf,
    /// The file's code before `#[cfg(test)]`.
    code: String,
}

/// The CLI crate's files.
fn sources() -> BTreeMap<Module, Source> {
    sources_in("src")
}

fn sources_in(root: &str) -> BTreeMap<Module, Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(root);
    let mut out = BTreeMap::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            // A module's tests in their own file (`#[cfg(test)] mod tests;`) are tests.
            if path.extension().and_then(|e| e.to_str()) != Some("rs")
                || path.file_name().is_some_and(|f| f == "tests.rs")
            {
                continue;
            }
            let rel = path
                .strip_prefix(&root)
                .expect("under src/")
                .with_extension("");
            let mut module: Module = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|m| m == "mod" || m == "lib") {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).expect("a source file is UTF-8");
            let code = match text.find("#[cfg(test)]") {
                Some(i) => text[..i].to_owned(),
                None => text,
            };
            out.insert(module, Source { path, code });
        }
    }
    out
}

/// Text without comments, so that a doc comment naming a module is not an import.
fn without_comments(code: &str) -> String {
    code.lines()
        .map(|line| match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `a::{b, c::{d, e}}` -> `a::b`, `a::c::d`, `a::c::e`.
fn expand_use_tree(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let mut depth = 0;
    let mut current = String::new();
    let mut items = Vec::new();
    for ch in tree.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            items.push(std::mem::take(&mut current));
        } else {
            current.push(ch);
        }
    }
    items.push(current);
    for item in items {
        if item.is_empty() {
            continue;
        }
        match item.split_once('{') {
            Some((head, rest)) => {
                let inner = rest.strip_suffix('}').unwrap_or(rest);
                expand_use_tree(&format!("{prefix}{head}"), inner, out);
            }
            None => out.push(format!("{prefix}{item}")),
        }
    }
}

/// Every `crate::…` or `super::…` path a file's code names.
fn paths_named(code: &str) -> Vec<String> {
    let code = without_comments(code);
    let mut out = Vec::new();
    // `use` trees, which may span lines.
    let mut rest = code.as_str();
    while let Some(i) = rest.find("use ") {
        let after = &rest[i + 4..];
        let boundary_ok = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric();
        if boundary_ok && (after.starts_with("crate::") || after.starts_with("super::")) {
            let end = after.find(';').unwrap_or(after.len());
            let tree: String = after[..end]
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            expand_use_tree("", &tree, &mut out);
        }
        rest = after;
    }
    // Paths written out in code, `super::` ones included.
    let written = code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
        .map(|(i, _)| i)
        .collect::<Vec<_>>();
    for i in written {
        let before = code[..i].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let path: String = code[i..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        out.push(path);
    }
    out
}

fn resolve(
    from: &Module,
    from_is_dir: bool,
    path: &str,
    known: &BTreeSet<Module>,
) -> Option<Module> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Module = match segments.first() {
        Some(&"crate") => Vec::new(),
        Some(&"super") => {
            // `super` of `a/b.rs` is `a`; of `a/b/mod.rs` it is `a` too (the parent of `a::b`).
            let mut parent = from.clone();
            parent.pop();
            let _ = from_is_dir;
            parent
        }
        _ => return None,
    };
    segments.remove(0);
    while segments.first() == Some(&"super") {
        base.pop();
        segments.remove(0);
    }
    let mut full = base;
    full.extend(segments.iter().map(|s| s.to_string()));
    (1..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|m| known.contains(m))
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "lib".to_owned()
    } else {
        m.join("/")
    }
}

fn import_graph() -> BTreeMap<Module, BTreeSet<Module>> {
    import_graph_of("src")
}

fn import_graph_of(root: &str) -> BTreeMap<Module, BTreeSet<Module>> {
    let files = sources_in(root);
    let known: BTreeSet<Module> = files.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (module, source) in &files {
        let is_dir = source.path.file_name().is_some_and(|f| f == "mod.rs");
        let targets: BTreeSet<Module> = paths_named(&source.code)
            .iter()
            .filter_map(|p| resolve(module, is_dir, p, &known))
            .filter(|t| t != module && !t.is_empty())
            .collect();
        graph.insert(module.clone(), targets);
    }
    graph
}

/// Strongly connected components of more than one file (Tarjan).
fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Module) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        let graph = s.graph;
        for w in graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(name(w));
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn no_import_circle() {
    let mut found = Vec::new();
    for root in ROOTS {
        let graph = import_graph_of(root);
        found.extend(
            circles(&graph)
                .into_iter()
                .map(|c| c.iter().map(|m| format!("{root}/{m}")).collect::<Vec<_>>()),
        );
    }
    found.sort();
    let known: Vec<Vec<String>> = KNOWN_CIRCLES
        .iter()
        .map(|c| c.iter().map(|m| m.to_string()).collect())
        .collect();
    assert_eq!(found, known, "import circles between files");
}

/// Every file `module` reaches through its imports, directly or not.
fn reach(graph: &BTreeMap<Module, BTreeSet<Module>>, module: &Module) -> BTreeSet<Module> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![module.clone()];
    while let Some(m) = todo.pop() {
        for t in graph.get(&m).into_iter().flatten() {
            if seen.insert(t.clone()) {
                todo.push(t.clone());
            }
        }
    }
    seen
}

fn layer_reaches(layer: &[&str], forbidden: &[&str]) -> Vec<String> {
    let graph = import_graph();
    let mut bad = Vec::new();
    for module in graph
        .keys()
        .filter(|m| m.first().is_some_and(|f| layer.contains(&f.as_str())))
    {
        for t in reach(&graph, module) {
            if t.first().is_some_and(|f| forbidden.contains(&f.as_str())) {
                bad.push(format!("{} reaches {}", name(module), name(&t)));
            }
        }
    }
    bad
}

#[test]
fn settings_and_the_broker_layer_never_reach_the_commands() {
    let bad = layer_reaches(&["settings"], &["broker", "commands"]);
    assert!(
        bad.is_empty(),
        "settings reach the broker or commands:\n{}",
        bad.join("\n")
    );
    let bad = layer_reaches(&["broker"], &["live", "commands", "cli", "settings"]);
    assert!(
        bad.is_empty(),
        "broker/ reaches a layer above:\n{}",
        bad.join("\n")
    );
}

/// `output/` renders plain data: the reports the commands build and the core's types. It never
/// imports `live/` or `commands/` (which import it), so the folders make no circle: a type both
/// need (a live queue's `Counts`) lives in the core crate, below both.
#[test]
fn output_renders_plain_data_and_never_reaches_live_or_the_commands() {
    let bad = layer_reaches(&["output"], &["live", "commands", "cli", "settings"]);
    assert!(
        bad.is_empty(),
        "output/ reaches a layer above (give it plain data instead):\n{}",
        bad.join("\n")
    );
}

fn files_mentioning(word: &str) -> Vec<String> {
    sources()
        .values()
        .filter(|s| {
            let text = std::fs::read_to_string(&s.path).unwrap_or_default();
            without_comments(&text)
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == word)
        })
        .map(|s| relative(&s.path))
        .collect()
}

#[test]
fn only_the_broker_layer_knows_lapin_and_http() {
    let lapin: Vec<_> = files_mentioning("lapin")
        .into_iter()
        .filter(|p| !p.starts_with("src/broker/"))
        .collect();
    assert_eq!(
        lapin, KNOWN_LAPIN_OUTSIDE_BROKER,
        "lapin outside src/broker/"
    );
    let http: Vec<_> = files_mentioning("reqwest")
        .into_iter()
        .filter(|p| !p.starts_with("src/broker/"))
        .collect();
    assert!(
        http.is_empty(),
        "reqwest is used outside src/broker/: {http:?}"
    );
}

#[test]
fn only_the_cli_layer_knows_clap() {
    for word in ["clap", "clap_complete", "clap_mangen"] {
        let outside: Vec<_> = files_mentioning(word)
            .into_iter()
            .filter(|p| !p.starts_with("src/cli/") && p != "src/lib.rs")
            .collect();
        assert!(
            outside.is_empty(),
            "{word} is used outside the CLI layer: {outside:?}"
        );
    }
}

#[test]
fn no_file_over_600_lines_of_code() {
    let mut long = Vec::new();
    for source in ROOTS.iter().flat_map(|r| sources_in(r).into_values()) {
        let mut in_block_comment = false;
        let lines = source
            .code
            .lines()
            .map(str::trim)
            .filter(|l| {
                if in_block_comment {
                    in_block_comment = !l.contains("*/");
                    return false;
                }
                if l.starts_with("/*") {
                    in_block_comment = !l.contains("*/");
                    return false;
                }
                !l.is_empty() && !l.starts_with("//")
            })
            .count();
        if lines > MAX_CODE_LINES {
            long.push(relative(&source.path));
        }
    }
    long.sort();
    assert_eq!(
        long, KNOWN_LONG_FILES,
        "files over {MAX_CODE_LINES} lines of code"
    );
}

/// Commands build a report and `output/` renders it: `output::table` and comfy-table are named
/// only there.
#[test]
fn no_table_is_drawn_outside_output() {
    let mut drawing: Vec<String> = sources()
        .values()
        .filter(|s| !relative(&s.path).starts_with("src/output/"))
        .filter(|s| {
            let code = without_comments(&s.code);
            code.contains("output::table(") || code.contains("comfy_table")
        })
        .map(|s| relative(&s.path))
        .collect();
    drawing.sort();
    assert!(
        drawing.is_empty(),
        "tables drawn outside src/output/: {drawing:?}"
    );
}

/// docs/design.md's file map: the first code block of the page, a tree with one entry per line
/// (a folder ends with `/`, indented two spaces under its folder) and its description beside
/// it, continued on lines indented to the description's column.
const MAP_DESCRIPTION_COLUMN: usize = 26;

/// The paths the file map names as entries, relative to the repository, and every `*.rs` its
/// descriptions mention, with the folder each was written under.
fn design_file_map() -> (Vec<String>, Vec<(String, String)>) {
    let design = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/design.md"))
        .expect("docs/design.md");
    let map = design
        .split("```")
        .nth(1)
        .expect("docs/design.md opens with its file map in a code block");
    let mut entries = Vec::new();
    let mut mentioned = Vec::new();
    // The folders open above the current line: (indentation, path).
    let mut folders: Vec<(usize, String)> = Vec::new();
    // The folder a description is written under.
    let mut here = String::new();
    for line in map.lines().filter(|l| !l.trim().is_empty()) {
        let indent = line.len() - line.trim_start().len();
        let description = if indent >= MAP_DESCRIPTION_COLUMN {
            line.trim()
        } else {
            assert!(
                indent % 2 == 0,
                "docs/design.md's file map: `{line}` is indented by {indent}, not a level"
            );
            while folders.last().is_some_and(|(i, _)| *i >= indent) {
                folders.pop();
            }
            let parent = match folders.last() {
                Some((i, path)) if *i + 2 == indent => path.clone(),
                None if indent == 0 => String::new(),
                _ => panic!("docs/design.md's file map: `{line}` has no folder above it"),
            };
            let name = line.split_whitespace().next().expect("a line with text");
            let path = format!("{parent}{name}");
            entries.push(path.clone());
            if name.ends_with('/') {
                folders.push((indent, path.clone()));
                here = path;
            } else {
                here = parent;
            }
            line.trim_start()[name.len()..].trim()
        };
        for word in description.split(|c: char| !(c.is_alphanumeric() || "_./-".contains(c))) {
            if word.ends_with(".rs") {
                mentioned.push((here.clone(), word.to_owned()));
            }
        }
    }
    (entries, mentioned)
}

/// docs/design.md's file map names every source file of both crates, one line each, and names
/// nothing that is not there: a file added, moved or removed fails here until the map says so.
#[test]
fn the_design_file_map_names_every_source_file_and_nothing_else() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (entries, mentioned) = design_file_map();
    let missing: Vec<String> = entries
        .iter()
        .filter(|p| !root.join(p).exists())
        .cloned()
        .collect();
    assert!(
        missing.is_empty(),
        "docs/design.md's file map names what does not exist: {missing:?}"
    );
    // A file a description mentions is found in the folder it is written under or the one
    // above, or by its path from the repository or from either crate's src/.
    let stale: Vec<String> = mentioned
        .iter()
        .filter(|(here, file)| {
            let above = Path::new(here).parent().unwrap_or(Path::new(""));
            [Path::new(here), above]
                .into_iter()
                .chain(["", "src/", "crates/queuey-cli-core/src/"].map(Path::new))
                .all(|base| !root.join(base).join(file).is_file())
        })
        .map(|(here, file)| format!("{file} (under {here})"))
        .collect();
    assert!(
        stale.is_empty(),
        "docs/design.md's file map mentions files that do not exist: {stale:?}"
    );
    let named: BTreeSet<&str> = entries.iter().map(String::as_str).collect();
    let mut unnamed = Vec::new();
    for source_root in ROOTS {
        let mut stack = vec![root.join(source_root)];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("a source folder is readable") {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let path = relative(&path);
                    if !named.contains(path.as_str()) {
                        unnamed.push(path);
                    }
                }
            }
        }
    }
    unnamed.sort();
    assert!(
        unnamed.is_empty(),
        "source files docs/design.md's file map does not name (one line each, under its \
         folder): {unnamed:?}"
    );
}
