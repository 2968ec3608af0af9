"""wopr from Python.

Games with OpenSpiel's names (``load_game``, ``new_initial_state``,
``legal_actions``, ``apply_action``, ``returns``, ``observation_tensor``,
...), wopr's players as opponents (``Player("alphabeta:depth=4", game)``),
its match evaluation (``eval``) and its net files (``Net.load``). The
PettingZoo environment is ``wopr.pettingzoo.env(spec)``.

A swap for ``pyspiel`` in a script that uses these names::

    import wopr as pyspiel
    game = pyspiel.load_game("connect4:6x6")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())
"""

import json



from ._wopr import Game, Net, Player, State, load_game, registered_games, run

__all__ = [
    "Game",
    "Net",
    "Player",
    "State",
    "eval",
    "load_game",
    "playouts",
    "registered_games",
    "run",
    "tournament",
]

# OpenSpiel's player ids of the turns that are not one player's.
CHANCE_PLAYER_ID = -1
SIMULTANEOUS_PLAYER_ID = -2
TERMINAL_PLAYER_ID = -4


def playouts(game, n, seed=1):
    """Plays ``n`` uniformly random games of ``game`` (a spec or a loaded
    game) natively, without a Python call per move: a dict of ``games``,
    ``actions`` (played in all) and ``returns`` (each player's sum)."""
    if isinstance(game, str):
        game = load_game(game)
    return game.playouts(n, seed)


def eval(game, player, against, games=200, seed=1, openings=None):
    """``wopr eval --player PLAYER --against A,B --games N --seed S
    [--openings SPEC] --json`` as a list of dicts, one per opponent (the
    same numbers: wins, draws and losses from each seat, the score with
    draws as half, its interval, ...). ``game`` is a spec or a loaded
    game; ``against`` a spec or a list of specs."""
    if isinstance(game, str):
        game = load_game(game)
    if isinstance(against, str):
        against = [against]
    rows = game.eval_json(player, list(against), games, seed, openings)
    return [json.loads(r) for r in rows]


def tournament(game, players, games=100, seed=1, openings=None, gauntlet=None, anchor=None, anchor_elo=0.0):
    """``wopr tournament --game GAME --players A,B,C --games N --seed S
    [--openings SPEC] [--gauntlet P] [--anchor P --anchor-elo E] --json``
    as a dict: the cross table of wins, draws and losses and the ratings
    (Elo by maximum likelihood, 95% intervals, likelihood of superiority)."""
    if isinstance(game, str):
        game = load_game(game)
    return json.loads(
        game.tournament_json(list(players), games, seed, openings, gauntlet, anchor, anchor_elo)
    )
