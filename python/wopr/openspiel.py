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

**Two kinds of game, two names.** ``load_game(name)`` with one of
OpenSpiel's game strings (``tic_tac_toe``, ``goofspiel(num_cards=5)``)
gives an ``OpenSpielGame``: OpenSpiel's game under its own name, its
``get_type()`` (``short_name`` ``tic_tac_toe``), ``get_parameters()``,
``str(game)``, numbering, ``serialize()`` text and legal actions equal to
``pyspiel.load_game(name)``'s. ``load_game(spec)`` with wopr's spec
(``connect4:6x6``) gives a ``WoprGame`` of the type ``wopr``, parameters
``{"game": spec}``: the type ``register()`` registers, so that
``pyspiel.load_game("wopr", {"game": spec})`` (and OpenSpiel's
deserialisation of a ``wopr(game=...)`` string) finds it, whatever the spec
(an OpenSpiel game string too: then OpenSpiel's version of the game,
inside the ``wopr`` type). wopr never registers OpenSpiel's own names:
``pyspiel.load_game("tic_tac_toe")`` stays pyspiel's game.

**Speed.** Every method Python calls on a state (``legal_actions``,
``apply_action``, ``clone``, ``current_player``, ...) is one call into
wopr's native state, not a trip through pyspiel's C++ ``State`` and back
into Python; C++ code (``TabularBestResponse``) reaches the same native
state through OpenSpiel's Python-games callbacks (``_legal_actions``,
``_apply_action``, ...). The one difference: the C++ ``State``'s own record
of the actions (``State::History`` in C++, which no Python method here
reads) holds only the actions C++ code applied.

**Pickling.** Games pickle as the name they were loaded by, states as
their game and their actions (``pickle``, ``copy.deepcopy``).
"""

import pyspiel

import wopr

_state_init = pyspiel.State.__init__

__all__ = [
    "OpenSpielGame",
    "OpenSpielState",
    "WoprGame",
    "WoprState",
    "deserialize_game_and_state",
    "load_game",
    "register",
    "serialize_game_and_state",
]

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


def _given_parameters(native):
    """The parameters ``str(native)`` writes (``goofspiel(num_cards=5)``:
    ``{"num_cards": 5}``), with OpenSpiel's types."""
    text = str(native)
    inner = text[text.index("(") + 1 : -1]
    keys = [part.split("=", 1)[0] for part in inner.split(",") if part]
    every = native.get_parameters()
    return {k: every[k] for k in keys}


class WoprGame(pyspiel.Game):
    """A ``pyspiel.Game`` of the type ``wopr`` playing ``params["game"]`` (a
    wopr spec or OpenSpiel's game string, as ``wopr.load_game`` takes it):
    what ``pyspiel.load_game("wopr", {"game": spec})`` makes once
    ``register()`` has run."""

    def __init__(self, params=None):
        params = dict(params or {})
        spec = params.get("game", "tictactoe")
        self.native = wopr.load_game(spec)
        super().__init__(_game_type(self.native, spec=spec), _game_info(self.native), {"game": spec})

    def _state(self, native):
        return WoprState(self, native)

    def new_initial_state(self):
        """A state at the start of the game."""
        return self._state(self.native.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        """wopr's observer of the game (``None`` where there is none)."""
        native = self.native.make_py_observer(iig_obs_type, params)
        return None if native is None else _Observer(native)

    def __reduce__(self):
        return (WoprGame, ({"game": self.get_parameters()["game"]},))


class OpenSpielGame(WoprGame):
    """OpenSpiel's game ``name`` as a ``pyspiel.Game`` played by wopr: its
    type, parameters and ``str`` are ``pyspiel.load_game(name)``'s."""

    def __init__(self, name, params=None):  # pylint: disable=super-init-not-called
        self.native = wopr.load_game(name, params) if params else wopr.load_game(name)
        if not self.native.is_openspiel:
            raise wopr.SpielError(f"'{name}' is wopr's spec, not one of OpenSpiel's game strings")
        pyspiel.Game.__init__(
            self, self.native.get_type(), _game_info(self.native), _given_parameters(self.native)
        )

    def _state(self, native):
        return OpenSpielState(self, native)

    def get_parameters(self):
        """OpenSpiel's parameters, every one, defaults filled in."""
        return self.native.get_parameters()

    def deserialize_state(self, text):
        """The state ``serialize()`` wrote (pyspiel's text: the actions, one
        a line)."""
        return self._state(self.native.deserialize_state(text))

    def __reduce__(self):
        return (load_game, (str(self.native),))


class _PlayerAction:
    """An entry of ``full_history()``: ``player`` and ``action``, as
    ``pyspiel.PlayerAction``."""

    __slots__ = ("player", "action")

    def __init__(self, player, action):
        self.player, self.action = player, action

    def __eq__(self, other):
        return (self.player, self.action) == (other.player, other.action)

    def __repr__(self):
        return f"PlayerAction(player={self.player}, action={self.action})"


def _wrap(game, native):
    """A pickled state: ``native`` (a ``wopr.State``) inside ``game``."""
    return game._state(native)  # pylint: disable=protected-access


class WoprState(pyspiel.State):
    """A ``pyspiel.State`` over a ``wopr.State``: every method one call into
    wopr."""

    def __init__(self, game, native):
        _state_init(self, game)
        self.native = native
        self._game = game

    # Queries and moves from Python: straight to wopr.
    def current_player(self):
        return self.native.current_player()

    def is_terminal(self):
        return self.native.is_terminal()

    def is_chance_node(self):
        return self.native.is_chance_node()

    def is_simultaneous_node(self):
        return self.native.is_simultaneous_node()

    def is_player_node(self):
        return self.native.is_player_node()

    def is_initial_state(self):
        return self.native.is_initial_state()

    def legal_actions(self, player=None):
        return self.native.legal_actions(player)

    def legal_actions_mask(self, player=None):
        return self.native.legal_actions_mask(player).tolist()

    def chance_outcomes(self):
        return self.native.chance_outcomes()

    def returns(self):
        return self.native.returns()

    def rewards(self):
        return self.native.rewards()

    def player_return(self, player):
        return self.native.player_return(player)

    def player_reward(self, player):
        return self.native.player_reward(player)

    def apply_action(self, action):
        self.native.apply_action(action)

    def apply_actions(self, actions):
        self.native.apply_actions(list(actions))

    def undo_action(self, player, action):
        self.native.undo_action(player, action)

    def child(self, action):
        c = self.clone()
        c.apply_action(action)
        return c

    def clone(self):
        return self.__class__(self._game, self.native.clone())

    def history(self):
        return self.native.history()

    def history_str(self):
        return self.native.history_str()

    def full_history(self):
        """The actions so far with who made them (-1 chance; a joint
        action as one entry a player)."""
        out, state = [], self.get_game().native.new_initial_state()
        rest = self.native.history()
        while rest:
            if state.is_simultaneous_node():
                n = state.get_game().num_players()
                joint, rest = rest[:n], rest[n:]
                out.extend(_PlayerAction(p, a) for p, a in enumerate(joint))
                state.apply_actions(joint)
            else:
                out.append(_PlayerAction(state.current_player(), rest[0]))
                state.apply_action(rest[0])
                rest = rest[1:]
        return out

    def move_number(self):
        return self.native.move_number()

    def action_to_string(self, *args, **kwargs):
        return self.native.action_to_string(*args, **kwargs)

    def string_to_action(self, *args):
        return self.native.string_to_action(*args)

    # OpenSpiel's Python-games callbacks, for C++ code.
    def _legal_actions(self, player):
        return self.native.legal_actions(player)

    def _apply_action(self, action):
        self.native.apply_action(action)

    def _apply_actions(self, actions):
        self.native.apply_actions(list(actions))

    def _action_to_string(self, player, action):
        return self.native.action_to_string(player, action)

    def __str__(self):
        return str(self.native)

    def __deepcopy__(self, memo):
        return self.clone()

    def __copy__(self):
        return self.clone()

    def __reduce__(self):
        return (_wrap, (self.get_game(), self.native))


class OpenSpielState(WoprState):
    """A state of an ``OpenSpielGame``: ``serialize()`` writes pyspiel's text
    (the actions, one a line), which ``deserialize_state`` reads back."""

    def serialize(self):
        return self.native.serialize()


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


def load_game(name, params=None):
    """wopr's game ``name`` as a ``pyspiel.Game``: OpenSpiel's game string
    (with ``params`` as ``pyspiel.load_game(name, params)``) an
    ``OpenSpielGame``, wopr's spec a ``WoprGame`` of the type ``wopr``."""
    if not params and name.strip() in _SHARED_NAMES:
        # Bare, these are wopr's own games to ``wopr.load_game``; here, as
        # to ``pyspiel.load_game``, OpenSpiel's (``pig`` is ``pig()``).
        name = name.strip() + "()"
    native = wopr.load_game(name, params) if params else wopr.load_game(name)
    if native.is_openspiel:
        return OpenSpielGame(name, params)
    return WoprGame({"game": name})


#: Names both wopr and OpenSpiel give a game: bare, ``wopr.load_game``
#: reads them as wopr's games and this module's ``load_game`` as
#: OpenSpiel's, the way OpenSpiel's scripts mean them.
_SHARED_NAMES = ("goofspiel", "pig")


_HEADER = "# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n[Game]\n"


def serialize_game_and_state(game, state):
    """``pyspiel.serialize_game_and_state``'s text for a wopr game (either
    kind of this module, or ``wopr.load_game``'s) and one of its states:
    the same text as pyspiel's for OpenSpiel's games."""
    return f"{_HEADER}{game}\n[State]\n{state.serialize()}\n"


def deserialize_game_and_state(text):
    """The ``(game, state)`` that ``serialize_game_and_state`` wrote (or
    pyspiel's for a game wopr plays), loaded with ``load_game``."""
    if not text.startswith(_HEADER) or "\n[State]\n" not in text:
        raise wopr.SpielError("not a serialized game and state (no [Game] and [State] sections)")
    name, state = text[len(_HEADER) :].split("\n[State]\n", 1)
    game = load_game(name)
    return game, game.deserialize_state(state[:-1] if state.endswith("\n") else state)


_registered = False


def register():
    """Registers ``WoprGame`` with OpenSpiel under the short name ``wopr``
    (once), so ``pyspiel.load_game("wopr", {"game": spec})`` loads it.
    OpenSpiel's own names stay pyspiel's."""
    global _registered
    if not _registered:
        pyspiel.register_game(_game_type(wopr.load_game("tictactoe")), WoprGame)
        _registered = True
