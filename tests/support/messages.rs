//! Finding what the bot posted in the fake: waiting for a message to appear
//! and counting what is already there.

use super::fake_discord::{FakeDiscord, Msg, State};

/// Waits for the newest of the messages `among` picks from the fake's state
/// that satisfies `pred`; `what` names it in the panic if it never comes.
async fn newest(
    fake: &FakeDiscord,
    what: &str,
    among: impl Fn(&State) -> Vec<&Msg>,
    pred: impl Fn(&Msg) -> bool,
) -> Msg {
    fake.wait_for(what, move |s| {
        among(s).into_iter().rev().find(|m| pred(m)).cloned()
    })
    .await
}

/// Waits for the newest message visible in channel `ch` that satisfies
/// `pred`; `what` names it in the panic if it never comes.
pub async fn channel_where(
    fake: &FakeDiscord,
    ch: u64,
    what: &str,
    pred: impl Fn(&Msg) -> bool,
) -> Msg {
    newest(fake, what, |s| s.channel(ch), pred).await
}

/// Waits for the newest message in channel `ch` whose text contains `needle`.
pub async fn channel_msg(fake: &FakeDiscord, ch: u64, needle: &str) -> Msg {
    let n = needle.to_string();
    channel_where(
        fake,
        ch,
        &format!("a channel message containing {needle:?}"),
        move |m| m.text().contains(&n),
    )
    .await
}

/// Waits for the newest channel message carrying the attachment `file` that
/// satisfies `pred`.
pub async fn channel_file(
    fake: &FakeDiscord,
    ch: u64,
    file: &str,
    pred: impl Fn(&Msg) -> bool,
) -> Msg {
    let f = file.to_string();
    channel_where(
        fake,
        ch,
        &format!("a channel message with {file}"),
        move |m| m.file(&f).is_some() && pred(m),
    )
    .await
}

/// Waits for the newest DM to `user` that satisfies `pred`; `what` names it
/// in the panic if it never comes.
pub async fn dm_where(
    fake: &FakeDiscord,
    user: u64,
    what: &str,
    pred: impl Fn(&Msg) -> bool,
) -> Msg {
    newest(fake, what, |s| s.dms(user), pred).await
}

/// The newest DM prompt to `user` with a button, after message `after`.
pub async fn prompt_after(fake: &FakeDiscord, user: u64, after: u64) -> Msg {
    dm_where(fake, user, "a DM prompt with buttons", move |m| {
        m.id > after && !m.buttons().is_empty()
    })
    .await
}

/// Waits for the newest DM to `user` whose text contains `needle`.
pub async fn dm_with(fake: &FakeDiscord, user: u64, needle: &str) -> Msg {
    let n = needle.to_string();
    dm_where(
        fake,
        user,
        &format!("a DM to {user} containing {needle:?}"),
        move |m| m.text().contains(&n),
    )
    .await
}

/// Waits for the first DM to `user` posted after the message `after` (the
/// bot's answer to what the user just wrote).
pub async fn dm_after(fake: &FakeDiscord, user: u64, after: u64, what: &str) -> Msg {
    fake.wait_for(what, move |s| {
        s.dms(user).into_iter().find(|m| m.id > after).cloned()
    })
    .await
}

/// How many messages visible in channel `ch` contain `needle` now (no wait:
/// use it after waiting for the last message that matters).
pub fn count_in_channel(fake: &FakeDiscord, ch: u64, needle: &str) -> usize {
    fake.state()
        .channel(ch)
        .iter()
        .filter(|m| m.text().contains(needle))
        .count()
}

/// How many DMs to `user` contain `needle` now (no wait).
pub fn count_in_dms(fake: &FakeDiscord, user: u64, needle: &str) -> usize {
    fake.state()
        .dms(user)
        .iter()
        .filter(|m| m.text().contains(needle))
        .count()
}
