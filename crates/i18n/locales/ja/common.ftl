# ボットのどの部分でも使う言葉。

kind-diplomacy = ディプロマシー
kind-battle = モンスターバトル
kind-cards = インビジブル
kind-puzzle = パズル対戦
language-set-personal = これからは日本語でお送りします。
language-set-server = このサーバーのチャンネルとスレッドは、これから日本語で表示します。
language-now-personal = { $lang }でお送りしています{ $chosen ->
        [yes] （あなたが選んだ言語です）。
       *[no] （Discordの言語設定から判断しています）。
    }`/language` で言語を変えられます。
