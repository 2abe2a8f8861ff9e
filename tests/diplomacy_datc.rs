//! Runs every DATC v3.0 case of `tests/data/datc.jsonl` (provenance in
//! `tests/data/DATC.md`) through the adjudicator, one `#[test]` per case
//! named after it, and checks every stated result, the final units and the
//! dislodgements (and, for retreat cases, the preceding movement phase first).
//!
//! The data is embedded with `include_str!`, so the suite needs nothing
//! outside the repository. `every_case_has_one_test` keeps the list of tests
//! below and the data file naming the same cases.

use games::diplomacy::geo::Map;
use games::diplomacy::record::{RecDislodged, RecOutput, RecUnit, Record, adjudicate_record};
use serde_json::Value;

/// The DATC v3.0 cases, one JSON object a line.
const DATC_JSONL: &str = include_str!("data/datc.jsonl");

fn units(v: &Value) -> Vec<RecUnit> {
    let mut u: Vec<RecUnit> = serde_json::from_value(v.clone()).expect("units");
    u.sort();
    u
}

fn dislodged(v: &Value) -> Vec<RecDislodged> {
    let mut d: Vec<RecDislodged> = serde_json::from_value(v.clone()).expect("dislodged");
    d.sort();
    d
}

/// The adjudicator's dislodgements sorted, without `by_convoy` (the DATC
/// records do not state whether the attacker came by convoy).
fn plain(d: &[RecDislodged]) -> Vec<RecDislodged> {
    let mut d: Vec<RecDislodged> = d
        .iter()
        .cloned()
        .map(|mut x| {
            x.by_convoy = false;
            x
        })
        .collect();
    d.sort();
    d
}

/// Compares stated results; returns the differences.
fn check_results(expected: &Value, got: &RecOutput, what: &str, diffs: &mut Vec<String>) {
    let Some(exp) = expected.as_array() else {
        return;
    };
    if exp.len() != got.results.len() {
        diffs.push(format!(
            "{what}: {} results expected, {} given",
            exp.len(),
            got.results.len()
        ));
        return;
    }
    for (e, g) in exp.iter().zip(&got.results) {
        if let Some(r) = e["result"].as_str()
            && r != g.result
        {
            diffs.push(format!(
                "{what}: `{}` expected {r}, got {} ({})",
                g.text,
                g.result,
                g.reason.clone().unwrap_or_default()
            ));
        }
    }
}

fn check_case(map: &Map, line: &str) -> (String, Vec<String>) {
    let v: Value = serde_json::from_str(line).expect("json");
    let id = v["id"].as_str().unwrap_or("?").to_string();
    let rec: Record = serde_json::from_value(v.clone()).expect("record");
    let out = match adjudicate_record(map, &rec) {
        Ok(o) => o,
        Err(e) => return (id, vec![format!("error: {e}")]),
    };
    let mut diffs = Vec::new();
    let exp = &v["expected"];
    check_results(&exp["results"], &out, "results", &mut diffs);
    if !exp["final_units"].is_null() {
        let want = units(&exp["final_units"]);
        if want != out.final_units {
            diffs.push(format!(
                "final units: expected {want:?}, got {:?}",
                out.final_units
            ));
        }
    }
    match rec.phase.as_str() {
        "movement" => {
            let want = dislodged(&exp["dislodged"]);
            let got = plain(&out.dislodged);
            if want != got {
                diffs.push(format!("dislodged: expected {want:?}, got {got:?}"));
            }
        }
        "retreat" => {
            if let Some(pre) = &out.preceding_movement {
                check_results(
                    &v["preceding_movement"]["expected"]["results"],
                    pre,
                    "preceding movement",
                    &mut diffs,
                );
                let want = dislodged(&v["dislodged"]);
                let got = plain(&pre.dislodged);
                if want != got {
                    diffs.push(format!(
                        "preceding dislodged: expected {want:?}, got {got:?}"
                    ));
                }
            }
            if !exp["disbanded"].is_null() {
                let want = units(&exp["disbanded"]);
                if want != out.disbanded {
                    diffs.push(format!(
                        "disbanded: expected {want:?}, got {:?}",
                        out.disbanded
                    ));
                }
            }
        }
        "adjustment" => {
            // The DATC list of civil-disorder removals may be partial: each listed unit must be removed.
            for u in units(&exp["civil_disorder_disbands"]) {
                if !out.civil_disorder_disbands.contains(&u) {
                    diffs.push(format!(
                        "civil disorder: expected {u:?} removed, got {:?}",
                        out.civil_disorder_disbands
                    ));
                }
            }
        }
        _ => diffs.push("unknown phase".into()),
    }
    (id, diffs)
}

/// The line of `DATC_JSONL` whose `id` is `id`.
fn case_line(id: &str) -> &'static str {
    DATC_JSONL
        .lines()
        .find(|l| {
            serde_json::from_str::<Value>(l)
                .map(|v| v["id"] == id)
                .unwrap_or(false)
        })
        .unwrap_or_else(|| panic!("DATC case {id} is not in tests/data/datc.jsonl"))
}

/// Adjudicates one case and fails the test with every difference found.
fn run_case(id: &str) {
    let (got_id, diffs) = check_case(Map::standard(), case_line(id));
    assert_eq!(got_id, id);
    assert!(
        diffs.is_empty(),
        "DATC {id} fails:\n    {}",
        diffs.join("\n    ")
    );
}

/// The test name of a case: `t`, the id's digits and section letter, the
/// case number in two digits, then the title in snake case.
fn test_name(v: &Value) -> String {
    let id = v["id"].as_str().expect("id");
    let parts: Vec<&str> = id.split('.').collect();
    assert_eq!(parts.len(), 3, "DATC id {id}");
    let number: u32 = parts[2].parse().expect("case number");
    let mut slug = String::new();
    for c in v["title"].as_str().expect("title").chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('_') {
            slug.push('_');
        }
    }
    let slug = slug.trim_end_matches('_');
    format!(
        "t{}{}{number:02}_{slug}",
        parts[0],
        parts[1].to_ascii_lowercase()
    )
}

macro_rules! datc_cases {
    ($($name:ident => $id:literal,)*) => {
        $(
            #[test]
            fn $name() {
                run_case($id);
            }
        )*

        /// Every `(test name, case id)` pair declared above.
        const DECLARED: &[(&str, &str)] = &[$((stringify!($name), $id),)*];
    };
}

#[test]
fn every_case_has_one_test() {
    let mut in_data = Vec::new();
    for line in DATC_JSONL.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).expect("json");
        in_data.push((test_name(&v), v["id"].as_str().expect("id").to_string()));
    }
    let declared: Vec<(String, String)> = DECLARED
        .iter()
        .map(|(n, i)| (n.to_string(), i.to_string()))
        .collect();
    assert_eq!(in_data.len(), 164, "datc.jsonl should hold 164 cases");
    assert_eq!(
        declared, in_data,
        "the tests in this file and the cases of datc.jsonl differ"
    );
}

datc_cases! {
    t6a01_moving_to_an_area_that_is_not_a_neighbour => "6.A.1",
    t6a02_move_army_to_sea => "6.A.2",
    t6a03_move_fleet_to_land => "6.A.3",
    t6a04_move_to_own_sector => "6.A.4",
    t6a05_move_to_own_sector_with_convoy => "6.A.5",
    t6a06_ordering_a_unit_of_another_country => "6.A.6",
    t6a07_only_armies_can_be_convoyed => "6.A.7",
    t6a08_support_to_hold_yourself_is_not_possible => "6.A.8",
    t6a09_fleets_must_follow_coast_if_not_on_sea => "6.A.9",
    t6a10_support_on_unreachable_destination_not_possible => "6.A.10",
    t6a11_simple_bounce => "6.A.11",
    t6a12_bounce_of_three_units => "6.A.12",
    t6b01_moving_with_unspecified_coast_when_coast_is_necessary => "6.B.1",
    t6b02_moving_with_unspecified_coast_when_coast_is_not_necessary => "6.B.2",
    t6b03_moving_with_wrong_coast_when_coast_is_not_necessary => "6.B.3",
    t6b04_support_to_unreachable_coast_allowed => "6.B.4",
    t6b05_support_from_unreachable_coast_not_allowed => "6.B.5",
    t6b06_support_can_be_cut_with_other_coast => "6.B.6",
    t6b07_supporting_own_unit_with_unspecified_coast => "6.B.7",
    t6b08_supporting_with_unspecified_coast_when_only_one_coast_is_possible => "6.B.8",
    t6b09_supporting_with_wrong_coast => "6.B.9",
    t6b10_unit_ordered_with_wrong_coast => "6.B.10",
    t6b11_coast_cannot_be_ordered_to_change => "6.B.11",
    t6b12_army_movement_with_coastal_specification => "6.B.12",
    t6b13_coastal_crawl_not_allowed => "6.B.13",
    t6b14_building_with_unspecified_coast => "6.B.14",
    t6b15_supporting_foreign_unit_with_unspecified_coast => "6.B.15",
    t6c01_three_army_circular_movement => "6.C.1",
    t6c02_three_army_circular_movement_with_support => "6.C.2",
    t6c03_a_disrupted_three_army_circular_movement => "6.C.3",
    t6c04_a_circular_movement_with_attacked_convoy => "6.C.4",
    t6c05_a_disrupted_circular_movement_due_to_dislodged_convoy => "6.C.5",
    t6c06_two_armies_with_two_convoys => "6.C.6",
    t6c07_disrupted_unit_swap => "6.C.7",
    t6c08_no_self_dislodgement_in_disrupted_circular_movement => "6.C.8",
    t6c09_no_help_in_dislodgement_of_own_unit_in_disrupted_circular_movement => "6.C.9",
    t6d01_supported_hold_can_prevent_dislodgement => "6.D.1",
    t6d02_a_move_cuts_support_on_hold => "6.D.2",
    t6d03_a_move_cuts_support_on_move => "6.D.3",
    t6d04_support_to_hold_on_unit_supporting_a_hold_allowed => "6.D.4",
    t6d05_support_to_hold_on_unit_supporting_a_move_allowed => "6.D.5",
    t6d06_support_to_hold_on_convoying_unit_allowed => "6.D.6",
    t6d07_support_to_hold_on_moving_unit_not_allowed => "6.D.7",
    t6d08_failed_convoy_cannot_receive_hold_support => "6.D.8",
    t6d09_support_to_move_on_holding_unit_not_allowed => "6.D.9",
    t6d10_self_dislodgment_prohibited => "6.D.10",
    t6d11_no_self_dislodgment_of_returning_unit => "6.D.11",
    t6d12_supporting_a_foreign_unit_to_dislodge_own_unit_prohibited => "6.D.12",
    t6d13_supporting_a_foreign_unit_to_dislodge_a_returning_own_unit_prohibited => "6.D.13",
    t6d14_supporting_a_foreign_unit_is_not_enough_to_prevent_dislodgement => "6.D.14",
    t6d15_defender_cannot_cut_support_for_attack_on_itself => "6.D.15",
    t6d16_convoying_a_unit_dislodging_a_unit_of_same_power_is_allowed => "6.D.16",
    t6d17_dislodgement_cuts_supports => "6.D.17",
    t6d18_a_surviving_unit_will_sustain_support => "6.D.18",
    t6d19_even_when_surviving_is_in_alternative_way => "6.D.19",
    t6d20_unit_cannot_cut_support_of_its_own_country => "6.D.20",
    t6d21_dislodging_does_not_cancel_a_support_cut => "6.D.21",
    t6d22_impossible_fleet_move_cannot_be_supported => "6.D.22",
    t6d23_impossible_coast_move_cannot_be_supported => "6.D.23",
    t6d24_impossible_army_move_cannot_be_supported => "6.D.24",
    t6d25_failing_hold_support_can_be_supported => "6.D.25",
    t6d26_failing_move_support_can_be_supported => "6.D.26",
    t6d27_failing_convoy_can_be_supported => "6.D.27",
    t6d28_impossible_move_and_support => "6.D.28",
    t6d29_move_to_impossible_coast_and_support => "6.D.29",
    t6d30_move_without_coast_and_support => "6.D.30",
    t6d31_a_tricky_impossible_support => "6.D.31",
    t6d32_a_missing_fleet => "6.D.32",
    t6d33_unwanted_support_allowed => "6.D.33",
    t6d34_support_targeting_own_area_not_allowed => "6.D.34",
    t6e01_dislodged_unit_has_no_effect_on_attacker_s_area => "6.E.1",
    t6e02_no_self_dislodgement_in_head_to_head_battle => "6.E.2",
    t6e03_no_help_in_dislodging_own_unit => "6.E.3",
    t6e04_non_dislodged_loser_still_has_effect => "6.E.4",
    t6e05_loser_dislodged_by_another_army_still_has_effect => "6.E.5",
    t6e06_not_dislodge_because_of_own_support_still_has_effect => "6.E.6",
    t6e07_no_self_dislodgement_with_beleaguered_garrison => "6.E.7",
    t6e08_no_self_dislodgement_with_beleaguered_garrison_and_head_to_head_battle => "6.E.8",
    t6e09_almost_self_dislodgement_with_beleaguered_garrison => "6.E.9",
    t6e10_almost_circular_movement_with_no_self_dislodgement_with_beleaguered_garrison => "6.E.10",
    t6e11_no_self_dislodgement_with_beleaguered_garrison_unit_swap_with_adjacent_convoying_and_two_coasts => "6.E.11",
    t6e12_support_on_attack_on_own_unit_can_be_used_for_other_means => "6.E.12",
    t6e13_three_way_beleaguered_garrison => "6.E.13",
    t6e14_illegal_head_to_head_battle_can_still_defend => "6.E.14",
    t6e15_the_friendly_head_to_head_battle => "6.E.15",
    t6f01_no_convoy_in_coastal_areas => "6.F.1",
    t6f02_an_army_being_convoyed_can_bounce_as_normal => "6.F.2",
    t6f03_an_army_being_convoyed_can_receive_support => "6.F.3",
    t6f04_an_attacked_convoy_is_not_disrupted => "6.F.4",
    t6f05_a_beleaguered_convoy_is_not_disrupted => "6.F.5",
    t6f06_dislodged_convoy_does_not_cut_support => "6.F.6",
    t6f07_dislodged_convoy_does_not_cause_contested_area => "6.F.7",
    t6f08_dislodged_convoy_does_not_cause_a_bounce => "6.F.8",
    t6f09_dislodge_of_multi_route_convoy => "6.F.9",
    t6f10_dislodge_of_multi_route_convoy_with_foreign_fleet => "6.F.10",
    t6f11_dislodge_of_multi_route_convoy_with_only_foreign_fleets => "6.F.11",
    t6f12_dislodged_convoying_fleet_not_on_route => "6.F.12",
    t6f13_the_unwanted_alternative => "6.F.13",
    t6f14_simple_convoy_paradox => "6.F.14",
    t6f15_simple_convoy_paradox_with_additional_convoy => "6.F.15",
    t6f16_pandin_s_paradox => "6.F.16",
    t6f17_pandin_s_extended_paradox => "6.F.17",
    t6f18_betrayal_paradox => "6.F.18",
    t6f19_multi_route_convoy_disruption_paradox => "6.F.19",
    t6f20_unwanted_multi_route_convoy_paradox => "6.F.20",
    t6f21_dad_s_army_convoy => "6.F.21",
    t6f22_second_order_paradox_with_two_resolutions => "6.F.22",
    t6f23_second_order_paradox_with_two_exclusive_convoys => "6.F.23",
    t6f24_second_order_paradox_with_no_resolution => "6.F.24",
    t6f25_cut_support_last => "6.F.25",
    t6g01_two_units_can_swap_provinces_by_convoy => "6.G.1",
    t6g02_kidnapping_an_army => "6.G.2",
    t6g03_an_unwanted_disrupted_convoy_to_adjacent_province => "6.G.3",
    t6g04_an_unwanted_disrupted_convoy_to_adjacent_province_and_opposite_move => "6.G.4",
    t6g05_swapping_with_multiple_fleets_with_one_own_fleet => "6.G.5",
    t6g06_swapping_with_unintended_intent => "6.G.6",
    t6g07_swapping_with_illegal_intent => "6.G.7",
    t6g08_explicit_convoy_that_isn_t_there => "6.G.8",
    t6g09_swapped_or_dislodged => "6.G.9",
    t6g10_swapped_or_an_head_to_head_battle => "6.G.10",
    t6g11_a_convoy_to_an_adjacent_province_with_a_paradox => "6.G.11",
    t6g12_swapping_two_units_with_two_convoys => "6.G.12",
    t6g13_support_cut_on_attack_on_itself_via_convoy => "6.G.13",
    t6g14_bounce_by_convoy_to_adjacent_province => "6.G.14",
    t6g15_bounce_and_dislodge_with_double_convoy => "6.G.15",
    t6g16_the_two_unit_in_one_area_bug_moving_by_convoy => "6.G.16",
    t6g17_the_two_unit_in_one_area_bug_moving_over_land => "6.G.17",
    t6g18_the_two_unit_in_one_area_bug_with_double_convoy => "6.G.18",
    t6g19_swapping_with_intent_of_unnecessary_convoy => "6.G.19",
    t6g20_explicit_convoy_to_adjacent_province_disrupted => "6.G.20",
    t6h01_no_supports_during_retreat => "6.H.1",
    t6h02_no_supports_from_retreating_unit => "6.H.2",
    t6h03_no_convoy_during_retreat => "6.H.3",
    t6h04_no_other_moves_during_retreat => "6.H.4",
    t6h05_a_unit_may_not_retreat_to_the_area_from_which_it_is_attacked => "6.H.5",
    t6h06_unit_may_not_retreat_to_a_contested_area => "6.H.6",
    t6h07_multiple_retreat_to_same_area_will_disband_units => "6.H.7",
    t6h08_triple_retreat_to_same_area_will_disband_units => "6.H.8",
    t6h09_dislodged_unit_will_not_make_attackers_area_contested => "6.H.9",
    t6h10_not_retreating_to_attacker_does_not_mean_contested => "6.H.10",
    t6h11_retreat_when_dislodged_by_adjacent_convoy => "6.H.11",
    t6h12_retreat_when_dislodged_by_adjacent_convoy_while_trying_to_do_the_same => "6.H.12",
    t6h13_no_retreat_with_convoy_in_movement_phase => "6.H.13",
    t6h14_no_retreat_with_support_in_movement_phase => "6.H.14",
    t6h15_no_coastal_crawl_in_retreat => "6.H.15",
    t6h16_contested_for_both_coasts => "6.H.16",
    t6i01_too_many_build_orders => "6.I.1",
    t6i02_fleets_cannot_be_build_in_land_areas => "6.I.2",
    t6i03_supply_center_must_be_empty_for_building => "6.I.3",
    t6i04_both_coasts_must_be_empty_for_building => "6.I.4",
    t6i05_building_in_home_supply_center_that_is_not_owned => "6.I.5",
    t6i06_building_in_owned_supply_center_that_is_not_a_home_supply_center => "6.I.6",
    t6i07_only_one_build_in_a_home_supply_center => "6.I.7",
    t6j01_too_many_disband_orders => "6.J.1",
    t6j02_removing_the_same_unit_twice => "6.J.2",
    t6j03_civil_disorder_two_armies_with_different_distance => "6.J.3",
    t6j04_civil_disorder_two_armies_with_equal_distance => "6.J.4",
    t6j05_civil_disorder_two_fleets_with_different_distance => "6.J.5",
    t6j06_civil_disorder_two_fleets_with_equal_distance => "6.J.6",
    t6j07_civil_disorder_two_fleets_and_army_with_equal_distance => "6.J.7",
    t6j08_civil_disorder_a_fleet_with_shorter_distance_then_the_army => "6.J.8",
    t6j09_civil_disorder_must_be_counted_from_both_coasts => "6.J.9",
    t6j10_civil_disorder_counting_convoying_distance => "6.J.10",
    t6j11_distance_to_owned_supply_center => "6.J.11",
}
