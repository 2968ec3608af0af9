"""Times OpenSpiel's Python AlphaZero self-play (actor loop only) on one core.

Mirrors open_spiel/python/algorithms/alpha_zero/alpha_zero.py (open_spiel 2.0.2):
  model     = utils.api_selector(api).Model.build_model(...)  (_init_model_from_config)
  evaluator = evaluator_lib.AlphaZeroEvaluator(game, model)    (actor)
  bots      = 2 x mcts.MCTSBot(..., solve=False, dirichlet_noise=(eps, alpha),
                               child_selection_fn=SearchNode.puct_value,
                               dont_return_chance_node=True)   (_init_bot)
  game loop = _play_game: sample from visit counts^(1/T) for the first
              temperature_drop moves, then root.best_child().
No training, no replay buffer, no logging/trajectory building beyond what the
loop needs (the policy vector is computed as in _play_game).

Prints one line:
  games=G positions=P cpu_s=C wall_s=W pos_per_cpu_s=P/C ...
"""

import argparse
import os
import sys

# Single-thread pinning must happen before jax / numpy are imported.
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
           "TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS"):
  os.environ[_v] = "1"
os.environ["JAX_PLATFORMS"] = "cpu"
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                           " --xla_cpu_multi_thread_eigen=false"
                           " intra_op_parallelism_threads=1").strip()
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import time  # pylint: disable=g-import-not-at-top
import warnings  # pylint: disable=g-import-not-at-top


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--seconds", type=float, default=60.0,
                  help="play whole games until this much wall time has passed")
  ap.add_argument("--sims", type=int, default=100)
  ap.add_argument("--width", type=int, default=128)
  ap.add_argument("--depth", type=int, default=2)
  ap.add_argument("--model", default="mlp")
  ap.add_argument("--api", default="linen", choices=["linen", "nnx"],
                  help="flax API; examples/alpha_zero.py defaults to linen, "
                       "alpha_zero.Config defaults to nnx")
  ap.add_argument("--game", default="connect_four")
  ap.add_argument("--uct_c", type=float, default=2.0)
  ap.add_argument("--policy_epsilon", type=float, default=0.25)
  ap.add_argument("--policy_alpha", type=float, default=1.0)
  ap.add_argument("--temperature", type=float, default=1.0)
  ap.add_argument("--temperature_drop", type=int, default=2,
                  help="examples/alpha_zero.py default is 2")
  ap.add_argument("--cpu", type=int, default=0,
                  help="pin the process to this CPU core (-1: no pinning)")
  ap.add_argument("--seed", type=int, default=0)
  args = ap.parse_args()

  if args.cpu >= 0:
    os.sched_setaffinity(0, {args.cpu})

  warnings.filterwarnings("ignore")
  import numpy as np  # pylint: disable=g-import-not-at-top
  import jax  # pylint: disable=g-import-not-at-top
  import pyspiel  # pylint: disable=g-import-not-at-top
  from open_spiel.python.algorithms import mcts  # pylint: disable=g-import-not-at-top
  from open_spiel.python.algorithms.alpha_zero import evaluator as evaluator_lib  # pylint: disable=g-import-not-at-top
  from open_spiel.python.algorithms.alpha_zero import utils  # pylint: disable=g-import-not-at-top

  np.random.seed(args.seed)
  game = pyspiel.load_game(args.game)
  model_lib = utils.api_selector(args.api)
  model = model_lib.Model.build_model(
      args.model, game.observation_tensor_shape(), game.num_distinct_actions(),
      args.width, args.depth, weight_decay=1e-4, learning_rate=1e-3,
      path=None)
  az_evaluator = evaluator_lib.AlphaZeroEvaluator(game, model)

  def make_bot(seed):
    return mcts.MCTSBot(
        game, args.uct_c, args.sims, az_evaluator, solve=False,
        random_state=np.random.RandomState(seed),
        child_selection_fn=mcts.SearchNode.puct_value,
        dirichlet_noise=(args.policy_epsilon, args.policy_alpha),
        verbose=False, dont_return_chance_node=True)

  bots = [make_bot(args.seed), make_bot(args.seed + 1)]

  # Warm-up (not timed): one search so eager-op kernels are compiled; then
  # empty the inference cache so the timed run starts cold like an actor.
  bots[0].mcts_search(game.new_initial_state())
  az_evaluator._cache.clear()  # pylint: disable=protected-access

  def play_game():
    state = game.new_initial_state()
    n_moves = 0
    while not state.is_terminal():
      if state.is_chance_node():
        outcomes = state.chance_outcomes()
        action_list, prob_list = zip(*outcomes)
        state.apply_action(np.random.choice(action_list, p=prob_list))
        continue
      root = bots[state.current_player()].mcts_search(state)
      policy = np.zeros(game.num_distinct_actions())
      for c in root.children:
        policy[c.action] = c.explore_count
      policy = policy ** (1 / args.temperature)
      policy /= policy.sum()
      if n_moves >= args.temperature_drop:
        action = root.best_child().action
      else:
        action = np.random.choice(len(policy), p=policy)
      state.apply_action(action)
      n_moves += 1
    return n_moves

  games = positions = 0
  w0, c0 = time.perf_counter(), time.process_time()
  while time.perf_counter() - w0 < args.seconds:
    positions += play_game()
    games += 1
  wall = time.perf_counter() - w0
  cpu = time.process_time() - c0
  ci = az_evaluator.cache_info()
  print(f"games={games} positions={positions} cpu_s={cpu:.2f} "
        f"wall_s={wall:.2f} pos_per_cpu_s={positions / cpu:.2f} "
        f"pos_per_wall_s={positions / wall:.2f} "
        f"[{args.game} {args.model} w={args.width} d={args.depth} "
        f"sims={args.sims} api={args.api} jax={jax.__version__} "
        f"cache_hits={ci.hits} cache_misses={ci.misses}]")
  sys.stdout.flush()


if __name__ == "__main__":
  main()
