"""wopr from Python.

Games with pyspiel's methods and argument order (``load_game``,
``new_initial_state``, ``legal_actions``, ``apply_action``, ``returns``,
``get_type``, ``observation_tensor(player)``, ``information_state_string``,
...), so OpenSpiel's pure-Python algorithms run on them; OpenSpiel's game
strings (``connect_four``, ``kuhn_poker``, ``goofspiel(num_cards=5)``) load
OpenSpiel's version of a game, with its numbering. wopr's players as
opponents (``Player("alphabeta:depth=4", game)``), its match evaluation
(``eval``, ``tournament``: specs or Python objects with ``step(state)``)
and its net files (``Net.load``). The PettingZoo environment is
``wopr.pettingzoo.env(spec)``; ``wopr.openspiel.load_game(spec)`` is a
``pyspiel.Game`` subclass backed by wopr.

A swap for ``pyspiel`` in a script that uses these names::

    import wopr as pyspiel
    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())
"""

import json

from ._wopr import (
    Game,
    Net,
    Observer,
    Player,
    SpielError,
    State,
    load_game,
    optimal_moves_json,
    registered_games,
    resume,
    run,
)
from ._spiel import GameType, PlayerId

__all__ = [
    "Game",
    "GameType",
    "Net",
    "Observer",
    "Player",
    "PlayerId",
    "SpielError",
    "State",
    "eval",
    "load_game",
    "optimal_moves",
    "playouts",
    "registered_games",
    "resume",
    "run",
    "tournament",
]

# OpenSpiel's player ids of the turns that are not one player's.
CHANCE_PLAYER_ID = -1
SIMULTANEOUS_PLAYER_ID = -2
TERMINAL_PLAYER_ID = -4
#: What OpenSpiel's bots return when they have no action.
INVALID_ACTION = -1


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
    game; ``player`` and each of ``against`` (one or a list) a player spec
    or a Python object with ``step(state)`` returning an action (an
    OpenSpiel bot, your own agent), named in the results by its ``name``
    attribute (else ``python:ClassName``). A Python player is shown a
    ``wopr.State`` where it is to move; its games are played one at a
    time, in the same order for the same seed."""
    if isinstance(game, str):
        game = load_game(game)
    if isinstance(against, str) or hasattr(against, "step"):
        against = [against]
    rows = game.eval_json(player, list(against), games, seed, openings)
    return [json.loads(r) for r in rows]


def optimal_moves(game, player, positions=1000, seed=1):
    """``wopr eval --game GAME --player PLAYER --optimal-moves POSITIONS
    --seed S --json`` as a dict: how often the player's move is among the
    exact solver's best (``optimal`` of ``positions``, ``rate`` with its
    95% interval ``rate_ci95``, a random legal move's ``random_rate``) and
    how often it keeps the position's win/draw/loss value
    (``value_kept``, ``value_rate``), on distinct positions from random
    play drawn from ``seed``, with the counts ``by_value`` (won, drawn,
    lost positions) and the moves that lost the value, ``value_misses``
    (each position as printed, the move ``chosen`` and the moves
    ``keeping`` the value). ``game`` is a spec, an OpenSpiel game string or a
    loaded game with an exact solver (Tic-Tac-Toe, Connect-4,
    Dots-and-Boxes, Reversi endgames); ``player`` a player spec."""
    return json.loads(optimal_moves_json(game, player, positions, seed))


def _player_name(player):
    """The name results give a player: a spec, or a Python object's ``name``
    (else ``python:ClassName``)."""
    if player is None or isinstance(player, str):
        return player
    name = getattr(player, "name", None)
    return name if isinstance(name, str) else "python:" + type(player).__name__


def tournament(game, players, games=100, seed=1, openings=None, gauntlet=None, anchor=None, anchor_elo=0.0):
    """``wopr tournament --game GAME --players A,B,C --games N --seed S
    [--openings SPEC] [--gauntlet P] [--anchor P --anchor-elo E] --json``
    as a dict: the cross table of wins, draws and losses and the ratings
    (Elo by maximum likelihood, 95% intervals, likelihood of superiority).
    ``players`` are specs or Python objects with ``step(state)`` (as in
    ``eval``); ``gauntlet`` and ``anchor`` name one of them (or are one)."""
    if isinstance(game, str):
        game = load_game(game)
    return json.loads(
        game.tournament_json(
            list(players), games, seed, openings, _player_name(gauntlet), _player_name(anchor), anchor_elo
        )
    )
