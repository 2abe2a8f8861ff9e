//! Press: messages between Diplomacy powers, relayed by the bot under the
//! rule the game was made with (`press=full|anonymous|public-only|gunboat`),
//! and the spectator's view of a game.
//!
//! The host owns every rule: who may send what to whom, the size and rate
//! limits, and where a message goes. A front-end passes the user's `to` and
//! text in and delivers the outbox announcements this writes (one DM per
//! recipient player); it decides nothing. Every accepted message is stored
//! (migration 0005) with the sender's power and seat, never a user id, and
//! the whole press of a game is readable only once the game has ended.
//!
//! Anonymous press: the announcement a recipient gets names the sending
//! power only, and nothing else this module writes names the sender's
//! player; the sender's receipt goes to the sender alone.

use crate::view::GameView;
use crate::{
    Announcement, AnnouncementKind, GameId, Host, HostError, game_label, require_game, seat_of_user,
};
use games::diplomacy::game::PressRule;
use games::diplomacy::geo::Power;
use games::diplomacy::{Diplomacy, DiplomacyOptions};
use games::seam::{Game, Seat};
use serde::Deserialize;
use store::{GameRow, GameStatus, NewPressRow, Occupant, SeatRow, Target, Tx};

/// The longest message, in characters: Discord's 2,000 per message less
/// room for the header (sender, recipients, game and phase, at most about
/// 170 characters) and the link back to the game's channel the front-end
/// adds (about 90), so one message is always one DM.
pub const PRESS_MAX_CHARS: usize = 1700;

/// Messages one power may send in one game in any minute: a conversation's
/// pace, not a script's.
pub const PRESS_PER_MINUTE: u32 = 5;

/// Messages one power may send in one game in any hour: room for a busy
/// negotiation phase, a bound on flooding six other players' DMs.
pub const PRESS_PER_HOUR: u32 = 40;

/// The most characters of a player's display name a `full` header shows.
const NAME_IN_HEADER: usize = 40;

/// What happened to a message the host accepted, for the sender's receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressSent {
    /// The game.
    pub game_id: GameId,
    /// The game's press rule.
    pub rule: PressRule,
    /// The sender's power.
    pub from: String,
    /// Whether it went to every power.
    pub to_all: bool,
    /// Powers whose players get it by DM.
    pub delivered: Vec<String>,
    /// Powers played by an AI: stored, delivered to nobody.
    pub to_ai: Vec<String>,
    /// Powers out of the game (only with `to:all`): not delivered.
    pub eliminated: Vec<String>,
}

/// One message of a game's press log (readable once the game has ended).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressEntry {
    /// Resolved turns when it was sent.
    pub turn: u32,
    /// The phase it was sent in ("Spring 1901 movement").
    pub phase: String,
    /// The sending power.
    pub from: String,
    /// Whether it went to every power.
    pub to_all: bool,
    /// The powers addressed.
    pub to: Vec<String>,
    /// The message.
    pub text: String,
    /// When it was sent (ms).
    pub sent_at: i64,
}

/// What a spectator may see of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watch {
    /// The game as the channel sees it (no seat's private view).
    pub view: GameView,
    /// The press log, once the game has ended (None while it runs, and for
    /// kinds without press).
    pub press: Option<Vec<PressEntry>>,
}

/// How a user refused by a press rule is told: what was wrong and what
/// would be right.
fn refuse(problem: impl Into<String>, expected: impl Into<String>) -> HostError {
    HostError::Action(games::seam::ActionError::new(problem, expected))
}

/// The press rule of a game from its stored options (the default when the
/// options are empty or were stored before press existed).
fn rule_of(row: &GameRow) -> Result<PressRule, HostError> {
    let value: serde_json::Value = serde_json::from_str(&row.options).unwrap_or_default();
    if value.is_null() {
        return Ok(PressRule::default());
    }
    DiplomacyOptions::deserialize(&value)
        .map(|o| o.press)
        .map_err(|e| HostError::Corrupt {
            game_id: row.id,
            source: crate::registry::DecodeError {
                kind: Diplomacy::KIND,
                what: "options",
                reason: e.to_string(),
            },
        })
}

/// The position of a running Diplomacy game.
fn position_of(row: &GameRow) -> Result<Diplomacy, HostError> {
    let state = row.state.as_deref().unwrap_or("null");
    serde_json::from_str(state).map_err(|e| HostError::Corrupt {
        game_id: row.id,
        source: crate::registry::DecodeError {
            kind: Diplomacy::KIND,
            what: "state",
            reason: e.to_string(),
        },
    })
}

/// The powers `to` names: `all` (every other power on the board) or
/// powers by name or initial, separated by commas or spaces. Returns the
/// powers in seat order and whether it was `all`.
fn parse_recipients(
    game: &Diplomacy,
    sender: Power,
    to: &str,
) -> Result<(Vec<Power>, bool), HostError> {
    let on_board = game.playing_powers();
    let board_list = || {
        on_board
            .iter()
            .filter(|&&p| p != sender)
            .map(|&p| game.power_name(p))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let to = to.trim();
    if to.eq_ignore_ascii_case("all") || to.eq_ignore_ascii_case("everyone") {
        let all = on_board.iter().copied().filter(|&p| p != sender).collect();
        return Ok((all, true));
    }
    let mut wanted = Vec::new();
    for word in to
        .split(|c: char| c == ',' || c == '+' || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        let shown = games::clip::clip_typed(word);
        let p = game.map().parse_power(word).ok_or_else(|| {
            refuse(
                format!("`{shown}` is not a power."),
                format!(
                    "Write `all`, or one or more of {} (names or initials, separated by commas).",
                    board_list()
                ),
            )
        })?;
        if !on_board.contains(&p) {
            return Err(refuse(
                format!("{} is not on the board in this game.", game.power_name(p)),
                format!("The other powers are {}.", board_list()),
            ));
        }
        if p == sender {
            return Err(refuse(
                format!("That is you ({}).", game.power_name(p)),
                format!("Press goes to other powers: {}.", board_list()),
            ));
        }
        if !wanted.contains(&p) {
            wanted.push(p);
        }
    }
    if wanted.is_empty() {
        return Err(refuse(
            "Nobody is named to receive the message.",
            format!("Write `all`, or one or more of {}.", board_list()),
        ));
    }
    // Seat order, so the header and the log read the same for everyone.
    let in_order = on_board
        .iter()
        .copied()
        .filter(|p| wanted.contains(p))
        .collect();
    Ok((in_order, false))
}

/// A display name fit for one line of a header.
fn header_name(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_control())
        .take(NAME_IN_HEADER)
        .collect()
}

impl Host {
    /// The press rule of a Diplomacy game (a user error for other kinds).
    pub fn press_rule(&self, game_id: GameId) -> Result<PressRule, HostError> {
        let row = self.game(game_id)?;
        require_diplomacy(&row)?;
        rule_of(&row)
    }

    /// Relays `text` from `user`'s power to the powers `to` names (`all`,
    /// or names/initials) under the game's press rule: stores it, and
    /// queues one DM per recipient played by a person still in the game.
    /// `game_id` None means the user's one running Diplomacy game.
    pub fn send_press(
        &self,
        game_id: Option<GameId>,
        user: &str,
        to: &str,
        text: &str,
    ) -> Result<PressSent, HostError> {
        let game_id = match game_id {
            Some(id) => id,
            None => self.press_game_of(user)?,
        };
        let now = self.now();
        self.store.write(|tx| {
            let row = require_game(tx, game_id)?;
            require_diplomacy(&row)?;
            if row.status != GameStatus::Running {
                return Err(HostError::user(format!(
                    "{} is {}; press is relayed only while a game runs.",
                    game_label(&row),
                    row.status.as_str()
                )));
            }
            let seats = tx.seats(game_id)?;
            let seat = seat_of_user(&seats, user).ok_or_else(|| {
                HostError::user(format!(
                    "You do not play in {}; only its players send press.",
                    game_label(&row)
                ))
            })?;
            let rule = rule_of(&row)?;
            if rule == PressRule::Gunboat {
                return Err(refuse(
                    format!(
                        "{} is a gunboat game: no press, so the bot relays no messages.",
                        game_label(&row)
                    ),
                    "Every power plays on its orders alone; let your moves speak.",
                ));
            }
            let text = checked_press_text(text)?;
            let game = position_of(&row)?;
            let sender = game.power_of_seat(seat).ok_or_else(|| {
                HostError::user(format!("Seat {seat} plays no power in this game."))
            })?;
            if !game.alive(sender) {
                return Err(refuse(
                    format!("{} is out of the game.", game.power_name(sender)),
                    "Eliminated powers send no press.",
                ));
            }
            let (recipients, to_all) = parse_recipients(&game, sender, to)?;
            check_recipients(&row, &game, rule, &recipients, to_all)?;
            check_rate(tx, game_id, seat, now)?;

            let mut sent = PressSent {
                game_id,
                rule,
                from: game.power_name(sender).to_string(),
                to_all,
                delivered: Vec::new(),
                to_ai: Vec::new(),
                eliminated: Vec::new(),
            };
            let phase = game.phase_name();
            let header = press_header(
                &game,
                &row,
                &seats,
                seat,
                sender,
                &recipients,
                to_all,
                rule,
                &phase,
            );
            let body = format!("{header}\n{text}");
            self.deliver_press(tx, &row, &seats, &game, &recipients, &body, &mut sent)?;
            let addressed: Vec<String> = recipients
                .iter()
                .filter(|p| game.alive(**p))
                .map(|&p| game.power_name(p).to_string())
                .collect();
            tx.insert_press(&NewPressRow {
                game_id,
                turn: row.turn,
                phase,
                sender_seat: seat,
                sender_power: sent.from.clone(),
                to_all,
                recipients: addressed,
                text: text.to_string(),
                sent_at: now,
            })?;
            Ok(sent)
        })
    }

    /// Queues the press to each live recipient played by a person, and
    /// notes which went to AI seats and which to eliminated powers.
    #[allow(clippy::too_many_arguments)]
    fn deliver_press(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        seats: &[SeatRow],
        game: &Diplomacy,
        recipients: &[Power],
        body: &str,
        sent: &mut PressSent,
    ) -> Result<(), HostError> {
        for &p in recipients {
            let name = game.power_name(p).to_string();
            if !game.alive(p) {
                sent.eliminated.push(name);
                continue;
            }
            match game.seat_of(p).and_then(|s| occupant(seats, s)) {
                Some(Occupant::User(u)) => {
                    self.announce(
                        tx,
                        row,
                        Target::User(u.clone()),
                        Announcement::of_game(row, AnnouncementKind::Press, body.to_string()),
                    )?;
                    sent.delivered.push(name);
                }
                Some(Occupant::Ai(_)) | None => sent.to_ai.push(name),
            }
        }
        Ok(())
    }

    /// The one running Diplomacy game `user` plays in, or a user error
    /// saying there is none or naming the choices.
    fn press_game_of(&self, user: &str) -> Result<GameId, HostError> {
        let games: Vec<GameRow> = self
            .games_of_user(user)?
            .into_iter()
            .filter(|g| g.status == GameStatus::Running && g.kind == Diplomacy::KIND)
            .collect();
        match games.as_slice() {
            [] => Err(HostError::user(
                "You are not playing in a running Diplomacy game, so there is nobody to send press to.",
            )),
            [one] => Ok(one.id),
            many => Err(HostError::user(format!(
                "You play in several Diplomacy games ({}); say which with its number.",
                many.iter().map(game_label).collect::<Vec<_>>().join(", ")
            ))),
        }
    }

    /// The whole press of a game (sender, recipients, text, phase), once the
    /// game has ended; a user error while it is in its lobby or running.
    pub fn press_log(&self, game_id: GameId) -> Result<Vec<PressEntry>, HostError> {
        self.store.read(|tx| {
            let row = require_game(tx, game_id)?;
            require_diplomacy(&row)?;
            sealed_log(tx, &row)
        })
    }

    /// A game as a spectator sees it: the channel's public view and, once the
    /// game has ended, its press log. A player of the game is refused (their
    /// own view holds their private part; this one must not stand in for it).
    pub fn watch(&self, game_id: GameId, user: &str) -> Result<Watch, HostError> {
        let row = self.game(game_id)?;
        let seats = self.seats(game_id)?;
        if let Some(seat) = seat_of_user(&seats, user) {
            let role = self
                .engine_of(&row)
                .map(|e| e.seat_name(seat))
                .unwrap_or_else(|_| format!("seat {}", seat + 1));
            return Err(HostError::user(format!(
                "You play in {} ({role}), so you are not a spectator: your own view, with your \
                 private part, is in `status` and your DMs.",
                game_label(&row)
            )));
        }
        let view = self.view(game_id, None)?;
        let press = if row.kind == Diplomacy::KIND && ended(row.status) {
            Some(self.press_log(game_id)?)
        } else {
            None
        };
        Ok(Watch { view, press })
    }
}

/// The first line of a relayed message: the sending power (and under
/// `full` and `public-only` the player's name), the recipients, the game
/// and the phase. Under `anonymous` nothing in it depends on who plays.
#[allow(clippy::too_many_arguments)]
fn press_header(
    game: &Diplomacy,
    row: &GameRow,
    seats: &[SeatRow],
    seat: Seat,
    sender: Power,
    recipients: &[Power],
    to_all: bool,
    rule: PressRule,
    phase: &str,
) -> String {
    let from = match rule {
        PressRule::Anonymous => game.power_name(sender).to_string(),
        _ => {
            let name = seats
                .iter()
                .find(|s| s.seat == seat)
                .map(|s| header_name(&s.display_name))
                .unwrap_or_default();
            format!("{} ({name})", game.power_name(sender))
        }
    };
    let to = if to_all {
        "all powers".to_string()
    } else {
        recipients
            .iter()
            .map(|&p| game.power_name(p))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "From {from} to {to} ({}, {phase}, {} press):",
        game_label(row),
        rule.as_str()
    )
}

/// Whether a game has ended (its press may be revealed).
fn ended(status: GameStatus) -> bool {
    matches!(status, GameStatus::Finished | GameStatus::Aborted)
}

/// The press log of `row`, or a user error while the game has not ended.
fn sealed_log(tx: &Tx<'_>, row: &GameRow) -> Result<Vec<PressEntry>, HostError> {
    if !ended(row.status) {
        return Err(HostError::user(format!(
            "The press of {} is sealed while the game is {}; it is revealed in full once the \
             game ends.",
            game_label(row),
            row.status.as_str()
        )));
    }
    Ok(tx
        .press_of_game(row.id)?
        .into_iter()
        .map(|r| PressEntry {
            turn: r.message.turn,
            phase: r.message.phase,
            from: r.message.sender_power,
            to_all: r.message.to_all,
            to: r.message.recipients,
            text: r.message.text,
            sent_at: r.message.sent_at,
        })
        .collect())
}

/// A user error unless the game is Diplomacy (the only kind with press).
fn require_diplomacy(row: &GameRow) -> Result<(), HostError> {
    if row.kind == Diplomacy::KIND {
        Ok(())
    } else {
        Err(HostError::user(format!(
            "{} is not a Diplomacy game; press is for Diplomacy.",
            game_label(row)
        )))
    }
}

/// The press text, trimmed: neither empty nor over [`PRESS_MAX_CHARS`].
fn checked_press_text(text: &str) -> Result<&str, HostError> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 {
        return Err(refuse(
            "Your message is empty.",
            "Write what you want to say after `text:`.",
        ));
    }
    if chars > PRESS_MAX_CHARS {
        return Err(refuse(
            format!("Your message is {chars} characters long."),
            format!(
                "Press is at most {PRESS_MAX_CHARS} characters (Discord's 2,000 less the \
                 header); split it into shorter messages."
            ),
        ));
    }
    Ok(text)
}

/// A public-only game takes press to all only; eliminated powers get none.
fn check_recipients(
    row: &GameRow,
    game: &Diplomacy,
    rule: PressRule,
    recipients: &[Power],
    to_all: bool,
) -> Result<(), HostError> {
    if rule == PressRule::PublicOnly && !to_all {
        return Err(refuse(
            format!(
                "{} allows public press only: every message goes to all powers.",
                game_label(row)
            ),
            "Send it with `to:all`.",
        ));
    }
    if !to_all && let Some(out) = recipients.iter().find(|&&p| !game.alive(p)) {
        return Err(refuse(
            format!("{} is out of the game.", game.power_name(*out)),
            "Eliminated powers receive no press; write to the powers still playing.",
        ));
    }
    Ok(())
}

/// Who sits in `seat`.
fn occupant(seats: &[SeatRow], seat: Seat) -> Option<&Occupant> {
    seats.iter().find(|s| s.seat == seat).map(|s| &s.occupant)
}

/// Refuses a message beyond [`PRESS_PER_MINUTE`] or [`PRESS_PER_HOUR`].
fn check_rate(tx: &Tx<'_>, game_id: GameId, seat: Seat, now: i64) -> Result<(), HostError> {
    let last_minute = tx.press_sent_since(game_id, seat, now - 60_000)?;
    let last_hour = tx.press_sent_since(game_id, seat, now - 3_600_000)?;
    let (count, span) = if last_minute >= PRESS_PER_MINUTE {
        (last_minute, "minute")
    } else if last_hour >= PRESS_PER_HOUR {
        (last_hour, "hour")
    } else {
        return Ok(());
    };
    Err(refuse(
        format!("You have sent {count} messages in this game in the last {span}."),
        format!(
            "The limit is {PRESS_PER_MINUTE} a minute and {PRESS_PER_HOUR} an hour per power; \
             wait a little, or say more in one message."
        ),
    ))
}
