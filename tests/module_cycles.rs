//! No cycle of imports or method calls between the modules of a crate.
//!
//! Two modules that need each other can only be read together; a reader
//! should be able to start at the bottom of a crate and climb. This test
//! reads each crate's source files (from its `lib.rs` or `main.rs`, following
//! `mod x;` declarations and `#[path]` attributes), collects which modules
//! each file uses, and fails with the cycle spelled `a -> b -> c -> a` when
//! any strongly connected component of that graph has more than one module.
//!
//! The rule, exactly:
//! - A node is a module that has a file of its own. An inline `mod x { .. }`
//!   (unit tests included) belongs to the file that holds it.
//! - An edge `a -> b` is a path in `a` that names `b` or an item inside `b`:
//!   `use crate::..`, `use super::..`, `use self::..`, a `use` whose first
//!   segment is a child module, and the same four kinds of path written in
//!   code (`crate::x::f()`, `super::T`, `self::x::T`, `child::f()`).
//!   Naming an item through a `use` re-export counts as naming the module
//!   that defines it (`use super::Game` where the parent has
//!   `pub use game::Game` is an edge to `game`, not to the parent).
//! - A child naming its parent's own items is an edge to the parent.
//! - A module naming its own descendants is not an edge: `mod child;`,
//!   `pub use child::Item` and the wiring a `lib.rs` or `mod.rs` does
//!   (`child::f()`) make the parent the namespace and entry point of its
//!   children, so "parent re-exports child" is never a cycle. The price: a
//!   parent and its own child that need each other are not reported, so a
//!   `mod.rs` keeps to declarations, re-exports, the types its children
//!   share and the wiring. Mutual uses between modules where neither
//!   contains the other (siblings, cousins, a module and its parent's
//!   sibling) are all reported.
//! - Paths into other crates, `std` and local names are not edges.
//! - A method call is an edge too, from the calling file to the file whose
//!   `impl` defines the method: a type's methods spread over several files
//!   (`Host` over the host's modules, `Diplomacy` over `game/`, `Tx` over
//!   the store's table files) call one way, like imports. The receiver's
//!   type is read from the tokens (`self`, `Self::m`, `Type::m`, and a
//!   variable named after a type: `host.m()`, `tx.m()`); calls on any
//!   other receiver, and calls inside `#[cfg(test)]` modules, are not
//!   counted (`support/rust_methods.rs` says exactly what is read).
//!
//! `MODULE_CYCLES_ALL_EDGES=1 cargo test --test module_cycles` prints every
//! edge inside each tangle, for untangling one.

#[path = "support/rust_tokens.rs"]
mod rust_tokens;

#[path = "support/rust_methods.rs"]
mod rust_methods;

use rust_methods::{FileMethods, read_methods};
use rust_tokens::{Token, TokenKind, ident, is, tokenize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crates checked, by name and crate root, relative to the workspace.
const CHECKED_CRATES: &[(&str, &str)] = &[
    ("games", "crates/games/src/lib.rs"),
    ("store", "crates/store/src/lib.rs"),
    ("host", "crates/host/src/lib.rs"),
    ("render", "crates/render/src/lib.rs"),
    ("gamehost", "src/lib.rs"),
    ("gamehost (binary)", "src/main.rs"),
    ("discord", "crates/discord/src/lib.rs"),
];

/// A module's path inside its crate: `["diplomacy", "game"]`; empty for the root.
type ModulePath = Vec<String>;

/// One path a file names, in the (possibly inline) module it is written in.
#[derive(Clone, Debug)]
struct NamedPath {
    /// Inline modules between the file's module and the path.
    inline_scope: Vec<String>,
    segments: Vec<String>,
    /// The name a `use` binds (its last segment or its `as` name); `None`
    /// for a glob or a path written in code.
    binding: Option<String>,
    /// A path in code rather than in a `use`.
    in_code: bool,
    line: usize,
}

/// A `mod x;` declaration: the child's file is found from it.
#[derive(Clone, Debug)]
struct ModDeclaration {
    inline_scope: Vec<String>,
    name: String,
    path_attribute: Option<String>,
}

/// What one file declares and names.
#[derive(Debug, Default)]
struct ParsedFile {
    declarations: Vec<ModDeclaration>,
    inline_modules: Vec<Vec<String>>,
    paths: Vec<NamedPath>,
    /// The methods the file defines and calls.
    methods: FileMethods,
}

/// Reads the use tree starting at `*i` under `prefix`, up to the `,`, `}`
/// or `;` that ends it, and pushes each leaf as `(segments, binding)`.
fn parse_use_tree(
    tokens: &[Token],
    i: &mut usize,
    prefix: Vec<String>,
    leaves: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut segments = prefix;
    loop {
        match tokens.get(*i).map(|t| &t.kind) {
            Some(TokenKind::PathSep) => *i += 1,
            Some(TokenKind::Ident(name)) if name == "as" => {
                *i += 1;
                let alias = ident(tokens, *i).map(str::to_string);
                *i += 1;
                leaves.push((segments, alias));
                return;
            }
            Some(TokenKind::Ident(name)) => {
                segments.push(name.clone());
                *i += 1;
            }
            Some(TokenKind::Punct('*')) => {
                *i += 1;
                leaves.push((segments, None));
                return;
            }
            Some(TokenKind::Punct('{')) => {
                *i += 1;
                while *i < tokens.len() && !is(tokens, *i, &TokenKind::Punct('}')) {
                    parse_use_tree(tokens, i, segments.clone(), leaves);
                    if is(tokens, *i, &TokenKind::Punct(',')) {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            _ => {
                // `use a::b::{self}` binds `b`.
                if segments.last().map(String::as_str) == Some("self") {
                    segments.pop();
                }
                let binding = segments.last().cloned();
                leaves.push((segments, binding));
                return;
            }
        }
    }
}

/// Reads one file's module declarations, inline modules and named paths.
fn parse_file(source: &str) -> ParsedFile {
    let tokens = tokenize(source);
    let mut parsed = ParsedFile {
        methods: read_methods(&tokens),
        ..ParsedFile::default()
    };
    let mut scope: Vec<String> = Vec::new();
    // One entry per open brace: whether it opened an inline module.
    let mut braces: Vec<bool> = Vec::new();
    let mut path_attribute: Option<String> = None;
    let mut i = 0;
    while i < tokens.len() {
        let previous_is_path_sep = i > 0 && is(&tokens, i - 1, &TokenKind::PathSep);
        match &tokens[i].kind {
            TokenKind::Punct('{') => {
                braces.push(false);
                i += 1;
            }
            TokenKind::Punct('}') => {
                if braces.pop() == Some(true) {
                    scope.pop();
                }
                path_attribute = None;
                i += 1;
            }
            TokenKind::Punct(';') => {
                path_attribute = None;
                i += 1;
            }
            TokenKind::Punct('#')
                if is(&tokens, i + 1, &TokenKind::Punct('['))
                    && ident(&tokens, i + 2) == Some("path")
                    && is(&tokens, i + 3, &TokenKind::Punct('=')) =>
            {
                if let Some(TokenKind::Str(path)) = tokens.get(i + 4).map(|t| &t.kind) {
                    path_attribute = Some(path.clone());
                }
                i += 5;
            }
            TokenKind::Ident(word) if word == "mod" && ident(&tokens, i + 1).is_some() => {
                let name = ident(&tokens, i + 1).unwrap_or_default().to_string();
                if is(&tokens, i + 2, &TokenKind::Punct('{')) {
                    scope.push(name);
                    parsed.inline_modules.push(scope.clone());
                    braces.push(true);
                    i += 3;
                } else {
                    parsed.declarations.push(ModDeclaration {
                        inline_scope: scope.clone(),
                        name,
                        path_attribute: path_attribute.take(),
                    });
                    i += 2;
                }
            }
            TokenKind::Ident(word) if word == "use" && !previous_is_path_sep => {
                let line = tokens[i].line;
                i += 1;
                let mut leaves = Vec::new();
                while i < tokens.len() && !is(&tokens, i, &TokenKind::Punct(';')) {
                    let before = i;
                    parse_use_tree(&tokens, &mut i, Vec::new(), &mut leaves);
                    if i == before {
                        i += 1;
                    }
                }
                for (segments, binding) in leaves {
                    parsed.paths.push(NamedPath {
                        inline_scope: scope.clone(),
                        segments,
                        binding,
                        in_code: false,
                        line,
                    });
                }
            }
            TokenKind::Ident(_)
                if is(&tokens, i + 1, &TokenKind::PathSep) && !previous_is_path_sep =>
            {
                let line = tokens[i].line;
                let mut segments = Vec::new();
                while let Some(name) = ident(&tokens, i) {
                    segments.push(name.to_string());
                    if is(&tokens, i + 1, &TokenKind::PathSep) && ident(&tokens, i + 2).is_some() {
                        i += 2;
                    } else {
                        break;
                    }
                }
                i += 1;
                parsed.paths.push(NamedPath {
                    inline_scope: scope.clone(),
                    segments,
                    binding: None,
                    in_code: true,
                    line,
                });
            }
            _ => i += 1,
        }
    }
    parsed
}

/// Why an edge exists: the first place it is named.
#[derive(Clone, Debug)]
struct Evidence {
    file: PathBuf,
    line: usize,
    path: String,
}

/// A crate's modules and the uses between them.
#[derive(Debug, Default)]
struct ModuleGraph {
    /// Every module, inline ones included, mapped to the module of its file.
    file_module_of: BTreeMap<ModulePath, ModulePath>,
    /// Per module (inline ones included): the names its `use`s bind, each
    /// to the absolute path it names (`None` outside this crate).
    bindings: BTreeMap<ModulePath, BTreeMap<String, Option<Vec<String>>>>,
    /// Edges between file modules, with where each is first named.
    edges: BTreeMap<ModulePath, BTreeMap<ModulePath, Evidence>>,
}

/// A parsed file and where it sits in the crate.
struct LoadedFile {
    file: PathBuf,
    module: ModulePath,
    parsed: ParsedFile,
}

/// Follows `mod` declarations from the crate root, reading each file with
/// `read` (the disk, or a map in the checker's own tests).
fn load_crate(
    root: &Path,
    read: &dyn Fn(&Path) -> Option<String>,
) -> Result<Vec<LoadedFile>, String> {
    let mut loaded = Vec::new();
    let mut pending = vec![(root.to_path_buf(), ModulePath::new(), true)];
    while let Some((file, module, owns_directory)) = pending.pop() {
        let source = read(&file).ok_or_else(|| format!("cannot read {}", file.display()))?;
        let parsed = parse_file(&source);
        let directory = file.parent().unwrap_or(Path::new("")).to_path_buf();
        // `a.rs`'s children live in `a/`; `mod.rs`, `lib.rs`, `main.rs` own their directory.
        let children_directory = if owns_directory {
            directory.clone()
        } else {
            directory.join(file.file_stem().unwrap_or_default())
        };
        for declaration in &parsed.declarations {
            let mut child = module.clone();
            child.extend(declaration.inline_scope.iter().cloned());
            child.push(declaration.name.clone());
            let mut child_directory = children_directory.clone();
            child_directory.extend(declaration.inline_scope.iter());
            let candidates = match &declaration.path_attribute {
                Some(path) => vec![(directory.join(path), path.ends_with("mod.rs"))],
                None => vec![
                    (
                        child_directory.join(format!("{}.rs", declaration.name)),
                        false,
                    ),
                    (child_directory.join(&declaration.name).join("mod.rs"), true),
                ],
            };
            let found = candidates
                .into_iter()
                .find(|(path, _)| read(path).is_some());
            let (child_file, child_owns_directory) = found.ok_or_else(|| {
                format!(
                    "no file for module {} declared in {}",
                    child.join("::"),
                    file.display()
                )
            })?;
            pending.push((child_file, child, child_owns_directory));
        }
        loaded.push(LoadedFile {
            file,
            module,
            parsed,
        });
    }
    Ok(loaded)
}

impl ModuleGraph {
    /// Builds the graph of the crate whose root file is `root`.
    fn build(root: &Path, read: &dyn Fn(&Path) -> Option<String>) -> Result<Self, String> {
        let files = load_crate(root, read)?;
        let mut graph = ModuleGraph::default();
        for loaded in &files {
            graph
                .file_module_of
                .insert(loaded.module.clone(), loaded.module.clone());
            for inline in &loaded.parsed.inline_modules {
                let mut module = loaded.module.clone();
                module.extend(inline.iter().cloned());
                graph.file_module_of.insert(module, loaded.module.clone());
            }
        }
        for loaded in &files {
            for named in loaded.parsed.paths.iter().filter(|named| !named.in_code) {
                let scope = scope_of(&loaded.module, named);
                let absolute = graph.absolute(&scope, &named.segments);
                if let Some(binding) = &named.binding {
                    graph
                        .bindings
                        .entry(scope)
                        .or_default()
                        .insert(binding.clone(), absolute);
                }
            }
        }
        for loaded in &files {
            for named in &loaded.parsed.paths {
                let scope = scope_of(&loaded.module, named);
                let Some(absolute) = graph.absolute(&scope, &named.segments) else {
                    continue;
                };
                let Some(target) = graph.locate(&absolute, 0) else {
                    continue;
                };
                graph.add_edge(
                    &loaded.module,
                    target,
                    Evidence {
                        file: loaded.file.clone(),
                        line: named.line,
                        path: named.segments.join("::"),
                    },
                );
            }
        }
        graph.add_method_call_edges(&files);
        Ok(graph)
    }

    /// Records that `source` uses `target`, unless `target` is `source`
    /// or one of its descendants (a parent wiring its children).
    fn add_edge(&mut self, source: &ModulePath, target: ModulePath, evidence: Evidence) {
        if target.starts_with(source) {
            return;
        }
        self.edges
            .entry(source.clone())
            .or_default()
            .entry(target)
            .or_insert(evidence);
    }

    /// Adds an edge from each file that calls a method to the files whose
    /// `impl` blocks define it for the receiver's type (`self.m()`,
    /// `host.m()`, `Self::m()`, `Type::m()`: see `rust_methods.rs` for how
    /// the type is read). A call whose receiver's type the tokens do not
    /// tell is not counted.
    fn add_method_call_edges(&mut self, files: &[LoadedFile]) {
        let mut by_type: BTreeMap<(&str, &str), BTreeSet<&ModulePath>> = BTreeMap::new();
        for loaded in files {
            for definition in &loaded.parsed.methods.definitions {
                let key = (definition.on_type.as_str(), definition.name.as_str());
                by_type.entry(key).or_default().insert(&loaded.module);
            }
        }
        let mut found = Vec::new();
        for loaded in files {
            for call in &loaded.parsed.methods.calls {
                let Some(on_type) = &call.on_type else {
                    continue;
                };
                let targets = by_type.get(&(on_type.as_str(), call.name.as_str()));
                for target in targets.into_iter().flatten() {
                    let evidence = Evidence {
                        file: loaded.file.clone(),
                        line: call.line,
                        path: format!("{on_type}::{}()", call.name),
                    };
                    found.push((loaded.module.clone(), (*target).clone(), evidence));
                }
            }
        }
        for (source, target, evidence) in found {
            self.add_edge(&source, target, evidence);
        }
    }

    /// The crate-absolute path a path written in `scope` names, or `None`
    /// when it leaves the crate (another crate, `std`, a local name).
    fn absolute(&self, scope: &[String], segments: &[String]) -> Option<Vec<String>> {
        let first = segments.first()?;
        match first.as_str() {
            "crate" => Some(segments[1..].to_vec()),
            "self" => Some([scope, &segments[1..]].concat()),
            "super" => {
                let supers = segments.iter().take_while(|s| *s == "super").count();
                let base = scope.len().checked_sub(supers)?;
                Some([&scope[..base], &segments[supers..]].concat())
            }
            child => {
                let mut module = scope.to_vec();
                module.push(child.to_string());
                self.file_module_of
                    .contains_key(&module)
                    .then(|| [scope, segments].concat())
            }
        }
    }

    /// The file module that defines what `absolute` names, following `use`
    /// bindings (re-exports) so a name is charged to where it is defined.
    fn locate(&self, absolute: &[String], depth: usize) -> Option<ModulePath> {
        let known = (0..=absolute.len())
            .rev()
            .find(|&length| self.file_module_of.contains_key(&absolute[..length]))?;
        let module = &absolute[..known];
        if known < absolute.len() && depth < 16 {
            let bound = self
                .bindings
                .get(module)
                .and_then(|names| names.get(&absolute[known]));
            if let Some(target) = bound {
                let mut next = target.clone()?;
                next.extend(absolute[known + 1..].iter().cloned());
                return self.locate(&next, depth + 1);
            }
        }
        self.file_module_of.get(module).cloned()
    }

    /// One cycle per strongly connected component of more than one module,
    /// as the modules around it from and back to the first, with the
    /// component (which may hold more modules than the one cycle shows).
    fn cycles(&self) -> Vec<(Vec<ModulePath>, BTreeSet<ModulePath>)> {
        let nodes: Vec<&ModulePath> = self
            .file_module_of
            .iter()
            .filter(|(module, file_module)| module == file_module)
            .map(|(module, _)| module)
            .collect();
        strongly_connected(&nodes, &self.edges)
            .into_iter()
            .filter(|component| component.len() > 1)
            .map(|component| (self.cycle_within(&component), component))
            .collect()
    }

    /// A shortest cycle through the component's first module, staying
    /// inside the component (breadth-first, so the printed cycle is short).
    fn cycle_within(&self, component: &BTreeSet<ModulePath>) -> Vec<ModulePath> {
        let start = component.iter().next().cloned().unwrap_or_default();
        let mut came_from: BTreeMap<ModulePath, ModulePath> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        while let Some(module) = queue.pop_front() {
            for next in self
                .edges
                .get(&module)
                .into_iter()
                .flat_map(|targets| targets.keys())
            {
                if !component.contains(next) {
                    continue;
                }
                if next == &start {
                    let mut way_back = Vec::new();
                    let mut step = module.clone();
                    while step != start {
                        way_back.push(step.clone());
                        step = came_from[&step].clone();
                    }
                    way_back.reverse();
                    return [vec![start.clone()], way_back, vec![start]].concat();
                }
                if !came_from.contains_key(next) {
                    came_from.insert(next.clone(), module.clone());
                    queue.push_back(next.clone());
                }
            }
        }
        vec![start]
    }

    /// A cycle as `a -> b -> a`, with where each step is named and every
    /// module of its component.
    fn describe(
        &self,
        crate_name: &str,
        cycle: &[ModulePath],
        component: &BTreeSet<ModulePath>,
    ) -> String {
        let names: Vec<String> = cycle
            .iter()
            .map(|module| module_name(crate_name, module))
            .collect();
        let mut text = names.join(" -> ");
        if component.len() + 1 > cycle.len() {
            let members: Vec<String> = component
                .iter()
                .map(|module| module_name(crate_name, module))
                .collect();
            text.push_str(&format!("\n    (one cycle of {{{}}})", members.join(", ")));
        }
        if std::env::var_os("MODULE_CYCLES_ALL_EDGES").is_some() {
            text.push_str(&self.describe_component_edges(crate_name, component));
        }
        for pair in cycle.windows(2) {
            if let Some(evidence) = self
                .edges
                .get(&pair[0])
                .and_then(|targets| targets.get(&pair[1]))
            {
                text.push_str(&format!(
                    "\n    {} -> {}: `{}` at {}:{}",
                    module_name(crate_name, &pair[0]),
                    module_name(crate_name, &pair[1]),
                    evidence.path,
                    workspace_relative(&evidence.file).display(),
                    evidence.line,
                ));
            }
        }
        text
    }
}

impl ModuleGraph {
    /// Every edge between two modules of `component`, one a line, for
    /// untangling it (`MODULE_CYCLES_ALL_EDGES=1`).
    fn describe_component_edges(
        &self,
        crate_name: &str,
        component: &BTreeSet<ModulePath>,
    ) -> String {
        let mut text = String::from("\n    all edges inside it:");
        for source in component {
            for (target, evidence) in self.edges.get(source).into_iter().flatten() {
                if component.contains(target) {
                    text.push_str(&format!(
                        "\n      {} -> {}: `{}` at {}:{}",
                        module_name(crate_name, source),
                        module_name(crate_name, target),
                        evidence.path,
                        workspace_relative(&evidence.file).display(),
                        evidence.line,
                    ));
                }
            }
        }
        text
    }
}

/// A file's path from the workspace root, for short messages.
fn workspace_relative(file: &Path) -> &Path {
    file.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(file)
}

/// The module a named path is written in: its file's module and inline scope.
fn scope_of(file_module: &[String], named: &NamedPath) -> ModulePath {
    [file_module, &named.inline_scope].concat()
}

fn module_name(crate_name: &str, module: &[String]) -> String {
    if module.is_empty() {
        format!("{crate_name} (root)")
    } else {
        module.join("::")
    }
}

/// Tarjan's algorithm: the strongly connected components of the graph.
fn strongly_connected(
    nodes: &[&ModulePath],
    edges: &BTreeMap<ModulePath, BTreeMap<ModulePath, Evidence>>,
) -> Vec<BTreeSet<ModulePath>> {
    struct Search<'a> {
        edges: &'a BTreeMap<ModulePath, BTreeMap<ModulePath, Evidence>>,
        index: BTreeMap<ModulePath, usize>,
        low: BTreeMap<ModulePath, usize>,
        stack: Vec<ModulePath>,
        on_stack: BTreeSet<ModulePath>,
        components: Vec<BTreeSet<ModulePath>>,
    }
    impl Search<'_> {
        fn visit(&mut self, node: &ModulePath) {
            let order = self.index.len();
            self.index.insert(node.clone(), order);
            self.low.insert(node.clone(), order);
            self.stack.push(node.clone());
            self.on_stack.insert(node.clone());
            let edges = self.edges;
            for next in edges
                .get(node)
                .into_iter()
                .flat_map(|targets| targets.keys())
            {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node.clone(), low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node.clone(), low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = BTreeSet::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(&member);
                    let done = &member == node;
                    component.insert(member);
                    if done {
                        break;
                    }
                }
                self.components.push(component);
            }
        }
    }
    let mut search = Search {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for node in nodes {
        if !search.index.contains_key(*node) {
            search.visit(node);
        }
    }
    search.components
}

/// The workspace's crates, checked from disk.
#[test]
fn no_crate_has_a_module_cycle() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    let mut failures = Vec::new();
    for (crate_name, root) in CHECKED_CRATES {
        let graph = ModuleGraph::build(&workspace.join(root), &read)
            .unwrap_or_else(|error| panic!("{crate_name}: {error}"));
        for (cycle, component) in graph.cycles() {
            failures.push(format!(
                "{crate_name}: {}",
                graph.describe(crate_name, &cycle, &component)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "module cycles (move the shared part below both modules):\n{}",
        failures.join("\n")
    );
}

/// The modules of a crate as `docs/architecture.md` lists them, top to
/// bottom: the bullets under the heading `### `crate``, each starting with
/// the module's path in backticks. `None` when the crate has no section.
fn documented_modules(doc: &str, crate_name: &str) -> Option<Vec<String>> {
    let heading = format!("### `{crate_name}`");
    let start = doc.lines().position(|line| line.starts_with(&heading))?;
    let modules = doc
        .lines()
        .skip(start + 1)
        .take_while(|line| !line.starts_with('#'))
        .filter_map(|line| line.strip_prefix("- `"))
        .filter_map(|rest| rest.split('`').next())
        .map(str::to_string)
        .collect();
    Some(modules)
}

/// The first sentence of a file's `//!` comment, for a suggested line.
fn first_doc_sentence(source: &str) -> String {
    let text: Vec<&str> = source
        .lines()
        .take_while(|line| line.starts_with("//!"))
        .map(|line| line.trim_start_matches("//!").trim())
        .take_while(|line| !line.is_empty())
        .collect();
    let text = text.join(" ");
    let end = [". ", ": ", "; "]
        .iter()
        .filter_map(|stop| text.find(stop))
        .min()
        .unwrap_or(text.len());
    format!("{}.", text[..end].trim_end_matches('.'))
}

/// Checks one crate's documented list against its graph: every module
/// listed once, nothing listed that is not a module, every edge pointing
/// down the list. Returns the problems, and a list in a working order
/// (each module with its first doc sentence) to start from.
fn check_documented_order(crate_name: &str, root: &Path, doc: &str) -> Result<(), String> {
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    let files = load_crate(root, &read).expect("the crate loads");
    let graph = ModuleGraph::build(root, &read).expect("the crate loads");
    let name = |module: &ModulePath| module.join("::");
    let modules: Vec<&LoadedFile> = files.iter().filter(|f| !f.module.is_empty()).collect();
    let listed = documented_modules(doc, crate_name).unwrap_or_default();
    let position = |module: &ModulePath| listed.iter().position(|m| *m == name(module));
    let mut problems = Vec::new();
    for loaded in &modules {
        if position(&loaded.module).is_none() {
            problems.push(format!("`{}` is not listed", name(&loaded.module)));
        }
    }
    for (i, entry) in listed.iter().enumerate() {
        if !modules.iter().any(|f| name(&f.module) == *entry) {
            problems.push(format!("`{entry}` is listed but is no module"));
        }
        if listed[..i].contains(entry) {
            problems.push(format!("`{entry}` is listed twice"));
        }
    }
    for (source, targets) in &graph.edges {
        for (target, evidence) in targets {
            if let (Some(a), Some(b)) = (position(source), position(target))
                && a >= b
            {
                problems.push(format!(
                    "`{}` uses `{}` listed above it (`{}` at {}:{})",
                    name(source),
                    name(target),
                    evidence.path,
                    workspace_relative(&evidence.file).display(),
                    evidence.line
                ));
            }
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let suggested: Vec<String> = top_down_order(&graph, &modules)
        .into_iter()
        .map(|f| {
            let source = read(&f.file).unwrap_or_default();
            format!("- `{}` — {}", name(&f.module), first_doc_sentence(&source))
        })
        .collect();
    Err(format!(
        "{crate_name}: docs/architecture.md's list is not the code's:\n  {}\n\
         a list in an order that works (### `{crate_name}`, top to bottom):\n{}",
        problems.join("\n  "),
        suggested.join("\n")
    ))
}

/// The modules in an order where every edge points down (Kahn's
/// algorithm, ties by name), modules of a cycle left at the end.
fn top_down_order<'a>(graph: &ModuleGraph, modules: &[&'a LoadedFile]) -> Vec<&'a LoadedFile> {
    let mut used_by: BTreeMap<&ModulePath, usize> =
        modules.iter().map(|f| (&f.module, 0)).collect();
    for targets in graph.edges.values() {
        for target in targets.keys() {
            if let Some(n) = used_by.get_mut(target) {
                *n += 1;
            }
        }
    }
    let mut order = Vec::new();
    let mut placed = BTreeSet::new();
    while order.len() < modules.len() {
        // Among the modules ready, the one nearest the last placed (the
        // longest shared path), so a folder's modules stay together.
        let last: ModulePath = order
            .last()
            .map(|f: &&LoadedFile| f.module.clone())
            .unwrap_or_default();
        let shared = |m: &ModulePath| m.iter().zip(&last).take_while(|(a, b)| a == b).count();
        let next = modules
            .iter()
            .filter(|f| !placed.contains(&f.module) && used_by[&f.module] == 0)
            .min_by_key(|f| (std::cmp::Reverse(shared(&f.module)), f.module.clone()))
            .or_else(|| modules.iter().find(|f| !placed.contains(&f.module)));
        let Some(next) = next else { break };
        placed.insert(next.module.clone());
        for target in graph
            .edges
            .get(&next.module)
            .into_iter()
            .flat_map(|t| t.keys())
        {
            if let Some(n) = used_by.get_mut(target) {
                *n = n.saturating_sub(1);
            }
        }
        order.push(*next);
    }
    order
}

/// `docs/architecture.md` lists every module of every crate, top to bottom,
/// and no module uses one listed above it: the document is the layering.
#[test]
fn the_architecture_document_lists_every_module_in_order() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(workspace.join("docs/architecture.md"))
        .expect("docs/architecture.md");
    let failures: Vec<String> = CHECKED_CRATES
        .iter()
        .filter(|(_, root)| !root.ends_with("main.rs"))
        .filter_map(|(crate_name, root)| {
            check_documented_order(crate_name, &workspace.join(root), &doc).err()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_documented_list_is_read_from_its_section() {
    let doc = "### `host` (top to bottom)\n\n- `lobby` — creating games.\n- `turns::submit` — actions.\n\n### `store`\n- `db` — x";
    assert_eq!(
        documented_modules(doc, "host"),
        Some(vec!["lobby".to_string(), "turns::submit".to_string()])
    );
    assert_eq!(
        first_doc_sentence("//! One. Two.\n//! Three.\n\nuse x;"),
        "One."
    );
    assert_eq!(first_doc_sentence("//! The AIs: a, b.\n"), "The AIs.");
}

/// Every crate of the workspace is in `CHECKED_CRATES`: a new crate is
/// checked from its first commit.
#[test]
fn every_crate_is_checked() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let checked: Vec<&str> = CHECKED_CRATES.iter().map(|(_, root)| *root).collect();
    let crates = std::fs::read_dir(workspace.join("crates")).expect("the crates folder");
    for entry in crates {
        let name = entry.expect("a crate folder").file_name();
        let root = format!("crates/{}/src/lib.rs", name.to_string_lossy());
        if workspace.join(&root).exists() {
            assert!(
                checked.contains(&root.as_str()),
                "{root} is not in CHECKED_CRATES"
            );
        }
    }
}

/// Builds a graph from in-memory files named relative to `src/`.
fn graph_of(files: &[(&str, &str)]) -> ModuleGraph {
    let files: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|(path, source)| (Path::new("src").join(path), source.to_string()))
        .collect();
    let read = |path: &Path| files.get(path).cloned();
    ModuleGraph::build(Path::new("src/lib.rs"), &read).expect("example crate loads")
}

fn cycle_names(graph: &ModuleGraph) -> Vec<String> {
    graph
        .cycles()
        .iter()
        .map(|(cycle, _)| {
            cycle
                .iter()
                .map(|module| module_name("example", module))
                .collect::<Vec<_>>()
                .join(" -> ")
        })
        .collect()
}

#[test]
fn a_cycle_of_three_siblings_is_found_and_printed_in_order() {
    let graph = graph_of(&[
        ("lib.rs", "mod a; mod b; mod c;"),
        ("a.rs", "use crate::b::Thing;"),
        ("b.rs", "pub struct Thing; fn f() { super::c::g(); }"),
        (
            "c.rs",
            "pub fn g() {} fn h() -> crate::a::Other { todo!() }",
        ),
    ]);
    assert_eq!(cycle_names(&graph), ["a -> b -> c -> a"]);
}

#[test]
fn a_tree_of_modules_passes() {
    let graph = graph_of(&[
        ("lib.rs", "pub mod game; pub mod ai; pub use game::Game;"),
        (
            "game/mod.rs",
            "mod state; pub use state::State; pub struct Game(State);",
        ),
        ("game/state.rs", "pub struct State;"),
        (
            "ai.rs",
            "use crate::Game; use super::game::State; #[cfg(test)] mod tests { use super::*; }",
        ),
    ]);
    assert_eq!(cycle_names(&graph), Vec::<String>::new());
    let ai_uses: Vec<&ModulePath> = graph.edges[&vec!["ai".to_string()]].keys().collect();
    assert_eq!(
        ai_uses,
        [
            &vec!["game".to_string()],
            &vec!["game".to_string(), "state".to_string()]
        ]
    );
}

#[test]
fn a_parent_wiring_its_child_is_not_an_edge_but_a_child_using_its_uncle_is() {
    let graph = graph_of(&[
        ("lib.rs", "mod game; mod board;"),
        (
            "game/mod.rs",
            "mod ai; pub struct Game; fn play() { ai::choose(); }",
        ),
        (
            "game/ai.rs",
            "use super::Game; use crate::board::draw; pub fn choose() {}",
        ),
        ("board.rs", "pub fn draw() { crate::game::ai::choose(); }"),
    ]);
    assert!(
        !graph.edges.contains_key(&vec!["game".to_string()]),
        "{:?}",
        graph.edges
    );
    assert_eq!(cycle_names(&graph), ["board -> game::ai -> board"]);
}

#[test]
fn a_parent_reexporting_its_child_is_not_a_cycle() {
    let graph = graph_of(&[
        ("lib.rs", "mod game;"),
        (
            "game/mod.rs",
            "mod ai; pub use ai::choose; pub use self::ai::Other; pub struct Game;",
        ),
        (
            "game/ai.rs",
            "use super::Game; pub fn choose() {} pub struct Other;",
        ),
    ]);
    assert_eq!(cycle_names(&graph), Vec::<String>::new());
}

#[test]
fn a_use_through_a_reexport_is_charged_to_the_defining_module() {
    let graph = graph_of(&[
        ("lib.rs", "mod game; mod ai; pub use ai::choose;"),
        ("game.rs", "fn f() { crate::choose(); }"),
        ("ai.rs", "use crate::game; pub fn choose() {}"),
    ]);
    assert_eq!(cycle_names(&graph), ["ai -> game -> ai"]);
}

#[test]
fn comments_strings_inline_modules_and_other_crates_are_not_uses() {
    let graph = graph_of(&[
        ("lib.rs", "mod a; mod b;"),
        (
            "a.rs",
            "// use crate::b;\n/* crate::b::X */ const S: &str = \"crate::b\"; const R: &str = r#\"super::b\"#;\nfn f<'a>(c: char) -> bool { c == 'x' || c == '\\'' || other::b::g() }\nmod inner { use super::super::a::Y; }",
        ),
        ("b.rs", "use crate::a::Y;"),
    ]);
    assert_eq!(cycle_names(&graph), Vec::<String>::new());
    assert!(
        !graph.edges.contains_key(&vec!["a".to_string()]),
        "{:?}",
        graph.edges
    );
}

#[test]
fn a_path_attribute_locates_the_child_file() {
    let graph = graph_of(&[
        ("lib.rs", "#[path = \"elsewhere/impl.rs\"] mod a; mod b;"),
        ("elsewhere/impl.rs", "use crate::b::X;"),
        ("b.rs", "use crate::a::Y; pub struct X;"),
    ]);
    assert_eq!(cycle_names(&graph), ["a -> b -> a"]);
}

#[test]
fn methods_of_one_type_spread_over_files_that_call_each_other_are_a_cycle() {
    let graph = graph_of(&[
        ("lib.rs", "mod lobby; mod turns; pub struct Host;"),
        (
            "lobby.rs",
            "impl crate::Host { pub fn start(&self) { self.begin_turn(); } fn announce(&self) {} }",
        ),
        (
            "turns.rs",
            "impl crate::Host { pub(crate) fn begin_turn(&self) { self.announce(); } }",
        ),
    ]);
    assert_eq!(cycle_names(&graph), ["lobby -> turns -> lobby"]);
}

#[test]
fn calls_that_only_go_down_pass_and_receivers_named_after_types_count() {
    let graph = graph_of(&[
        (
            "lib.rs",
            "mod announce; mod turns; mod view; pub struct Host;",
        ),
        (
            "announce.rs",
            "impl crate::Host { fn announce(&self) {} } pub struct Board; impl Board { fn draw(&self) {} fn len(&self) -> usize { 0 } }",
        ),
        (
            "turns.rs",
            "fn resolve(host: &Host, board: Board, b: Board) { host.announce(); board.draw(); b.len(); }",
        ),
        (
            "view.rs",
            "pub struct View; impl View { fn len(&self) -> usize { 1 } } fn f(v: Vec<u8>, w: View) -> usize { v.len() + w.len() + make().draw() }",
        ),
    ]);
    assert_eq!(cycle_names(&graph), Vec::<String>::new());
    let turns_uses: Vec<&ModulePath> = graph.edges[&vec!["turns".to_string()]].keys().collect();
    assert_eq!(turns_uses, [&vec!["announce".to_string()]]);
    // `v`, `w` and a call's result name no type: no edge from `view`.
    assert!(
        !graph.edges.contains_key(&vec!["view".to_string()]),
        "{:?}",
        graph.edges
    );
}

#[test]
fn associated_calls_and_impl_trait_types_are_read_right() {
    let graph = graph_of(&[
        ("lib.rs", "mod a; mod b;"),
        (
            "a.rs",
            "pub struct Seat; impl<'x> Seat { pub fn named() -> Seat { Seat } } fn all() -> impl Iterator<Item = u8> { b_calls() } fn b_calls() {}",
        ),
        (
            "b.rs",
            "pub struct Desk; impl Desk { fn open(&self) { let _ = Seat::named(); } fn back() {} } fn g(f: impl Fn() -> u8) {}",
        ),
    ]);
    let b_uses: Vec<&ModulePath> = graph.edges[&vec!["b".to_string()]].keys().collect();
    assert_eq!(b_uses, [&vec!["a".to_string()]]);
    assert_eq!(cycle_names(&graph), Vec::<String>::new());
}

#[test]
fn a_unit_test_driving_its_module_through_the_top_api_is_not_a_call_edge() {
    let graph = graph_of(&[
        ("lib.rs", "mod engine; mod fog; pub struct Game;"),
        (
            "engine.rs",
            "impl crate::Game { pub fn new() -> crate::Game { crate::Game } fn hides(&self) { self.seen(); } }",
        ),
        (
            "fog.rs",
            "impl crate::Game { pub fn seen(&self) {} }\n#[cfg(test)]\nmod tests { #[test] fn t() { let g = Game::new(); g.seen(); } }",
        ),
    ]);
    assert_eq!(cycle_names(&graph), Vec::<String>::new());
}
