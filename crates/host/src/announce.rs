//! Announcements: what the host asks a front-end to tell players, stored in
//! the outbox in the same transaction as the change they announce.

use super::{GameId, Host, HostError};
use games::seam::{ActionChoice, Seat};
use serde::{Deserialize, Serialize};
use store::{GameRow, Occupant, PostedMessage, SeatRow, Target, Tx};

/// Why an announcement was made; front-ends may style each differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnnouncementKind {
    /// A game was created or its seats changed.
    Lobby,
    /// The game started.
    Started,
    /// Something happened to the turn (time is up, a pause, an extension).
    Moved,
    /// Who the turn still waits for after a person acted: a status that
    /// front-ends show by editing one message per turn, not a new post.
    Waiting,
    /// A turn resolved: the public report and the new board.
    Turn,
    /// Something only one player may read (a private part of a turn report).
    Private,
    /// It is this user's move (sent to the user).
    Prompt,
    /// The deadline is close and this user has not acted (sent to the user).
    Reminder,
    /// The game ended with an outcome.
    Finished,
    /// The game was aborted.
    Aborted,
    /// A message from another power, relayed by the bot (sent to the user).
    Press,
}

impl Announcement {
    /// An announcement of `row`'s game at its current turn with only a
    /// text: what most announcements are; the others set their board,
    /// choices, deadline or report on top of it (`..Announcement::of_game`).
    pub(crate) fn of_game(row: &GameRow, kind: AnnouncementKind, text: String) -> Announcement {
        Announcement {
            game_id: row.id,
            game_kind: row.kind.clone(),
            channel_id: row.channel_id.clone(),
            kind,
            turn: row.turn,
            text,
            board: None,
            choices: Vec::new(),
            deadline: None,
            report: None,
        }
    }
}

/// One message for a channel or a user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Announcement {
    /// The game it is about.
    pub game_id: i64,
    /// The game's kind.
    pub game_kind: String,
    /// The channel the game lives in (so a DM can link back to it).
    pub channel_id: String,
    /// Why it is sent.
    pub kind: AnnouncementKind,
    /// Turns resolved when it was written.
    pub turn: u32,
    /// The message text.
    pub text: String,
    /// The board (public view) as text, when the message shows it.
    pub board: Option<String>,
    /// Actions the recipient can take now (prompts only).
    pub choices: Vec<ActionChoice>,
    /// When the turn's deadline falls (ms since the epoch), for front-ends
    /// to show in each reader's time zone (reminders; `None` elsewhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
    /// A resolved turn's report alone, without the status line that `text`
    /// adds (turn announcements), for front-ends that list the last moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<String>,
}

impl Host {
    /// Queues a text-only announcement of `row`'s game in its channel, in
    /// the current transaction.
    pub(crate) fn announce_to_channel(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        kind: AnnouncementKind,
        text: String,
    ) -> Result<(), HostError> {
        self.announce(
            tx,
            row,
            Target::Channel(row.channel_id.clone()),
            Announcement::of_game(row, kind, text),
        )
    }

    /// The message a front-end posted for a game under `key` (`lobby`,
    /// `turn:3`, `thread`), to edit it rather than post again.
    pub fn posted_message(
        &self,
        game_id: GameId,
        key: &str,
    ) -> Result<Option<PostedMessage>, HostError> {
        Ok(self.store.read(|tx| tx.posted_message(game_id, key))?)
    }

    /// Remembers a message a front-end posted for a game (replacing what
    /// was stored under its key).
    pub fn remember_message(&self, m: PostedMessage) -> Result<(), HostError> {
        Ok(self.store.write(|tx| tx.set_posted_message(&m))?)
    }

    /// The private channel a front-end opened to write to `user` before,
    /// if it remembered one.
    pub fn dm_channel(&self, user: &str) -> Result<Option<String>, HostError> {
        Ok(self.store.read(|tx| tx.dm_channel(user))?)
    }

    /// Remembers the private channel a front-end opened to write to `user`.
    pub fn remember_dm_channel(&self, user: &str, channel: &str) -> Result<(), HostError> {
        Ok(self.store.write(|tx| tx.set_dm_channel(user, channel))?)
    }

    /// Claims the greeting of a server the bot joined: true exactly once
    /// per server (the caller posts it), false ever after.
    pub fn claim_guild_greeting(&self, guild: &str) -> Result<bool, HostError> {
        let now = self.clock.now_ms();
        Ok(self.store.write(|tx| tx.claim_guild_greeting(guild, now))?)
    }

    /// Forgets `user`'s private channel (the front-end found it gone).
    pub fn forget_dm_channel(&self, user: &str) -> Result<(), HostError> {
        Ok(self.store.write(|tx| tx.forget_dm_channel(user))?)
    }

    /// Decides where a game lives from now on: `home` is the thread the
    /// front-end opened for it (the game moves there, freeing its channel for
    /// another game), or its channel when no thread could be opened. Stored
    /// under the key `thread`; the first decision stands.
    pub fn settle_home(&self, game_id: GameId, home: &str) -> Result<String, HostError> {
        self.store.write(|tx| {
            // The game's row locked first: of two processes settling it at
            // once, the second then sees the first's decision.
            let row = super::require_game(tx, game_id)?;
            if let Some(done) = tx.posted_message(game_id, "thread")? {
                return Ok(done.channel_id);
            }
            if row.channel_id != home {
                tx.move_game_to_channel(game_id, home)?;
            }
            tx.set_posted_message(&PostedMessage {
                game_id,
                key: "thread".into(),
                channel_id: home.to_string(),
                message_id: home.to_string(),
                content: String::new(),
            })?;
            Ok(home.to_string())
        })
    }
}

/// The board without the lines a text says anyway (a board's "Last:
/// Alice plays 96." under a report "Alice plays 96."), so a reader does
/// not get the same news twice.
pub fn board_without_repeats(board: &str, text: &str) -> String {
    let said: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    board
        .trim_end()
        .lines()
        .filter(|line| {
            let l = line.trim();
            let unlabelled = l.split_once(": ").map_or(l, |(_, rest)| rest);
            !(said.contains(&l) || said.contains(&unlabelled))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Puts the players' names where an engine wrote its seat labels: engines
/// know only "Player 1", readers know "Alice" ("Alice's Thornling uses
/// ..."). Only generic labels (`Player N`) are replaced: a seat named by
/// the game itself (Diplomacy's "France") stays. "Player 1" never matches
/// the start of "Player 12".
pub(crate) fn name_seats(text: &str, seats: &[SeatRow], label: impl Fn(Seat) -> String) -> String {
    let mut out = text.to_string();
    // Longest labels first, so "Player 12" is replaced before "Player 1".
    let mut named: Vec<(String, &str)> = seats
        .iter()
        .map(|s| (label(s.seat), s.display_name.as_str()))
        .filter(|(l, _)| is_generic_label(l))
        .collect();
    named.sort_by_key(|(l, _)| std::cmp::Reverse(l.len()));
    for (label, name) in named {
        out = replace_label(&out, &label, name);
    }
    out
}

/// A status line without the AI seats in whom it waits for: an AI moves on
/// its own, so only people are awaited ("Spring 1901 movement: waiting
/// for Austria." while six AIs think); with only AI seats left it says
/// the AI is moving. `label` is the engine's name of a seat, as the status
/// uses it (before [`name_seats`]).
pub(crate) fn status_of_people(
    status: &str,
    seats: &[SeatRow],
    label: impl Fn(Seat) -> String,
) -> String {
    status_of_awaited(status, seats, &[], label)
}

/// [`status_of_people`] that also leaves out the people in `finished`,
/// who sent their final action this turn: the engine, which sees no
/// pending action, still names them ("waiting for England" after
/// England's `done`).
pub(crate) fn status_of_awaited(
    status: &str,
    seats: &[SeatRow],
    finished: &[Seat],
    label: impl Fn(Seat) -> String,
) -> String {
    const WAITING: &str = "waiting for ";
    let ai: Vec<String> = seats
        .iter()
        .filter(|s| matches!(s.occupant, Occupant::Ai(_)) || finished.contains(&s.seat))
        .map(|s| label(s.seat))
        .collect();
    let Some(at) = status.find(WAITING).filter(|_| !ai.is_empty()) else {
        return status.to_string();
    };
    let rest = &status[at + WAITING.len()..];
    let end = rest.find('.').unwrap_or(rest.len());
    let names: Vec<&str> = rest[..end]
        .split(", ")
        .flat_map(|part| part.split(" and "))
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    let people: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !ai.iter().any(|a| a == n))
        .collect();
    if people.len() == names.len() {
        return status.to_string();
    }
    let who = match people.as_slice() {
        [] => "the AI is moving".to_string(),
        [one] => format!("{WAITING}{one}"),
        [first @ .., last] => format!("{WAITING}{} and {last}", first.join(", ")),
    };
    format!("{}{who}{}", &status[..at], &rest[end..])
}

/// Whether a seat label is one only the engine uses ("Player 2"): readers
/// know the player's name instead.
pub fn is_generic_label(label: &str) -> bool {
    label
        .strip_prefix("Player ")
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// Replaces `label` by `name` where it is not followed by another digit.
fn replace_label(text: &str, label: &str, name: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(label) {
        let after = &rest[i + label.len()..];
        out.push_str(&rest[..i]);
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            out.push_str(label);
        } else {
            out.push_str(name);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// "Alice (France)", or just "Alice" when the engine's label for the seat
/// says nothing more ("Player 1").
pub(crate) fn name_with_role(name: &str, label: &str) -> String {
    if is_generic_label(label) {
        name.to_string()
    } else {
        format!("{name} ({label})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(seat: Seat, name: &str) -> SeatRow {
        SeatRow {
            seat,
            occupant: Occupant::User(format!("u{seat}")),
            display_name: name.into(),
        }
    }

    #[test]
    fn generic_seat_labels_become_names_and_game_names_stay() {
        let seats = vec![seat(0, "Alice"), seat(1, "Bob")];
        let label = |s: Seat| format!("Player {}", s + 1);
        assert_eq!(
            name_seats(
                "Player 1's Thornling hits Player 2's Embercub. Player 12 waits.",
                &seats,
                label
            ),
            "Alice's Thornling hits Bob's Embercub. Player 12 waits."
        );
        let powers = |s: Seat| ["Austria", "England"][s].to_string();
        assert_eq!(
            name_seats("Austria holds.", &seats, powers),
            "Austria holds."
        );
    }

    #[test]
    fn ai_seats_are_never_awaited_in_a_status_line() {
        let mut seats: Vec<SeatRow> = ["Alice", "AI", "AI", "Bob"]
            .iter()
            .enumerate()
            .map(|(i, n)| seat(i, n))
            .collect();
        for s in &mut seats[1..3] {
            s.occupant = Occupant::Ai("hold".into());
        }
        let powers = |s: Seat| ["Austria", "England", "France", "Germany"][s].to_string();
        assert_eq!(
            status_of_people(
                "Spring 1901 Movement: waiting for Austria, England, France, Germany.",
                &seats,
                powers
            ),
            "Spring 1901 Movement: waiting for Austria and Germany."
        );
        assert_eq!(
            status_of_people(
                "Fall 1901 Retreats: waiting for England, France.",
                &seats,
                powers
            ),
            "Fall 1901 Retreats: the AI is moving."
        );
        assert_eq!(
            status_of_people("Winter 1901: waiting for Austria.", &seats, powers),
            "Winter 1901: waiting for Austria."
        );
        // Bob sent his final orders: only Alice is awaited.
        assert_eq!(
            status_of_awaited(
                "Spring 1901 Movement: waiting for Austria, England, France, Germany.",
                &seats,
                &[3],
                powers
            ),
            "Spring 1901 Movement: waiting for Austria."
        );
        // A status that names no list is left as it is.
        assert_eq!(
            status_of_people("England to move: play or pass.", &seats, powers),
            "England to move: play or pass."
        );
    }
}
