//! The URL that invites the bot to a server, with exactly the permissions
//! it uses, logged at start-up with the Application ID Discord gave.

use poise::serenity_prelude::Permissions;

/// What the bot does in a server: see the channel and its history (it
/// edits, and opens threads on, its own earlier messages), post in it
/// (messages with buttons and menus, images attached), open a public
/// thread on a game's lobby message and post there. It posts no embeds,
/// reacts to nothing, and never archives, renames or pins. The only
/// messages it deletes are its own (an old turn ping), which needs no
/// permission.
pub const INVITE_PERMISSIONS: Permissions = Permissions::VIEW_CHANNEL
    .union(Permissions::SEND_MESSAGES)
    .union(Permissions::ATTACH_FILES)
    .union(Permissions::READ_MESSAGE_HISTORY)
    .union(Permissions::CREATE_PUBLIC_THREADS)
    .union(Permissions::SEND_MESSAGES_IN_THREADS);

/// The invite URL of the application `application_id`: the bot with its
/// slash commands and [`INVITE_PERMISSIONS`].
pub fn invite_url(application_id: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={application_id}\
         &scope=bot+applications.commands&permissions={}",
        INVITE_PERMISSIONS.bits()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_invite_asks_for_the_six_permissions_the_bot_uses() {
        // View Channel 1<<10, Send Messages 1<<11, Attach Files 1<<15, Read
        // Message History 1<<16, Create Public Threads 1<<35, Send Messages
        // in Threads 1<<38 (Discord's documented bits).
        let bits: u64 = [10, 11, 15, 16, 35, 38].iter().map(|b| 1u64 << b).sum();
        assert_eq!(INVITE_PERMISSIONS.bits(), bits);
        assert_eq!(
            invite_url(42),
            format!(
                "https://discord.com/oauth2/authorize?client_id=42\
                 &scope=bot+applications.commands&permissions={bits}"
            )
        );
    }
}
