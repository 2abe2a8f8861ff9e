# 運用者が最初に読む文：はじめての人がつまずくエラー（トークンがない、設定の誤り、
# データベースを開けない）。ログは英語のままです。後ろに別の文が「: 」でつながる
# ことのある文は、句点で終えません。

## トークンがない

operator-no-token = Discord のボットのトークンが設定されていません。環境変数 DISCORD_TOKEN か、設定ファイルの `[discord] token` に設定してください。Discord を使わずに遊ぶなら `gamehost play cards --vs ai` を試してください。

## 設定：誤りのある場所

operator-config-missing = 設定ファイル { $path } が見つかりません（config.example.toml をそこにコピーするか、--config を付けずに実行してください）
operator-config-invalid = 設定ファイル { $source }: { $problem }
operator-config-environment = 環境変数 { $setting }: { $problem }
operator-config-key = キー `{ $key }`: { $problem }
operator-toml-syntax = TOML の書き方に誤りがあります: { $what }
operator-toml-syntax-at = TOML の書き方に誤りがあります（{ $line } 行目、{ $column } 文字目）: { $what }

## 設定：何が誤りで、何が正しいか

operator-expected = { $expected }を指定してください
operator-expected-got = { $expected }を指定してください（指定された値: { $actual }）
operator-words-whole-number = 整数
operator-words-milliseconds = ミリ秒単位の整数
operator-words-seconds = 秒単位の整数
operator-words-percent = 0 から 100 までの整数
operator-words-boolean = true か false
operator-words-text = 引用符（"）で囲んだ文字列
# ほかのもの（toml、figment、システム）の言葉をそのまま。
operator-as-said = { $text }
operator-words-other = { $words } の値
operator-actual-string = 文字列 { $value }
operator-actual-unsigned = 整数 `{ $value }`
operator-actual-signed = 整数 `{ $value }`
operator-actual-float = 小数 `{ $value }`
operator-actual-bool = 真偽値 { $value }
operator-actual-sequence = 配列
operator-actual-map = テーブル
operator-not-a-section = `{ $field }` というセクションはありません。セクションは { $known } です
operator-not-a-setting = `{ $field }` は [{ $section }] の設定項目ではありません。[{ $section }] の設定項目は { $known } です
operator-token-not-valid = 正しくありません。ボットのトークンを引用符（"）で囲んだ文字列で指定してください
operator-env-not-a-section = `{ $section }` という設定のセクションはありません。環境変数の名前は GAMEHOST_<SECTION>_<KEY> の形で、<SECTION> は { $sections } のどれかです
operator-not-a-timeout-policy = `{ $value }` というタイムアウト時の扱いはありません。default、ai、forfeit のどれかを指定してください
operator-expected-percent = 0 から 100 までの数を指定してください
operator-expected-postgres-url = postgres://gamehost:password@localhost:5432/gamehost のような PostgreSQL の URL を指定してください
operator-expected-request-pace = 0（既定値の { $default }）か、1 から { $max } までの数を指定してください。Discord がボットに許すリクエストは毎秒 50 回までで、ボットは余裕を残します
operator-not-a-span = `{ $value }` は時間の長さとして読めません。"6h" のように、整数に s、m、h、d のどれかを付けて指定してください（"0" で無効になります）
operator-log-expected = error、warn、info、debug、trace、off のどれかを指定してください。"gamehost=debug,serenity=warn" のように、モジュールごとにも指定できます
operator-log-empty = ログレベルが空です。{ $expected }
operator-log-no-level = `{ $directive }` にはログレベルがありません。{ $expected }
operator-log-not-a-filter = `{ $filter }` はログのフィルターとして読めません（{ $reason }）。{ $expected }
operator-not-an-address = `{ $value }` はアドレスとポートとして読めません。"127.0.0.1:9091" のように指定してください

## 運用者が指定するファイル（設定ファイルそのもの）

operator-file-unreadable = 読み込めません: { $reason }
operator-file-not-regular = { $kind }で、通常のファイルではありません。ファイルそのもののパスを指定してください
operator-file-too-large = { $limit } バイトより大きいファイルです。正しいファイルか確かめてください
operator-file-not-text = UTF-8 のテキストではありません。正しいファイルか確かめてください
operator-file-kind-fifo = 名前付きパイプ（FIFO）
operator-file-kind-device = デバイス
operator-file-kind-socket = ソケット
operator-file-kind-directory = フォルダ
operator-file-kind-other = 特殊なファイル
# システムが返した理由（英語ではシステム自身の言葉を表示します）。
operator-io-not-found = ファイルまたはフォルダがありません
operator-io-permission-denied = アクセスする権限がありません
operator-io-is-a-directory = フォルダです
operator-io-read-only = 読み取り専用のファイルシステムです

## データベースを開けない

operator-db-cannot-open = データベース { $location } を開けません
operator-backup-cannot-open = バックアップ { $location } を開けません
operator-file-cannot-open = { $path } を開けません
operator-file-cannot-lock = { $path } をロックできません
operator-db-empty-file = データベース { $path } は空のファイルで、gamehost のデータベースではありません。そこにバックアップを復元するか、ファイルを削除して新しいデータベースで始めてください
operator-db-locked = { $doing ->
        [start] 起動
        [restore] 復元
       *[other] { $doing }
    }できません。別の gamehost のプロセスが { $path } で動いています。SQLite のファイル 1 つにつき、動かせるプロセスは 1 つです（複数のプロセスで 1 つのデータベースを使うには PostgreSQL を使ってください）
operator-db-unreadable = データベース { $path } を読み込めません（SQLite のデータベースではないか、壊れています）
operator-db-too-new-to-check = データベース { $path } のスキーマのバージョンは { $found } で、この gamehost が扱える { $known } より新しいです。確認するには gamehost を更新してください
operator-db-has-problems = データベース { $location } に問題が { $count } 件あります（上に一覧があります。`gamehost check` でも確認できます）。起動を中止しました。バックアップを復元するか（バックアップは `gamehost backup` で作れます）、挙げたゲームを修復してください。
operator-store-too-new = データベース { $path } は、この gamehost より新しい gamehost で書かれています（スキーマのバージョンが { $found } で、この gamehost が扱えるのは { $known } までです）。gamehost を更新するか、別のデータベースを使ってください
operator-store-not-found = { $path } にデータベースがありません
operator-store-version-in-use = このデータベースは gamehost { $theirs } が使っています（プロセス `{ $instance }`、{ $age } 秒前に応答あり）。こちらは gamehost { $ours } です。先にもう一方のバージョンのプロセスをすべて止めてください（強制終了した場合は { $live } 秒待ってください）
operator-store-sqlite = データベースのエラー: { $reason }
operator-store-postgres = PostgreSQL のエラー: { $reason }
operator-store-migration = データベースのスキーマを適用できません: { $reason }
# SQLite が返した理由（英語では SQLite 自身の言葉を表示します）。
operator-sqlite-cannot-open = データベースのファイルを開けません。フォルダがあるか、読み書きの権限があるか確かめてください
operator-sqlite-not-a-database = SQLite のデータベースファイルではありません
operator-sqlite-read-only = 読み取り専用のため書き込めません
operator-sqlite-busy = ほかのプロセスが使用中です
operator-sqlite-corrupt = データベースのファイルが壊れています
operator-sqlite-full = データベースかディスクがいっぱいです
