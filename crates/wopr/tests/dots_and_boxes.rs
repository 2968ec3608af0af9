//! Dots-and-Boxes: perft counts, the action-index layout, notation, the
//! two-boxes-at-once rule, and random full games checked move by move against
//! a slow reference written straight from the rules (Weaver & Bossomaier §2.1).

use rand::RngExt;
use wopr::eval::matches::play_match;
use wopr::game::perft::perft;
use wopr::game::rng::stream;
use wopr::game::{ActionList, Game, GameSpec, State, Turn};
use wopr::games::dots_and_boxes::{DotsAndBoxes, DotsAndBoxesState};
use wopr::registry::AnyGame;

fn game(cols: usize, rows: usize) -> DotsAndBoxes {
    DotsAndBoxes::new(cols, rows).unwrap()
}

/// The reference: edges as 2-D arrays of booleans, boxes as a 2-D array of
/// owners, scores as two counters.
#[derive(Clone)]
struct Reference {
    cols: usize,
    rows: usize,
    /// `h[r][c]`: edge from dot (r, c) to (r, c+1); `r` in 0..=rows.
    h: Vec<Vec<bool>>,
    /// `v[r][c]`: edge from dot (r, c) to (r+1, c); `c` in 0..=cols.
    v: Vec<Vec<bool>>,
    owner: Vec<Vec<Option<usize>>>,
    boxes: [i32; 2],
    to_move: usize,
}

impl Reference {
    fn new(cols: usize, rows: usize) -> Reference {
        Reference {
            cols,
            rows,
            h: vec![vec![false; cols]; rows + 1],
            v: vec![vec![false; cols + 1]; rows],
            owner: vec![vec![None; cols]; rows],
            boxes: [0, 0],
            to_move: 0,
        }
    }

    /// Every edge in OpenSpiel's order: horizontal row by row, then vertical
    /// row by row, as (is_horizontal, row, col).
    fn all_edges(&self) -> Vec<(bool, usize, usize)> {
        let mut out = Vec::new();
        for r in 0..=self.rows {
            for c in 0..self.cols {
                out.push((true, r, c));
            }
        }
        for r in 0..self.rows {
            for c in 0..=self.cols {
                out.push((false, r, c));
            }
        }
        out
    }

    fn drawn(&self, (hor, r, c): (bool, usize, usize)) -> bool {
        if hor {
            self.h[r][c]
        } else {
            self.v[r][c]
        }
    }

    fn legal(&self) -> Vec<u16> {
        self.all_edges()
            .into_iter()
            .enumerate()
            .filter(|&(_, e)| !self.drawn(e))
            .map(|(i, _)| i as u16)
            .collect()
    }

    fn terminal(&self) -> bool {
        self.legal().is_empty()
    }

    fn complete(&self, r: usize, c: usize) -> bool {
        self.h[r][c] && self.h[r + 1][c] && self.v[r][c] && self.v[r][c + 1]
    }

    fn apply(&mut self, action: u16) {
        let (hor, r, c) = self.all_edges()[action as usize];
        assert!(!self.drawn((hor, r, c)));
        if hor {
            self.h[r][c] = true;
        } else {
            self.v[r][c] = true;
        }
        // Check every box on the board: any complete box without an owner was
        // just completed by this edge.
        let mut scored = 0;
        for br in 0..self.rows {
            for bc in 0..self.cols {
                if self.owner[br][bc].is_none() && self.complete(br, bc) {
                    self.owner[br][bc] = Some(self.to_move);
                    scored += 1;
                }
            }
        }
        assert!(scored <= 2, "one edge borders at most two boxes");
        self.boxes[self.to_move] += scored;
        if scored == 0 {
            self.to_move = 1 - self.to_move;
        }
    }

    fn returns(&self, p: usize) -> f64 {
        if !self.terminal() {
            return 0.0;
        }
        let d = self.boxes[p] - self.boxes[1 - p];
        if d > 0 {
            1.0
        } else if d < 0 {
            -1.0
        } else {
            0.0
        }
    }
}

fn check_same(s: &DotsAndBoxesState, r: &Reference) {
    let mut legal = ActionList::new();
    s.legal_actions(&mut legal);
    assert_eq!(legal.to_vec(), r.legal());
    assert_eq!(s.is_terminal(), r.terminal());
    if !r.terminal() {
        assert_eq!(s.turn(), Turn::Player(r.to_move));
    }
    for p in 0..2 {
        assert_eq!(s.score(p), Some(r.boxes[p] - r.boxes[1 - p]));
        assert_eq!(s.returns(p), r.returns(p));
    }
    for br in 0..r.rows {
        for bc in 0..r.cols {
            assert_eq!(s.owner(br, bc), r.owner[br][bc]);
        }
    }
}

#[test]
fn random_games_match_the_reference() {
    let mut games = 0;
    for (i, &(cols, rows)) in [(3, 3), (2, 2), (1, 1), (3, 2), (2, 3), (5, 5)]
        .iter()
        .enumerate()
    {
        let g = game(cols, rows);
        for k in 0..400u64 {
            let mut rng = stream(11, &[i as u64, k]);
            let mut s = g.initial_state();
            let mut r = Reference::new(cols, rows);
            check_same(&s, &r);
            let mut plies = 0;
            while !r.terminal() {
                let legal = r.legal();
                let a = legal[rng.random_range(0..legal.len())];
                s.apply(a);
                r.apply(a);
                plies += 1;
                check_same(&s, &r);
            }
            // Every edge is drawn exactly once, so a game lasts exactly the
            // number of edges, which is also the promised maximum.
            assert_eq!(plies, g.max_game_length());
            assert_eq!(r.boxes[0] + r.boxes[1], (cols * rows) as i32);
            games += 1;
        }
    }
    assert_eq!(games, 2400);
}

#[test]
fn perft_counts() {
    // 1x1: 4 edges; only the fourth completes the box, and perft counts
    // sequences whoever moves: 4, 4·3, 4·3·2, 4·3·2·1.
    let s = game(1, 1).initial_state();
    assert_eq!(
        (1..=4).map(|d| perft(&s, d)).collect::<Vec<_>>(),
        vec![4, 12, 24, 24]
    );
    // 2x2: 12 edges; a box needs four edges, so none is completed in the first
    // three moves and no sequence ends early: 12, 12·11, 12·11·10.
    let s = game(2, 2).initial_state();
    assert_eq!(
        (1..=3).map(|d| perft(&s, d)).collect::<Vec<_>>(),
        vec![12, 132, 1320]
    );
    // 3x3: 24, 24·23, 24·23·22.
    let s = game(3, 3).initial_state();
    assert_eq!(perft(&s, 3), 24 * 23 * 22);
}

#[test]
fn index_layout_and_notation_round_trip() {
    let g = game(3, 3);
    let s = g.initial_state();
    assert_eq!(g.num_actions(), 24);
    // 3x3: 4 rows of 3 horizontal edges (0..12), then 3 rows of 4 vertical
    // edges (12..24).
    assert_eq!(s.parse_action("h0,0").unwrap(), 0);
    assert_eq!(s.parse_action("h0,2").unwrap(), 2);
    assert_eq!(s.parse_action("h1,0").unwrap(), 3);
    assert_eq!(s.parse_action("h3,2").unwrap(), 11);
    assert_eq!(s.parse_action("v0,0").unwrap(), 12);
    assert_eq!(s.parse_action("V1,0").unwrap(), 16);
    assert_eq!(s.parse_action(" v2,3 ").unwrap(), 23);
    assert_eq!(s.parse_action("#23").unwrap(), 23);
    for a in 0..24u16 {
        let text = s.action_to_string(a);
        assert_eq!(s.parse_action(&text).unwrap(), a, "{text}");
        assert_eq!(s.parse_action(&text.to_uppercase()).unwrap(), a);
        assert_eq!(s.action_cell(a), None);
    }
    for bad in [
        "h4,0", "h0,3", "v3,0", "v0,4", "x0,0", "h0", "h,", "#24", "", "é1,1",
    ] {
        let err = s.parse_action(bad).unwrap_err();
        assert!(err.contains("h<row>,<col>"), "{bad}: {err}");
    }
}

#[test]
fn two_boxes_at_once_score_two_and_keep_the_turn() {
    // 2x1: boxes (0,0) and (0,1) share the vertical edge v0,1.
    let g = game(2, 1);
    let mut s = g.initial_state();
    for m in ["h0,0", "h0,1", "h1,0", "h1,1", "v0,0", "v0,2"] {
        s.apply(s.parse_action(m).unwrap());
    }
    // Six edges drawn without completing a box: the turn alternated six times.
    assert_eq!(s.turn(), Turn::Player(0));
    assert_eq!(s.score(0), Some(0));
    s.apply(s.parse_action("v0,1").unwrap());
    assert_eq!(s.boxes(0), 2);
    assert_eq!(s.score(0), Some(2));
    assert_eq!(s.score(1), Some(-2));
    assert!(s.is_terminal());
    assert_eq!(s.returns(0), 1.0);
    assert_eq!(s.returns(1), -1.0);

    // On 3x1 the shared edge completes two boxes with one edge still free:
    // the mover keeps the turn.
    let g = game(3, 1);
    let mut s = g.initial_state();
    for m in ["h0,0", "h0,1", "h1,0", "h1,1", "v0,0", "v0,2"] {
        s.apply(s.parse_action(m).unwrap());
    }
    assert_eq!(s.turn(), Turn::Player(0));
    s.apply(s.parse_action("v0,1").unwrap());
    assert_eq!(s.score(0), Some(2));
    assert_eq!(s.turn(), Turn::Player(0));
    // One box completed keeps the turn too; an edge completing none passes it.
    s.apply(s.parse_action("h0,2").unwrap());
    assert_eq!(s.turn(), Turn::Player(1));
}

#[test]
fn spec_parsing_and_errors() {
    let g = AnyGame::parse("dots-and-boxes").unwrap();
    assert_eq!(g.spec(), "dots-and-boxes:3x3");
    assert_eq!(
        AnyGame::parse("Dots-And-Boxes:2X4").unwrap().spec(),
        "dots-and-boxes:2x4"
    );
    let err = DotsAndBoxes::from_spec(&GameSpec::parse("dots-and-boxes:6x2").unwrap()).unwrap_err();
    assert!(err.0.contains("1..=5"), "{err}");
    assert!(AnyGame::parse("dots-and-boxes:3x3,cards=4").is_err());
}

#[test]
fn matches_run_to_the_end() {
    let g = game(3, 3);
    let records = play_match(&g, "random", "first", 20, 5, &|| {}).unwrap();
    for r in &records {
        let ret = r.returns.as_ref().unwrap();
        assert_eq!(ret[0] + ret[1], 0.0);
        assert_eq!(r.actions.len(), 24);
        let s = r.score.as_ref().unwrap();
        assert_eq!(s[0], -s[1]);
    }
    // The search player beats random in at least 95% of games (the quality
    // bar; Weaver & Bossomaier's level-1 box completion alone wins 99.63%).
    let records = play_match(&g, "alphabeta:depth=4", "random", 40, 6, &|| {}).unwrap();
    let wins = records
        .iter()
        .enumerate()
        .filter(|(i, r)| r.returns.as_ref().unwrap()[i % 2] > 0.0)
        .count();
    assert!(wins >= 38, "alphabeta:depth=4 won only {wins} of 40");
}
