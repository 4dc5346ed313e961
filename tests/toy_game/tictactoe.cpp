#include "tests/toy_game/tictactoe.hpp"

#include <array>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/json_text.hpp"
#include "core/user_error.hpp"
#include "rules/seat_driver.hpp"

namespace arb::tictactoe {
namespace {

using Board = std::array<char, 9>;

constexpr std::array<std::array<int, 3>, 8> kLines = {{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                                      {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}};

std::optional<int> winner(const Board& b) {
    for (const auto& l : kLines)
        if (b[l[0]] != '.' && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]]) return b[l[0]] == 'x' ? 0 : 1;
    return std::nullopt;
}

// Plays `moves` from the empty board; the first illegal one is named.
struct Played {
    Board board{};
    std::optional<int> winner;
    std::string illegal;  // "" = every move legal
};

Played play(const std::vector<int>& moves) {
    Played p;
    p.board.fill('.');
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const int cell = moves[i];
        if (p.winner || cell < 0 || cell > 8 || p.board[cell] != '.') {
            p.illegal = fmt::format("move {}: cell {} is not free", i + 1, cell);
            return p;
        }
        p.board[cell] = i % 2 == 0 ? 'x' : 'o';
        p.winner = winner(p.board);
    }
    return p;
}

std::optional<int> read_cell(const Reply& reply) {
    const std::string& line = reply.first_line();
    if (line.size() != 1 || line[0] < '0' || line[0] > '8') return std::nullopt;
    return line[0] - '0';
}

nlohmann::json replay_json(const std::vector<int>& moves, std::optional<int> won) {
    return {{"game", "tictactoe"}, {"moves", moves}, {"winner", won ? nlohmann::json(*won) : nlohmann::json(nullptr)}};
}

RefereeResult referee(const MatchRequest& request, Table& table) {
    std::vector<int> moves;
    RefereeResult result;
    result.participants.resize(2);
    Played state = play(moves);
    int loser = -1;
    while (!state.winner && moves.size() < 9) {
        const int seat = static_cast<int>(moves.size() % 2);
        const std::string board(state.board.begin(), state.board.end());
        auto answer = ask_seat(table, seat, "turn " + board + "\n", one_line_framer(), read_cell);
        if (answer.failed() || !answer.move || state.board[*answer.move] != '.') {
            result.participants[seat].status = answer.failed() ? answer.fault().status : SeatStatus::illegal;
            result.participants[seat].detail = fmt::format("move {}: {}", moves.size() + 1,
                                                           answer.failed() ? to_string(answer.fault().status) : "not a free cell");
            loser = seat;
            break;
        }
        moves.push_back(*answer.move);
        state = play(moves);
    }
    const std::optional<int> won = loser >= 0 ? std::optional<int>(1 - loser) : state.winner;
    for (int s = 0; s < 2; ++s) {
        result.participants[s].score = !won ? 0.5 : *won == s ? 1 : 0;
        result.participants[s].rank = !won || *won == s ? 1 : 2;
    }
    result.pairs = {{0, 1, result.participants[0].score}};
    result.end_reason = loser >= 0 ? "fault" : won ? "three in a row" : "draw";
    result.turns = static_cast<int>(moves.size());
    if (!request.replay_path.empty()) std::ofstream(request.replay_path) << replay_json(moves, won).dump() << "\n";
    return result;
}

// A replay's moves, each legal, and its winner as they give it. Throws UserError.
std::vector<int> checked_moves(const nlohmann::json& json, const std::string& source) {
    if (!json.contains("moves") || !json["moves"].is_array()) throw UserError(source + ": no \"moves\" array");
    std::vector<int> moves;
    for (const auto& m : json["moves"]) {
        if (!m.is_number_integer()) throw UserError(source + ": a move that is not a cell number");
        moves.push_back(m.get<int>());
    }
    const Played p = play(moves);
    if (!p.illegal.empty()) throw UserError(source + ": " + p.illegal);
    const nlohmann::json won = p.winner ? nlohmann::json(*p.winner) : nlohmann::json(nullptr);
    if (json.value("winner", nlohmann::json()) != won) throw UserError(source + ": the winner is not the one the moves give");
    return moves;
}

GameViewer viewer() {
    GameViewer v;
    v.script = viewer_script();
    v.kind = "a tic-tac-toe replay";
    v.example_replay = "game.json";
    v.recognises = [](const ReplayText& r) { return r.json != nullptr && r.json->value("game", "") == "tictactoe"; };
    v.read = [](const ReplayText& r) {
        checked_moves(*r.json, r.path.string());
        return *r.json;
    };
    return v;
}

}  // namespace

GameDescriptor describe_game() {
    GameDescriptor game;
    game.name = "tictactoe";
    game.summary = "tic-tac-toe: a test's toy game";
    game.replay_file = "replay.json";
    game.options = {{"turn-ms", OptionKind::integer, "2000", "ms per move"}};
    game.plan = [](const MatchRequest& request) {
        TimeControl time;
        time.per_request = Millis{request.options.integer("turn-ms")};
        return one_seat_per_bot(request, time);
    };
    game.referee = referee;
    game.verify = [](const std::filesystem::path& path) {
        VerifyOutcome out;
        try {
            out.steps = static_cast<int>(checked_moves(parse_json_text(read_text_file(path, kMaxReplayBytes), path.string()),
                                                       path.string()).size());
            out.ok = true;
        } catch (const UserError& e) {
            out.first_difference = e.what();
        }
        return out;
    };
    game.viewer = viewer();
    return game;
}

}  // namespace arb::tictactoe
