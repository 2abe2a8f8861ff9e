# Words every part of the bot uses.

kind-diplomacy = Diplomacy
kind-battle = monster battle
kind-cards = Invisible
kind-puzzle = puzzle duel
language-set-personal = I will write to you in English from now on.
language-set-server = This server's channels and threads now read in { $lang }.
language-now-personal = I write to you in { $lang }{ $chosen ->
        [yes] , as you chose.
       *[no] , from your Discord client's language.
    } `/language` with a language changes it.
language-auto-personal = I will write to you in your Discord client's language ({ $lang }) from now on.
language-auto-server = This server's channels and threads now follow the server's own language ({ $lang }).
error-apology = Sorry, something went wrong on my side; it has been logged. Please try again in a moment.
error-not-a-duration = `{ $typed }` is not a duration; try `90s`, `10m`, `2h`, `1d` or `0` for none.
error-no-game-here = There is no game in this channel. Start one with `/game new`.
error-no-game-here-moved =
    There is no game in this channel itself. Games started here are played in their threads; type a game's commands in its thread:
    { $games }
    Start another here with `/game new`.
error-no-game-here-more = • and more: `/game list` shows them all
error-nothing-played-here = No game has been played in this channel. Start one with `/game new`, or give a game id (`/game list`).
error-min-reliability = `min_reliability` is a percentage from 0 to 100, not { $given }.
error-settings-outside-server = Settings belong to a server; use `/settings` in one.
error-settings-not-allowed = Only members with Manage Server (or Administrator) or the server's game-master role may { $what }. `/settings show` shows the settings to everyone.
settings-what-channels = choose where games are created
settings-what-defaults = change the defaults
settings-what-daily = set the daily deadline
settings-what-language = choose the server's language
error-no-game-here-line = • { $label } in { $channel }
