"""Random playouts per second from Python: wopr against OpenSpiel's pyspiel,
both driven by the same Python loop (one ``legal_actions`` and one
``apply_action`` call per move), and wopr's batched ``playouts`` (the loop
in Rust, one call for many games).

    python python/benches/playouts.py [--seconds S] [--rounds R]

Needs ``pip install ./python open_spiel``. The two libraries run in turn,
R rounds of S seconds each; the table gives each one's median rate and the
median of the per-round ratios (this machine is shared: compare ratios).
"""

import argparse
import random
import statistics
import time

import wopr

# (wopr spec, pyspiel name) of the same game.
GAMES = [
    ("tictactoe", "tic_tac_toe"),
    ("connect4:7x6", "connect_four"),
    ("dots-and-boxes:3x3", "dots_and_boxes(num_rows=3,num_cols=3)"),
    ("reversi:8x8", "othello"),
]


def stepwise(game, seconds, seed=1):
    """Playouts per second, one Python call per query and per move."""
    rng = random.Random(seed)
    root = game.new_initial_state()
    games, start = 0, time.perf_counter()
    while True:
        state = root.clone()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed


def batched(game, seconds):
    """Playouts per second of ``Game.playouts``, in batches of 1000."""
    games, start = 0, time.perf_counter()
    while True:
        game.playouts(1000, seed=games + 1)
        games += 1000
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("pyspiel is not installed (pip install open_spiel): wopr only")
    print("| game | wopr stepwise | pyspiel stepwise | ratio | wopr batched | batched / pyspiel |")
    print("|---|---|---|---|---|---|")
    for spec, name in GAMES:
        w, o, b, ratios = [], [], [], []
        game = wopr.load_game(spec)
        other = pyspiel.load_game(name) if pyspiel else None
        for _ in range(args.rounds):
            w.append(stepwise(game, args.seconds))
            if other is not None:
                o.append(stepwise(other, args.seconds))
                ratios.append(w[-1] / o[-1])
            b.append(batched(game, args.seconds))
        med = statistics.median
        if other is not None:
            print(f"| {spec} | {med(w):,.0f} | {med(o):,.0f} | ×{med(ratios):.2f} "
                  f"| {med(b):,.0f} | ×{med(b) / med(o):,.0f} |")
        else:
            print(f"| {spec} | {med(w):,.0f} | | | {med(b):,.0f} | |")


if __name__ == "__main__":
    main()
