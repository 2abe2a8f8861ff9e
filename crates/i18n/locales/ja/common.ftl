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
error-apology = 申し訳ありません。こちら側で問題が起きました（記録済みです）。少し待ってからもう一度お試しください。
error-not-a-duration = `{ $typed }` は時間の長さとして読めません。`90s`、`10m`、`2h`、`1d`、または締め切りなしの `0` のように書いてください。
error-no-game-here = このチャンネルにはゲームがありません。`/game new` で始めてください。
error-no-game-here-moved =
    このチャンネル自体にはゲームがありません。ここで始まったゲームはそれぞれのスレッドで進んでいます。ゲームのコマンドはそのスレッドで入力してください：
    { $games }
    ここで別のゲームを始めるには `/game new` を使ってください。
error-no-game-here-more = • ほかにもあります：`/game list` ですべて表示できます
error-nothing-played-here = このチャンネルではまだゲームが遊ばれていません。`/game new` で始めるか、ゲームの番号を指定してください（`/game list`）。
error-min-reliability = `min_reliability` は0〜100のパーセントで指定してください（{ $given } は範囲外です）。
error-settings-outside-server = 設定はサーバーごとのものです。サーバーの中で `/settings` を使ってください。
error-settings-not-allowed = { $what }ことができるのは、サーバー管理権限（または管理者権限）を持つメンバーと、サーバーのゲームマスターのロールを持つメンバーだけです。`/settings show` で誰でも設定を確認できます。
settings-what-channels = ゲームを作れるチャンネルを選ぶ
settings-what-defaults = 既定値を変える
settings-what-daily = 毎日の締め切りを設定する
settings-what-language = サーバーの言語を選ぶ
error-no-game-here-line = • { $label }（{ $channel }）
