"""wopr's players against OpenSpiel's C++ MCTS, move by move in both libraries.

    python -m wopr.vs_openspiel --game connect4:7x6 --player mcts:sims=1000 \\
        --sims 1000 --games 40 --seed 1 [--solve|--no-solve] [--uct-c 2] \\
        [--openings-plies K] [--json] [-v]
    python -m wopr.vs_openspiel --bench [--json]

Needs ``pip install open_spiel`` beside the ``wopr`` package (``import
wopr`` itself does not). The opponent is ``pyspiel.MCTSBot``: UCT with
``uct_c`` (default 2, returns in [-1, 1]), a ``RandomRolloutEvaluator`` of
one random rollout per leaf, ``--sims`` simulations a move, OpenSpiel's
MCTS-Solver on (``--solve``, the default) or off. Games: Connect-4 7x6
(``connect_four``), Tic-Tac-Toe (``tic_tac_toe``) and Othello 8x8
(``othello``); ``--game`` takes wopr's spec or OpenSpiel's name.

**Mirroring.** Every game is played in a wopr state and a pyspiel state at
once: each move (the wopr player's, the bot's, an opening's) is applied to
both, through the action mapping of the game (wopr's indices are
OpenSpiel's for all three: Connect-4 columns 0..6, Tic-Tac-Toe cells
``3r + c`` row by row from the top, Othello squares ``8r + c`` from the
top left with the pass 64), and after every move, and at the start, the two
states must agree on the player to move, the legal actions (as a set of
indices through the mapping), the board (every cell's owner, read from
each library's text: X/Black is seat 0), whether the game is over and its
returns. A disagreement stops the match with a ``MirrorError`` naming the
moves so far, both boards and what differs (exit status 3).

**Seats and seeds.** Game ``i`` is seeded from ``--seed`` and ``i``
(SplitMix64 of both): the wopr player's seed and the bot's and its
evaluator's seeds. The wopr player takes the first seat in the even games
and the second in the odd ones. With ``--openings-plies K`` games come in
pairs: pair ``j`` starts from K uniformly random legal plies (drawn from
``--seed`` and ``j``, never a finished game), played once from each seat,
since two deterministic players would otherwise replay one game.

**Output.** Wins, draws and losses of the wopr player per seat and in all,
the score (W + D/2)/n with a 95% Wilson interval, milliseconds per move of
each side (each side's own moves, openings excluded, Python's call
included), the number of distinct games and of mirrored positions;
``--json`` prints the same as one JSON object.

**Bench.** ``--bench`` times ``MCTSBot.step`` from Connect-4 7x6's start
position at 1,000 and 10,000 simulations (median of ``--bench-repeats``
steps) and prints simulations per second, with wopr's ``mcts`` timed the
same way in the same process beside it (``wopr bench`` times wopr's
playouts).
"""

import argparse
import json
import math
import random
import statistics
import sys
import time

import wopr

__all__ = [
    "GAMES",
    "MirrorError",
    "Mirror",
    "NoOpenSpiel",
    "bench",
    "game_seeds",
    "main",
    "play_match",
    "resolve_game",
    "wilson",
]

MASK64 = (1 << 64) - 1


def _splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def _mix(*words):
    x = 0
    for w in words:
        x = _splitmix64(x ^ (w & MASK64))
    return x


def game_seeds(seed, index):
    """Game ``index``'s seeds: the wopr player's (64 bits), the MCTSBot's
    and its evaluator's (31 bits: OpenSpiel takes an ``int``)."""
    base = _mix(seed, index)
    return {
        "player": base,
        "bot": _mix(base, 1) & 0x7FFFFFFF,
        "evaluator": _mix(base, 2) & 0x7FFFFFFF,
    }


def opening_seed(seed, pair):
    """The seed of pair ``pair``'s opening."""
    return _mix(seed, pair, 3)


class GameInfo:
    """One game both libraries have: its names, board size and mapping."""

    def __init__(self, wopr_spec, openspiel, columns, rows, aliases):
        self.wopr_spec = wopr_spec
        self.openspiel = openspiel
        self.columns = columns
        self.rows = rows
        self.aliases = aliases

    def identity(self, action):
        """wopr's action index as OpenSpiel's: the same number for all three
        games (checked move by move, not assumed: see ``Mirror``)."""
        return action


GAMES = [
    GameInfo("connect4:7x6", "connect_four", 7, 6, ["connect4", "connect4:7x6", "connect_four"]),
    GameInfo("tictactoe", "tic_tac_toe", 3, 3, ["tictactoe", "tic_tac_toe"]),
    GameInfo("reversi:8x8", "othello", 8, 8, ["reversi", "reversi:8x8", "othello", "othello:8x8"]),
]

# Each library's cell symbols, as seat 0 ('x'), seat 1 ('o') or empty ('.').
WOPR_CELLS = {"X": "x", "O": "o", "B": "x", "W": "o", ".": "."}
OPENSPIEL_CELLS = {"x": "x", "o": "o", ".": ".", "-": "."}


def resolve_game(name):
    """The ``GameInfo`` for a wopr spec or an OpenSpiel name; a ValueError
    naming the accepted ones otherwise."""
    key = name.strip().lower()
    for g in GAMES:
        if key in g.aliases:
            return g
    accepted = ", ".join(f"{g.wopr_spec} ({g.openspiel})" for g in GAMES)
    raise ValueError(f"unknown game '{name}' (accepted: {accepted})")


def read_board(text, cells, columns, rows):
    """The board in a state's text as rows (top first) of 'x', 'o', '.':
    the lines with exactly ``columns`` cell symbols, labels ignored."""
    grid = []
    for line in text.splitlines():
        row = [cells[ch] for ch in line if ch in cells]
        if len(row) == columns:
            grid.append("".join(row))
    if len(grid) != rows:
        raise MirrorError(f"cannot read a {columns}x{rows} board from:\n{text}")
    return grid


class MirrorError(AssertionError):
    """The wopr state and the pyspiel state disagree."""


class Mirror:
    """A wopr state and a pyspiel state of one game, moved together and
    compared after every move. ``to_openspiel`` maps wopr's action indices
    to OpenSpiel's (the game's own mapping unless one is given: a test hands
    in a wrong one)."""

    def __init__(self, info, pyspiel, to_openspiel=None):
        self.info = info
        self.wgame = wopr.load_game(info.wopr_spec)
        self.ogame = pyspiel.load_game(info.openspiel)
        n = self.wgame.num_distinct_actions()
        if self.ogame.num_distinct_actions() != n:
            raise MirrorError(
                f"{info.wopr_spec} has {n} actions, OpenSpiel's {info.openspiel} "
                f"{self.ogame.num_distinct_actions()}"
            )
        f = to_openspiel or info.identity
        self.to_os = [f(a) for a in range(n)]
        if sorted(self.to_os) != list(range(n)):
            raise MirrorError(f"the action mapping is not a permutation of 0..{n - 1}: {self.to_os}")
        self.from_os = {o: a for a, o in enumerate(self.to_os)}
        self.checks = 0
        self.reset()

    def reset(self):
        self.wstate = self.wgame.new_initial_state()
        self.ostate = self.ogame.new_initial_state()
        self.moves = []
        self.check()

    def apply(self, action):
        """Applies wopr's ``action`` to both states, then compares them."""
        if not 0 <= action < len(self.to_os):
            self.fail(f"wopr's action {action} is not an action index")
        self.moves.append(action)
        try:
            self.wstate.apply_action(action)
        except Exception as e:
            self.fail(f"wopr refuses action {action}: {e}")
        try:
            self.ostate.apply_action(self.to_os[action])
        except Exception as e:
            self.fail(f"OpenSpiel refuses action {self.to_os[action]}: {e}")
        self.check()

    def apply_openspiel(self, action):
        """Applies OpenSpiel's ``action`` (the bot's move) to both states."""
        if action not in self.from_os:
            self.fail(f"OpenSpiel's action {action} has no wopr action")
        self.apply(self.from_os[action])

    def board(self, which):
        info = self.info
        if which == "wopr":
            return read_board(str(self.wstate), WOPR_CELLS, info.columns, info.rows)
        return read_board(str(self.ostate), OPENSPIEL_CELLS, info.columns, info.rows)

    def fail(self, what):
        w, o = self.wstate, self.ostate
        raise MirrorError(
            f"{self.info.wopr_spec} / {self.info.openspiel}: the states disagree after "
            f"{len(self.moves)} move{'' if len(self.moves) == 1 else 's'}: {what}\n"
            f"moves (wopr indices): {self.moves}\n"
            f"moves (OpenSpiel indices): {[self.to_os[a] for a in self.moves]}\n"
            f"wopr:\n{w}\nOpenSpiel:\n{o}"
        )

    def check(self):
        """Compares the two states; a ``MirrorError`` if they differ."""
        w, o = self.wstate, self.ostate
        if w.is_terminal() != o.is_terminal():
            self.fail(f"over in wopr: {w.is_terminal()}, in OpenSpiel: {o.is_terminal()}")
        if w.current_player() != o.current_player():
            self.fail(f"to move in wopr: {w.current_player()}, in OpenSpiel: {o.current_player()}")
        if not w.is_terminal():
            mine = sorted(self.to_os[a] for a in w.legal_actions())
            theirs = sorted(o.legal_actions())
            if mine != theirs:
                self.fail(
                    f"legal actions (OpenSpiel indices) in wopr: {mine}, in OpenSpiel: {theirs}"
                )
        bw, bo = self.board("wopr"), self.board("openspiel")
        if bw != bo:
            cells = [
                f"row {r} column {c}: wopr '{bw[r][c]}', OpenSpiel '{bo[r][c]}'"
                for r in range(len(bw))
                for c in range(len(bw[r]))
                if bw[r][c] != bo[r][c]
            ]
            self.fail("boards differ (rows from the top, 0-based): " + "; ".join(cells))
        if w.is_terminal():
            rw, ro = list(w.returns()), list(o.returns())
            if rw != ro:
                self.fail(f"returns in wopr: {rw}, in OpenSpiel: {ro}")
        self.checks += 1


def wilson(score, n, z=1.96):
    """The 95% Wilson interval of a proportion ``score`` of ``n`` games."""
    if n == 0:
        return (0.0, 1.0)
    p = score
    z2 = z * z
    centre = p + z2 / (2 * n)
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    denom = 1 + z2 / n
    return (max((centre - half) / denom, 0.0), min((centre + half) / denom, 1.0))


class NoOpenSpiel(RuntimeError):
    """``pyspiel`` cannot be imported."""


def _import_pyspiel():
    try:
        import pyspiel
    except ImportError as e:
        raise NoOpenSpiel(f"OpenSpiel is not installed ({e}): pip install open_spiel") from e
    return pyspiel


def _opening(mirror, plies, rng):
    """Plays ``plies`` uniformly random legal moves on the mirror, drawing
    again (from the same stream) until the position is not finished."""
    for _ in range(1000):
        mirror.reset()
        for _ in range(plies):
            if mirror.wstate.is_terminal():
                break
            mirror.apply(rng.choice(mirror.wstate.legal_actions()))
        if not mirror.wstate.is_terminal():
            return list(mirror.moves)
    raise ValueError(f"no unfinished position after {plies} random plies in 1000 tries")


def _wdl():
    return {"wins": 0, "draws": 0, "losses": 0}


def play_match(
    game,
    player,
    sims,
    games,
    seed=1,
    solve=True,
    uct_c=2.0,
    openings_plies=0,
    max_memory_mb=1000,
    to_openspiel=None,
    progress=None,
):
    """Plays ``games`` games of the wopr ``player`` spec against OpenSpiel's
    MCTSBot on ``game`` (a wopr spec or OpenSpiel name), every move mirrored
    and checked. Returns a dict of the results (what ``--json`` prints).
    ``progress(i, record)`` hears each finished game. ValueError for bad
    arguments, ``MirrorError`` if the libraries disagree."""
    pyspiel = _import_pyspiel()
    info = resolve_game(game)
    if games < 1:
        raise ValueError("--games must be at least 1")
    if sims < 1:
        raise ValueError("--sims must be at least 1")
    if openings_plies < 0:
        raise ValueError("--openings-plies must be 0 or more")
    if not uct_c >= 0:
        raise ValueError("--uct-c must be a number >= 0")
    mirror = Mirror(info, pyspiel, to_openspiel)
    try:
        wopr.Player(player, mirror.wgame, seed=0)
    except ValueError as e:
        raise ValueError(f"bad player '{player}': {e}") from None

    seats = [_wdl(), _wdl()]
    time_ms = {"player": 0.0, "openspiel": 0.0}
    moves = {"player": 0, "openspiel": 0}
    distinct = set()
    records = []
    opening = []
    for i in range(games):
        if openings_plies and i % 2 == 0:
            opening = _opening(mirror, openings_plies, random.Random(opening_seed(seed, i // 2)))
        seat = i % 2
        s = game_seeds(seed, i)
        me = wopr.Player(player, mirror.wgame, seed=s["player"])
        evaluator = pyspiel.RandomRolloutEvaluator(1, s["evaluator"])
        bot = pyspiel.MCTSBot(
            mirror.ogame, evaluator, float(uct_c), int(sims), int(max_memory_mb), bool(solve), s["bot"], False
        )
        mirror.reset()
        for a in opening:
            mirror.apply(a)
        while not mirror.wstate.is_terminal():
            if mirror.wstate.current_player() == seat:
                t = time.perf_counter()
                a = me.step(mirror.wstate)
                time_ms["player"] += 1000 * (time.perf_counter() - t)
                moves["player"] += 1
                mirror.apply(a)
            else:
                t = time.perf_counter()
                a = bot.step(mirror.ostate)
                time_ms["openspiel"] += 1000 * (time.perf_counter() - t)
                moves["openspiel"] += 1
                mirror.apply_openspiel(a)
        r = mirror.wstate.returns()[seat]
        outcome = "wins" if r > 0 else "losses" if r < 0 else "draws"
        seats[seat][outcome] += 1
        distinct.add(tuple(mirror.moves))
        record = {
            "game": i,
            "seat": seat,
            "result": outcome[:-1] if outcome != "losses" else "loss",
            "returns": list(mirror.wstate.returns()),
            "moves": list(mirror.moves),
            "opening_plies": len(opening),
            "seeds": s,
        }
        records.append(record)
        if progress:
            progress(i, record)

    total = {k: seats[0][k] + seats[1][k] for k in seats[0]}
    n = games
    score = (total["wins"] + total["draws"] / 2) / n

    def seat_stats(d):
        m = d["wins"] + d["draws"] + d["losses"]
        out = dict(d, games=m)
        if m:
            sc = (d["wins"] + d["draws"] / 2) / m
            out["score"] = sc
            out["score_interval"] = list(wilson(sc, m))
        return out

    return {
        "game": info.wopr_spec,
        "openspiel_game": info.openspiel,
        "player": player,
        "opponent": {
            "bot": "pyspiel.MCTSBot",
            "simulations": int(sims),
            "uct_c": float(uct_c),
            "solve": bool(solve),
            "evaluator": "RandomRolloutEvaluator(n_rollouts=1)",
            "max_memory_mb": int(max_memory_mb),
            "open_spiel_version": _openspiel_version(),
        },
        "games": n,
        "seed": seed,
        "openings_plies": openings_plies,
        "distinct_games": len(distinct),
        "wins": total["wins"],
        "draws": total["draws"],
        "losses": total["losses"],
        "score": score,
        "score_interval": list(wilson(score, n)),
        "as_first": seat_stats(seats[0]),
        "as_second": seat_stats(seats[1]),
        "ms_per_move": {
            "player": time_ms["player"] / moves["player"] if moves["player"] else None,
            "openspiel": time_ms["openspiel"] / moves["openspiel"] if moves["openspiel"] else None,
        },
        "moves": moves,
        "mirror_checks": mirror.checks,
        "records": records,
    }


def _openspiel_version():
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:
        return None


def bench(sims=(1000, 10000), repeats=3, seed=1, solve=True, uct_c=2.0, wopr_spec="mcts:sims={sims}"):
    """Simulations per second of OpenSpiel's MCTSBot (and wopr's ``mcts``,
    timed the same way) on one step from Connect-4 7x6's start: the median
    of ``repeats`` steps, each a fresh search."""
    pyspiel = _import_pyspiel()
    ogame = pyspiel.load_game("connect_four")
    wgame = wopr.load_game("connect4:7x6")
    rows = []
    for n in sims:
        os_times, w_times = [], []
        for r in range(repeats):
            s = game_seeds(seed, r)
            bot = pyspiel.MCTSBot(
                ogame,
                pyspiel.RandomRolloutEvaluator(1, s["evaluator"]),
                float(uct_c),
                int(n),
                1000,
                bool(solve),
                s["bot"],
                False,
            )
            state = ogame.new_initial_state()
            t = time.perf_counter()
            bot.step(state)
            os_times.append(time.perf_counter() - t)
            me = wopr.Player(wopr_spec.format(sims=n), wgame, seed=s["player"])
            wstate = wgame.new_initial_state()
            t = time.perf_counter()
            me.step(wstate)
            w_times.append(time.perf_counter() - t)
        os_t, w_t = statistics.median(os_times), statistics.median(w_times)
        rows.append(
            {
                "game": "connect4:7x6",
                "simulations": n,
                "repeats": repeats,
                "openspiel_seconds": os_t,
                "openspiel_sims_per_second": n / os_t,
                "wopr_spec": wopr_spec.format(sims=n),
                "wopr_seconds": w_t,
                "wopr_sims_per_second": n / w_t,
            }
        )
    return {"solve": bool(solve), "uct_c": float(uct_c), "open_spiel_version": _openspiel_version(), "rows": rows}


def _pct(x):
    return f"{100 * x:.1f}%"


def _interval(lo_hi):
    return f"[{100 * lo_hi[0]:.1f}, {100 * lo_hi[1]:.1f}]"


def format_match(r):
    o = r["opponent"]
    solve = "solve" if o["solve"] else "no solve"
    lines = [
        f"{r['game']} ({r['openspiel_game']}): {r['player']} against OpenSpiel MCTSBot "
        f"(sims={o['simulations']}, uct_c={o['uct_c']:g}, {solve}, 1 random rollout), "
        f"{r['games']} game{'' if r['games'] == 1 else 's'} ({r['distinct_games']} distinct), seed {r['seed']}"
        + (f", openings of {r['openings_plies']} random plies" if r["openings_plies"] else ""),
    ]
    for name, key in [("as first ", "as_first"), ("as second", "as_second")]:
        d = r[key]
        extra = f"  score {_pct(d['score'])} {_interval(d['score_interval'])}" if d["games"] else ""
        lines.append(f"  {name}  W/D/L {d['wins']}/{d['draws']}/{d['losses']}{extra}")
    lines.append(
        f"  overall    W/D/L {r['wins']}/{r['draws']}/{r['losses']}  "
        f"score {_pct(r['score'])} {_interval(r['score_interval'])}"
    )
    ms = r["ms_per_move"]

    def f(x):
        return "-" if x is None else f"{x:.2f}"

    lines.append(f"  ms/move    {r['player']} {f(ms['player'])}, MCTSBot {f(ms['openspiel'])}")
    lines.append(
        f"  mirror     {r['mirror_checks']} positions agreed (player to move, legal actions, "
        f"board, end, returns)"
    )
    return "\n".join(lines)


def format_bench(b):
    solve = "solve" if b["solve"] else "no solve"
    lines = [
        f"MCTS simulations per second from connect4:7x6's start (one step, median of "
        f"{b['rows'][0]['repeats'] if b['rows'] else 0}; MCTSBot uct_c={b['uct_c']:g}, {solve}, 1 random rollout):"
    ]
    for row in b["rows"]:
        lines.append(
            f"  {row['simulations']:>6} sims: OpenSpiel MCTSBot {row['openspiel_sims_per_second']:>10,.0f}/s "
            f"({1000 * row['openspiel_seconds']:.1f} ms)   wopr {row['wopr_spec']} "
            f"{row['wopr_sims_per_second']:>10,.0f}/s ({1000 * row['wopr_seconds']:.1f} ms)"
        )
    return "\n".join(lines)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ValueError(message)


def _parser():
    p = _Parser(
        prog="python -m wopr.vs_openspiel",
        description="A wopr player against OpenSpiel's C++ MCTSBot, every move mirrored "
        "and checked in both libraries (connect4:7x6, tictactoe, reversi:8x8).",
    )
    p.add_argument("--game", default="connect4:7x6", help="connect4:7x6, tictactoe, reversi:8x8 (or OpenSpiel's names)")
    p.add_argument("--player", help="a wopr player spec (mcts:sims=1000, perfect, net:FILE, ...)")
    p.add_argument("--sims", type=int, default=1000, help="MCTSBot's simulations a move (default 1000)")
    p.add_argument("--games", type=int, default=20, help="games (default 20), seats alternating")
    p.add_argument("--seed", type=int, default=1, help="seeds every game's players (default 1)")
    solve = p.add_mutually_exclusive_group()
    solve.add_argument("--solve", dest="solve", action="store_true", default=True, help="MCTS-Solver on (default)")
    solve.add_argument("--no-solve", dest="solve", action="store_false", help="MCTS-Solver off")
    p.add_argument("--uct-c", type=float, default=2.0, help="MCTSBot's UCT constant (default 2)")
    p.add_argument("--openings-plies", type=int, default=0, help="K random plies, each opening from both seats")
    p.add_argument("--json", action="store_true", help="one JSON object (with every game's moves)")
    p.add_argument("--bench", action="store_true", help="MCTSBot simulations/s on connect4:7x6 at 1k and 10k")
    p.add_argument("--bench-repeats", type=int, default=3, help="steps timed per size in --bench (default 3)")
    p.add_argument("-v", "--verbose", action="store_true", help="a line per game on stderr")
    return p


def main(argv=None):
    """The command; returns the exit status (2: bad arguments or no
    OpenSpiel, 3: the libraries disagree)."""
    prog = "vs_openspiel"
    try:
        args = _parser().parse_args(argv)
        if args.bench:
            if args.bench_repeats < 1:
                raise ValueError("--bench-repeats must be at least 1")
            b = bench(repeats=args.bench_repeats, solve=args.solve, uct_c=args.uct_c, seed=args.seed)
            print(json.dumps(b) if args.json else format_bench(b))
            return 0
        if not args.player:
            raise ValueError("--player SPEC is required (or --bench)")

        def progress(i, rec):
            if args.verbose:
                print(
                    f"game {i + 1}/{args.games}: {rec['result']} as {'first' if rec['seat'] == 0 else 'second'}, "
                    f"{len(rec['moves'])} moves",
                    file=sys.stderr,
                    flush=True,
                )

        r = play_match(
            args.game,
            args.player,
            args.sims,
            args.games,
            seed=args.seed,
            solve=args.solve,
            uct_c=args.uct_c,
            openings_plies=args.openings_plies,
            progress=progress,
        )
    except MirrorError as e:
        print(f"{prog}: the libraries disagree: {e}", file=sys.stderr)
        return 3
    except (ValueError, NoOpenSpiel) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(r))
    else:
        print(format_match(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
