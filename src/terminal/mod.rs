//! Terminal play: the real host and store driven from stdin/stdout, so
//! anyone can play against the AI without a Discord token.
//!
//! The terminal is a front-end like the bot: it creates a game in its own
//! channel (`terminal:<user>`), seats the player and the AI, submits what the
//! player types, lets the AI move, and prints the game's announcements from
//! the outbox (marking them delivered). An unfinished game is resumed the
//! next time the same user plays the same kind; games of different kinds
//! live side by side (one channel `terminal:<user>:<kind>` each).
//!
//! Everything the command line asks for is checked before anything in the
//! database changes, and a game is never aborted without saying so.

use host::limits::{CappedLine, MAX_LINE_BYTES, read_line_capped};
use host::{AnnouncementKind, GameId, Host, HostError, NewGame};
use host::{GameRow, GameStatus, Target, TimeoutPolicy};
use std::io::{BufRead, Write};

mod diplomacy;
mod words;

/// What the terminal remembers between the lines of one session.
#[derive(Default)]
struct Session {
    /// The turn whose Diplomacy guide was printed last (one per phase).
    guided_turn: Option<u32>,
    /// A line the player was asked to type again to confirm it (`draw`,
    /// a `done` that leaves orders to civil disorder), lower-cased.
    confirming: Option<String>,
}

/// Options of `gamehost play`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// The game: cards, battle, puzzle or diplomacy.
    pub kind: String,
    /// The AI opponent's level (`ai` = the game's default level; `~1500` =
    /// the level rated nearest 1500 on the AI ladder).
    #[arg(long, default_value = "ai")]
    pub vs: String,
    /// Your seat: its number from 1 or its name (`--seat russia`); default 1.
    #[arg(long, default_value = "1")]
    pub seat: String,
    /// Seed for the deal and every random draw (default: random).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Engine options: a JSON object, e.g. '{"team_size": 2}', or `key=value` pairs.
    #[arg(long)]
    pub options: Option<String>,
    /// Start a new game even if an unfinished one of this kind exists (the
    /// old one is aborted, and the terminal says so).
    #[arg(long)]
    pub new: bool,
    /// Keep the game in this database instead of the configured one.
    #[arg(long, value_name = "FILE")]
    pub db: Option<std::path::PathBuf>,
}

/// The terminal user's id.
fn local_user() -> String {
    std::env::var("USER").unwrap_or_else(|_| "player".into())
}

/// Plays one game on the given input and output until it ends, the player
/// types `quit` (the game stays saved), or the input ends.
pub fn play(
    host: &Host,
    args: &PlayArgs,
    mut input: impl BufRead,
    mut out: impl Write,
) -> anyhow::Result<()> {
    let user = local_user();
    let channel = user_channel(&user);
    let game_id = open_game(host, args, &user, &channel, &mut out)?;
    print_ratings(host, game_id, &user, &mut out)?;
    writeln!(
        out,
        "Type `help` for commands, `rules` for the rules of {}.",
        host.game(game_id)?.kind
    )?;
    let mut session = Session::default();
    loop {
        host.run_ai_turns(Some(game_id), 10_000)?;
        deliver(host, game_id, &user, &mut out)?;
        let row = host.game(game_id)?;
        if row.status != GameStatus::Running {
            return Ok(());
        }
        guide_new_phase(host, game_id, &user, &mut session, &mut out)?;
        prompt_for_move(host, game_id, &user, &mut out)?;
        let Some(line) = read_move(&mut input, game_id, &mut out)? else {
            return Ok(());
        };
        match obey(host, game_id, &user, line.trim(), &mut session, &mut out)? {
            Next::Prompt => {}
            Next::Leave => return Ok(()),
        }
    }
}

/// Whether the player stays at the game after a line.
enum Next {
    Prompt,
    Leave,
}

/// Prints the Diplomacy guide once per phase (other games need none: their
/// options are listed at every prompt).
fn guide_new_phase(
    host: &Host,
    game_id: GameId,
    user: &str,
    session: &mut Session,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    if let Some(seat) = diplomacy::seated(host, game_id, user)?
        && session.guided_turn != Some(seat.turn)
    {
        session.guided_turn = Some(seat.turn);
        write!(out, "{}", diplomacy::guide(&seat))?;
    }
    Ok(())
}

/// The player's options (if the game offers choices) and the `> ` prompt;
/// an error if the game awaits only AIs that made no move.
fn prompt_for_move(
    host: &Host,
    game_id: GameId,
    user: &str,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let view = host.view(game_id, Some(user))?;
    let my_turn = view
        .seats
        .iter()
        .any(|s| s.awaited && Some(s.seat) == view.viewer_seat && !s.acted);
    if !my_turn {
        // Only AIs are awaited but they made no move: nothing can advance.
        anyhow::bail!("game #{game_id} is waiting for no one it can ask; this is a bug");
    }
    if let Some(v) = view.view.as_ref().filter(|v| !v.choices.is_empty()) {
        let list: Vec<String> = v
            .choices
            .iter()
            .map(|c| format!("`{}` ({})", c.text, c.label))
            .collect();
        writeln!(out, "Your options: {}", list.join(", "))?;
    }
    write!(out, "> ")?;
    out.flush()?;
    Ok(())
}

/// The next line typed: `None` when the input ended (the game is saved),
/// an empty line for one too long or not UTF-8 (ignored, and said so).
fn read_move(
    input: &mut impl BufRead,
    game_id: GameId,
    out: &mut impl Write,
) -> anyhow::Result<Option<String>> {
    Ok(match read_line_capped(input, MAX_LINE_BYTES)? {
        CappedLine::Text(line) => Some(line),
        CappedLine::End => {
            writeln!(
                out,
                "\nInput ended; game #{game_id} is saved. Resume with the same command."
            )?;
            None
        }
        CappedLine::TooLong => {
            writeln!(
                out,
                "That line is too long (more than {MAX_LINE_BYTES} bytes); it was ignored. Type your move again."
            )?;
            Some(String::new())
        }
        CappedLine::NotUtf8 => {
            writeln!(
                out,
                "That line is not UTF-8 text; it was ignored. Type your move again."
            )?;
            Some(String::new())
        }
    })
}

/// Carries out one trimmed line: a command (`help`, `rules`, `quit`,
/// `board`, `forfeit`, and in Diplomacy `orders`) or a move.
fn obey(
    host: &Host,
    game_id: GameId,
    user: &str,
    line: &str,
    session: &mut Session,
    out: &mut impl Write,
) -> anyhow::Result<Next> {
    let asked_again = session.confirming.take();
    let kind = host.game(game_id)?.kind;
    match line.to_ascii_lowercase().as_str() {
        "" => {}
        "help" | "?" => write!(out, "{}", words::help(&kind))?,
        "rules" => {
            let text = host.rules(&kind, Some(game_id), Some(user))?;
            writeln!(out, "{}", words::plain(&text).trim_end())?;
        }
        "quit" | "exit" => {
            writeln!(
                out,
                "Game #{game_id} is saved. Resume with the same command."
            )?;
            return Ok(Next::Leave);
        }
        "board" => print_view(host, game_id, user, out)?,
        "orders" | "list" if kind == <games::diplomacy::Diplomacy as games::seam::Game>::KIND => {
            if let Some(seat) = diplomacy::seated(host, game_id, user)? {
                write!(out, "{}", diplomacy::orders_text(&seat))?;
            }
        }
        "forfeit" | "resign" => return forfeit(host, game_id, user, out),
        lower => {
            if let Some(seat) = diplomacy::seated(host, game_id, user)?
                && let Some(warning) = diplomacy::needs_confirmation(&seat, line)
                && asked_again.as_deref() != Some(lower)
            {
                writeln!(out, "{warning}")?;
                session.confirming = Some(lower.to_string());
                return Ok(Next::Prompt);
            }
            submit(host, game_id, user, line, out)?;
        }
    }
    Ok(Next::Prompt)
}

/// Sends a move and prints its receipt (the turn's report follows when
/// the move resolved the turn).
fn submit(
    host: &Host,
    game_id: GameId,
    user: &str,
    line: &str,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    match host.submit(Some(game_id), user, line) {
        Ok(r) => {
            if !r.resolved {
                // The receipt may end in a full stop of its own.
                writeln!(
                    out,
                    "Recorded: {}.",
                    r.recorded.trim_end().trim_end_matches('.')
                )?;
            }
        }
        Err(e) if e.is_user_error() => writeln!(out, "{e}")?,
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

/// `forfeit`: gives the game up; a game that would go on without the
/// player (Diplomacy) is closed, since nobody is left here to follow it.
fn forfeit(host: &Host, game_id: GameId, user: &str, out: &mut impl Write) -> anyhow::Result<Next> {
    match host.forfeit(game_id, user) {
        Ok(()) => {}
        Err(e) if e.is_user_error() => {
            writeln!(out, "{e}")?;
            return Ok(Next::Prompt);
        }
        Err(e) => return Err(e.into()),
    }
    deliver(host, game_id, user, out)?;
    if host.game(game_id)?.status == GameStatus::Running {
        host.abort(game_id, user, true)?;
        discard_unsent(host, game_id)?;
        writeln!(
            out,
            "You left game #{game_id}. The others would play on without you, but nobody \
             is left here to follow them, so the game is closed (aborted)."
        )?;
        return Ok(Next::Leave);
    }
    Ok(Next::Prompt)
}

/// The player's rating in this kind (from the games played at this
/// terminal: every terminal game has an AI seat, so terminal games rate
/// AI seats), and where it stands against each AI level: the level's
/// rating on the AI ladder (measured by self-play) and the player's
/// expected score against it.
fn print_ratings(
    host: &Host,
    game_id: GameId,
    user: &str,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let kind = host.game(game_id)?.kind;
    let mine = host.rating_of(None, &kind, user)?;
    let (skill, shown) = match mine {
        Some(e) => (
            host::Skill {
                rating: e.rating,
                deviation: e.deviation,
                ..host::Skill::default()
            },
            format!(
                "{:.0} ± {:.0} ({} rated game{})",
                e.rating,
                e.deviation,
                e.games,
                if e.games == 1 { "" } else { "s" }
            ),
        ),
        None => {
            let new = host.ai_ladder().newcomer(&kind);
            (
                new,
                format!("{:.0} ± {:.0} (new)", new.rating, new.deviation),
            )
        }
    };
    writeln!(out, "Your {kind} rating: {shown}.")?;
    let ladder = host.ladder_standings(&kind, skill)?;
    if !ladder.is_empty() {
        let levels: Vec<String> = ladder
            .iter()
            .map(|l| {
                format!(
                    "{} {:.0} (you {:.0}%)",
                    l.level,
                    l.rating,
                    l.expected * 100.0
                )
            })
            .collect();
        writeln!(
            out,
            "AI levels (ladder rating, your expected score): {}. `--vs ~RATING` picks the level nearest a rating.",
            levels.join(", ")
        )?;
    }
    Ok(())
}

/// Resumes the user's unfinished game of this kind or creates a new one.
///
/// The kind, the options, the seat and the AI level are all checked first;
/// only then may an old game be aborted (with `--new`, saying so) and a new
/// one created. Games of other kinds are left alone.
fn open_game(
    host: &Host,
    args: &PlayArgs,
    user: &str,
    channel: &str,
    out: &mut impl Write,
) -> anyhow::Result<GameId> {
    let kind = host.registry().get(&args.kind)?.name;
    let channel = format!("{channel}:{kind}");
    let max = host::limits::MAX_OPTIONS_CHARS;
    if args
        .options
        .as_ref()
        .is_some_and(|t| t.chars().count() > max)
    {
        anyhow::bail!("--options is longer than {max} characters; real options take a few hundred");
    }
    let options = match &args.options {
        Some(text) => {
            host::parse_game_options(text).map_err(|e| anyhow::anyhow!("--options: {e}"))?
        }
        None => serde_json::Value::Null,
    };
    let request = NewGame {
        kind: kind.to_string(),
        guild_id: None,
        channel_id: channel.clone(),
        creator_id: user.to_string(),
        creator_name: user.to_string(),
        options,
        seed: args.seed,
        turn_seconds: None,
        timeout_policy: TimeoutPolicy::Default,
        creator_plays: false,
    };
    let (options, _) = host
        .check_new_game(&request)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let seats = host.registry().seat_count(kind, &options)?;
    let mine = seat_asked(host, kind, &options, seats, &args.seat)?;
    let level = match args.vs.as_str() {
        "ai" => None,
        asked => Some(
            host.check_ai_level(kind, asked)
                .map_err(|e| anyhow::anyhow!("--vs: {e}"))?,
        ),
    };
    // Before gamehost kept one channel per kind, every kind shared this one.
    let legacy = user_channel(user);
    for ch in [channel.as_str(), legacy.as_str()] {
        let Some(g) = host.game_in_channel(ch)? else {
            continue;
        };
        if g.kind != kind {
            continue;
        }
        if g.status == GameStatus::Running && !args.new {
            if let Err(e) = host.view(g.id, Some(user)) {
                anyhow::bail!(
                    "game #{} ({}) cannot be loaded: {e}. Run `gamehost check`; \
                     `--new` aborts it and starts a new game",
                    g.id,
                    g.kind
                );
            }
            writeln!(
                out,
                "Resuming game #{} ({}). Use --new for a fresh one.",
                g.id, g.kind
            )?;
            if let Some(note) = unused_on_resume(args) {
                writeln!(out, "{note}")?;
            }
            print_view(host, g.id, user, out)?;
            return Ok(g.id);
        }
        abort_saying_why(host, &g, user, out)?;
    }
    let id = host.create_game(NewGame { options, ..request })?;
    // Terminal games are against AIs: rate them, so the player sees where
    // they stand against each level.
    host.set_rate_ai_seats(None, true)?;
    if let Err(e) = seat_everyone(host, id, user, mine, seats, level.as_deref()) {
        // Checked above, so this is a fault, not a bad argument: say what
        // became of the half-made game.
        host.abort(id, user, true)?;
        discard_unsent(host, id)?;
        anyhow::bail!("game #{id} could not be set up and was aborted: {e}");
    }
    Ok(id)
}

/// The seat `--seat` names, from 0: its number from 1, or its name in the
/// game (`russia`), checked against a game of this kind and options.
fn seat_asked(
    host: &Host,
    kind: &str,
    options: &serde_json::Value,
    seats: usize,
    asked: &str,
) -> anyhow::Result<usize> {
    let sample = host.registry().create(kind, options, 0)?;
    let names: Vec<String> = (0..seats).map(|s| sample.seat_name(s)).collect();
    let by_number = asked
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=seats).contains(n))
        .map(|n| n - 1);
    let by_name = names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(asked.trim()));
    by_number.or(by_name).ok_or_else(|| {
        let listed: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{} {n}", i + 1))
            .collect();
        anyhow::anyhow!(
            "--seat {asked} does not exist; {kind} has seats 1 to {seats} ({}), by number or name",
            listed.join(", ")
        )
    })
}

/// What `gamehost play` was given that a resumed game does not use (its
/// AI, seed, options and seat were fixed when it was created), said so
/// nobody believes they apply; `None` when nothing was given.
fn unused_on_resume(args: &PlayArgs) -> Option<String> {
    let mut unused = Vec::new();
    if args.vs != "ai" {
        unused.push(format!("--vs {}", args.vs));
    }
    if let Some(seed) = args.seed {
        unused.push(format!("--seed {seed}"));
    }
    if args.options.is_some() {
        unused.push("--options".to_string());
    }
    if args.seat != "1" {
        unused.push(format!("--seat {}", args.seat));
    }
    if unused.is_empty() {
        return None;
    }
    Some(format!(
        "Not used: {} (they apply to a new game; add --new to start one).",
        unused.join(", ")
    ))
}

/// The channel of a user's terminal games (one per kind below it).
fn user_channel(user: &str) -> String {
    format!("terminal:{user}")
}

/// Aborts an unfinished game that `--new` replaces (or one left in its
/// lobby by an interrupted setup), and says so.
fn abort_saying_why(
    host: &Host,
    g: &GameRow,
    user: &str,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    host.abort(g.id, user, true)?;
    discard_unsent(host, g.id)?;
    let why = if g.status == GameStatus::Lobby {
        "it was never started (its setup was interrupted)"
    } else {
        "--new asks for a fresh one"
    };
    writeln!(out, "Aborted game #{} ({}): {why}.", g.id, g.kind)?;
    Ok(())
}

/// Marks a game's announcements delivered without printing them.
fn discard_unsent(host: &Host, game_id: GameId) -> anyhow::Result<()> {
    host.unsent_of_game(game_id)?
        .iter()
        .try_for_each(|i| host.mark_sent(i.id).map(|_| ()))?;
    Ok(())
}

/// Seats the user and the AIs in a new game and starts it.
fn seat_everyone(
    host: &Host,
    id: GameId,
    user: &str,
    mine: usize,
    seats: usize,
    level: Option<&str>,
) -> Result<(), HostError> {
    host.join(id, user, user, Some(mine))?;
    for seat in (0..seats).filter(|s| *s != mine) {
        host.add_ai(id, user, level, Some(seat))?;
    }
    host.start(id, user)
}

fn print_view(
    host: &Host,
    game_id: GameId,
    user: &str,
    out: &mut impl Write,
) -> Result<(), anyhow::Error> {
    let view = host.view(game_id, Some(user))?;
    if let Some(v) = view.view {
        writeln!(out, "{}\n{}", v.board.trim_end(), v.status)?;
    }
    Ok(())
}

/// One announcement: a turn's report before the board it leads to (the
/// orders of Spring, then the board of Fall), anything else under its
/// board.
fn print_announcement(a: &host::Announcement, out: &mut impl Write) -> anyhow::Result<()> {
    let board = a
        .board
        .as_ref()
        .map(|b| host::board_without_repeats(b, &a.text));
    if a.kind == AnnouncementKind::Turn {
        writeln!(out, "{}", a.text.trim_end())?;
        if let Some(board) = board {
            writeln!(out, "{board}")?;
        }
    } else {
        if let Some(board) = board {
            writeln!(out, "{board}")?;
        }
        writeln!(out, "{}", a.text.trim_end())?;
    }
    Ok(())
}

/// Prints and marks delivered this game's announcements meant for the
/// channel or this user.
fn deliver(
    host: &Host,
    game_id: GameId,
    user: &str,
    out: &mut impl Write,
) -> Result<(), anyhow::Error> {
    // What the channel said in this batch: the player's own copy of the
    // same news ("A game you play has ended. <the channel's text>") would
    // print it twice at this terminal, where channel and DM are one.
    let mut said: Vec<String> = Vec::new();
    for item in host.unsent_of_game(game_id)? {
        let mine = match &item.target {
            Target::Channel(_) => true,
            Target::User(u) => u == user,
        };
        match &item.announcement {
            Ok(a) if mine => {
                let repeated = matches!(item.target, Target::User(_))
                    && said.iter().any(|t| a.text.trim_end().ends_with(t.as_str()));
                // The prompt repeats the board just printed with the turn.
                let shown = !matches!(a.kind, AnnouncementKind::Prompt | AnnouncementKind::Lobby);
                if shown && !repeated {
                    print_announcement(a, out)?;
                }
                if matches!(item.target, Target::Channel(_)) && !a.text.trim().is_empty() {
                    said.push(a.text.trim_end().to_string());
                }
            }
            Err(e) if mine => writeln!(out, "(an announcement could not be shown: {e})")?,
            _ => {}
        }
        host.mark_sent(item.id)
            .map_err(|e: HostError| anyhow::anyhow!(e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use host::board_without_repeats;

    #[test]
    fn a_board_line_the_report_already_says_is_not_printed_again() {
        let board = "Stack (bottom to top): P1:96\nLast: Player 1 plays 96.\n";
        let text = "Player 1 plays 96.\nPlayer 2 to move: play or pass.";
        assert_eq!(
            board_without_repeats(board, text),
            "Stack (bottom to top): P1:96"
        );
        // Lines the text does not say stay, labelled or not.
        assert_eq!(
            board_without_repeats("Score: 3\nLast: Player 2 passes.", "Player 1 plays 5."),
            "Score: 3\nLast: Player 2 passes."
        );
    }
}
