// A GTP front end for Egaroucid for Web (Takuto Yamana's Othello engine,
// GPL-3.0-or-later), so that wopr's `gtp:` player can play it (issue 69,
// part 1). tools/engines/build compiles it against the `src/web` folder of
// Egaroucid's repository, in a cache outside wopr's repository; nothing of
// Egaroucid is kept in wopr.
//
//   egaroucid-gtp LEVEL
//
// LEVEL is Egaroucid for Web's level (1..=60, as its web page's slider): its
// search depth and where its exact endgame starts (its `level.hpp`). The
// engine's own book (compiled into `src/web`) is used, as on its web page.
// Only 8x8 boards are played. The board is kept here: `play` applies a move
// with Egaroucid's own move code, `genmove` asks `ai()` for the side to
// move and plays its answer; a side with no move answers `pass`.
#include <cctype>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <cstdint>

// Egaroucid for Web is written for WebAssembly, where uint64_t is unsigned
// long long; its logging calls max(1ULL, a uint64_t), which needs this
// overload where uint64_t is unsigned long.
inline unsigned long long max(unsigned long long a, unsigned long b) { return a > b ? a : b; }

#include "web/ai.hpp"

namespace {

// Egaroucid numbers squares from h8 (bit 0) to a1 (bit 63).
int parse_vertex(const std::string& v) {
    if (v.size() != 2) return -1;
    int col = std::tolower(static_cast<unsigned char>(v[0])) - 'a';
    int row = v[1] - '1';
    if (col < 0 || col > 7 || row < 0 || row > 7) return -1;
    return HW2_M1 - (row * HW + col);
}

std::string vertex(int bit) {
    int idx = HW2_M1 - bit;
    std::string s;
    s += static_cast<char>('A' + idx % HW);
    s += static_cast<char>('1' + idx / HW);
    return s;
}

// The game: a board from the side to move's view, and whose turn it is.
struct Game {
    Board board;
    int to_move = BLACK;

    void reset() {
        board.reset();
        to_move = BLACK;
    }

    void pass() {
        board.pass();
        to_move = 1 - to_move;
    }

    // Plays `bit` for the side to move; false if it is not a legal move.
    bool play(int bit) {
        if (!(board.get_legal() >> bit & 1)) return false;
        Flip flip;
        calc_flip(&flip, &board, bit);
        board.move_board(&flip);
        to_move = 1 - to_move;
        return true;
    }
};

// Runs `f` with Egaroucid's own logging (on both streams) dropped, so that
// only GTP answers reach stdout.
template <typename F>
void quietly(F f) {
    std::streambuf* out = std::cout.rdbuf(nullptr);
    std::streambuf* err = std::cerr.rdbuf(nullptr);
    f();
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    std::cout.clear();
    std::cerr.clear();
}

int colour(const std::string& c) {
    std::string s;
    for (char ch : c) s += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (s == "b" || s == "black") return BLACK;
    if (s == "w" || s == "white") return WHITE;
    return -1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: egaroucid-gtp LEVEL (1..60)\n";
        return 2;
    }
    int level = std::atoi(argv[1]);
    if (level < 1 || level > 60) {
        std::cerr << "egaroucid-gtp: level " << argv[1] << " is not in 1..60\n";
        return 2;
    }
    // Egaroucid's own start-up, as its web page runs it.
    quietly([] {
        board_init();
        mobility_init();
        stability_init();
        parent_transpose_table.first_init();
        child_transpose_table.first_init();
        evaluate_init();
        book_init();
    });

    const std::vector<std::string> known = {
        "protocol_version", "name", "version", "list_commands", "known_command", "boardsize",
        "clear_board", "komi", "play", "genmove", "quit"};
    Game game;
    game.reset();
    std::string line;
    while (std::getline(std::cin, line)) {
        auto hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        std::istringstream in(line);
        std::vector<std::string> words;
        for (std::string w; in >> w;) words.push_back(w);
        if (words.empty()) continue;
        std::string id;
        if (std::isdigit(static_cast<unsigned char>(words[0][0]))) {
            id = words[0];
            words.erase(words.begin());
            if (words.empty()) continue;
        }
        const std::string cmd = words[0];
        bool ok = true;
        std::string text;
        if (cmd == "protocol_version") {
            text = "2";
        } else if (cmd == "name") {
            text = "Egaroucid for Web";
        } else if (cmd == "version") {
            text = "level " + std::to_string(level);
        } else if (cmd == "list_commands") {
            for (size_t i = 0; i < known.size(); ++i) text += (i ? "\n" : "") + known[i];
        } else if (cmd == "known_command") {
            bool k = false;
            for (const auto& c : known) k = k || (words.size() > 1 && words[1] == c);
            text = k ? "true" : "false";
        } else if (cmd == "boardsize") {
            ok = words.size() == 2 && words[1] == "8";
            if (!ok) text = "Egaroucid plays 8x8 only";
        } else if (cmd == "clear_board") {
            game.reset();
        } else if (cmd == "komi" || cmd == "time_settings" || cmd == "time_left" ||
                   cmd == "quit") {
        } else if (cmd == "play") {
            int c = words.size() == 3 ? colour(words[1]) : -1;
            if (c < 0) {
                ok = false;
                text = "play needs a colour and a vertex";
            } else {
                if (c != game.to_move) game.pass();
                std::string v = words[2];
                for (auto& ch : v) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                if (v == "pass") {
                    game.pass();
                } else {
                    int bit = parse_vertex(v);
                    if (bit < 0 || !game.play(bit)) {
                        ok = false;
                        text = "illegal move " + words[2];
                    }
                }
            }
        } else if (cmd == "genmove") {
            int c = words.size() == 2 ? colour(words[1]) : -1;
            if (c < 0) {
                ok = false;
                text = "genmove needs a colour";
            } else {
                if (c != game.to_move) game.pass();
                if (game.board.get_legal() == 0) {
                    game.pass();
                    text = "pass";
                } else {
                    Search_result r;
                    quietly([&] { r = ai(game.board, level, true, false, false); });
                    text = vertex(r.policy);
                    game.play(r.policy);
                }
            }
        } else {
            ok = false;
            text = "unknown command";
        }
        std::cout << (ok ? "=" : "?") << id << " " << text << "\n\n" << std::flush;
        if (cmd == "quit") break;
    }
    return 0;
}
