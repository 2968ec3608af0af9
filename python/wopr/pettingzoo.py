"""A PettingZoo AEC environment for every two-player wopr game.

``wopr.pettingzoo.env("connect4:6x6")``: agents ``player_0`` (the first
mover) and ``player_1``; an observation is a dict of ``observation`` (the
game's own encoding, or ``encoding=...``) and ``action_mask`` (int8 over the
game's actions, zeros when it is not that agent's turn); rewards are the
game's returns at the end (+1, 0, -1 for the board games, chips for Kuhn
poker, the sign of the points margin for Goofspiel), 0 before.

What each kind of turn becomes:

- **one player's turn**: that agent acts. A game where one player moves
  several times in a row (Dots-and-Boxes) gives the turn to that player
  again.
- **chance** (Pig's die, Kuhn poker's deal, Goofspiel's prize cards): drawn
  by the environment's own random generator, seeded by ``reset(seed=...)``.
- **simultaneous** (Goofspiel's bids): sequentialised, as PettingZoo's own
  simultaneous games are in AEC form: ``player_0`` chooses, then
  ``player_1``, then both choices are applied at once; the second agent's
  observation does not show the first one's pending choice.

Observations: the board games' encodings are the ones wopr's nets read,
from the side of the player to move (their state is public); Pig, Kuhn
poker and Goofspiel are observed from the observing agent's seat (Kuhn
poker shows only the agent's own card).
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import SIMULTANEOUS_PLAYER_ID, load_game


def env(spec, render_mode=None, encoding=None):
    """The AEC environment of the wopr game ``spec``."""
    return WoprEnv(spec, render_mode=render_mode, encoding=encoding)


class WoprEnv(AECEnv):
    """A wopr game as a PettingZoo AEC environment (see the module)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "wopr_v0", "is_parallelizable": False}

    def __init__(self, spec, render_mode=None, encoding=None):
        super().__init__()
        self.game = load_game(spec)
        if self.game.num_players() != 2:
            raise ValueError(f"{spec}: the environment takes two-player games")
        self.encoding = encoding
        # Flat (OpenSpiel's games have shaped tensors: tic_tac_toe's [3, 3, 3]).
        size = self.game.observation_tensor_size(encoding)
        n = self.game.num_distinct_actions()
        self.possible_agents = ["player_0", "player_1"]
        self.render_mode = render_mode
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(n)
        self._rng = np.random.default_rng()
        self.state = self.game.new_initial_state()
        # Choices made at a simultaneous turn, waiting for the other agent's.
        self._pending = {}

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def _mover(self):
        p = self.state.current_player()
        if p == SIMULTANEOUS_PLAYER_ID:
            return next(a for a in self.possible_agents if a not in self._pending)
        return self.possible_agents[p] if p >= 0 else None

    def _play_chance(self):
        while self.state.is_chance_node():
            outcomes = self.state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            p = np.array([q for _, q in outcomes], dtype=float)
            self.state.apply_action(int(self._rng.choice(actions, p=p / p.sum())))

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_initial_state()
        self._pending = {}
        self._play_chance()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._mover()

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        observation = self.state.observation_tensor(seat, encoding=self.encoding)
        if self.state.is_terminal() or agent != self._mover():
            mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        elif self.state.is_simultaneous_node():
            mask = self.state.legal_actions_mask(seat)
        else:
            mask = self.state.legal_actions_mask()
        return {"observation": observation, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        if self.state.is_simultaneous_node():
            seat = self.possible_agents.index(agent)
            if int(action) not in self.state.legal_actions(seat):
                raise ValueError(f"{agent}: action {action} is not legal here")
            self._pending[agent] = int(action)
            if len(self._pending) == len(self.possible_agents):
                self.state.apply_actions([self._pending[a] for a in self.possible_agents])
                self._pending = {}
        else:
            self.state.apply_action(int(action))
        self._play_chance()
        if self.state.is_terminal():
            returns = self.state.returns()
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = returns[i]
                self.terminations[a] = True
            # The other agent observes the end first.
            self.agent_selection = self.possible_agents[1 - self.possible_agents.index(agent)]
        else:
            for a in self.agents:
                self.rewards[a] = 0
            self.agent_selection = self._mover()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass
