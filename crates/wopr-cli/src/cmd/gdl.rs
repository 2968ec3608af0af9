//! `wopr gdl check SHEET` and `wopr gdl prolog SHEET`: a GDL rule sheet's
//! checks and ground size, and its Prolog translation (the reference the
//! reasoner is timed against); `wopr gdl suite MANIFEST` the conformance
//! suite (`gdl_suite.rs`).

use std::path::PathBuf;

use wopr::game::Game;
use wopr::games::gdl::game::Gdl;
use wopr::games::gdl::{
    check::check,
    ground::Budget,
    parse::{parse_within, read_file},
    prolog::to_prolog,
    steps::{roles_without_moves, STUCK_GAMES, STUCK_STEPS, STUCK_STEPS_NON_GROUND},
};

/// Arguments of `wopr gdl`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand, Debug)]
enum What {
    /// Parse, check and ground a rule sheet; print its roles, ground size,
    /// kinds of turn and the players it accepts.
    Check {
        /// The rule sheet (KIF).
        sheet: PathBuf,
        /// Memory budget for grounding the sheet, such as 512M or 4G
        /// (default: WOPR_GDL_MEMORY, else 1G); the spec's `memory=`.
        #[arg(long, value_parser = budget)]
        memory: Option<Budget>,
    },
    /// Print the sheet as a Prolog program with a random-playout driver
    /// (`swipl -g 'wopr_bench(2)' -t halt FILE.pl`); consult
    /// `tools/gdl-perft/perft.pl` after it for perft counts.
    Prolog {
        /// The rule sheet (KIF).
        sheet: PathBuf,
        /// Translate a sheet that parses but fails wopr's validity checks
        /// (for reference counts on sheets wopr refuses).
        #[arg(long)]
        unchecked: bool,
    },
    /// Run the GDL conformance suite: load every sheet a manifest lists and
    /// compare its perft counts with the references' counts.
    ///
    /// A manifest is a tab-separated file, one sheet a line: path (under
    /// --root), commit, sha256 (or `-`), the perft counts at depths 1, 2, 3
    /// in GDL steps where both references (SWI-Prolog and
    /// tools/gdl-perft/gdl_perft.py) agree (or `-`), and `agreed`,
    /// `invalid`, `disagreed` or `unknown` with an optional `: note`.
    /// Each sheet is counted by a child process killed after --seconds. One
    /// line per sheet (agrees / disagrees with both counts / refused with
    /// wopr's reason / timed out / loaded without reference counts /
    /// missing), then the totals. Exits 1 when a count disagrees, an
    /// invalid sheet is accepted, or a sheet is missing or changed.
    /// `gdl/conformance/counts.tsv` (root: the repository) lists the
    /// repository's sheets; `gdl/conformance/repository.tsv` the
    /// ggp-repository's (`repository-versions.tsv` its older versions),
    /// `ggp-base-rulesheets.tsv` ggp-base's old
    /// rulesheets and `libgdl.tsv` libgdl's sheets (see docs/guide/gdl.md
    /// for how to get them).
    Suite {
        /// The manifest (TSV).
        manifest: PathBuf,
        /// The folder the manifest's paths are relative to.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Deepest depth to count (1..=3).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=3))]
        depth: u32,
        /// Time limit per sheet, loading included, in seconds.
        #[arg(long, default_value_t = 60.0, value_parser = positive_seconds)]
        seconds: f64,
        /// Address space per sheet, in MiB (0: no cap); a sheet that
        /// needs more is reported as refused, out of memory.
        #[arg(long, default_value_t = 8192)]
        memory_mib: u64,
        /// Memory budget for grounding each sheet, such as 512M or 4G
        /// (default: WOPR_GDL_MEMORY, else 1G); a sheet over it is
        /// refused with the budget named.
        #[arg(long, value_parser = budget)]
        memory: Option<Budget>,
    },
    /// Load a sheet, print `loaded`, then its perft counts in GDL steps,
    /// `d count` for d = 1..=DEPTH (what `wopr gdl suite` runs per sheet).
    #[command(hide = true)]
    Count {
        /// The rule sheet (KIF).
        sheet: PathBuf,
        /// Deepest depth to count.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// Address space cap in MiB (0: none).
        #[arg(long, default_value_t = 0)]
        memory_mib: u64,
        /// Memory budget for grounding the sheet.
        #[arg(long, value_parser = budget)]
        memory: Option<Budget>,
    },
}

/// A memory budget as clap reads it (`Budget::parse`).
pub(crate) fn budget(s: &str) -> Result<Budget, String> {
    Budget::parse(s)
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(x),
        _ => Err(format!("'{s}' is not a number of seconds in (0, 86400]")),
    }
}

/// Runs `wopr gdl …`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.what {
        What::Check { sheet, memory } => {
            let budget = match memory {
                Some(b) => *b,
                None => Budget::from_env().map_err(anyhow::Error::msg)?,
            };
            let game = super::parse_game(&super::gdl_suite::sheet_spec(sheet, *memory))?;
            // A sheet with `sees` is loaded as the hidden-information game,
            // around the same rules.
            let (g, hidden) = match game {
                wopr::AnyGame::Gdl(g) => (g, false),
                wopr::AnyGame::GdlHidden(h) => (h.0, true),
                other => anyhow::bail!("{} is not a GDL sheet", other.spec()),
            };
            report(&g, hidden, budget);
            Ok(())
        }
        What::Prolog { sheet, unchecked } => {
            let fail = |e: wopr::games::gdl::GdlError| anyhow::anyhow!("{}: {e}", sheet.display());
            let budget = Budget::from_env().map_err(anyhow::Error::msg)?;
            let text = read_file(sheet, budget).map_err(fail)?;
            let parsed = parse_within(&text, budget).map_err(fail)?.sheet;
            if !unchecked {
                check(&parsed).map_err(fail)?;
            }
            print!("{}", to_prolog(&parsed));
            Ok(())
        }
        What::Suite {
            manifest,
            root,
            depth,
            seconds,
            memory_mib,
            memory,
        } => {
            let limits = super::gdl_suite::Limits {
                seconds: *seconds,
                memory_mib: *memory_mib,
                budget: *memory,
            };
            super::gdl_suite::run(manifest, root, *depth as usize, &limits)
        }
        What::Count {
            sheet,
            depth,
            memory_mib,
            memory,
        } => super::gdl_suite::count(sheet, *depth, *memory_mib, *memory),
    }
}

fn report(g: &Gdl, hidden: bool, budget: Budget) {
    let r = g.reasoner();
    let (atoms, rules) = r.size();
    if g.is_extension() {
        println!(
            "sheet:      {} (GDL with a negation cycle between relations that vanishes once \
             ground: a wopr extension; the specification asks for strata of relations)",
            g.spec()
        );
    } else {
        println!("sheet:      {} (valid GDL)", g.spec());
    }
    println!(
        "roles:      {}",
        r.roles()
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!("seats:      {}", g.seat_names().join(" "));
    println!(
        "ground:     {} base facts, {} atoms, {} rules",
        r.num_base(),
        atoms,
        rules
    );
    if g.has_ranked_actions() {
        println!(
            "actions:    ranked at each position ({} distinct moves, more than the {} an action holds)",
            g.num_distinct_moves(),
            wopr::game::Action::MAX
        );
    } else {
        println!("actions:    {} distinct moves", g.num_actions());
    }
    println!("reasoner:   {}", r.evaluator());
    println!(
        "memory:     grounding estimated at {} at its most (budget {budget})",
        Budget::from_bytes(r.estimated_bytes())
    );
    let mut turns = vec![if g.has_simultaneous_turns() {
        "simultaneous moves (seen on random playouts)"
    } else {
        "one player at a time"
    }];
    if g.has_random() {
        turns.push("chance (GDL-II's random role)");
    }
    if hidden {
        turns.push("hidden information (GDL-II's sees)");
    }
    println!("turns:      {}", turns.join("; "));
    println!(
        "encodings:  {}",
        if g.is_alternating() { "facts" } else { "none" }
    );
    let players = match hidden {
        false => wopr::players::player_names(g),
        true => vec!["random", "first"],
    };
    println!("players:    {}", players.join(", "));
    legal_moves(g);
}

/// GDL asks every role to have a legal move in every state that is not
/// terminal: a `legal:` line, and a warning on stderr naming each role
/// found without one (in the initial state, or in a random game's state;
/// `roles_without_moves` says which games). The sheet loads all the same.
fn legal_moves(g: &Gdl) {
    let r = g.reasoner();
    let steps = if r.is_grounded() {
        STUCK_STEPS
    } else {
        STUCK_STEPS_NON_GROUND
    };
    let stuck = roles_without_moves(r, g.max_game_length());
    if stuck.is_empty() {
        println!(
            "legal:      every role has a legal move in the initial state and in every state of \
             {STUCK_GAMES} random games ({steps} steps at most)"
        );
        return;
    }
    let names: Vec<String> = stuck
        .iter()
        .map(|s| r.roles()[s.role].to_string())
        .collect();
    println!(
        "legal:      no legal move for {} in some state that is not terminal (not valid GDL)",
        names.join(", ")
    );
    for (s, name) in stuck.iter().zip(&names) {
        let at = if s.step == 0 {
            "the initial state".to_string()
        } else {
            format!(
                "a state {} step{} from the start (random game {} of at most {STUCK_GAMES})",
                s.step,
                if s.step == 1 { "" } else { "s" },
                s.game
            )
        };
        eprintln!(
            "warning: role {name} has no legal move in {at}, which is not terminal; GDL asks \
             every role to have a legal move in every state that is not terminal"
        );
    }
}
