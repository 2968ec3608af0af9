"""OpenSpiel's ``GameType`` for wopr's games.

``Game.get_type()`` hands its fields here. Where OpenSpiel is installed
the answer is a real ``pyspiel.GameType``, so OpenSpiel's algorithms'
checks (``game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL``)
hold; without it, a ``wopr.GameType`` with the same fields and the same
enum names (``wopr.GameType.Dynamics.SEQUENTIAL``).
"""

import enum

try:  # OpenSpiel is optional.
    import pyspiel as _pyspiel
except ImportError:  # pragma: no cover - depends on the environment
    _pyspiel = None

__all__ = ["GameType", "PlayerId", "game_type"]


class PlayerId:
    """OpenSpiel's player ids of the turns that are not one player's."""

    INVALID = -3
    TERMINAL = -4
    CHANCE = -1
    SIMULTANEOUS = -2
    MEAN_FIELD = -5
    DEFAULT_PLAYER_ID = 0


class _GameType:
    """A game's type, as ``pyspiel.GameType`` describes it, for when OpenSpiel
    is not installed: the same fields and enum names."""

    class Dynamics(enum.Enum):
        SEQUENTIAL = 1
        SIMULTANEOUS = 2
        MEAN_FIELD = 3

    class ChanceMode(enum.Enum):
        DETERMINISTIC = 1
        EXPLICIT_STOCHASTIC = 2
        SAMPLED_STOCHASTIC = 3

    class Information(enum.Enum):
        ONE_SHOT = 1
        PERFECT_INFORMATION = 2
        IMPERFECT_INFORMATION = 3

    class Utility(enum.Enum):
        ZERO_SUM = 1
        CONSTANT_SUM = 2
        GENERAL_SUM = 3
        IDENTICAL = 4

    class RewardModel(enum.Enum):
        REWARDS = 1
        TERMINAL = 2

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __repr__(self):
        return "<GameType '%s'>" % self.short_name


_FIELDS = (
    "short_name",
    "long_name",
    "dynamics",
    "chance_mode",
    "information",
    "utility",
    "reward_model",
    "max_num_players",
    "min_num_players",
    "provides_information_state_string",
    "provides_information_state_tensor",
    "provides_observation_string",
    "provides_observation_tensor",
    "provides_factored_observation_string",
)


def game_type(d):
    """The ``GameType`` of the fields in ``d`` (enum fields by name;
    ``parameters``, the game's parameters)."""
    params = d.pop("parameters", {})
    if _pyspiel is not None:
        T = _pyspiel.GameType
        return T(
            short_name=d["short_name"],
            long_name=d["long_name"],
            dynamics=getattr(T.Dynamics, d["dynamics"]),
            chance_mode=getattr(T.ChanceMode, d["chance_mode"]),
            information=getattr(T.Information, d["information"]),
            utility=getattr(T.Utility, d["utility"]),
            reward_model=getattr(T.RewardModel, d["reward_model"]),
            max_num_players=d["max_num_players"],
            min_num_players=d["min_num_players"],
            provides_information_state_string=d["provides_information_state_string"],
            provides_information_state_tensor=d["provides_information_state_tensor"],
            provides_observation_string=d["provides_observation_string"],
            provides_observation_tensor=d["provides_observation_tensor"],
            parameter_specification=dict(params),
            provides_factored_observation_string=d["provides_factored_observation_string"],
        )
    T = _GameType
    fields = {k: d[k] for k in _FIELDS}
    for name, enum_type in (
        ("dynamics", T.Dynamics),
        ("chance_mode", T.ChanceMode),
        ("information", T.Information),
        ("utility", T.Utility),
        ("reward_model", T.RewardModel),
    ):
        fields[name] = enum_type[d[name]]
    fields["parameter_specification"] = dict(params)
    fields["default_loadable"] = True
    return T(**fields)


#: ``pyspiel.GameType`` where OpenSpiel is installed, else wopr's stand-in.
GameType = _pyspiel.GameType if _pyspiel is not None else _GameType
