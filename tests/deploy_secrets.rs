//! The service files give each container only the secrets it needs: the
//! PostgreSQL container of `compose.yaml` reads its own env file, never the
//! bot's (which holds the Discord token).

/// The lines of one top-level service of `compose.yaml`, by its name.
fn service_block<'a>(compose: &'a str, name: &str) -> Vec<&'a str> {
    let header = format!("  {name}:");
    compose
        .lines()
        .skip_while(|l| *l != header)
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with("    "))
        .collect()
}

#[test]
fn the_database_container_never_reads_the_bots_env_file() {
    let compose = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/compose.yaml"))
        .expect("compose.yaml in the repository");
    let postgres = service_block(&compose, "postgres");
    assert!(!postgres.is_empty(), "compose.yaml has a postgres service");
    assert!(
        postgres
            .iter()
            .any(|l| l.trim() == "env_file: deploy/postgres.env"),
        "the postgres service reads deploy/postgres.env: {postgres:#?}"
    );
    assert!(
        !postgres.iter().any(|l| l.contains("gamehost.env")),
        "the postgres service must not read the bot's env file: {postgres:#?}"
    );
    let gamehost = service_block(&compose, "gamehost");
    assert!(
        gamehost
            .iter()
            .any(|l| l.trim() == "env_file: deploy/gamehost.env"),
        "the bot reads deploy/gamehost.env: {gamehost:#?}"
    );
}

#[test]
fn each_env_example_names_only_its_own_secrets() {
    let read = |f: &str| {
        std::fs::read_to_string(format!("{}/deploy/{f}", env!("CARGO_MANIFEST_DIR")))
            .expect("the env examples in deploy/")
    };
    let settings = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.trim_start_matches('#').trim())
            .filter_map(|l| l.split_once('=').map(|(k, _)| k.to_string()))
            .filter(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
            .collect()
    };
    assert_eq!(
        settings(&read("postgres.env.example")),
        ["POSTGRES_PASSWORD"]
    );
    let bot = settings(&read("gamehost.env.example"));
    assert!(bot.contains(&"DISCORD_TOKEN".to_string()), "{bot:?}");
    assert!(!bot.contains(&"POSTGRES_PASSWORD".to_string()), "{bot:?}");
}
