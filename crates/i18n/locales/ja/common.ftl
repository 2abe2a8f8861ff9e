# ボットのどの部分でも使う言葉。

kind-diplomacy = ディプロマシー
kind-battle = モンスターバトル
kind-cards = インビジブル
kind-puzzle = パズル対戦
language-set-personal = これからは日本語でお送りします。
language-set-server = このサーバーのチャンネルとスレッドは、これから{ $lang }で表示します。
language-now-personal = { $lang }でお送りしています{ $chosen ->
        [yes] （あなたが選んだ言語です）。
       *[no] （Discordの言語設定から判断しています）。
    }`/language` で言語を変えられます。
language-auto-personal = これからはDiscordの言語設定（{ $lang }）に合わせてお送りします。
language-auto-server = このサーバーのチャンネルとスレッドは、これからサーバーの言語設定（{ $lang }）に合わせて表示します。
