"""Your own learner against wopr's players: a table of afterstate values
for tic-tac-toe, learned from game results against ``mcts``, then checked
against it and against a wopr net.

    python python/examples/learn_against_mcts.py [--games N] [--sims S]

The learner plays both seats; it picks the move whose resulting position
has the highest learned value (at random with probability ``eps`` while it
learns) and, after each game, moves the value of every position it chose
towards the game's result (+1, 0, -1 for it): Monte Carlo control.
"""

import argparse
import random

import wopr


def play(game, learner, opponent, learner_seat, values, eps, rng, alpha=0.2):
    """One game; returns the learner's result and updates ``values`` when
    ``alpha`` > 0."""
    state = game.new_initial_state()
    chosen = []
    while not state.is_terminal():
        if state.current_player() == learner_seat:
            moves = state.legal_actions()
            if rng.random() < eps:
                move = rng.choice(moves)
            else:
                move = max(moves, key=lambda a: (values.get(str(state.child(a)), 0.0), rng.random()))
            state.apply_action(move)
            chosen.append(str(state))
        else:
            state.apply_action(opponent.step(state))
    result = state.returns()[learner_seat]
    for key in chosen:
        v = values.get(key, 0.0)
        values[key] = v + alpha * (result - v)
    return result


def score(game, opponent, values, games, rng):
    """The learner's score (wins + draws / 2) over ``games``, both seats."""
    total = 0.0
    for i in range(games):
        r = play(game, None, opponent, i % 2, values, eps=0.0, rng=rng, alpha=0.0)
        total += (r + 1) / 2
    return total / games


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20000, help="training games")
    parser.add_argument("--sims", type=int, default=25, help="the MCTS opponent's simulations per move")
    args = parser.parse_args(argv)
    rng = random.Random(1)
    game = wopr.load_game("tictactoe")
    mcts = wopr.Player(f"mcts:sims={args.sims}", game, seed=7)
    values = {}
    before = score(game, mcts, values, 200, rng)
    for i in range(args.games):
        play(game, None, mcts, i % 2, values, eps=0.1, rng=rng)
    after = score(game, mcts, values, 200, rng)
    print(f"against mcts:sims={args.sims}, 200 games, both seats: {before:.1%} before, "
          f"{after:.1%} after {args.games} games ({len(values)} positions learned)")
    # wopr's own measure of a wopr player, for comparison (wopr eval --json).
    row = wopr.eval(game, "alphabeta:depth=9", f"mcts:sims={args.sims}", games=200, seed=3)[0]
    print(f"perfect play (alphabeta:depth=9) against the same opponent: {row['score']:.1%}")
    return before, after


if __name__ == "__main__":
    main()
