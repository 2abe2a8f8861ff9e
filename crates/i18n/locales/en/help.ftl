# /help, by where it is asked, and the greeting posted when the bot joins
# a server.

help-channel =
    {"**"}gamehost** runs games here: { $kinds }.
    {"**"}Start one:** `/game new` with the kind opens a lobby in this channel; others press **Join**, `/game ai` adds an AI seat, **Start** when the seats are taken. The game is then played in a thread of its own.
    {"**"}Learn a game:** `/rules` with the game's name.
    {"**"}More:** `/game list` (games running), `/game leaderboard`, `/game profile`, `/game history`. `/privacy show` says what the bot stores about you. `/language` chooses the language the bot speaks to you.
    {"**"}Server admins:** `/settings` chooses the channels for games, a game-master role, default deadlines, a daily Diplomacy deadline and the server's language; `/settings show` shows them.
help-lobby =
    {"**"}{ $label }** waits in its lobby here. Press **Join** on the lobby message (or `/game join`); `/game leave` leaves it; `/game ai` adds an AI seat; **Start** (or `/game start`) once the seats are taken.
    `/rules { $kind }` explains the game.
help-playing =
    {"**"}You play in { $label }.** { $how }{ $press ->
        [yes] { " " }`/press` writes to the other players.
       *[no] {""}
    }
    `/game status` shows whose move it is, `/game extend` asks for more time, `/game away` says you are away, `/game forfeit` gives up.
    `/rules { $kind }` shows the rules{ $fitted ->
        [yes] { " " }with examples for your own units
       *[no] {""}
    }.
help-watching =
    {"**"}{ $label }** is played here. `/game watch` follows it, `/game status` shows it; after it ends `/game replay` replays it.
    `/rules { $kind }` explains the game; `/game new` in a channel without a game starts another.
help-move-orders-by-line = Write your orders to me by DM, one per line (`A Par - Bur`), or use the menus of my DM prompt; `/orders` lists them; send `done` when finished.
help-move-in-channel = Make your move with the buttons of the prompt in the game's thread.
help-move-by-dm = Your moves are hidden: make them with the buttons of my DM prompt (or `/move`).
help-dm =
    {"**"}In this DM** you make hidden moves: Diplomacy orders (one per line, `done` when finished; `/orders` lists them) and battle moves with the buttons of my prompts. { $games ->
        [none] You play in no running game.
       *[some] Your running games: { $list }.
    }
    `/rules` with a game's name shows its rules. Games are created in a server channel with `/game new`. `/privacy show` says what the bot stores about you; `/privacy delete` deletes it. `/language` chooses the language I write to you in.
greeting = Hello! I host games here: { $kinds }. To start one, type `/game new` in a channel and pick a game; others join with the lobby's **Join** button, or add an AI with `/game ai`. `/rules` explains a game, `/help` says what you can do where you are.
