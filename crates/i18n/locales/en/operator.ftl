# What an operator reads first: the errors a newcomer hits (no token, a
# config problem, a database refused). Logs stay English. A message that
# another one's text may follow (after ": ") ends without a full stop.

## No token

operator-no-token = no Discord token: set the DISCORD_TOKEN environment variable or `[discord] token` in the config file. To play without Discord, try `gamehost play cards --vs ai`.

## The config: where the bad value is

operator-config-missing = config file { $path } not found (copy config.example.toml there, or leave out --config)
operator-config-invalid = config { $source }: { $problem }
operator-config-environment = { $setting }: { $problem }
operator-config-key = key `{ $key }`: { $problem }
operator-toml-syntax = TOML syntax error at { $what }
operator-toml-syntax-at = TOML syntax error at line { $line }, column { $column }: { $what }

## The config: what was wrong and what would be right

operator-expected = expected { $expected }
operator-expected-got = expected { $expected }, got { $actual }
operator-words-whole-number = a whole number
operator-words-milliseconds = a whole number of milliseconds
operator-words-seconds = a whole number of seconds
operator-words-percent = a whole number from 0 to 100
operator-words-boolean = true or false
operator-words-text = text in quotes
# Another's words as they are (toml's, figment's, the system's).
operator-as-said = { $text }
operator-words-other = { $words }
operator-actual-string = string { $value }
operator-actual-unsigned = unsigned int `{ $value }`
operator-actual-signed = signed int `{ $value }`
operator-actual-float = float `{ $value }`
operator-actual-bool = bool { $value }
operator-actual-sequence = sequence
operator-actual-map = map
operator-not-a-section = `{ $field }` is not a section; the sections are { $known }
operator-not-a-setting = `{ $field }` is not a setting of [{ $section }]; its settings are { $known }
operator-token-not-valid = is not valid; expected the bot token as text in quotes
operator-env-not-a-section = `{ $section }` is not a config section; variables are named GAMEHOST_<SECTION>_<KEY> with a section of { $sections }
operator-not-a-timeout-policy = `{ $value }` is not a timeout policy; expected one of default, ai, forfeit
operator-expected-percent = expected a number from 0 to 100
operator-expected-postgres-url = expected a PostgreSQL URL such as postgres://gamehost:password@localhost:5432/gamehost
operator-expected-request-pace = expected 0 (the default, { $default }) or a number from 1 to { $max }: Discord allows a bot 50 requests a second, and the bot keeps a margin
operator-not-a-span = `{ $value }` is not a span of time; expected a whole number with s, m, h or d, such as "6h" ("0": off)
operator-log-expected = expected error, warn, info, debug, trace or off, optionally per module, e.g. "gamehost=debug,serenity=warn"
operator-log-empty = the log level is empty; { $expected }
operator-log-no-level = `{ $directive }` names no log level; { $expected }
operator-log-not-a-filter = `{ $filter }` is not a log filter ({ $reason }); { $expected }
operator-not-an-address = `{ $value }` is not an address and port; expected e.g. "127.0.0.1:9091"

## A file the operator names (the config file itself)

operator-file-unreadable = cannot read it: { $reason }
operator-file-not-regular = is { $kind }, not a regular file; give the path of the file itself
operator-file-too-large = is larger than { $limit } bytes; is it the right file?
operator-file-not-text = is not UTF-8 text; is it the right file?
operator-file-kind-fifo = a FIFO
operator-file-kind-device = a device
operator-file-kind-socket = a socket
operator-file-kind-directory = a directory
operator-file-kind-other = not a regular file
# What the system said (English shows the system's own words).
operator-io-not-found = No such file or directory
operator-io-permission-denied = Permission denied
operator-io-is-a-directory = Is a directory
operator-io-read-only = Read-only file system

## The database refused

operator-db-cannot-open = cannot open the database { $location }
operator-backup-cannot-open = cannot open the backup { $location }
operator-file-cannot-open = cannot open { $path }
operator-file-cannot-lock = cannot lock { $path }
operator-db-empty-file = the database { $path } is an empty file, not a gamehost database; restore a backup there, or delete it to start with a new database
operator-db-locked = { $doing } refused: another gamehost process is running on { $path }; one process per SQLite file (several processes share a PostgreSQL database)
operator-db-unreadable = cannot read the database { $path } (not a SQLite database, or damaged)
operator-db-too-new-to-check = the database { $path } has schema version { $found }, newer than the { $known } this gamehost knows; upgrade gamehost to check it
operator-db-has-problems = the database { $location } has { $count } problem(s) (listed above; `gamehost check` lists them too); not starting. Restore a backup (`gamehost backup` makes them) or repair the games named.
operator-store-too-new = the database { $path } has schema version { $found }, newer than the { $known } this gamehost knows; upgrade gamehost or use another database
operator-store-not-found = no database at { $path }
operator-store-version-in-use = the database is in use by gamehost { $theirs } (process `{ $instance }`, alive { $age } s ago); this is gamehost { $ours }. Stop every process of the other version first (or wait { $live } s after one was killed)
operator-store-sqlite = database error: { $reason }
operator-store-postgres = PostgreSQL error: { $reason }
operator-store-migration = could not apply the database schema: { $reason }
# What SQLite said (English shows SQLite's own words).
operator-sqlite-cannot-open = unable to open database file
operator-sqlite-not-a-database = file is not a database
operator-sqlite-read-only = attempt to write a readonly database
operator-sqlite-busy = database is locked
operator-sqlite-corrupt = database disk image is malformed
operator-sqlite-full = database or disk is full
