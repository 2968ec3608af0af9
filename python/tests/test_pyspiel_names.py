"""Tests of wopr's `pyspiel` names (issue 45): OpenSpiel's game strings load
as OpenSpiel's games, states answer pyspiel's methods as pyspiel does, and
OpenSpiel's own pure-Python algorithms run unchanged on `wopr.load_game`
objects with pyspiel's numbers beside. Every expected number is pyspiel's,
computed in the test from `pyspiel.load_game` of the same name. They need
`pip install open_spiel`; WOPR_NO_OPENSPIEL=1 skips them where it cannot be
had (CI installs it, so there they run).
"""

import os
import random
import unittest

import numpy as np

import wopr

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the machine
    pyspiel = None
    NO_PYSPIEL = str(e)


def need_openspiel(test):
    if pyspiel is None:
        if os.environ.get("WOPR_NO_OPENSPIEL"):
            test.skipTest(f"open_spiel is not installed ({NO_PYSPIEL}) and WOPR_NO_OPENSPIEL is set")
        test.fail(
            f"open_spiel is not installed ({NO_PYSPIEL}): pip install open_spiel, "
            "or set WOPR_NO_OPENSPIEL=1 to skip these tests"
        )


# OpenSpiel's game strings wopr loads as OpenSpiel's games.
OPENSPIEL_GAMES = [
    "tic_tac_toe",
    "connect_four",
    "connect_four(rows=5,columns=6)",
    "kuhn_poker",
    "othello",
    "dots_and_boxes",
    "dots_and_boxes(num_rows=3,num_cols=3)",
    "goofspiel(num_cards=5)",
    "goofspiel(num_cards=4)",
    "pig(winscore=30)",
    "pig(winscore=20,horizon=12)",
    "pig()",
]


def random_game_in_both(test, name, seed):
    """Plays one seeded random game in wopr's and pyspiel's version of
    `name` at once, asserting at every node that both offer the same
    actions, outcomes and player; returns both final states."""
    rng = random.Random(seed)
    w, p = wopr.load_game(name).new_initial_state(), pyspiel.load_game(name).new_initial_state()
    n = pyspiel.load_game(name).num_players()
    while True:
        where = f"{name}, seed {seed}, after {p.history()}"
        test.assertEqual(w.current_player(), p.current_player(), where)
        test.assertEqual(w.is_terminal(), p.is_terminal(), where)
        test.assertEqual(w.history(), p.history(), where)
        if p.is_terminal():
            return w, p
        if p.is_chance_node():
            wo, po = w.chance_outcomes(), p.chance_outcomes()
            test.assertEqual([a for a, _ in wo], [a for a, _ in po], where)
            np.testing.assert_allclose([q for _, q in wo], [q for _, q in po], err_msg=where)
            a = rng.choice(po)[0]
            w.apply_action(a)
            p.apply_action(a)
        elif p.is_simultaneous_node():
            # OpenSpiel's flat joint actions, and each player's.
            test.assertEqual(w.legal_actions(), p.legal_actions(), where)
            joint = []
            for seat in range(n):
                test.assertEqual(w.legal_actions(seat), p.legal_actions(seat), where)
                joint.append(rng.choice(p.legal_actions(seat)))
            if rng.random() < 0.5:
                w.apply_actions(joint)
                p.apply_actions(joint)
            else:
                flat = rng.choice(p.legal_actions())
                w.apply_action(flat)
                p.apply_action(flat)
        else:
            test.assertEqual(w.legal_actions(), p.legal_actions(), where)
            for seat in range(n):
                test.assertEqual(w.legal_actions(seat), p.legal_actions(seat), where)
            a = rng.choice(p.legal_actions())
            w.apply_action(a)
            p.apply_action(a)


class OpenSpielGameStrings(unittest.TestCase):
    def setUp(self):
        need_openspiel(self)

    def test_openspiel_names_have_openspiels_type_sizes_and_parameters(self):
        for name in OPENSPIEL_GAMES:
            w, p = wopr.load_game(name), pyspiel.load_game(name)
            wt, pt = w.get_type(), p.get_type()
            self.assertIsInstance(wt, pyspiel.GameType)
            for field in ("short_name", "dynamics", "chance_mode", "utility", "reward_model"):
                self.assertEqual(getattr(wt, field), getattr(pt, field), f"{name}: {field}")
            for size in (
                "num_distinct_actions",
                "max_chance_outcomes",
                "num_players",
                "min_utility",
                "max_utility",
                "utility_sum",
                "max_game_length",
                "get_parameters",
            ):
                self.assertEqual(getattr(w, size)(), getattr(p, size)(), f"{name}: {size}")
        self.assertEqual(
            wopr.load_game("tic_tac_toe").get_type().dynamics, pyspiel.GameType.Dynamics.SEQUENTIAL
        )
        self.assertEqual(
            wopr.load_game("goofspiel", {"num_cards": 5}).get_parameters(),
            pyspiel.load_game("goofspiel", {"num_cards": 5}).get_parameters(),
        )

    def test_seeded_random_games_take_the_same_actions_in_both(self):
        for name in OPENSPIEL_GAMES:
            for seed in range(15):
                w, p = random_game_in_both(self, name, seed)
                self.assertEqual(w.returns(), p.returns(), f"{name}, seed {seed}")
                self.assertEqual(w.history_str(), p.history_str(), name)

    def test_goofspiels_last_round_plays_itself_as_in_openspiel(self):
        w, p = random_game_in_both(self, "goofspiel(num_cards=5)", 3)
        # Four rounds of a chance deal and two bids; the fifth is forced.
        self.assertEqual(len(p.history()), 12)
        self.assertEqual(len(w.history()), 12)
        # wopr's own spec keeps wopr's game: all five rounds are moves.
        state = wopr.load_game("goofspiel:cards=5").new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            else:
                state.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[0]])
            moves += 1
        self.assertEqual(moves, 10)

    def test_bare_shared_names_are_wopr_games_and_parentheses_openspiels(self):
        self.assertEqual(wopr.load_game("goofspiel").num_distinct_actions(), 5)
        self.assertEqual(wopr.load_game("goofspiel()").num_distinct_actions(), 13)
        self.assertEqual(wopr.load_game("pig").spec(), "pig:target=30,horizon=1000")
        self.assertEqual(wopr.load_game("pig").num_distinct_actions(), 8)
        self.assertEqual(wopr.load_game("pig()").spec(), "pig:target=100,horizon=1000,rules=openspiel")
        with self.assertRaisesRegex(wopr.SpielError, "piglet"):
            wopr.load_game("pig(piglet=true)")
        with self.assertRaisesRegex(ValueError, "x_in_row"):
            wopr.load_game("connect_four(x_in_row=5)")
        with self.assertRaisesRegex(ValueError, "accepted: columns"):
            wopr.load_game("connect_four(width=5)")
        names = wopr.registered_games()
        for name in ("tictactoe", "tic_tac_toe", "connect4", "connect_four", "kuhn_poker", "othello"):
            self.assertIn(name, names)


class KuhnPokersInformationStates(unittest.TestCase):
    def setUp(self):
        need_openspiel(self)

    def test_every_kuhn_node_has_openspiels_strings_and_tensors(self):
        nodes = 0

        def walk(w, p):
            nonlocal nodes
            nodes += 1
            for seat in range(2):
                self.assertEqual(w.information_state_string(seat), p.information_state_string(seat))
                self.assertEqual(w.observation_string(seat), p.observation_string(seat))
                self.assertEqual(list(w.information_state_tensor(seat)), p.information_state_tensor(seat))
                self.assertEqual(list(w.observation_tensor(seat)), p.observation_tensor(seat))
                self.assertEqual(w.legal_actions(seat), p.legal_actions(seat))
                self.assertEqual(list(w.legal_actions_mask(seat)), p.legal_actions_mask(seat))
            self.assertEqual(list(w.legal_actions_mask()), p.legal_actions_mask())
            self.assertEqual(w.rewards(), p.rewards())
            self.assertEqual(w.move_number(), p.move_number())
            if p.is_terminal():
                self.assertEqual(w.returns(), p.returns())
                return
            for a in p.legal_actions():
                walk(w.child(a), p.child(a))

        g = wopr.load_game("kuhn_poker")
        walk(g.new_initial_state(), pyspiel.load_game("kuhn_poker").new_initial_state())
        # 1 + 3 deals + 6 card pairs, each with 9 betting nodes (5 terminal).
        self.assertEqual(nodes, 1 + 3 + 6 * 9)
        self.assertEqual(g.information_state_tensor_shape(), [11])
        self.assertEqual(g.observation_tensor_shape(), [7])
        observer = g.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
        state = g.new_initial_state()
        for a in (1, 2, 1):
            state.apply_action(a)
        observer.set_from(state, 1)
        self.assertEqual(observer.string_from(state, 1), "2b")
        self.assertEqual(list(observer.tensor), [0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0])


class StateMethods(unittest.TestCase):
    def setUp(self):
        need_openspiel(self)

    def test_tic_tac_toe_state_answers_as_pyspiel(self):
        w = wopr.load_game("tic_tac_toe").new_initial_state()
        p = pyspiel.load_game("tic_tac_toe").new_initial_state()
        for a in (4, 0, 2):
            w.apply_action(a)
            p.apply_action(a)
        self.assertEqual(w.history_str(), p.history_str())
        self.assertEqual(w.move_number(), p.move_number())
        self.assertEqual(w.information_state_string(0), p.information_state_string(0))
        self.assertEqual(w.is_player_node(), p.is_player_node())
        self.assertEqual(w.rewards(), p.rewards())
        self.assertEqual(w.player_return(1), p.player_return(1))
        self.assertEqual(w.legal_actions(0), p.legal_actions(0))  # not to move: []
        self.assertEqual(w.legal_actions(1), p.legal_actions(1))
        self.assertEqual(list(w.legal_actions_mask(0)), p.legal_actions_mask(0))
        self.assertEqual(w.get_game().get_type().short_name, "tic_tac_toe")
        # OpenSpiel's order: player, then action.
        self.assertEqual(w.action_to_string(1, 8), w.action_to_string(8))
        self.assertEqual(w.string_to_action(w.action_to_string(1, 8)), 8)
        self.assertEqual(w.string_to_action(1, w.action_to_string(8)), 8)
        # OpenSpiel's tensor by default, wopr's encodings by name.
        self.assertEqual(w.observation_tensor(1).shape, (27,))
        self.assertEqual(w.observation_tensor("raw", 1).shape, w.observation_tensor(encoding="raw", player=1).shape)
        w.undo_action(0, 2)
        p.undo_action(0, 2)
        self.assertEqual(w.history(), p.history())
        self.assertEqual(w.legal_actions(), p.legal_actions())
        with self.assertRaises(wopr.SpielError):
            w.undo_action(1, 4)  # 0 was the last action
        self.assertEqual([len(g.new_initial_states()) for g in [wopr.load_game("tictactoe")]], [1])

    def test_bad_actions_players_and_types_are_value_and_type_errors(self):
        s = wopr.load_game("tictactoe").new_initial_state()
        for bad in (-1, 9, 10**6, 10**30):
            with self.assertRaises(wopr.SpielError, msg=bad):
                s.apply_action(bad)
        for bad in (7, -2, 2, 10**30):
            with self.assertRaises(ValueError, msg=bad):
                s.legal_actions(bad)
            with self.assertRaises(ValueError, msg=bad):
                s.player_return(bad)
            with self.assertRaises(ValueError, msg=bad):
                s.observation_tensor(bad)
            with self.assertRaises(ValueError, msg=bad):
                s.action_to_string(bad, 0)
        with self.assertRaises(TypeError):
            s.apply_action("4")
        with self.assertRaises(TypeError):
            s.apply_action(4.0)
        self.assertTrue(issubclass(wopr.SpielError, ValueError))
        self.assertTrue(issubclass(wopr.SpielError, pyspiel.SpielError))
        s.apply_action(np.int64(4))  # NumPy integers are actions
        self.assertEqual(s.history(), [4])


class OpenSpielsAlgorithms(unittest.TestCase):
    """OpenSpiel's pure-Python algorithms on `wopr.load_game` objects, with
    the same algorithm on `pyspiel.load_game` beside."""

    def setUp(self):
        need_openspiel(self)

    def test_alpha_beta_and_expectiminimax_on_tic_tac_toe(self):
        from open_spiel.python.algorithms import minimax

        for name in ("tic_tac_toe", "tictactoe"):
            w = wopr.load_game(name)
            p = pyspiel.load_game("tic_tac_toe")
            self.assertEqual(minimax.alpha_beta_search(w), minimax.alpha_beta_search(p))
            ws, ps = w.new_initial_state(), p.new_initial_state()
            for a in (0, 4):
                ws.apply_action(a)
                ps.apply_action(a)
            self.assertEqual(
                minimax.expectiminimax(ws, 7, None, 0), minimax.expectiminimax(ps, 7, None, 0)
            )

    def test_every_state_and_a_policys_value_on_simultaneous_and_chance_games(self):
        from open_spiel.python import policy
        from open_spiel.python.algorithms import expected_game_score, get_all_states

        for name in ("goofspiel(num_cards=3)", "kuhn_poker", "pig(winscore=10,horizon=4)"):
            answers = []
            for g in (wopr.load_game(name), pyspiel.load_game(name)):
                states = get_all_states.get_all_states(g, include_terminals=True, include_chance_states=True)
                uniform = policy.UniformRandomPolicy(g)
                # One policy for a simultaneous game, one per player otherwise.
                policies = uniform if name.startswith("goofspiel") else [uniform, uniform]
                value = expected_game_score.policy_value(g.new_initial_state(), policies)
                answers.append((sorted(states), list(value)))
            self.assertEqual(answers[0][0], answers[1][0], name)  # the same histories
            np.testing.assert_allclose(answers[0][1], answers[1][1], atol=1e-12, err_msg=name)

    def test_cfr_on_kuhn_poker(self):
        from open_spiel.python.algorithms import cfr, exploitability

        results = []
        for g in (wopr.load_game("kuhn_poker"), pyspiel.load_game("kuhn_poker")):
            solver = cfr.CFRSolver(g)
            for _ in range(100):
                solver.evaluate_and_update_policy()
            avg = solver.average_policy()
            results.append(
                (exploitability.nash_conv(g, avg, use_cpp_br=False), avg.action_probability_array)
            )
        (w_conv, w_policy), (p_conv, p_policy) = results
        self.assertAlmostEqual(w_conv, p_conv, places=12)
        np.testing.assert_allclose(w_policy, p_policy, atol=1e-12)
        self.assertLess(w_conv, 0.05)

    def test_uniform_random_bots_on_pig_and_goofspiel(self):
        from open_spiel.python.bots import uniform_random

        def play(game, seed, games=30):
            rng = np.random.RandomState(seed)
            bots = [uniform_random.UniformRandomBot(p, rng) for p in range(2)]
            total, lengths = np.zeros(2), []
            for _ in range(games):
                s = game.new_initial_state()
                while not s.is_terminal():
                    if s.is_chance_node():
                        outcomes, probs = zip(*s.chance_outcomes())
                        s.apply_action(rng.choice(outcomes, p=probs))
                    elif s.is_simultaneous_node():
                        s.apply_actions([b.step(s) for b in bots])
                    else:
                        s.apply_action(bots[s.current_player()].step(s))
                total += s.returns()
                lengths.append(len(s.history()))
            return list(total), lengths

        for name in ("goofspiel(num_cards=5)", "pig(winscore=30)"):
            self.assertEqual(play(wopr.load_game(name), 4), play(pyspiel.load_game(name), 4), name)
        # wopr's own Pig (reaching the target wins at once) is zero-sum and ends.
        total, lengths = play(wopr.load_game("pig"), 4)
        self.assertEqual(total[0], -total[1])
        self.assertTrue(all(n > 0 for n in lengths))

    def test_tabular_q_learning_through_rl_environment_on_tic_tac_toe(self):
        from open_spiel.python import rl_environment
        from open_spiel.python.algorithms import tabular_qlearner

        def run(game, episodes=300):
            np.random.seed(5)
            env = rl_environment.Environment(game, seed=5)
            agents = [tabular_qlearner.QLearner(player_id=p, num_actions=9) for p in range(2)]
            log = []
            for _ in range(episodes):
                ts = env.reset()
                while not ts.last():
                    out = agents[ts.observations["current_player"]].step(ts)
                    log.append(out.action)
                    ts = env.step([out.action])
                for a in agents:
                    a.step(ts)
                log.append(tuple(ts.rewards))
            return log

        # The same games, move for move: the observations differ in layout
        # but tell the same positions apart.
        self.assertEqual(run(wopr.load_game("tic_tac_toe")), run(pyspiel.load_game("tic_tac_toe")))

    def test_python_mcts_bot_on_connect_four_picks_pyspiels_moves(self):
        from open_spiel.python.algorithms import mcts

        def moves(game, plies=4):
            rs = np.random.RandomState(7)
            bot = mcts.MCTSBot(game, 2, 100, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
            s, out = game.new_initial_state(), []
            for _ in range(plies):
                a = bot.step(s)
                out.append(a)
                s.apply_action(a)
            return out

        p = moves(pyspiel.load_game("connect_four"))
        self.assertEqual(moves(wopr.load_game("connect_four")), p)
        self.assertEqual(moves(wopr.load_game("connect4")), p)


class InsideOpenSpiel(unittest.TestCase):
    """`wopr.openspiel.load_game` objects, real `pyspiel.Game`s, in the
    algorithms that accept only pyspiel's classes (C++ among them), with
    pyspiel's own game beside."""

    def setUp(self):
        need_openspiel(self)
        from wopr import openspiel

        self.openspiel = openspiel

    def test_mcts_bot_plays_connect_four_through_evaluate_bots(self):
        # OpenSpiel's MCTSBot (a pyspiel.Bot) against its UniformRandomBot
        # through evaluate_bots, which informs bots with pyspiel's own
        # Bot.inform_action. (The C++ pyspiel.MCTSBot crashes on every
        # Python game in open_spiel 2.0.2, OpenSpiel's python_tic_tac_toe
        # too, so the Python MCTSBot stands in for it.)
        from open_spiel.python.algorithms import evaluate_bots, mcts
        from open_spiel.python.bots import uniform_random

        def play(game, seed):
            rng = np.random.RandomState(seed)
            evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
            bot = mcts.MCTSBot(game, 2, 40, evaluator, random_state=np.random.RandomState(seed))
            bots = [bot, uniform_random.UniformRandomBot(1, rng)]
            return evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)

        w = self.openspiel.load_game("connect_four")
        self.assertIsInstance(w, pyspiel.Game)
        p = pyspiel.load_game("connect_four")
        self.assertEqual([play(w, s) for s in range(3)], [play(p, s) for s in range(3)])

    def test_exploitability_of_cfr_on_kuhn_poker(self):
        from open_spiel.python.algorithms import cfr, exploitability

        def solve(game):
            solver = cfr.CFRSolver(game)
            for _ in range(100):
                solver.evaluate_and_update_policy()
            return exploitability.exploitability(game, solver.average_policy())

        w = solve(self.openspiel.load_game("kuhn_poker"))
        self.assertAlmostEqual(w, solve(pyspiel.load_game("kuhn_poker")), places=10)
        self.assertLess(w, 0.01)

    def test_uniform_random_bots_through_evaluate_bots_on_goofspiel_and_pig(self):
        from open_spiel.python.algorithms import evaluate_bots
        from open_spiel.python.bots import uniform_random

        def play(game, seed=2, games=20):
            rng = np.random.RandomState(seed)
            bots = [uniform_random.UniformRandomBot(p, rng) for p in range(2)]
            return [list(evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)) for _ in range(games)]

        for name in ("goofspiel(num_cards=5)", "pig(winscore=30)"):
            self.assertEqual(play(self.openspiel.load_game(name)), play(pyspiel.load_game(name)), name)
        for r in play(self.openspiel.load_game("pig")):
            self.assertEqual(r[0], -r[1])

    def test_register_makes_the_wopr_type_loadable_by_pyspiel(self):
        self.openspiel.register()
        self.openspiel.register()  # once is enough; twice is harmless
        game = pyspiel.load_game("wopr", {"game": "connect4:6x6"})
        self.assertEqual(game.num_distinct_actions(), 6)
        state = game.new_initial_state()
        state.apply_action(2)
        self.assertEqual(state.history(), [2])
        self.assertEqual(state.clone().history(), [2])
        self.assertEqual(state.legal_actions(), list(range(6)))
        self.assertFalse(state.is_terminal())
        self.assertEqual(len(state.observation_tensor(0)), game.observation_tensor_size())
        # pyspiel serialises a Python game's state by pickling it.
        again = game.deserialize_state(state.serialize())
        self.assertEqual(again.history(), [2])

    def test_wopr_games_and_states_pickle(self):
        import pickle

        for name in ("connect4:6x6", "goofspiel(num_cards=4)", "pig(winscore=20)"):
            game = wopr.load_game(name)
            state = game.new_initial_state()
            rng = random.Random(1)
            for _ in range(5):
                if state.is_chance_node():
                    state.apply_action(state.chance_outcomes()[0][0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            copy = pickle.loads(pickle.dumps(state))
            self.assertEqual(copy.history(), state.history(), name)
            self.assertEqual(str(copy), str(state), name)
            self.assertEqual(pickle.loads(pickle.dumps(game)), game)


class PythonBotsInWoprsMatches(unittest.TestCase):
    def setUp(self):
        need_openspiel(self)

    def test_openspiels_mcts_bot_is_measured_by_wopr_eval(self):
        from open_spiel.python.algorithms import mcts

        game = wopr.load_game("tictactoe")
        bot = mcts.MCTSBot(game, 2, 200, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                           random_state=np.random.RandomState(1), solve=True)
        row = wopr.eval(game, "perfect", bot, games=6, seed=1)[0]
        self.assertEqual(row["opponent"], "python:MCTSBot")
        # Perfect play never loses Tic-Tac-Toe.
        self.assertEqual(row["as_first"]["losses"] + row["as_second"]["losses"], 0)


if __name__ == "__main__":
    unittest.main()
