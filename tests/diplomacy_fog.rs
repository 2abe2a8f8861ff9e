//! Fog of War behind the host (issue 36): seven players whose orders come
//! from the AI playing each power's own view, and a spectator, through a
//! seeded game to its end. Every text the host addresses to a power (its
//! prompts, reminders, receipts, results, its view, `/rules`) names no unit
//! the power cannot see, and nothing addressed to the channel or a
//! spectator names any unit while the game runs. History and replay open
//! at the end.

#[path = "support/host_builder.rs"]
mod host_builder;

use games::diplomacy::Diplomacy;
use games::diplomacy::game::{PhaseDetail, order_provinces};
use games::diplomacy::geo::{Map, Power};
use games::diplomacy::order::{Order, OrderKind, loc_name, unit_name};
use games::seam::{AiBudget, Game};
use host::{AnnouncementKind, GameId, Host, ManualClock, Target};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Player `u{seat}` plays seat `seat`.
fn user(seat: usize) -> String {
    format!("u{seat}")
}

fn engine(host: &Host, id: GameId) -> Diplomacy {
    let turn = host.game(id).unwrap().turn;
    serde_json::from_str(&host.state_at(id, turn).unwrap().state_json()).unwrap()
}

/// Every unit a player could name (`A Mun`, `F Spa/sc`), as the map spells them.
fn unit_forms(m: &Map) -> Vec<String> {
    (0..m.location_count() as u8)
        .flat_map(|l| ["A", "F"].map(|k| format!("{k} {}", loc_name(m, l))))
        .collect()
}

/// The units named in `text` as whole words, outside the rulebook's fixed
/// text (its examples name units such as `A Mun S A Ber` in any game).
fn units_named(text: &str, forms: &[String], rulebook: &[String]) -> BTreeSet<String> {
    let mut text = text.to_string();
    for fixed in rulebook {
        text = text.replace(fixed.as_str(), "");
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '/');
    forms
        .iter()
        .filter(|f| {
            text.match_indices(f.as_str()).any(|(i, _)| {
                !word(text[..i].chars().next_back()) && !word(text[i + f.len()..].chars().next())
            })
        })
        .cloned()
        .collect()
}

/// The units `power` cannot see now, as named.
fn hidden(g: &Diplomacy, power: Option<Power>) -> BTreeSet<String> {
    let m = Map::standard();
    let seen = power.map_or(0, |p| g.visible_provinces(p));
    g.units()
        .iter()
        .filter(|u| seen & 1u128 << m.prov_of(u.loc) == 0)
        .map(|u| unit_name(m, u))
        .collect()
}

/// What each text may not name: by user, the units that user's power does
/// not see; for the channel, every unit.
struct Secrets {
    by_user: BTreeMap<String, BTreeSet<String>>,
    channel: BTreeSet<String>,
}

impl Secrets {
    fn now(g: &Diplomacy) -> Secrets {
        Secrets {
            by_user: (0..7)
                .map(|s| (user(s), hidden(g, g.power_of_seat(s))))
                .collect(),
            channel: hidden(g, None),
        }
    }
}

/// Checks every undelivered announcement against `secrets`, except a
/// turn's private results, which are checked against `results` (what each
/// power may learn from a phase); marks them delivered.
fn check_outbox(
    host: &Host,
    secrets: &Secrets,
    results: Option<&Secrets>,
    forms: &[String],
    rulebook: &[String],
    seen: &mut usize,
) {
    for item in host.unsent(10_000).unwrap() {
        let a = item.announcement.unwrap();
        let text = format!("{}\n{}", a.text, a.board.clone().unwrap_or_default());
        let choices: Vec<String> = a.choices.iter().map(|c| c.text.clone()).collect();
        let text = format!("{text}\n{}", choices.join("\n"));
        if a.kind == AnnouncementKind::Finished {
            // The fog has lifted.
            host.mark_sent(item.id).unwrap();
            continue;
        }
        let secret = match &item.target {
            Target::Channel(_) => &secrets.channel,
            Target::User(u) => match (a.kind, results) {
                (AnnouncementKind::Private, Some(r)) => &r.by_user[u],
                _ => &secrets.by_user[u],
            },
        };
        let leaked: Vec<_> = units_named(&text, forms, rulebook)
            .intersection(secret)
            .cloned()
            .collect();
        assert!(
            leaked.is_empty(),
            "{:?} {:?} at turn {} names {leaked:?}:\n{text}",
            item.target,
            a.kind,
            a.turn
        );
        *seen += 1;
        host.mark_sent(item.id).unwrap();
    }
}

/// What each power may not learn from the phase just resolved: the units
/// it did not see before it, except those whose own move or retreat
/// touched a province it saw (it saw them come). A hidden unit's support
/// or convoy into a seen province is shown without its place.
fn result_secrets(before: &Diplomacy, detail: &PhaseDetail) -> Secrets {
    let m = Map::standard();
    let by_user = (0..7)
        .map(|s| {
            let p = before.power_of_seat(s).unwrap();
            let sight = before.visible_provinces(p);
            let secret = before
                .units()
                .iter()
                .filter(|u| sight & 1u128 << m.prov_of(u.loc) == 0)
                .filter(|u| {
                    !detail.orders.iter().any(|a| {
                        a.order.at() == Some(u.loc)
                            && moves(&a.order)
                            && order_provinces(Map::standard(), &a.order) & sight != 0
                    })
                })
                .map(|u| unit_name(m, u))
                .collect();
            (user(s), secret)
        })
        .collect();
    Secrets {
        by_user,
        channel: hidden(before, None),
    }
}

/// Whether an order moves its unit (a move or a retreat).
fn moves(o: &Order) -> bool {
    matches!(
        o,
        Order::Unit {
            kind: OrderKind::Move { .. } | OrderKind::Retreat { .. },
            ..
        }
    )
}

/// Issue 46: a hidden army in Vienna supports Italy's move into Tyrolia,
/// which Germany sees. Germany's results say a unit it cannot see supported
/// a move into Tyrolia, and name neither Vienna nor Venice's army (its move
/// is shown: Germany saw it come).
#[test]
fn a_support_into_a_seen_province_names_no_hidden_unit() {
    let mut g = Diplomacy::new_game(
        serde_json::from_value(serde_json::json!({"variant": "fog"})).unwrap(),
        3,
    )
    .unwrap();
    let m = Map::standard();
    let seat = |name: &str| g.seat_of(m.parse_power(name).unwrap()).unwrap();
    let (austria, italy, germany) = (seat("Austria"), seat("Italy"), seat("Germany"));
    let mut actions = BTreeMap::new();
    for s in g.awaiting() {
        actions.insert(s, g.parse_action(s, "done").unwrap());
    }
    for (s, text) in [
        (
            austria,
            "A Vie S A Ven - Tyr\nA Bud - Ser\nF Tri - Alb\ndone",
        ),
        (italy, "A Ven - Tyr\ndone"),
        (germany, "A Mun - Ruh\ndone"),
    ] {
        actions.insert(s, g.parse_action(s, text).unwrap());
    }
    let report = g.resolve(actions);
    let germany_saw = &report.private[&germany];
    assert!(
        germany_saw.contains("A unit you cannot see supports a move into Tyr"),
        "{germany_saw}"
    );
    assert!(germany_saw.contains("A Ven - Tyr"), "{germany_saw}");
    assert!(!germany_saw.contains("A Vie"), "{germany_saw}");
    assert!(!germany_saw.contains("Bud"), "{germany_saw}");
    // Italy sees its own army and Tyrolia, not Vienna.
    let italy_saw = &report.private[&italy];
    assert!(
        italy_saw.contains("A unit you cannot see supports A Ven - Tyr"),
        "{italy_saw}"
    );
    assert!(!italy_saw.contains("A Vie"), "{italy_saw}");
    // Austria reads its own orders whole.
    assert!(report.private[&austria].contains("A Vie S A Ven - Tyr"));
}

#[test]
fn seven_fogged_players_and_a_spectator_never_read_a_unit_they_cannot_see() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::at(1_000_000));
    // Reminders at half the phase, so every phase sends some.
    let host = host_builder::diplomacy_host(
        &dir.path().join("fog.db"),
        clock.clone(),
        host_builder::settings(0, 50),
    );
    let options = serde_json::json!({"variant": "fog", "end_year": 1905});
    let id = host
        .create_game(host_builder::diplomacy_request(options, 36, true))
        .unwrap();
    for s in 1..7 {
        host.join(id, &user(s), &format!("Player {s}"), Some(s))
            .unwrap();
    }
    host.start(id, "u0").unwrap();
    let m = Map::standard();
    let forms = unit_forms(m);
    let plain = Diplomacy::new_game(Default::default(), 0).unwrap();
    // The rules' fixed text (without the list of setups, which only the
    // kind's rules carry) names example units, none of them a secret.
    let rulebook: Vec<String> = [
        plain
            .rules(None)
            .split("**Setups**")
            .next()
            .unwrap_or_default()
            .to_string(),
        "`A Par - Bur`".into(),
        "`F Lon S F Nth - Eng`".into(),
        "`F Nth C A Lon - Nwy`".into(),
    ]
    .to_vec();
    let mut checked = 0;
    let mut phases = 0;
    loop {
        let g = engine(&host, id);
        if g.outcome().is_some() {
            break;
        }
        assert!(g.fog_hides());
        let secrets = Secrets::now(&g);
        // What the turn began with (prompts; the start or last results
        // were checked with the phase before).
        check_outbox(&host, &secrets, None, &forms, &rulebook, &mut checked);
        // The views, rules and a reminder of each player, and the spectator's.
        for s in 0..7 {
            let v = host.view(id, Some(&user(s))).unwrap();
            let view = v.view.unwrap();
            let mut text = format!("{}\n{}", view.board, view.status);
            for c in &view.choices {
                text.push_str(&format!("\n{}", c.text));
            }
            text.push_str(&host.rules("diplomacy", Some(id), Some(&user(s))).unwrap());
            let leaked: Vec<_> = units_named(&text, &forms, &rulebook)
                .intersection(&secrets.by_user[&user(s)])
                .cloned()
                .collect();
            assert!(
                leaked.is_empty(),
                "u{s} {}: {leaked:?} in\n{text}",
                g.phase_name()
            );
        }
        let spectator = host.view(id, None).unwrap().view.unwrap();
        let named = units_named(&spectator.board, &forms, &rulebook);
        assert!(named.is_empty(), "spectator sees {named:?}");
        assert!(
            host.check_replay_open(id).is_err(),
            "no replay while fogged"
        );
        let deadline = host.view(id, None).unwrap().deadline.unwrap();
        clock.advance((deadline - clock_now(&clock)) / 2 + 1);
        host.fire_due_deadlines().unwrap();
        check_outbox(&host, &secrets, None, &forms, &rulebook, &mut checked);
        // Each player sends the orders the AI gives from its view.
        let before = g.clone();
        let turn = host.game(id).unwrap().turn;
        for s in g.awaiting() {
            let a = g.ai_action(s, "dumbbot", AiBudget::iterations(1), 36 + s as u64);
            let mut lines: Vec<String> = a.orders.iter().map(|o| o.canonical(m)).collect();
            lines.push("done".into());
            let receipt = host.submit(Some(id), &user(s), &lines.join("\n")).unwrap();
            let leaked: Vec<_> = units_named(&receipt.recorded, &forms, &rulebook)
                .intersection(&secrets.by_user[&user(s)])
                .cloned()
                .collect();
            assert!(leaked.is_empty(), "receipt of u{s}: {leaked:?}");
        }
        assert_eq!(host.game(id).unwrap().turn, turn + 1, "the phase resolved");
        let (_, report) = host.turn_record(id, turn + 1).unwrap();
        let detail: PhaseDetail = serde_json::from_value(report.detail.unwrap()).unwrap();
        let results = result_secrets(&before, &detail);
        let after = engine(&host, id);
        // The next phase's prompts go by what the powers see now; the
        // results by what they saw of the phase.
        let secrets = if after.outcome().is_some() {
            Secrets {
                by_user: BTreeMap::new(),
                channel: BTreeSet::new(),
            }
        } else {
            Secrets::now(&after)
        };
        if after.outcome().is_none() {
            check_outbox(
                &host,
                &secrets,
                Some(&results),
                &forms,
                &rulebook,
                &mut checked,
            );
        }
        // The channel's history shows no unit while the game runs.
        if after.outcome().is_none() {
            for t in host.history(id, None, None).unwrap().turns {
                let named = units_named(&t.report, &forms, &rulebook);
                assert!(
                    named.is_empty(),
                    "history of turn {} names {named:?}",
                    t.turn
                );
            }
        }
        phases += 1;
    }
    assert!(phases >= 15, "only {phases} phases");
    assert!(checked > 7 * phases, "only {checked} announcements checked");
    // At the end the history shows every order, and the replay opens.
    host.check_replay_open(id).unwrap();
    let history = host.history(id, Some(1), None).unwrap();
    let first = &history.turns[0].report;
    assert!(
        first.contains("Orders (Fog of War, shown at the end)") && first.contains("A Par"),
        "{first}"
    );
}

fn clock_now(clock: &ManualClock) -> i64 {
    use host::Clock;
    clock.now_ms()
}
