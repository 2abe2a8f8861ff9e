//! What players type and read: parsing actions (a move name or number,
//! `switch <monster>`, draft picks), describing them, the turn report and
//! the board.
//!
//! Names match ignoring case, spaces and punctuation (`blaze lance`,
//! `BlazeLance`). In the choose step a number is a move number (1-based);
//! in the replacement step it is a team position. A bare monster name in the
//! choose step is read as a switch when no move has that name.

use super::engine::{self, Act, Event, Pos, Res, Setup, Step};
use super::rules::data::{MonsterDef, MoveKind, fold};
use super::{Battle, BattleAction, Draft};
use crate::seam::{ActionChoice, ActionError, ChoiceStyle, Seat, View};

/// A move's short description, e.g. "Blaze Lance (Flame 70, 85%)".
pub fn move_label(type_names: &[String], m: &super::rules::data::MoveDef) -> String {
    match m.kind {
        MoveKind::Attack {
            power,
            accuracy,
            ty,
        } => format!(
            "{} ({} {}, {}%)",
            m.name,
            type_names
                .get(ty as usize)
                .map(String::as_str)
                .unwrap_or("?"),
            power,
            (accuracy * 100.0).round()
        ),
        MoveKind::Heal { ratio } => format!("{} (heal {}%)", m.name, (ratio * 100.0).round()),
    }
}

/// The legal actions of `seat` as the text `parse` accepts, for messages.
fn legal_list(b: &Battle, seat: Seat) -> String {
    let choices = choices(b, seat);
    if choices.is_empty() {
        return "You have nothing to do now; wait for the other player.".into();
    }
    let list: Vec<String> = choices.iter().map(|c| format!("`{}`", c.text)).collect();
    format!("Choose one of: {}.", list.join(", "))
}

/// Parses what `seat` typed into a legal action, or says why not.
pub fn parse(b: &Battle, seat: Seat, text: &str) -> Result<BattleAction, ActionError> {
    if seat > 1 {
        return Err(ActionError::new(
            format!("Seat {seat} does not exist."),
            "Seats are 0 and 1.",
        ));
    }
    if b.pos.result.is_some() {
        return Err(ActionError::new(
            "The battle is over.",
            "Start a new battle to play again.",
        ));
    }
    let text = text.trim();
    if let Some(d) = &b.draft {
        return parse_pick(b, d, seat, text);
    }
    if !b.pos.awaits(seat) {
        return Err(ActionError::new(
            "It is not your turn: the other player is choosing a replacement.",
            "Wait for the next turn.",
        ));
    }
    if text.is_empty() {
        return Err(ActionError::new(
            "The action is empty.",
            legal_list(b, seat),
        ));
    }
    match read_move_or_switch(b, seat, text)? {
        Typed::Move(i) => Ok(BattleAction::Move(i)),
        Typed::SwitchTo(arg) => switch_to(b, seat, &arg),
    }
}

/// What a player's text names: one of the active monster's moves, or the
/// team member to switch to (checked by [`switch_to`]).
enum Typed {
    Move(u8),
    SwitchTo(String),
}

/// Reads a move (by number or name) or a switch (`switch x`, `sw x`, a bare
/// team member, or anything when a replacement is due) from non-empty text.
fn read_move_or_switch(b: &Battle, seat: Seat, text: &str) -> Result<Typed, ActionError> {
    let setup = &b.setup;
    let pos = &b.pos;
    let step = pos.step();
    let lower = text.to_lowercase();
    let switch_arg = lower
        .strip_prefix("switch")
        .or_else(|| lower.strip_prefix("sw "))
        .map(|s| s.trim_start_matches([' ', ':', '>']).trim().to_string());
    let me = setup.active(pos, seat);

    let target = match (&switch_arg, step) {
        (Some(arg), _) => Some(arg.clone()),
        (None, Step::Replace) => Some(lower.clone()),
        (None, _) => {
            // A move by number or by name.
            if let Ok(k) = lower.parse::<usize>() {
                if (1..=me.moves.len()).contains(&k) {
                    return Ok(Typed::Move((k - 1) as u8));
                }
                return Err(ActionError::new(
                    format!("{} has no move number {k}.", me.name),
                    legal_list(b, seat),
                ));
            }
            let f = fold(text);
            if let Some(i) = me.moves.iter().position(|m| fold(&m.name) == f) {
                return Ok(Typed::Move(i as u8));
            }
            None
        }
    };
    let arg = match target {
        Some(a) => a,
        None => {
            // Maybe a bare monster name (a switch), else a move the active monster lacks.
            if find_member(setup, seat, &lower).is_some() {
                lower.clone()
            } else {
                let lacks = setup
                    .teams
                    .iter()
                    .flatten()
                    .flat_map(|m| m.moves.iter())
                    .any(|m| fold(&m.name) == fold(text));
                let problem = if lacks {
                    format!("{} does not know `{text}`.", me.name)
                } else {
                    format!(
                        "`{text}` is not a move of {} nor a monster of your team.",
                        me.name
                    )
                };
                return Err(ActionError::new(problem, legal_list(b, seat)));
            }
        }
    };
    Ok(Typed::SwitchTo(arg))
}

/// A switch to the team member `arg` names, if the rules allow it now.
fn switch_to(b: &Battle, seat: Seat, arg: &str) -> Result<BattleAction, ActionError> {
    let setup = &b.setup;
    let pos = &b.pos;
    if arg.is_empty() {
        return Err(ActionError::new(
            "Switch to which monster?",
            legal_list(b, seat),
        ));
    }
    let Some(i) = find_member(setup, seat, arg) else {
        return Err(ActionError::new(
            format!("`{arg}` is not a monster of your team."),
            legal_list(b, seat),
        ));
    };
    let act = Act::Switch(i as u8);
    if engine::is_legal(setup, pos, seat, act) {
        return Ok(BattleAction::Switch(i as u8));
    }
    let name = &setup.teams[seat][i].name;
    let problem = if pos.hp[seat][i] == 0 {
        format!("{name} has fainted and cannot be sent in.")
    } else if i == pos.active[seat] as usize {
        format!("{name} is already in battle.")
    } else {
        format!("You cannot switch to {name} now.")
    };
    Err(ActionError::new(problem, legal_list(b, seat)))
}

/// A team member by name or 1-based position.
fn find_member(setup: &Setup, seat: Seat, arg: &str) -> Option<usize> {
    let team = &setup.teams[seat];
    if let Ok(k) = arg.trim().parse::<usize>() {
        return (1..=team.len()).contains(&k).then(|| k - 1);
    }
    let f = fold(arg);
    if f.is_empty() {
        return None;
    }
    team.iter().position(|m| fold(&m.name) == f)
}

fn parse_pick(
    b: &Battle,
    d: &super::Draft,
    seat: Seat,
    text: &str,
) -> Result<BattleAction, ActionError> {
    let have = &d.picks[seat];
    let left = d.size.saturating_sub(have.len());
    let avail = || {
        let names: Vec<String> = (0..d.pool.len())
            .filter(|&i| !have.contains(&(i as u16)))
            .map(|i| format!("`{}`", d.pool[i].name))
            .collect();
        format!(
            "Pick {left} more by name, separated by commas, from: {}.",
            names.join(", ")
        )
    };
    if left == 0 {
        return Err(ActionError::new(
            "Your team is complete.",
            "Wait for the other player to finish picking.",
        ));
    }
    let body = text.trim();
    // `get` keeps the slice on a character boundary whatever was typed.
    let body = match body.get(..4) {
        Some(head) if head.eq_ignore_ascii_case("pick") => body[4..].trim(),
        _ => body,
    };
    let mut picks: Vec<u16> = Vec::new();
    for name in body.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let f = fold(name);
        let Some(i) = d.pool.iter().position(|m| fold(&m.name) == f) else {
            return Err(ActionError::new(
                format!("`{name}` is not in the roster."),
                avail(),
            ));
        };
        let i = i as u16;
        if have.contains(&i) || picks.contains(&i) {
            return Err(ActionError::new(
                format!("{} is already in your team.", d.pool[i as usize].name),
                avail(),
            ));
        }
        picks.push(i);
    }
    if picks.is_empty() {
        return Err(ActionError::new("No monster named.", avail()));
    }
    if picks.len() > left {
        return Err(ActionError::new(
            format!(
                "That is {} monsters but you have only {left} left to pick.",
                picks.len()
            ),
            avail(),
        ));
    }
    let _ = b;
    Ok(BattleAction::Pick(picks))
}

/// Checks a stored action against the current position.
pub fn validate(b: &Battle, seat: Seat, action: &BattleAction) -> Result<(), ActionError> {
    let text = describe(b, seat, action);
    if seat > 1 {
        return Err(ActionError::new(
            format!("Seat {seat} does not exist."),
            "Seats are 0 and 1.",
        ));
    }
    if let Some(d) = &b.draft {
        return match action {
            BattleAction::Pick(p) => {
                let have = &d.picks[seat];
                let mut seen = Vec::new();
                for &i in p {
                    if i as usize >= d.pool.len() || have.contains(&i) || seen.contains(&i) {
                        return Err(ActionError::new(
                            format!("Pick {i} is not available."),
                            "Pick monsters by name from the roster.",
                        ));
                    }
                    seen.push(i);
                }
                if p.is_empty() || have.len() + p.len() > d.size {
                    return Err(ActionError::new(
                        "Wrong number of picks.",
                        format!("Pick up to {} more.", d.size - have.len()),
                    ));
                }
                Ok(())
            }
            _ => Err(ActionError::new(
                "Teams are still being picked.",
                "Pick monsters first.",
            )),
        };
    }
    match action.act() {
        Some(a) if b.pos.awaits(seat) && engine::is_legal(&b.setup, &b.pos, seat, a) => Ok(()),
        _ => Err(ActionError::new(
            format!("`{text}` is not legal now."),
            legal_list(b, seat),
        )),
    }
}

/// The canonical text of an action.
pub fn describe(b: &Battle, seat: Seat, action: &BattleAction) -> String {
    let seat = seat.min(1);
    match action {
        BattleAction::Pick(p) => {
            let pool = b.draft.as_ref().map(|d| &d.pool);
            let names: Vec<String> = p
                .iter()
                .map(|&i| {
                    pool.and_then(|pl| pl.get(i as usize))
                        .map(|m| m.name.clone())
                        .unwrap_or_else(|| format!("#{i}"))
                })
                .collect();
            format!("pick {}", names.join(", "))
        }
        BattleAction::Move(m) => {
            let Some(me) = b.setup.teams[seat].get(b.pos.active[seat] as usize) else {
                return format!("move {}", m + 1);
            };
            me.moves
                .get(*m as usize)
                .map(|mv| mv.name.clone())
                .unwrap_or(format!("move {}", m + 1))
        }
        BattleAction::Switch(i) => match b.setup.teams[seat].get(*i as usize) {
            Some(m) => format!("switch {}", m.name),
            None => format!("switch {}", i + 1),
        },
    }
}

/// The legal actions of `seat` as front-end choices: moves as buttons,
/// switches (and draft picks) as select entries.
pub fn choices(b: &Battle, seat: Seat) -> Vec<ActionChoice> {
    let mut out = Vec::new();
    if b.pos.result.is_some() || seat > 1 {
        return out;
    }
    if let Some(d) = &b.draft {
        if d.picks[seat].len() < d.size {
            for (i, m) in d.pool.iter().enumerate() {
                if !d.picks[seat].contains(&(i as u16)) {
                    out.push(ActionChoice {
                        label: monster_label(&b.setup.types, m),
                        text: m.name.clone(),
                        style: ChoiceStyle::Select,
                    });
                }
            }
        }
        return out;
    }
    let setup = &b.setup;
    for a in engine::legal(setup, &b.pos, seat).as_slice() {
        match *a {
            Act::Move(m) => {
                let mv = &setup.active(&b.pos, seat).moves[m as usize];
                out.push(ActionChoice {
                    label: move_label(&setup.types, mv),
                    text: mv.name.clone(),
                    style: ChoiceStyle::Button,
                });
            }
            Act::Switch(i) => {
                let m = &setup.teams[seat][i as usize];
                out.push(ActionChoice {
                    label: format!(
                        "Switch to {} ({}, HP {}/{})",
                        m.name,
                        type_name(&setup.types, m.ty),
                        b.pos.hp[seat][i as usize],
                        m.hp
                    ),
                    text: format!("switch {}", m.name),
                    style: ChoiceStyle::Select,
                });
            }
        }
    }
    out
}

fn type_name(types: &[String], t: u8) -> &str {
    types.get(t as usize).map(String::as_str).unwrap_or("?")
}

fn monster_label(types: &[String], m: &MonsterDef) -> String {
    format!(
        "{} ({}) HP {} Atk {} Def {} Spd {}",
        m.name,
        type_name(types, m.ty),
        m.hp,
        m.atk,
        m.def,
        m.spd
    )
}

fn bar(h: u16, max: u16) -> String {
    let filled = if max == 0 {
        0
    } else {
        (h as usize * 10).div_ceil(max as usize)
    };
    format!(
        "[{}{}]",
        "#".repeat(filled.min(10)),
        ".".repeat(10 - filled.min(10))
    )
}

/// The board text and status line for `viewer`.
pub fn view(b: &Battle, viewer: Option<Seat>) -> View {
    let choices = viewer.map(|s| choices(b, s)).unwrap_or_default();
    if let Some(d) = &b.draft {
        let (board, status) = draft_view(b, d, viewer);
        return View {
            board,
            status,
            choices,
        };
    }
    let setup = &b.setup;
    let pos = &b.pos;
    if setup.teams.iter().any(Vec::is_empty) {
        // A battle that ended in its draft (stored before the draft was
        // kept on a forfeit): there is no active monster to show.
        let status = pos
            .result
            .map_or_else(|| "The teams are not complete.".to_string(), over_status);
        return View {
            board: "The battle ended before the teams were complete.\n".into(),
            status,
            choices,
        };
    }
    View {
        board: battle_board(setup, pos),
        status: battle_status(setup, pos),
        choices,
    }
}

/// The board and status during the team draft: how many each has picked,
/// the viewer's own picks (the other's stay secret), who is still picking.
fn draft_view(b: &Battle, d: &Draft, viewer: Option<Seat>) -> (String, String) {
    let mut board = String::from("Team draft: both players pick monsters in secret.\n");
    for x in 0..2 {
        board.push_str(&format!(
            "Player {}: {}/{} picked\n",
            x + 1,
            d.picks[x].len(),
            d.size
        ));
    }
    if let Some(s) = viewer.filter(|&s| s < 2) {
        let mine: Vec<&str> = d.picks[s]
            .iter()
            .filter_map(|&i| d.pool.get(i as usize))
            .map(|m| m.name.as_str())
            .collect();
        board.push_str(&format!(
            "Your picks: {}\n",
            if mine.is_empty() {
                "none".into()
            } else {
                mine.join(", ")
            }
        ));
    }
    let waiting: Vec<String> = (0..2)
        .filter(|&x| d.picks[x].len() < d.size)
        .map(|x| format!("Player {}", x + 1))
        .collect();
    let status = match b.pos.result {
        Some(r) => format!("{} (during the team draft)", over_status(r)),
        None => format!("Team draft: waiting for {}.", waiting.join(" and ")),
    };
    (board, status)
}

/// Each player's active monster with its stats, then the bench.
fn battle_board(setup: &Setup, pos: &Pos) -> String {
    // A finished battle shows the turns played, as its result line does
    // ("after 13 turns"), not a turn that never comes.
    let mut board = match pos.step() {
        Step::Over(_) => format!("Turn {} of {} (the last)\n", pos.turn, setup.turn_limit),
        _ => format!("Turn {} of {}\n", pos.turn + 1, setup.turn_limit),
    };
    for x in 0..2 {
        let m = setup.active(pos, x);
        let h = pos.hp[x][pos.active[x] as usize];
        board.push_str(&format!(
            "Player {}: {} ({}) HP {}/{} {}\n",
            x + 1,
            m.name,
            type_name(&setup.types, m.ty),
            h,
            m.hp,
            bar(h, m.hp)
        ));
        board.push_str(&format!("  Atk {} Def {} Spd {}\n", m.atk, m.def, m.spd));
        let bench: Vec<String> = setup.teams[x]
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != pos.active[x] as usize)
            .map(|(i, m)| {
                if pos.hp[x][i] == 0 {
                    format!("{} fainted", m.name)
                } else {
                    format!("{} {}/{}", m.name, pos.hp[x][i], m.hp)
                }
            })
            .collect();
        if !bench.is_empty() {
            // Wrap the bench so lines stay under 80 characters.
            let mut line = String::from("  Bench:");
            for item in bench {
                if line.len() + item.len() + 2 > 78 {
                    board.push_str(&line);
                    board.push('\n');
                    line = String::from("        ");
                }
                line.push(' ');
                line.push_str(&item);
                line.push(',');
            }
            line.pop();
            board.push_str(&line);
            board.push('\n');
        }
    }
    board
}

/// The result, or who must act now.
fn battle_status(setup: &Setup, pos: &Pos) -> String {
    match pos.step() {
        // The score a player reads at the end: monsters still standing.
        Step::Over(Res::Win(x)) => {
            let x = usize::from(x);
            let (won, lost) = (pos.alive(setup, x), pos.alive(setup, 1 - x));
            format!(
                "Player {} won, {won} monster{} standing to {lost}, after {} turns.",
                x + 1,
                if won == 1 { "" } else { "s" },
                pos.turn
            )
        }
        Step::Over(Res::Draw) => {
            if pos.turn >= setup.turn_limit {
                format!("Draw: the turn limit ({}) was reached.", setup.turn_limit)
            } else {
                "Draw.".into()
            }
        }
        Step::Replace => {
            let who: Vec<String> = (0..2)
                .filter(|&x| pos.need[x])
                .map(|x| format!("Player {}", x + 1))
                .collect();
            format!("{} must send in a replacement.", who.join(" and "))
        }
        Step::Choose => format!(
            "Turn {}: both players choose a move or a switch.",
            pos.turn + 1
        ),
    }
}

/// The status line of a battle that ended (by win or draw) outside a turn.
fn over_status(r: Res) -> String {
    match r {
        Res::Win(x) => format!("Player {} won.", x + 1),
        Res::Draw => "Draw.".into(),
    }
}

/// The public text of one resolved step.
pub fn report(setup: &Setup, before: &Pos, _acts: [Option<Act>; 2], events: &[Event]) -> String {
    // Names are taken from a position tracked along the events, since
    // switches change who is active mid-turn.
    let mut active = before.active;
    let mut lines = Vec::new();
    let who = |x: u8, active: &[u8; 2]| -> String {
        format!(
            "Player {}'s {}",
            x + 1,
            setup.teams[x as usize][active[x as usize] as usize].name
        )
    };
    for e in events {
        match e {
            Event::Switched {
                seat,
                to,
                replacement,
            } => {
                active[*seat as usize] = *to;
                let name = &setup.teams[*seat as usize][*to as usize].name;
                lines.push(if *replacement {
                    format!("Player {} sends in {name}.", seat + 1)
                } else {
                    format!("Player {} switches to {name}.", seat + 1)
                });
            }
            Event::Coin { first } => lines.push(format!(
                "Equal speed: a coin toss lets Player {} move first.",
                first + 1
            )),
            Event::Hit {
                seat,
                mv,
                damage,
                left,
                e,
            } => {
                let user = setup.teams[*seat as usize][active[*seat as usize] as usize].moves
                    [*mv as usize]
                    .name
                    .clone();
                let y = 1 - *seat;
                let eff = if *e == 0.0 {
                    " It has no effect."
                } else if *e > 1.0 {
                    " It is super effective!"
                } else if *e < 1.0 {
                    " It is not very effective."
                } else {
                    ""
                };
                lines.push(format!(
                    "{} uses {user}: {damage} damage to {} ({left} HP left).{eff}",
                    who(*seat, &active),
                    setup.teams[y as usize][active[y as usize] as usize].name
                ));
            }
            Event::Miss { seat, mv } => {
                let m = &setup.teams[*seat as usize][active[*seat as usize] as usize].moves
                    [*mv as usize];
                lines.push(format!(
                    "{} uses {}, but it misses.",
                    who(*seat, &active),
                    m.name
                ));
            }
            Event::Healed {
                seat,
                mv,
                amount,
                now,
            } => {
                let m = &setup.teams[*seat as usize][active[*seat as usize] as usize].moves
                    [*mv as usize];
                lines.push(format!(
                    "{} uses {}: heals {amount} HP ({now} HP).",
                    who(*seat, &active),
                    m.name
                ));
            }
            Event::Fainted { seat, mon } => lines.push(format!(
                "Player {}'s {} faints!",
                seat + 1,
                setup.teams[*seat as usize][*mon as usize].name
            )),
            Event::Skipped { seat, .. } => lines.push(format!(
                "{} cannot move: it has fainted.",
                who(*seat, &active)
            )),
            Event::Ended(Res::Win(x)) => lines.push(format!("Player {} wins the battle!", x + 1)),
            Event::Ended(Res::Draw) => lines.push("The battle ends in a draw.".into()),
        }
    }
    lines.join("\n")
}
