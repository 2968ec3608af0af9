//! Config validation (issue 11): every example of a bad config gets a
//! one-line error naming the key and what is accepted, before anything runs;
//! budgets refuse configs too large to run, with the figures.

use wopr::experiment::config::{Footprint, CHECKPOINT_BUDGET};
use wopr::experiment::{start, EvolveConfig};
use wopr::games::tictactoe::TicTacToe;
use wopr::games::virus::Virus;

fn parse(text: &str) -> Result<EvolveConfig, String> {
    toml::from_str::<EvolveConfig>(text).map_err(|e| e.message().to_string())
}

/// The config parses; `check` fails naming every fragment in `says`.
fn refused(text: &str, says: &[&str]) {
    let c = parse(text).unwrap_or_else(|e| panic!("{text}: does not parse: {e}"));
    let e = c.check().expect_err(text);
    assert_eq!(e.lines().count(), 1, "{e}");
    for s in says {
        assert!(e.contains(s), "{text}: '{e}' lacks '{s}'");
    }
}

#[test]
fn unknown_names_are_parse_errors_listing_the_accepted_ones() {
    for (text, bad, one_accepted) in [
        (
            "game='tictactoe'\n[algorithm]\nkind='evolve-harder'",
            "evolve-harder",
            "cma-es",
        ),
        (
            "game='tictactoe'\n[algorithm]\nkind='one-plus-lambda'\npreset='no-such-preset'",
            "no-such-preset",
            "handa-reversi",
        ),
        (
            "game='tictactoe'\n[fitness]\nscheme='telepathy'",
            "telepathy",
            "round-robin",
        ),
        ("game='tictactoe'\n[genome]\nkind='trits'", "trits", "bits"),
        ("game='tictactoe'\n[fitness]\npoints='elo'", "elo", "naveed"),
        (
            "game='tictactoe'\n[fitness]\nscoring='best-of-3'",
            "best-of-3",
            "per-game",
        ),
        ("game='tictactoe'\n[net]\noutputs='both'", "both", "policy"),
        (
            "game='tictactoe'\n[net]\nactivation='swish'",
            "swish",
            "sigmoid",
        ),
        ("game='tictactoe'\n[net]\nbogus=1", "bogus", "hidden"),
    ] {
        let e = parse(text).expect_err(text);
        assert!(e.contains(bad) && e.contains(one_accepted), "{text}: {e}");
    }
}

#[test]
fn ranges_and_combinations_are_checked_up_front() {
    // bits = 0 used to divide by zero in the first generation.
    refused(
        "game='tictactoe'\n[genome]\nkind='bits'\nbits=0",
        &["genome.bits = 0", "1..=32"],
    );
    refused(
        "game='tictactoe'\n[genome]\nkind='bits'\nbits=33",
        &["genome.bits = 33"],
    );
    // levels = 1 gave NaN weights (a step of range / 0).
    refused(
        "game='tictactoe'\n[genome]\nkind='bits'\nbits=4\nlevels=1",
        &["genome.levels = 1", "2..=2^bits (16)"],
    );
    refused(
        "game='tictactoe'\n[genome]\nkind='bits'\nlo=1.0\nhi=-1.0",
        &["lo < hi"],
    );
    // An ES engine used to ignore a bit-string genome.
    refused(
        "game='tictactoe'\n[genome]\nkind='bits'\n[algorithm]\nkind='one-plus-lambda'",
        &[
            "algorithm.kind = \"one-plus-lambda\" evolves \"real\" genomes",
            "genome.kind = \"bits\"",
        ],
    );
    // A preset of another algorithm used to be ignored; each kind's
    // table holds only its own keys.
    for (text, key) in [
        ("kind='cma-es'\npreset='weaver'", "preset"),
        ("kind='cma-es'\npopulation=50", "population"),
        ("kind='ga'\nprune_rate=0.1", "prune_rate"),
        ("kind='cem'\nlearning_rate=0.1", "learning_rate"),
        ("kind='pbil'\nelite_fraction=0.1", "elite_fraction"),
    ] {
        let e = parse(&format!("game='tictactoe'\n[algorithm]\n{text}")).expect_err(text);
        assert!(e.contains(&format!("unknown field `{key}`")), "{text}: {e}");
    }
    refused(
        "game='tictactoe'\n[algorithm]\nkind='mu-lambda'\npreset='handa-reversi'",
        &["accepted: blondie24"],
    );
    refused(
        "game='tictactoe'\n[algorithm]\nkind='ga'\npopulation=1",
        &["algorithm.population = 1", "2..="],
    );
    refused(
        "game='tictactoe'\n[algorithm]\nkind='ga'\nmutation_rate=1.5",
        &["mutation_rate = 1.5", "0..=1"],
    );
    refused(
        "game='tictactoe'\n[algorithm]\nkind='cma-es'\nsigma=0.0",
        &["sigma = 0", "> 0"],
    );
    refused(
        "game='tictactoe'\n[fitness]\nseat=2",
        &["fitness.seat = 2", "0 or 1"],
    );
    refused(
        "game='tictactoe'\n[fitness]\nantigens=0.0",
        &["fitness.antigens"],
    );
    refused(
        "game='tictactoe'\n[fitness]\nopponents=[]",
        &["opponents is empty"],
    );
    refused("game='tictactoe'\n[net]\nhidden=[9, 0]", &["net.hidden"]);
    refused(
        "game='tictactoe'\ncheckpoint_every=0",
        &["checkpoint_every = 0"],
    );
    // The stall rule compares best fitness across generations: meaningless
    // when fitness is relative to the population.
    for scheme in ["round-robin", "sharing", "two-populations"] {
        refused(
            &format!("game='tictactoe'\n[fitness]\nscheme='{scheme}'\n[stop]\nstall=5"),
            &["stop.stall = 5", scheme],
        );
    }
    parse("game='tictactoe'\n[fitness]\nscheme='fixed'\n[stop]\nstall=5")
        .unwrap()
        .check()
        .unwrap();
}

#[test]
fn every_paper_config_passes_the_checks() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            // Configs of other learners (`[learner] kind = "td"`) are
            // checked by `wopr run` (crates/wopr-cli/tests/configs.rs).
            let doc: toml::Table = text.parse().unwrap();
            let kind = doc
                .get("learner")
                .and_then(|l| l.get("kind"))
                .and_then(|k| k.as_str());
            if kind.is_some_and(|k| k != "evolve") {
                continue;
            }
            let c = parse(&text).unwrap();
            c.check()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            n += 1;
        }
    }
    assert!(n >= 10);
}

#[test]
fn cma_es_on_naveeds_net_is_refused_with_the_figures() {
    // Naveed & Cowling's 64-58-27-1 net: 64·58 + 58 + 58·27 + 27 + 27 + 1 =
    // 5,391 weights. CMA-ES keeps the covariance and its eigenvectors:
    // 2 × 5391² × 8 bytes ≈ 465 MB, about 1.3 GB of JSON per checkpoint.
    let c =
        parse("game='virus'\n[net]\nhidden=[58, 27]\noutput='linear'\n[algorithm]\nkind='cma-es'")
            .unwrap();
    c.check().unwrap();
    let Footprint { memory, checkpoint } = c.footprint(5391);
    assert!(memory >= 2 * 5391 * 5391 * 8, "{memory}");
    assert!(checkpoint > CHECKPOINT_BUDGET);
    let e = start(&Virus::default(), c).unwrap_err().to_string();
    assert!(
        e.contains("5391 weights") && e.contains("MiB") && e.contains("CMA-ES"),
        "{e}"
    );
    // The same algorithm on a Tic-Tac-Toe net fits easily.
    let small = parse("game='tictactoe'\n[algorithm]\nkind='cma-es'").unwrap();
    assert!(start(&TicTacToe, small).is_ok());
}

/// Issue 27: PBIL evolves bit strings, CEM real vectors; each one's
/// settings are checked, and belong to it alone.
#[test]
fn model_building_kinds_need_their_genome_and_their_ranges() {
    refused(
        "game='tictactoe'\n[genome]\nkind='real'\n[algorithm]\nkind='pbil'",
        &["algorithm.kind = \"pbil\" evolves \"bits\" genomes, not genome.kind = \"real\""],
    );
    refused(
        "game='tictactoe'\n[genome]\nkind='bits'\n[algorithm]\nkind='cem'",
        &["algorithm.kind = \"cem\" evolves \"real\" genomes, not genome.kind = \"bits\""],
    );
    // The other ES kinds still refuse bits.
    refused(
        "game='tictactoe'\n[genome]\nkind='bits'\n[algorithm]\nkind='cma-es'",
        &["algorithm.kind = \"cma-es\" evolves \"real\" genomes"],
    );
    let pbil = "game='tictactoe'\n[genome]\nkind='bits'\n[algorithm]\nkind='pbil'\n";
    let cem = "game='tictactoe'\n[algorithm]\nkind='cem'\n";
    for (text, says) in [
        (format!("{pbil}learning_rate=0.0"), "accepted (0, 1]"),
        (format!("{pbil}learning_rate=1.5"), "accepted (0, 1]"),
        (
            format!("{pbil}negative_learning_rate=-0.1"),
            "accepted 0..=1",
        ),
        (format!("{pbil}mutation_shift=2.0"), "accepted 0..=1"),
        (format!("{pbil}population=10\nmu=11"), "1..=population (10)"),
        (format!("{cem}elite_fraction=1.0"), "a fraction in (0, 1)"),
        (format!("{cem}elite_fraction=0.0"), "a fraction in (0, 1)"),
        (format!("{cem}noise_start=-1.0"), "a finite number >= 0"),
    ] {
        refused(&text, &[says]);
    }
    // Both build an engine with the defaults.
    for text in [pbil, cem] {
        let c = parse(text).unwrap();
        c.check().unwrap();
        assert!(start(&TicTacToe, c).is_ok(), "{text}");
    }
}

/// The exhaustive scheme is refused where a player's opponent lines would
/// not fit in a generation (Connect-4 6x6), found by trying the walk, not
/// by the game's name; Tic-Tac-Toe fits.
#[test]
fn the_exhaustive_scheme_needs_a_game_small_enough_to_walk() {
    let text = "game='connect4:6x6'\n[net]\nhidden=[3]\n[fitness]\nscheme='exhaustive'";
    let c = parse(text).unwrap();
    let g = wopr::AnyGame::parse("connect4:6x6").unwrap();
    let e = wopr::with_board_game!(&g, game => start(game, c).unwrap_err(),
        unreachable!("connect4 is a board game"));
    assert!(
        e.to_string().contains("walks every line of the opponent"),
        "{e}"
    );
    let ttt = parse(&text.replace("connect4:6x6", "tictactoe")).unwrap();
    assert!(start(&TicTacToe, ttt).is_ok());
}
