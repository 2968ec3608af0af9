// Random playouts per second of OpenSpiel games on one thread.
//
// Two measurements per game, both from the game's initial state:
//  evaluator: open_spiel::algorithms::RandomRolloutEvaluator(n_rollouts=1)
//             .Evaluate(*initial) called in a loop -- OpenSpiel's own MCTS
//             random-rollout code (Clone, LegalActions, absl::Uniform over a
//             std::mt19937, ApplyAction, Returns), linked from mcts.cc.
//  loop:      the same loop written out here (mirrors
//             RandomRolloutEvaluator::Evaluate line for line), so the moves
//             can be counted: actions/s and plies/game.
// The clock is read once per 256 playouts (as `wopr bench` does).
//
// Usage: bench [seconds] [game_string ...]
//        bench n=N game_string   (exactly N evaluator playouts, for callgrind)

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "open_spiel/abseil-cpp/absl/random/distributions.h"
#include "open_spiel/algorithms/mcts.h"
#include "open_spiel/spiel.h"

using open_spiel::Action;
using open_spiel::State;

namespace {

using Clock = std::chrono::steady_clock;

volatile double g_sink = 0;

struct Result {
  long long playouts = 0;
  long long actions = 0;
  double secs = 0;
};

Result MeasureEvaluator(const State& start, double budget) {
  open_spiel::algorithms::RandomRolloutEvaluator eval(1, 0);
  Result r;
  auto t0 = Clock::now();
  double sink = 0;
  for (;;) {
    for (int i = 0; i < 256; ++i) {
      std::vector<double> v = eval.Evaluate(start);
      sink += v[0];
      ++r.playouts;
    }
    r.secs = std::chrono::duration<double>(Clock::now() - t0).count();
    if (r.secs >= budget) break;
  }
  g_sink = sink;
  return r;
}

// Mirrors RandomRolloutEvaluator::Evaluate (algorithms/mcts.cc) with
// n_rollouts = 1, counting moves. All four games here have no chance nodes.
Result MeasureLoop(const State& start, double budget) {
  std::mt19937 rng(0);
  Result r;
  auto t0 = Clock::now();
  double sink = 0;
  for (;;) {
    for (int i = 0; i < 256; ++i) {
      std::unique_ptr<State> working_state = start.Clone();
      while (!working_state->IsTerminal()) {
        if (working_state->IsChanceNode()) {
          open_spiel::ActionsAndProbs outcomes =
              working_state->ChanceOutcomes();
          working_state->ApplyAction(
              open_spiel::SampleAction(outcomes, rng).first);
        } else {
          std::vector<Action> actions = working_state->LegalActions();
          working_state->ApplyAction(
              actions[absl::Uniform(rng, 0u, actions.size())]);
        }
        ++r.actions;
      }
      std::vector<double> returns = working_state->Returns();
      sink += returns[0];
      ++r.playouts;
    }
    r.secs = std::chrono::duration<double>(Clock::now() - t0).count();
    if (r.secs >= budget) break;
  }
  g_sink = sink;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 2.0;
  std::vector<std::string> games;
  if (argc > 2 && std::string(argv[1]).rfind("n=", 0) == 0) {
    long long n = std::atoll(argv[1] + 2);
    auto game = open_spiel::LoadGame(argv[2]);
    auto start = game->NewInitialState();
    open_spiel::algorithms::RandomRolloutEvaluator eval(1, 0);
    double sink = 0;
    for (long long i = 0; i < n; ++i) sink += eval.Evaluate(*start)[0];
    g_sink = sink;
    std::printf("%lld playouts of %s\n", n, argv[2]);
    return 0;
  }
  if (argc > 1) seconds = std::atof(argv[1]);
  for (int i = 2; i < argc; ++i) games.push_back(argv[i]);
  if (games.empty()) games = {"dots_and_boxes(num_rows=3,num_cols=3)"};

  std::printf("%-40s %-9s %14s %14s %10s\n", "game", "mode", "playouts/s",
              "actions/s", "plies/game");
  for (const std::string& name : games) {
    std::shared_ptr<const open_spiel::Game> game = open_spiel::LoadGame(name);
    std::unique_ptr<State> start = game->NewInitialState();
    Result loop = MeasureLoop(*start, seconds);
    double plies = double(loop.actions) / loop.playouts;
    Result ev = MeasureEvaluator(*start, seconds);
    std::printf("%-40s %-9s %14.0f %14s %10s\n", name.c_str(), "evaluator",
                ev.playouts / ev.secs, "", "");
    std::printf("%-40s %-9s %14.0f %14.0f %10.2f\n", name.c_str(), "loop",
                loop.playouts / loop.secs, loop.actions / loop.secs, plies);
    std::fflush(stdout);
  }
  return 0;
}
