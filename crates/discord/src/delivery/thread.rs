//! One thread per game: when a game starts, the bot opens a public thread
//! from its lobby message, named after the players, and the game moves
//! there; where it may not, the game stays in its channel with a note.

use crate::Data;
use crate::delivery::living::{home, posted};
use crate::rest_metrics;
use crate::send::{Route, RowKey, error_code, send_in_turn, snowflake};
use crate::ui::messages;
use host::Announcement;
use poise::serenity_prelude as serenity;
use serenity::{AutoArchiveDuration, ChannelId, ChannelType, CreateThread, Http, MessageId};

/// Discord's limit on a thread's name.
const MAX_THREAD_NAME: usize = 100;

/// A thread's name for a game, within Discord's 100 characters and never
/// cut inside a name: a duel names both sides (`battle #12: Alice vs
/// Bob`), a larger game its people and counts its AI seats (`diplomacy #3:
/// Alice, Bob + 5 AI`); names that do not fit are counted (`+ 2 more`).
/// `players`: each seat's name and whether an AI sits there.
fn thread_name(label: &str, players: &[(String, bool)]) -> String {
    if players.len() == 2 {
        let name = format!("{label}: {} vs {}", players[0].0, players[1].0);
        if name.chars().count() <= MAX_THREAD_NAME {
            return name;
        }
    }
    let ais = players.iter().filter(|(_, ai)| *ai).count();
    let people: Vec<&str> = players
        .iter()
        .filter(|(_, ai)| !*ai)
        .map(|(n, _)| n.as_str())
        .collect();
    let tail = |left: usize| {
        let mut t = String::new();
        if left > 0 {
            t.push_str(&format!(" + {left} more"));
        }
        if ais > 0 {
            t.push_str(&format!(" + {ais} AI"));
        }
        t
    };
    let mut shown = 0;
    while shown < people.len() {
        let name = format!(
            "{label}: {}{}",
            people[..=shown].join(", "),
            tail(people.len() - shown - 1)
        );
        if name.chars().count() > MAX_THREAD_NAME {
            break;
        }
        shown += 1;
    }
    let name = match (shown, ais) {
        (0, 0) if people.is_empty() => label.to_string(),
        (0, _) if people.is_empty() => format!("{label}: {ais} AI"),
        _ => format!(
            "{label}: {}{}",
            people[..shown].join(", "),
            tail(people.len() - shown)
        ),
    };
    messages::clip(&name, MAX_THREAD_NAME)
}

/// Opens the game's thread from its lobby message, once; returns where the
/// game lives from now on (the thread, or its channel when the bot may not
/// open threads there).
pub(super) async fn open_thread(
    http: &Http,
    data: &Data,
    row: RowKey,
    a: &Announcement,
) -> Result<ChannelId, serenity::Error> {
    let g = a.game_id;
    let parent = home(data, a).await.unwrap_or(ChannelId::new(1));
    if let Some(t) = posted(data, g, "thread").await {
        return Ok(snowflake(&t.channel_id).map_or(parent, ChannelId::new));
    }
    let settle = |home: ChannelId| async move {
        let h = home.to_string();
        match data.host(move |x| x.settle_home(g, &h)).await {
            Ok(h) => snowflake(&h).map_or(home, ChannelId::new),
            Err(e) => {
                tracing::error!(game_id = g, error = %e, "cannot move the game to its thread");
                parent
            }
        }
    };
    let Some(lobby) = posted(data, g, "lobby").await else {
        // No lobby message to hang a thread on (a game from before threads).
        return Ok(settle(parent).await);
    };
    let (Some(c), Some(m)) = (snowflake(&lobby.channel_id), snowflake(&lobby.message_id)) else {
        return Ok(settle(parent).await);
    };
    let seats = data.host(move |h| h.seats(g)).await.unwrap_or_default();
    let players: Vec<(String, bool)> = seats
        .iter()
        .map(|s| {
            (
                s.display_name.clone(),
                matches!(s.occupant, host::Occupant::Ai(_)),
            )
        })
        .collect();
    let label = format!("{} #{}", a.game_kind, g);
    let builder = CreateThread::new(thread_name(&label, &players))
        .kind(ChannelType::PublicThread)
        .auto_archive_duration(AutoArchiveDuration::OneWeek);
    let opened = data.rest(
        rest_metrics::THREAD_CREATE,
        ChannelId::new(c).create_thread_from_message(http, MessageId::new(m), builder),
    );
    match opened.await {
        Ok(thread) => Ok(settle(thread.id).await),
        Err(e) => match error_code(&e) {
            // Opened before a restart cut us short: a thread started from a
            // message has the message's id.
            Some((_, 160004)) => Ok(settle(ChannelId::new(m)).await),
            Some((403, _)) => {
                tracing::warn!(game_id = g, error = %e, "may not open a thread; the game stays in its channel");
                let note = format!(
                    "(I may not open a thread here, so {label} is played in this channel: \
                     I need the Create Public Threads and Send Messages in Threads permissions.)"
                );
                let msg = messages::create(note);
                send_in_turn(http, data, parent, vec![msg], Route::Thread(row)).await?;
                Ok(settle(parent).await)
            }
            Some((status, _)) if status == 429 || status >= 500 => Err(e),
            None => Err(e),
            // Any other refusal (e.g. the lobby is itself in a thread, where
            // no thread can be opened): the game stays where it is.
            Some(_) => {
                tracing::info!(game_id = g, error = %e, "no thread for the game; it stays in its channel");
                Ok(settle(parent).await)
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_names_name_the_players_within_discords_limit() {
        let human = |n: &str| (n.to_string(), false);
        let ai = (String::from("AI (default)"), true);
        assert_eq!(
            thread_name("battle #12", &[human("Alice"), human("Bob")]),
            "battle #12: Alice vs Bob"
        );
        let mut table = vec![human("alice"), human("bob")];
        table.extend(std::iter::repeat_n(ai.clone(), 5));
        assert_eq!(
            thread_name("diplomacy #3", &table),
            "diplomacy #3: alice, bob + 5 AI"
        );
        assert_eq!(
            thread_name("diplomacy #4", &vec![ai; 7]),
            "diplomacy #4: 7 AI"
        );
        let many: Vec<(String, bool)> = (0..7)
            .map(|i| human(&format!("Player with a long name {i}")))
            .collect();
        let name = thread_name("diplomacy #3", &many);
        assert!(name.chars().count() <= MAX_THREAD_NAME, "{name}");
        // Whole names only, the rest counted.
        assert_eq!(
            name,
            "diplomacy #3: Player with a long name 0, Player with a long name 1 + 5 more"
        );
    }
}
