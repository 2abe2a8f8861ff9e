//! Delivers the host's outbox: channel announcements, prompts with buttons
//! (in the channel for channel-move games, by DM for hidden moves), private
//! notes and reminders by DM. A user whose DMs are closed (50007) gets a
//! channel message that mentions them without revealing anything, with a
//! button that shows their move privately. Rows are marked sent after
//! delivery, so nothing is lost across a restart.
//!
//! Delivery is at-least-once: the bot may die after Discord accepted a
//! message and before the row is marked sent. Every message therefore
//! carries a nonce made of the row id and the part number
//! (`ob{row}p{part}`, at most 25 characters) with `enforce_nonce`, and
//! Discord answers a repeat within its de-duplication window (a few
//! minutes) with the message it already created instead of posting it
//! again. A restart later than that window can still post twice.
//!
//! Boards of kinds with an image (puzzle fields, the Diplomacy map) are
//! attached as PNG, rendered from the game as it was at the announced turn
//! (a row may be delivered after later turns), off the async runtime. The
//! image replaces the text board in the channel; the text board stays the
//! image's alt text when it fits Discord's 1024 characters, is always in
//! `/game status`, and is what the channel gets if rendering fails. The
//! Diplomacy map's legend names the players (from the host's seats), and a
//! finished Diplomacy game's replay GIF follows its final message.

use super::{Data, components, game, messages};
use host::{Announcement, AnnouncementKind, OutboxItem, TurnActions};
use host::{GameStatus, Target};
use poise::serenity_prelude as serenity;
use render::BoardImage;
use serenity::{ChannelId, CreateActionRow, CreateAttachment, CreateMessage, Http, Nonce, UserId};

/// What became of one row.
pub(super) enum Fate {
    /// Delivered (or undeliverable for good): mark it sent.
    Done,
    /// Discord or the network failed: try again later.
    Retry,
    /// Not ours (e.g. a terminal game's row): leave it.
    Skip,
}

fn snowflake(s: &str) -> Option<u64> {
    s.parse::<u64>().ok().filter(|n| *n != 0)
}

/// The Discord error code of a failed request, if any.
pub(super) fn error_code(e: &serenity::Error) -> Option<(u16, isize)> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            Some((r.status_code.as_u16(), r.error.code))
        }
        _ => None,
    }
}

/// Whether a failed send should be tried again later.
fn transient(e: &serenity::Error) -> bool {
    match error_code(e) {
        Some((status, _)) => status == 429 || status >= 500,
        None => true,
    }
}

/// Delivers one row wherever it goes (see the module's doc).
pub(super) async fn deliver(http: &Http, data: &Data, item: &OutboxItem) -> Fate {
    let a = match &item.announcement {
        Ok(a) => a,
        Err(e) => {
            tracing::error!(outbox_id = item.id, error = %e, "unreadable announcement dropped");
            return Fate::Done;
        }
    };
    let result = match &item.target {
        Target::Channel(c) => match snowflake(c) {
            Some(c) => {
                match super::living::deliver(http, data, item.id, ChannelId::new(c), a).await {
                    Some(result) => result,
                    None => {
                        // The game's home now (its thread once it has one).
                        let home = super::living::home(data, a)
                            .await
                            .unwrap_or(ChannelId::new(c));
                        let msgs = channel_messages(data, a).await;
                        send(http, data, home, msgs, Route::Main(item.id)).await
                    }
                }
            }
            None => return Fate::Skip,
        },
        Target::User(u) => match (snowflake(u), snowflake(&a.channel_id)) {
            (Some(u), Some(_)) => to_user(http, data, a, UserId::new(u), item.id).await,
            _ => return Fate::Skip,
        },
    };
    match result {
        Ok(()) => Fate::Done,
        Err(e) if transient(&e) => {
            tracing::warn!(outbox_id = item.id, game_id = a.game_id, error = %e, "delivery failed; will retry");
            Fate::Retry
        }
        Err(e) => {
            tracing::error!(outbox_id = item.id, game_id = a.game_id, error = %e, "Discord refused an announcement; dropped");
            Fate::Done
        }
    }
}

/// Which way an outbox row went out, for its messages' nonces.
#[derive(Debug, Clone, Copy)]
pub(super) enum Route {
    /// Where the row is addressed (channel, or the user's DM).
    Main(i64),
    /// The channel note for a user whose DMs are closed.
    Fallback(i64),
    /// The note that a game cannot have a thread (by game id: once a game).
    Thread(i64),
}

/// Discord's limit on a nonce's length.
const MAX_NONCE: usize = 25;

/// The nonce of one message of an outbox row: unique per row, route and
/// part, and the same every time the row is delivered again.
pub(super) fn nonce(route: Route, part: usize) -> Option<String> {
    let n = match route {
        Route::Main(id) => format!("ob{id}p{part}"),
        Route::Fallback(id) => format!("ob{id}f{part}"),
        Route::Thread(game) => format!("th{game}p{part}"),
    };
    // Row ids would need 19 digits to overflow; sending without a nonce
    // then is better than not sending.
    if n.len() > MAX_NONCE {
        tracing::warn!(nonce = %n, "outbox nonce too long; sent without de-duplication");
        return None;
    }
    Some(n)
}

/// Part `part` of a row with its nonce, so Discord does not post a repeat twice.
pub(super) fn with_nonce(m: CreateMessage, route: Route, part: usize) -> CreateMessage {
    match nonce(route, part) {
        Some(n) => m.nonce(Nonce::String(n)).enforce_nonce(true),
        None => m,
    }
}

/// Sends messages in order, each with its nonce so a repeat is not posted
/// twice, together (in the channel's turn: another game's lane waits).
async fn send(
    http: &Http,
    data: &Data,
    channel: ChannelId,
    msgs: Vec<CreateMessage>,
    route: Route,
) -> Result<(), serenity::Error> {
    let _turn = data.channel_turns.take(channel).await;
    for (part, m) in msgs.into_iter().enumerate() {
        data.global_rate.wait().await;
        channel
            .send_message(http, with_nonce(m, route, part))
            .await?;
    }
    Ok(())
}

/// Sends messages to a user by DM in order, each with its nonce, through
/// the user's remembered DM channel.
async fn send_dm(
    http: &Http,
    data: &Data,
    user: UserId,
    msgs: Vec<CreateMessage>,
    route: Route,
) -> Result<(), serenity::Error> {
    for (part, m) in msgs.into_iter().enumerate() {
        super::dm_channels::send_dm(http, data, user, with_nonce(m, route, part)).await?;
    }
    Ok(())
}

/// A text split into messages, with components on the last one; each part
/// may ping those of `mentions` that it names itself (a long board's first
/// parts name nobody).
fn messages(text: &str, rows: Vec<CreateActionRow>, mentions: &[UserId]) -> Vec<CreateMessage> {
    let parts = messages::split(text, messages::MAX_CONTENT);
    let n = parts.len();
    let mut rows = Some(rows);
    parts
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let named = messages::mentioned_users(&p);
            let allowed = messages::pinging(mentions.iter().copied().filter(|u| named.contains(u)));
            let mut m = CreateMessage::new().content(p).allowed_mentions(allowed);
            if i + 1 == n
                && let Some(r) = rows.take().filter(|r| !r.is_empty())
            {
                m = m.components(r);
            }
            m
        })
        .collect()
}

/// How an announcement looks in its game's channel.
async fn channel_messages(data: &Data, a: &Announcement) -> Vec<CreateMessage> {
    match a.kind {
        AnnouncementKind::Lobby => {
            let g = a.game_id;
            let view = data.host(move |h| h.view(g, None)).await.ok();
            let mut text = a.text.clone();
            let mut rows = Vec::new();
            if let Some(v) = view.filter(|v| v.status == GameStatus::Lobby) {
                text.push_str("\nSeats:");
                for s in &v.seats {
                    text.push_str(&format!("\n{}. {}", s.seat + 1, s.name));
                }
                rows = components::lobby_rows(g);
            }
            messages(&text, rows, &[])
        }
        _ => {
            let images = if wants_image(data, a) {
                board_images(data, a).await
            } else {
                Vec::new()
            };
            let mut msgs = if images.is_empty() {
                messages(
                    &messages::with_board(&a.text, a.board.as_deref()),
                    vec![],
                    &[],
                )
            } else {
                let mut msgs = messages(&a.text, vec![], &[]);
                // The images go under the last part of the text.
                if let Some(last) = msgs.pop() {
                    msgs.push(last.add_files(images.into_iter().map(|i| {
                        CreateAttachment::bytes(i.png, i.filename).description(i.description)
                    })));
                }
                msgs
            };
            // A finished game's replay follows its final message, as one
            // more part of the row (so a repeat is de-duplicated too).
            if a.kind == AnnouncementKind::Finished
                && let Some(replay) =
                    super::replay::final_replay(data, &a.game_kind, a.game_id).await
            {
                msgs.push(replay);
            }
            msgs
        }
    }
}

/// The messages that open a turn: the announcement's text and board (an
/// image where the kind has one), then `extra` (the turn's prompt) with its
/// buttons on the last part, mentioning `mentions`. Returns them and the
/// last part's text (to which a status line is added later).
pub(super) async fn turn_messages(
    data: &Data,
    a: &Announcement,
    extra: &str,
    rows: Vec<CreateActionRow>,
    mentions: Vec<UserId>,
) -> (Vec<CreateMessage>, String) {
    let images = if wants_image(data, a) {
        board_images(data, a).await
    } else {
        Vec::new()
    };
    let text = if images.is_empty() {
        messages::with_board(&a.text, a.board.as_deref())
    } else {
        a.text.clone()
    };
    let text = format!("{text}{extra}");
    let last_text = messages::split(&text, messages::MAX_CONTENT)
        .pop()
        .unwrap_or_default();
    let mut msgs = messages(&text, rows, &mentions);
    if !images.is_empty()
        && let Some(last) = msgs.pop()
    {
        msgs.push(
            last.add_files(
                images
                    .into_iter()
                    .map(|i| CreateAttachment::bytes(i.png, i.filename).description(i.description)),
            ),
        );
    }
    (msgs, last_text)
}

/// Whether a channel announcement shows a board that has an image.
fn wants_image(data: &Data, a: &Announcement) -> bool {
    matches!(
        a.kind,
        AnnouncementKind::Started | AnnouncementKind::Turn | AnnouncementKind::Finished
    ) && a.board.is_some()
        && render::has_board_image(
            data.host
                .registry()
                .get(&a.game_kind)
                .ok()
                .and_then(|k| k.board_image),
        )
}

/// The images of an announcement's board, drawn from the game as it was at
/// the announced turn: the position, and for a resolved Diplomacy phase
/// first its orders on the position before. Empty when the board cannot be
/// drawn (logged), so the caller posts the text board instead.
async fn board_images(data: &Data, a: &Announcement) -> Vec<BoardImage> {
    let host = data.host.clone();
    let (game_id, turn, kind) = (a.game_id, a.turn, a.kind);
    let started = std::time::Instant::now();
    let drawn = tokio::task::spawn_blocking(move || -> Result<Vec<BoardImage>, String> {
        let game = host.state_at(game_id, turn).map_err(|e| e.to_string())?;
        // The legend names the players as the host seats them.
        let players = render::seat_names(&host, game_id).map_err(|e| e.to_string())?;
        let Some(board) = render::board_png(game.as_ref(), &players) else {
            return Ok(Vec::new());
        };
        let board = board.map_err(|e| e.to_string())?;
        let mut images = Vec::new();
        if kind == AnnouncementKind::Turn && turn > 0 {
            // The orders image is extra: without it the map still goes out.
            // Drawn from the report's detail; rows older than the detail
            // fall back to judging the stored actions again.
            let orders = host.turn_record(game_id, turn).and_then(|(actions, report)| {
                Ok(match actions {
                    TurnActions::Moves(m) => {
                        let before = host.state_at(game_id, turn - 1)?;
                        render::orders_png_named(before.as_ref(), &report, &m, &players)
                    }
                    TurnActions::Forfeit(_) | TurnActions::Takeover(_) => None,
                })
            });
            match orders {
                Ok(Some(Ok(img))) => images.push(img),
                Ok(None) => {}
                Ok(Some(Err(e))) => {
                    tracing::warn!(game_id, turn, error = %e, "cannot draw the orders image")
                }
                Err(e) => {
                    tracing::warn!(game_id, turn, error = %e, "cannot read the turn for its orders image")
                }
            }
        }
        images.push(board);
        Ok(images)
    })
    .await;
    tracing::debug!(
        game_id,
        turn,
        ms = started.elapsed().as_millis() as u64,
        "board images drawn"
    );
    match drawn {
        Ok(Ok(images)) => images,
        Ok(Err(e)) => {
            tracing::error!(game_id, turn, error = %e, "cannot draw the board; posting it as text");
            Vec::new()
        }
        Err(e) => {
            tracing::error!(game_id, turn, error = %e, "board drawing task failed; posting it as text");
            Vec::new()
        }
    }
}

/// Whether an announcement for a user is still current (a prompt for a
/// turn already resolved is not worth sending).
async fn current(data: &Data, a: &Announcement) -> bool {
    if !matches!(
        a.kind,
        AnnouncementKind::Prompt | AnnouncementKind::Reminder
    ) {
        return true;
    }
    let g = a.game_id;
    match data.host(move |h| h.game(g)).await {
        Ok(row) => row.status == GameStatus::Running && row.turn == a.turn,
        Err(_) => false,
    }
}

async fn to_user(
    http: &Http,
    data: &Data,
    a: &Announcement,
    user: UserId,
    outbox_id: i64,
) -> Result<(), serenity::Error> {
    if !current(data, a).await {
        return Ok(());
    }
    // The game's home now (its thread once it has one).
    let channel = match super::living::home(data, a).await {
        Some(c) => c,
        None => ChannelId::new(snowflake(&a.channel_id).unwrap_or(1)),
    };
    let (rows, cut) = components::choice_rows(a.game_id, a.turn, &a.choices);
    let more = if cut {
        "\n(More choices than fit here: type them with `/move`.)"
    } else {
        ""
    };
    // Kinds whose moves are open are prompted in the channel, with buttons;
    // every other kind by DM (hidden moves).
    let channel_moves = data
        .host
        .registry()
        .get(&a.game_kind)
        .is_ok_and(|k| k.moves_in_channel);
    if a.kind == AnnouncementKind::Prompt && channel_moves {
        // The message that opened the turn carries this prompt (see
        // `living.rs`): nothing more to post.
        if super::living::turn_posted(data, a.game_id, a.turn).await {
            return Ok(());
        }
        // Moves of this game are public: prompt in the channel.
        let text = format!("{} {}{more}", game::mention(&user.to_string()), a.text);
        return send(
            http,
            data,
            channel,
            messages(&text, rows, &[user]),
            Route::Main(outbox_id),
        )
        .await;
    }
    let link = link_to(data, a, channel).await;
    // A Diplomacy phase prompt is the order desk: how to order, the menus'
    // buttons and the private map of the player's own orders.
    if a.kind == AnnouncementKind::Prompt
        && let Some((text, rows, map)) = super::order_desk::prompt(data, a, &user.to_string()).await
    {
        let mut msgs = messages(&format!("{text}\n{link}"), rows, &[]);
        if let Some(map) = map
            && let Some(last) = msgs.pop()
        {
            msgs.push(last.add_file(map));
        }
        return match send_dm(http, data, user, msgs, Route::Main(outbox_id)).await {
            Ok(()) => Ok(()),
            Err(e) => closed_or(http, data, e, channel, user, a, Route::Fallback(outbox_id)).await,
        };
    }
    let body = match (a.kind, a.deadline) {
        (AnnouncementKind::Prompt, _) => format!(
            "{}{more}\n{link}",
            messages::with_board(&a.text, a.board.as_deref())
        ),
        // A reminder names the deadline as Discord timestamps, which every
        // reader sees in their own time zone (the host passes it as data).
        (AnnouncementKind::Reminder, Some(deadline)) => format!(
            "{}\nDeadline: {}.\n{link}",
            a.text,
            super::order_desk::when(deadline)
        ),
        _ => format!(
            "{}\n{link}",
            messages::with_board(&a.text, a.board.as_deref())
        ),
    };
    let msgs = messages(&body, rows, &[]);
    match send_dm(http, data, user, msgs, Route::Main(outbox_id)).await {
        Ok(()) => Ok(()),
        Err(e) => closed_or(http, data, e, channel, user, a, Route::Fallback(outbox_id)).await,
    }
}

/// DMs closed (50007): tell the user in the game's channel without saying
/// anything private; otherwise pass the error on.
async fn closed_or(
    http: &Http,
    data: &Data,
    e: serenity::Error,
    channel: ChannelId,
    user: UserId,
    a: &Announcement,
    route: Route,
) -> Result<(), serenity::Error> {
    if !matches!(error_code(&e), Some((_, 50007))) {
        return Err(e);
    }
    // Press is between players: even that someone wrote to this player is
    // not for the channel. The message stays in the game's press log.
    if a.kind == AnnouncementKind::Press {
        tracing::info!(%user, game_id = a.game_id, "press not delivered: the recipient's DMs are closed");
        return Ok(());
    }
    let who = game::mention(&user.to_string());
    let label = format!("{} #{}", a.game_kind, a.game_id);
    let text = match a.kind {
        AnnouncementKind::Prompt => format!(
            "{who}, it is your move in {label}, but I cannot DM you (your DMs are closed). Press **Show my move** to see it privately."
        ),
        AnnouncementKind::Reminder => format!(
            "{who}, the deadline in {label} is close and you have not moved yet. Press **Show my move**."
        ),
        _ => format!(
            "{who}, I have a private note for you about {label}, but your DMs are closed. Press **Show my move** to see your view."
        ),
    };
    send(
        http,
        data,
        channel,
        messages(
            &text,
            vec![components::show_row(a.game_id, a.turn)],
            &[user],
        ),
        route,
    )
    .await
}

/// A link back to the game's channel (its thread once it has one).
async fn link_to(data: &Data, a: &Announcement, channel: ChannelId) -> String {
    let g = a.game_id;
    let guild = data
        .host(move |h| h.game(g))
        .await
        .ok()
        .and_then(|r| r.guild_id);
    match guild {
        Some(guild) => format!("Game channel: https://discord.com/channels/{guild}/{channel}"),
        None => format!("Game channel: <#{channel}>"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_are_stable_distinct_and_within_discords_limit() {
        assert_eq!(nonce(Route::Main(42), 0).as_deref(), Some("ob42p0"));
        assert_eq!(nonce(Route::Fallback(42), 0).as_deref(), Some("ob42f0"));
        assert_ne!(nonce(Route::Main(4), 21), nonce(Route::Main(42), 1));
        // The largest row id still fits with up to 1000 parts.
        let n = nonce(Route::Main(i64::MAX), 999).unwrap();
        assert_eq!(n.len(), MAX_NONCE);
        assert_eq!(nonce(Route::Main(i64::MAX), 1000), None);
    }
}
