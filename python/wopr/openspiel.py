"""wopr's games inside OpenSpiel: ``pyspiel.Game`` subclasses backed by wopr.

Some of OpenSpiel's algorithms accept only pyspiel's own classes
(``evaluate_bots`` with its ``Bot.inform_action``, ``exploitability``
through the C++ ``pyspiel.TabularBestResponse``). OpenSpiel's Python-games
API lets a Python class that subclasses ``pyspiel.Game`` and
``pyspiel.State`` be a game for them::

    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability
    from wopr import openspiel
    game = openspiel.load_game("kuhn_poker")        # or "connect4:6x6"
    solver = cfr.CFRSolver(game)
    for _ in range(100):
        solver.evaluate_and_update_policy()
    exploitability.exploitability(game, solver.average_policy())

One exception, OpenSpiel's and not wopr's: in open_spiel 2.0.2 the C++
``pyspiel.MCTSBot`` crashes (a segmentation fault in ``step``) on every
Python game, OpenSpiel's own ``python_tic_tac_toe`` included; its Python
``mcts.MCTSBot`` runs on these games and on ``wopr.load_game``'s.

``load_game(spec)`` takes what ``wopr.load_game`` takes (wopr's specs with
wopr's numbering, OpenSpiel's game strings with OpenSpiel's); every method
of the game and its states is one call into wopr's native game.
``register()`` registers the type under the short name ``wopr``, so that
``pyspiel.load_game("wopr", {"game": "connect4:7x6"})`` (and OpenSpiel's
deserialisation) finds it. Needs ``pip install open_spiel``.
"""

import pyspiel

import wopr

__all__ = ["WoprGame", "WoprState", "load_game", "register"]

#: The short name ``register`` gives the game type.
SHORT_NAME = "wopr"


def _game_type(native, short_name=SHORT_NAME, spec="tictactoe"):
    t = native.get_type()
    return pyspiel.GameType(
        short_name=short_name,
        long_name="wopr: " + t.long_name,
        dynamics=t.dynamics,
        chance_mode=t.chance_mode,
        information=t.information,
        utility=t.utility,
        reward_model=t.reward_model,
        max_num_players=t.max_num_players,
        min_num_players=t.min_num_players,
        provides_information_state_string=t.provides_information_state_string,
        provides_information_state_tensor=t.provides_information_state_tensor,
        provides_observation_string=True,
        provides_observation_tensor=t.provides_observation_tensor,
        parameter_specification={"game": spec},
    )


def _game_info(native):
    try:
        utility_sum = native.utility_sum()
    except ValueError:
        utility_sum = None
    return pyspiel.GameInfo(
        num_distinct_actions=native.num_distinct_actions(),
        max_chance_outcomes=native.max_chance_outcomes(),
        num_players=native.num_players(),
        min_utility=native.min_utility(),
        max_utility=native.max_utility(),
        utility_sum=utility_sum,
        max_game_length=native.max_game_length(),
    )


class WoprGame(pyspiel.Game):
    """A ``pyspiel.Game`` playing wopr's game ``params["game"]`` (a spec or
    OpenSpiel's game string, as ``wopr.load_game`` takes it)."""

    def __init__(self, params=None):
        params = dict(params or {})
        spec = params.get("game", "tictactoe")
        self.native = wopr.load_game(spec)
        super().__init__(_game_type(self.native, spec=spec), _game_info(self.native), {"game": spec})

    def new_initial_state(self):
        """A state at the start of the game."""
        return WoprState(self, self.native.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer ``wopr.Game.make_py_observer`` gives (``None`` where
        there is none): OpenSpiel's own for OpenSpiel's game strings."""
        native = self.native.make_py_observer(iig_obs_type, params)
        return None if native is None else _Observer(native)

    def __reduce__(self):
        return (WoprGame, ({"game": self.get_parameters()["game"]},))


class WoprState(pyspiel.State):
    """A ``pyspiel.State`` over a ``wopr.State``: every method one call into
    wopr."""

    def __init__(self, game, native):
        super().__init__(game)
        self.native = native

    def current_player(self):
        return self.native.current_player()

    def _legal_actions(self, player):
        return self.native.legal_actions(player)

    def chance_outcomes(self):
        return self.native.chance_outcomes()

    def _apply_action(self, action):
        self.native.apply_action(action)

    def _apply_actions(self, actions):
        self.native.apply_actions(list(actions))

    def _action_to_string(self, player, action):
        return self.native.action_to_string(player, action)

    def is_terminal(self):
        return self.native.is_terminal()

    def returns(self):
        return self.native.returns()

    def rewards(self):
        return self.native.rewards()

    def __str__(self):
        return str(self.native)

    def __deepcopy__(self, memo):
        # pyspiel's Clone() deep-copies a Python state.
        return WoprState(self.get_game(), self.native.clone())

    def __copy__(self):
        return self.__deepcopy__({})


class _Observer:
    """A wopr observer seen through ``WoprState``s."""

    def __init__(self, native):
        self.native = native
        self.tensor = native.tensor
        self.dict = native.dict

    def set_from(self, state, player):
        self.native.set_from(state.native, player)

    def string_from(self, state, player):
        return self.native.string_from(state.native, player)


def load_game(spec):
    """wopr's game ``spec`` (a wopr spec or OpenSpiel's game string) as a
    ``pyspiel.Game``."""
    return WoprGame({"game": spec})


_registered = False


def register():
    """Registers ``WoprGame`` with OpenSpiel under the short name ``wopr``
    (once), so ``pyspiel.load_game("wopr", {"game": spec})`` loads it."""
    global _registered
    if not _registered:
        pyspiel.register_game(_game_type(wopr.load_game("tictactoe")), WoprGame)
        _registered = True
