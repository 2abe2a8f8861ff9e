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
