//! The lobby: creating a game, taking and leaving seats, AI seats, starting
//! and aborting.

use super::daily_deadline::DailyDeadline;
use super::{
    Announcement, AnnouncementKind, GameId, Host, HostError, NewGame, game_label, require_game,
    seat_of_user,
};
use games::seam::Seat;
use store::{GameRow, GameStatus, NewGameRow, Occupant, SeatRow, Target, Tx};

impl Host {
    /// Creates a game in a server, applying its settings: a creator who
    /// named no deadline (`deadline_chosen` false) gets the server's
    /// default for the kind, and a Diplomacy game the server's daily
    /// deadline, copied into the game.
    pub fn create_game_in_server(
        &self,
        req: NewGame,
        deadline_chosen: bool,
    ) -> Result<GameId, HostError> {
        let mut req = req;
        let Some(guild) = req.guild_id.clone() else {
            return self.create_game(req);
        };
        let entry = self.registry.get(&req.kind)?;
        let kind = entry.name;
        let settings = self.server_settings(&guild)?;
        let mut daily = None;
        if !deadline_chosen {
            if let Some(secs) = settings.defaults_of(kind).and_then(|d| d.turn_seconds) {
                req.turn_seconds = Some(secs);
            }
            daily = settings
                .daily_deadline
                .filter(|_| entry.takes_daily_deadline);
        }
        self.create_game_with(req, daily)
    }

    /// Creates a game in a channel (one active game per channel) and, if
    /// asked, seats the creator. Returns the new game's id.
    pub fn create_game(&self, req: NewGame) -> Result<GameId, HostError> {
        self.create_game_with(req, None)
    }

    /// [`Host::create_game`] with the fixed daily deadline the game keeps
    /// (see [`Host::create_game_in_server`]); refused in a channel its
    /// server does not list for games.
    pub(super) fn create_game_with(
        &self,
        req: NewGame,
        daily: Option<DailyDeadline>,
    ) -> Result<GameId, HostError> {
        let mut req = req;
        // The host's own option keys (pauses, absences) never reach the engine.
        let leave_rules = super::leave_rules::take_leave_rules(&mut req.options.clone())
            .map_err(HostError::user)?;
        let (options, seed) = self.check_new_game(&req)?;
        req.options = options;
        let entry = self.registry.get(&req.kind)?;
        let kind = entry.name;
        super::limits::check_turn_seconds(entry, req.turn_seconds).map_err(HostError::user)?;
        let now = self.now();
        let created = self.store.write(|tx| {
            self.check_game_channel(tx, &req)?;
            if let Some(g) = tx.active_game_in_channel(&req.channel_id)? {
                return Err(channel_has_game(&g));
            }
            let id = tx.insert_game(
                &NewGameRow {
                    kind: kind.to_string(),
                    guild_id: req.guild_id.clone(),
                    channel_id: req.channel_id.clone(),
                    creator_id: req.creator_id.clone(),
                    options: req.options.to_string(),
                    seed,
                    turn_seconds: req.turn_seconds.filter(|s| *s > 0).map(|s| s as i64),
                    timeout_policy: req.timeout_policy,
                },
                now,
            )?;
            self.store_leave_rules(tx, id, leave_rules)?;
            self.store_daily_deadline(tx, id, daily)?;
            if req.creator_plays {
                tx.insert_seat(
                    id,
                    &SeatRow {
                        seat: 0,
                        occupant: Occupant::User(req.creator_id.clone()),
                        display_name: req.creator_name.clone(),
                    },
                )?;
            }
            let row = require_game(tx, id)?;
            self.announce_lobby(
                tx,
                &row,
                format!("{} created {}.", req.creator_name, game_label(&row)),
            )?;
            Ok(id)
        });
        match created {
            // Another process created a game in the channel at the same
            // moment: the answer is the one the check above gives.
            Err(HostError::Store(e)) if e.is_second_active_game_in_channel() => {
                match self
                    .store
                    .read(|tx| tx.active_game_in_channel(&req.channel_id))?
                {
                    Some(g) => Err(channel_has_game(&g)),
                    None => Err(HostError::Store(e)),
                }
            }
            other => other,
        }
    }

    /// Checks a request for a new game without creating anything: the kind,
    /// the option keys and values (by building the engine once, so bad
    /// options are refused at creation, not at start). Returns the options
    /// and the seed to use.
    pub fn check_new_game(&self, req: &NewGame) -> Result<(serde_json::Value, u64), HostError> {
        let max = super::limits::MAX_OPTIONS_CHARS;
        if req.options.to_string().chars().count() > max {
            return Err(HostError::user(format!(
                "The options are too long: at most {max} characters of JSON are accepted."
            )));
        }
        let mut options = req.options.clone();
        super::leave_rules::take_leave_rules(&mut options).map_err(HostError::user)?;
        if let Ok(entry) = self.registry.get(&req.kind) {
            self.registry.check_option_keys(entry.name, &options)?;
        }
        let seed = req.seed.unwrap_or_else(rand::random);
        self.registry.create(&req.kind, &options, seed)?;
        Ok((options, seed))
    }

    /// Seats a user in a game still in the lobby: the given seat, or the
    /// first free one. Returns the seat.
    pub fn join(
        &self,
        game_id: GameId,
        user_id: &str,
        name: &str,
        seat: Option<Seat>,
    ) -> Result<Seat, HostError> {
        self.store.write(|tx| {
            let row = lobby_game(tx, game_id)?;
            self.check_join_reliability(tx, &row, user_id)?;
            let seats = tx.seats(game_id)?;
            if let Some(s) = seat_of_user(&seats, user_id) {
                return Err(HostError::user(format!(
                    "You already sit in seat {} of {}.",
                    s + 1,
                    game_label(&row)
                )));
            }
            let seat = self.free_seat(&row, &seats, seat)?;
            tx.insert_seat(
                game_id,
                &SeatRow {
                    seat,
                    occupant: Occupant::User(user_id.to_string()),
                    display_name: name.to_string(),
                },
            )?;
            self.announce_lobby(
                tx,
                &row,
                format!("{name} joined {} in seat {}.", game_label(&row), seat + 1),
            )?;
            Ok(seat)
        })
    }

    /// Removes a user from a game still in the lobby. When the last person
    /// leaves, the game is aborted so the channel is free again.
    pub fn leave(&self, game_id: GameId, user_id: &str) -> Result<(), HostError> {
        let now = self.now();
        self.store.write(|tx| {
            let row = lobby_game(tx, game_id)?;
            let seats = tx.seats(game_id)?;
            let seat = seat_of_user(&seats, user_id).ok_or_else(|| {
                HostError::user(format!("You do not sit in {}.", game_label(&row)))
            })?;
            let name = seats[seats.iter().position(|s| s.seat == seat).unwrap_or(0)]
                .display_name
                .clone();
            tx.delete_seat(game_id, seat)?;
            let humans_left = seats
                .iter()
                .filter(|s| s.seat != seat && matches!(s.occupant, Occupant::User(_)))
                .count();
            if humans_left == 0 {
                tx.finish_game(game_id, GameStatus::Aborted, None, now)?;
                self.announce_to_channel(
                    tx,
                    &row,
                    AnnouncementKind::Aborted,
                    format!(
                        "{name} left and nobody is left in {}; it is closed.",
                        game_label(&row)
                    ),
                )?;
            } else {
                self.announce_lobby(tx, &row, format!("{name} left {}.", game_label(&row)))?;
            }
            Ok(())
        })
    }

    /// Puts an AI at a level the engine offers (default: its server's
    /// default for the kind, else the engine's first) in a
    /// seat: in the lobby the given seat or the first free one; in a running
    /// game the given open seat or the first open one (a takeover, see
    /// [`Host::takeover`]). Only the game's creator may.
    pub fn add_ai(
        &self,
        game_id: GameId,
        by_user: &str,
        level: Option<&str>,
        seat: Option<Seat>,
    ) -> Result<Seat, HostError> {
        self.store.write(|tx| {
            let row = require_game(tx, game_id)?;
            if row.status != GameStatus::Running {
                lobby_game(tx, game_id)?;
            }
            require_creator(&row, by_user, "add an AI")?;
            let entry = self.registry.get(&row.kind)?;
            let level = match level.map(str::trim).filter(|l| !l.is_empty()) {
                None => self.default_ai_level(tx, row.guild_id.as_deref(), entry.name)?,
                Some(l) => self.check_ai_level(&row.kind, l)?,
            };
            let seats = tx.seats(game_id)?;
            if row.status == GameStatus::Running {
                let engine = self.engine_of(&row)?;
                let seat = self.open_seat(&row, engine.as_ref(), &seats, seat)?;
                let text = format!(
                    "An AI ({level}) takes over {} in {}.",
                    engine.seat_name(seat),
                    game_label(&row)
                );
                self.commit_takeover(
                    tx,
                    &row,
                    engine,
                    SeatRow {
                        seat,
                        occupant: Occupant::Ai(level.clone()),
                        display_name: format!("AI ({level})"),
                    },
                    text,
                )?;
                return Ok(seat);
            }
            let seat = self.free_seat(&row, &seats, seat)?;
            tx.insert_seat(
                game_id,
                &SeatRow {
                    seat,
                    occupant: Occupant::Ai(level.clone()),
                    display_name: format!("AI ({level})"),
                },
            )?;
            self.announce_lobby(
                tx,
                &row,
                format!(
                    "An AI ({level}) takes seat {} of {}.",
                    seat + 1,
                    game_label(&row)
                ),
            )?;
            Ok(seat)
        })
    }

    /// Starts a game whose seats are all taken (only its creator may).
    pub fn start(&self, game_id: GameId, by_user: &str) -> Result<(), HostError> {
        let now = self.now();
        self.store.write(|tx| {
            let row = lobby_game(tx, game_id)?;
            require_creator(&row, by_user, "start it")?;
            let options: serde_json::Value =
                serde_json::from_str(&row.options).map_err(|e| HostError::Corrupt {
                    game_id,
                    source: super::registry::DecodeError {
                        kind: "options",
                        what: "options",
                        reason: e.to_string(),
                    },
                })?;
            let count = self.registry.seat_count(&row.kind, &options)?;
            let seats = tx.seats(game_id)?;
            let empty: Vec<String> = (0..count)
                .filter(|i| !seats.iter().any(|s| s.seat == *i))
                .map(|i| (i + 1).to_string())
                .collect();
            if !empty.is_empty() {
                return Err(HostError::user(format!(
                    "Seat(s) {} of {} are still empty. Ask someone to join, or add an AI to them.",
                    empty.join(", "),
                    game_label(&row)
                )));
            }
            let engine = self.registry.create(&row.kind, &options, row.seed)?;
            tx.start_game(game_id, &engine.state_json(), now)?;
            let row = require_game(tx, game_id)?;
            let names: Vec<String> = seats
                .iter()
                .map(|s| {
                    super::announce::name_with_role(&s.display_name, &engine.seat_name(s.seat))
                })
                .collect();
            let view = engine.view(None);
            let named = |t: &str| super::announce::name_seats(t, &seats, |s| engine.seat_name(s));
            self.announce(
                tx,
                &row,
                Target::Channel(row.channel_id.clone()),
                Announcement {
                    turn: 0,
                    board: Some(named(&view.board)),
                    ..Announcement::of_game(
                        &row,
                        AnnouncementKind::Started,
                        format!(
                            "{} started: {}.\n{}",
                            game_label(&row),
                            names.join(", "),
                            named(&super::announce::status_of_people(
                                &view.status,
                                &seats,
                                |s| engine.seat_name(s)
                            ))
                        ),
                    )
                },
            )?;
            self.begin_turn(tx, &row, engine.as_ref(), &seats)?;
            Ok(())
        })
    }

    /// Ends a game without a result. Only its creator, or a moderator of the
    /// server (decided by the front-end), may.
    pub fn abort(
        &self,
        game_id: GameId,
        by_user: &str,
        is_moderator: bool,
    ) -> Result<(), HostError> {
        self.end_aborted(game_id, |row| {
            if !is_moderator && row.creator_id != by_user {
                return Err(HostError::user(format!(
                    "Only the creator of {} or a game master of the server can abort it.",
                    game_label(row)
                )));
            }
            Ok(format!("{} was aborted.", game_label(row)))
        })
    }

    /// Ends a game in the lobby or running as aborted, once `announcement`
    /// (which may refuse) gives the channel's line.
    pub(super) fn end_aborted(
        &self,
        game_id: GameId,
        announcement: impl Fn(&GameRow) -> Result<String, HostError>,
    ) -> Result<(), HostError> {
        let now = self.now();
        self.store.write(|tx| {
            let row = require_game(tx, game_id)?;
            if !matches!(row.status, GameStatus::Lobby | GameStatus::Running) {
                return Err(HostError::user(format!(
                    "{} is already {}.",
                    game_label(&row),
                    row.status.as_str()
                )));
            }
            let text = announcement(&row)?;
            tx.finish_game(game_id, GameStatus::Aborted, None, now)?;
            self.announce_to_channel(tx, &row, AnnouncementKind::Aborted, text)?;
            Ok(())
        })
    }

    fn free_seat(
        &self,
        row: &GameRow,
        seats: &[SeatRow],
        wanted: Option<Seat>,
    ) -> Result<Seat, HostError> {
        let options: serde_json::Value = serde_json::from_str(&row.options).unwrap_or_default();
        let count = self.registry.seat_count(&row.kind, &options)?;
        match wanted {
            Some(s) if s >= count => Err(HostError::user(format!(
                "{} has seats 1 to {count}; there is no seat {}.",
                game_label(row),
                s + 1
            ))),
            Some(s) => match seats.iter().find(|x| x.seat == s) {
                Some(x) => Err(HostError::user(format!(
                    "Seat {} of {} is taken by {}.",
                    s + 1,
                    game_label(row),
                    x.display_name
                ))),
                None => Ok(s),
            },
            None => (0..count)
                .find(|i| !seats.iter().any(|x| x.seat == *i))
                .ok_or_else(|| HostError::user(format!("{} is full.", game_label(row)))),
        }
    }

    fn announce_lobby(&self, tx: &Tx<'_>, row: &GameRow, text: String) -> Result<(), HostError> {
        self.announce_to_channel(tx, row, AnnouncementKind::Lobby, text)
    }
}

/// The refusal of a new game in a channel that has one in the lobby or running.
fn channel_has_game(g: &GameRow) -> HostError {
    HostError::user(format!(
        "This channel already has a game ({}, {}). Finish it, or its creator can abort it, \
         before starting another here.",
        game_label(g),
        g.status.as_str()
    ))
}

fn lobby_game(tx: &Tx<'_>, game_id: GameId) -> Result<GameRow, HostError> {
    let row = require_game(tx, game_id)?;
    if row.status != GameStatus::Lobby {
        return Err(HostError::user(format!(
            "{} is {}; seats can only change in the lobby, before it starts.",
            game_label(&row),
            row.status.as_str()
        )));
    }
    Ok(row)
}

fn require_creator(row: &GameRow, user: &str, what: &str) -> Result<(), HostError> {
    if row.creator_id == user {
        Ok(())
    } else {
        Err(HostError::user(format!(
            "Only the creator of {} can {what}.",
            game_label(row)
        )))
    }
}
