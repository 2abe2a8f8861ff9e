//! Every `gamehost ...` command line that `README.md`, `README.ja.md` and
//! `docs/**/*.md` show names a real subcommand and real flags.
//!
//! The command lines are found in fenced code blocks (unmarked or marked as
//! shell; a `text` block such as a diagram is not read), indented ones and in
//! inline code (which may wrap across lines), as `gamehost ARGS`,
//! `cargo run ... -- ARGS` and `docker compose exec SERVICE gamehost ARGS`;
//! pipes, `&&`, redirections and `#` comments are understood. Each one is
//! checked against the real binary's help, walking it as clap does: a bare
//! word where a command has subcommands must be one of them (hidden ones are
//! asked for directly), every flag must be listed in that subcommand's
//! `--help` (a flag that takes a value takes the next word), and there may
//! be no more bare words than the subcommand has arguments. Only `--help`
//! is ever run, in an empty folder with an empty environment, so no config,
//! token or database is read or written. Placeholders are understood: `[--flag
//! VALUE]` is the flag, `[FILE or DIR]` one argument, `...` nothing, and
//! `<command>` in place of a subcommand ends the check of that line.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One `gamehost` invocation found in a Markdown file.
#[derive(Debug)]
struct DocCommand {
    /// The Markdown file, relative to the crate.
    file: String,
    /// The line the code containing it starts on, from 1.
    line: usize,
    /// The code it was found in, as written.
    code: String,
    /// The arguments after `gamehost`.
    args: Vec<String>,
}

/// What a subcommand's `--help` says it accepts.
#[derive(Debug, Default)]
struct HelpPage {
    /// The visible subcommands (with `help`).
    subcommands: Vec<String>,
    /// Each flag (`--name` or `-x`) and whether it takes a value.
    flags: HashMap<String, bool>,
    /// How many positional arguments it lists.
    arguments: usize,
    /// Whether its last argument takes any number of words (`...`).
    variadic: bool,
}

/// The help pages asked of the binary so far, by subcommand path.
struct HelpPages {
    /// An empty folder the binary runs in, also its HOME.
    scratch: PathBuf,
    /// The pages, or why the binary refused the path.
    pages: HashMap<Vec<String>, Result<HelpPage, String>>,
}

impl HelpPages {
    /// An empty cache running the binary in a fresh empty folder.
    fn new() -> HelpPages {
        // One folder per cache: the tests run in parallel, and each removes its own.
        static CACHES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let cache = CACHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let scratch =
            std::env::temp_dir().join(format!("gamehost-docs-{}-{cache}", std::process::id()));
        std::fs::create_dir_all(&scratch).expect("create the scratch folder");
        HelpPages {
            scratch,
            pages: HashMap::new(),
        }
    }

    /// The help of `gamehost PATH --help`, asked once per path.
    fn page(&mut self, path: &[String]) -> Result<&HelpPage, String> {
        if !self.pages.contains_key(path) {
            let page = run_help(&self.scratch, path);
            self.pages.insert(path.to_vec(), page);
        }
        self.pages[path].as_ref().map_err(Clone::clone)
    }
}

impl Drop for HelpPages {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// Runs `gamehost PATH --help` with nothing from the real environment:
/// `--help` makes clap print and exit before any command runs.
fn run_help(scratch: &Path, path: &[String]) -> Result<HelpPage, String> {
    let output = Command::new(env!("CARGO_BIN_EXE_gamehost"))
        .args(path)
        .arg("--help")
        .env_clear()
        .env("HOME", scratch)
        .current_dir(scratch)
        .output()
        .map_err(|e| format!("cannot run gamehost: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(stderr.lines().next().unwrap_or("failed").to_string());
    }
    Ok(parse_help(&String::from_utf8_lossy(&output.stdout)))
}

/// Reads clap's help layout: `Commands:`, `Arguments:` and `Options:`
/// sections, each entry on a line indented by two to six spaces (a wrapped
/// or long description is indented further, so it is never read as one).
fn parse_help(text: &str) -> HelpPage {
    let mut page = HelpPage::default();
    let mut section = "";
    for line in text.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line;
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if !(2..=6).contains(&indent) {
            continue;
        }
        let entry = line.trim_start();
        let spec = entry.split("  ").next().unwrap_or("");
        match section {
            "Commands:" => page
                .subcommands
                .extend(spec.split(", ").map(|name| name.trim().to_string())),
            "Arguments:" => {
                page.arguments += 1;
                page.variadic |= spec.contains("...");
            }
            "Options:" if entry.starts_with('-') => {
                let takes_value = spec.contains('<');
                for name in spec.split([',', ' ']).filter(|w| w.starts_with('-')) {
                    page.flags.insert(name.to_string(), takes_value);
                }
            }
            _ => {}
        }
    }
    page
}

/// `README.md`, its translations (`README.ja.md`) and every Markdown
/// file under `docs/`, sorted.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md"), root.join("README.ja.md")];
    let mut folders = vec![root.join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read docs/") {
            let path = entry.expect("read a docs/ entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The code in a Markdown text with the line it starts on: each line of a
/// fenced or indented code block, and each inline code span (joined into
/// one line when it wraps).
fn code_in_markdown(markdown: &str) -> Vec<(usize, String)> {
    let mut code = Vec::new();
    let mut in_fence = false;
    // A fence marked as another language (`text`, `toml`) holds no commands:
    // a diagram's `gamehost   the binary` is not one.
    let mut fence_is_shell = false;
    let mut prose = String::new();
    for (index, line) in markdown.lines().enumerate() {
        if let Some(language) = line.trim_start().strip_prefix("```") {
            in_fence = !in_fence;
            fence_is_shell = matches!(language.trim(), "" | "sh" | "shell" | "bash" | "console");
            prose.push('\n');
        } else if in_fence {
            if fence_is_shell {
                code.push((index + 1, line.to_string()));
            }
            prose.push('\n');
        } else {
            // An indented code block, or a list item's indented text: the
            // latter only ever matters as prose (a command never starts it).
            if line.starts_with("    ") && !line.contains('`') {
                code.push((index + 1, line.to_string()));
            }
            prose.push_str(line);
            prose.push('\n');
        }
    }
    code.extend(inline_code(&prose));
    code
}

/// The single-backtick spans of a text with the line each starts on.
fn inline_code(text: &str) -> Vec<(usize, String)> {
    let mut spans = Vec::new();
    let mut line = 1;
    let mut open: Option<(usize, String)> = None;
    let mut previous = '\n';
    for c in text.chars() {
        match (&mut open, c) {
            (None, '`') => open = Some((line, String::new())),
            (Some(_), '`') => spans.extend(open.take()),
            (Some((_, span)), '\n') => span.push(' '),
            (Some((_, span)), c) => span.push(c),
            (None, _) => {}
        }
        if c == '\n' {
            line += 1;
            // A span never crosses a blank line: that backtick was literal.
            if previous == '\n' {
                open = None;
            }
        }
        previous = c;
    }
    spans
}

/// Splits shell code into words, honouring quotes; stops at a `#` comment.
fn shell_words(code: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in code.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '#') if word.is_none() => break,
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// The `gamehost` arguments of each command in a piece of shell code.
fn invocations(code: &str) -> Vec<Vec<String>> {
    let words = shell_words(code);
    let mut commands = Vec::new();
    for command in words.split(|w| matches!(w.as_str(), "|" | "||" | "&&" | ";")) {
        let command = without_redirections(command);
        let start = command.iter().position(|w| !is_assignment(w));
        if let Some(args) = start.and_then(|s| gamehost_args(&command[s..])) {
            commands.push(args);
        }
    }
    commands
}

/// A shell command without its `<`, `>` and `2>` redirections.
fn without_redirections(words: &[String]) -> Vec<String> {
    let mut kept = Vec::new();
    let mut skip_target = false;
    for word in words {
        let operator = word.trim_start_matches(['0', '1', '2']);
        if skip_target {
            skip_target = false;
        } else if operator.starts_with(['<', '>']) {
            skip_target = operator.trim_start_matches(['<', '>', '&']).is_empty();
        } else {
            kept.push(word.clone());
        }
    }
    kept
}

/// Whether a word sets an environment variable (`DISCORD_TOKEN=...`).
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
    })
}

/// The arguments a command passes to gamehost, if it runs gamehost.
fn gamehost_args(words: &[String]) -> Option<Vec<String>> {
    let (program, rest) = words.split_first()?;
    if program == "gamehost" || program.ends_with("/gamehost") {
        return Some(rest.to_vec());
    }
    if program == "cargo" && rest.first().is_some_and(|w| w == "run") {
        let dashes = rest.iter().position(|w| w == "--");
        return Some(dashes.map_or(Vec::new(), |d| rest[d + 1..].to_vec()));
    }
    // `docker compose exec [--flags] SERVICE COMMAND...`
    let exec = rest.iter().position(|w| w == "exec")?;
    if program != "docker" {
        return None;
    }
    let service = exec
        + 1
        + rest[exec + 1..]
            .iter()
            .take_while(|w| w.starts_with('-'))
            .count();
    gamehost_args(rest.get(service + 1..)?)
}

/// One word of a documented command, with the `[...]` groups resolved.
#[derive(Debug, PartialEq)]
enum Word {
    /// A flag or a bare word, as written.
    Literal(String),
    /// An optional bare argument like `[FILE or DIR]`.
    OptionalArgument,
}

/// Resolves `[...]` groups: `[--flag VALUE]` is its words, any other
/// group one optional argument; `...` means more of the same, so nothing.
fn resolve_groups(args: &[String]) -> Vec<Word> {
    let mut words = Vec::new();
    let mut group: Option<Vec<String>> = None;
    for arg in args {
        if arg == "..." {
            continue;
        }
        let opens = group.is_none() && arg.starts_with('[');
        if opens {
            group = Some(Vec::new());
        }
        if let Some(inner) = &mut group {
            inner.push(
                arg.trim_start_matches('[')
                    .trim_end_matches(']')
                    .to_string(),
            );
            if arg.ends_with(']') {
                let inner = group.take().unwrap_or_default();
                if inner.first().is_some_and(|w| w.starts_with('-')) {
                    words.extend(inner.into_iter().map(Word::Literal));
                } else {
                    words.push(Word::OptionalArgument);
                }
            }
        } else {
            words.push(Word::Literal(arg.clone()));
        }
    }
    words
}

/// Whether a bare word stands for something the reader fills in:
/// `<kind>`, `FILE`, `N`, `{...}`.
fn is_placeholder(word: &str) -> bool {
    word.starts_with('<')
        || word.contains("...")
        || word.chars().any(|c| c.is_ascii_uppercase())
            && word
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Checks one documented command against the binary's help pages, as clap
/// would parse it.
fn check_command(args: &[String], pages: &mut HelpPages) -> Result<(), String> {
    let mut path: Vec<String> = Vec::new();
    let mut arguments = 0;
    let words = resolve_groups(args);
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let page = pages.page(&path)?;
        let shown = format!("gamehost {}", path.join(" "))
            .trim_end()
            .to_string();
        let word = match word {
            Word::Literal(w) => w.as_str(),
            Word::OptionalArgument => "ARGUMENT",
        };
        if word.starts_with('-') && word.len() > 1 {
            let name = word.split('=').next().unwrap_or(word);
            let Some(&takes_value) = page.flags.get(name) else {
                return Err(format!("`{shown}` has no flag {name}"));
            };
            if takes_value && !word.contains('=') {
                words.next();
            }
        } else if !page.subcommands.is_empty() && arguments == 0 {
            if is_placeholder(word) {
                return Ok(());
            }
            path.push(word.to_string());
            // Alternatives like `render/adjudicate/export`: each must exist.
            for alternative in word.split('/') {
                let mut alternative_path = path[..path.len() - 1].to_vec();
                alternative_path.push(alternative.to_string());
                pages
                    .page(&alternative_path)
                    .map_err(|e| format!("`{shown}` has no subcommand {alternative}: {e}"))?;
            }
            if word.contains('/') {
                return Ok(());
            }
        } else {
            arguments += 1;
            if arguments > page.arguments && !page.variadic {
                return Err(format!(
                    "`{shown}` takes {} argument(s), the line gives more ({word})",
                    page.arguments
                ));
            }
        }
    }
    pages.page(&path).map(|_| ())
}

/// Every `gamehost` command in one Markdown text.
fn commands_in(file: &str, markdown: &str) -> Vec<DocCommand> {
    let mut commands = Vec::new();
    for (line, code) in code_in_markdown(markdown) {
        for args in invocations(&code) {
            commands.push(DocCommand {
                file: file.to_string(),
                line,
                code: code.trim().to_string(),
                args,
            });
        }
    }
    commands
}

/// Each failing command as `file:line: `code`: why`.
fn failures(commands: &[DocCommand], pages: &mut HelpPages) -> Vec<String> {
    commands
        .iter()
        .filter_map(|c| {
            let why = check_command(&c.args, pages).err()?;
            Some(format!("{}:{}: `{}`: {why}", c.file, c.line, c.code))
        })
        .collect()
}

#[test]
fn every_documented_command_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut commands = Vec::new();
    for path in markdown_files(root) {
        let markdown = std::fs::read_to_string(&path).expect("read a Markdown file");
        let file = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        commands.extend(commands_in(&file, &markdown));
    }
    // A scanner that finds nothing would pass vacuously; the docs show
    // dozens of commands.
    assert!(
        commands.len() >= 40,
        "only {} commands found",
        commands.len()
    );
    // The Japanese README shows the same commands as the English one.
    let in_japanese = commands.iter().filter(|c| c.file == "README.ja.md").count();
    assert!(
        in_japanese >= 10,
        "only {in_japanese} commands found in README.ja.md"
    );
    let failed = failures(&commands, &mut HelpPages::new());
    assert!(
        failed.is_empty(),
        "{} documented command(s) the binary rejects:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn wrong_commands_are_reported() {
    let markdown = "\
Run `gamehost run --no-such-flag`.

```sh
gamehost diplomacy no-such-tool < x.json   # wrong subcommand
DISCORD_TOKEN=x cargo run --release -- check --db FILE extra
```

    gamehost cards solve --seed 3

and `gamehost backup
--db FILE --json`, but `gamehost play <kind> [--vs LEVEL]` is right.
";
    let commands = commands_in("example.md", markdown);
    let lines: Vec<usize> = commands.iter().map(|c| c.line).collect();
    assert_eq!(lines, [4, 5, 8, 1, 10, 11]);
    let failed = failures(&commands, &mut HelpPages::new());
    let failed_lines: Vec<&str> = failed
        .iter()
        .map(|f| f.split(": ").next().unwrap_or(""))
        .collect();
    assert_eq!(
        failed_lines,
        [
            "example.md:4",
            "example.md:5",
            "example.md:8",
            "example.md:1",
            "example.md:10"
        ],
        "{failed:#?}"
    );
}
