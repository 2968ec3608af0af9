//! The memory budget of grounding a GDL sheet (`games::gdl::ground::budget`):
//! a budget too small refuses the sheet in one line that names the budget
//! and how to raise it, a larger one loads it (on the non-ground evaluator
//! where only the possible atoms fit), and the spec's `memory=` takes only
//! sizes it can read.

use wopr::game::{Game, GameSpec};
use wopr::games::gdl::game::Gdl;
use wopr::games::gdl::ground::{ground, Budget, DEFAULT_BUDGET};
use wopr::games::gdl::parse::parse_within;

fn sheet_path(name: &str) -> String {
    format!("{}/../../gdl/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn load(spec: &str) -> Result<Gdl, String> {
    let spec = GameSpec::parse(spec).map_err(|e| e.0)?;
    Gdl::from_spec(&spec).map_err(|e| e.0)
}

#[test]
fn a_small_budget_refuses_a_sheet_in_one_line_and_a_large_one_loads_it() {
    let path = sheet_path("connect4-6x6.kif");
    let err = load(&format!("gdl:{path},memory=64K")).unwrap_err();
    for says in [
        "grounding exceeds the memory budget of 64 KiB at this rule",
        "ground rules and",
        "the possible atoms alone, which the non-ground evaluator needs, exceed it too",
        "the game is too large to load within 64 KiB",
        "memory=SIZE in the game spec (gdl:PATH.kif,memory=128K)",
        "WOPR_GDL_MEMORY=128K",
    ] {
        assert!(err.contains(says), "'{err}' lacks '{says}'");
    }
    assert!(err.starts_with(&format!("gdl:{path}: line ")), "{err}");
    assert!(!err.contains('\n'), "{err}");

    // Within the estimate of its grounding and what reading holds while
    // it grounds (the text, held by the caller here, and the syntax
    // tree), the sheet loads ground; a byte below it, on the non-ground
    // evaluator, with the same moves.
    let text = std::fs::read_to_string(&path).unwrap();
    let read = parse_within(text.as_bytes(), DEFAULT_BUDGET).unwrap();
    let held = read.bytes + text.len() as u64;
    let need = ground(&read.sheet, DEFAULT_BUDGET)
        .unwrap()
        .estimated_bytes();
    let exact = Budget::from_bytes(need + held);
    let ground_game = Gdl::from_text_within(&path, &text, 10_000, exact).unwrap();
    assert!(ground_game.reasoner().is_grounded());
    assert!(ground_game.reasoner().estimated_bytes() <= need);
    let below = Budget::from_bytes(need + held - 1);
    let fallback = Gdl::from_text_within(&path, &text, 10_000, below).unwrap();
    assert!(!fallback.reasoner().is_grounded());
    assert!(fallback.reasoner().estimated_bytes() < need);
    assert_eq!(fallback.num_actions(), ground_game.num_actions());
    assert_eq!(
        fallback.reasoner().num_base(),
        ground_game.reasoner().num_base()
    );

    // Through the spec: the budget is how the sheet loads, not the game.
    let g = load(&format!("gdl:{path},memory=64M")).unwrap();
    assert!(g.reasoner().is_grounded());
    assert_eq!(g.spec(), format!("gdl:{path}"));
}

#[test]
fn bad_budgets_in_a_spec_are_one_line_errors_saying_what_is_accepted() {
    let path = sheet_path("tictactoe.kif");
    for (value, why) in [
        ("lots", "not a memory size"),
        ("512", "a number without a unit"),
        ("0G", "out of range"),
        ("-1G", "not a memory size"),
        ("2P", "not a memory size"),
        ("", "not a memory size"),
    ] {
        let err = load(&format!("gdl:{path},memory={value}")).unwrap_err();
        assert!(
            err.starts_with(&format!("'gdl': memory='{value}'")),
            "{err}"
        );
        assert!(err.contains(why), "{value}: {err}");
        assert!(err.contains("accepted: ") && err.contains("512M"), "{err}");
        assert!(!err.contains('\n'), "{err}");
    }
    // A misspelt key lists the keys the game takes.
    let err = load(&format!("gdl:{path},memroy=1G")).unwrap_err();
    assert!(
        err.contains("memroy=1G") && err.contains("memory=…"),
        "{err}"
    );
}
