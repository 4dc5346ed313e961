// The protocol state machine: join/wait/start, the turn loop, warnings, finished.
#include "rules/smartdog/smartdog_session.hpp"

#include <array>
#include <charconv>

namespace arb::smartdog {

std::string format_score(double score) {
    // Shortest text that reads back to the same double, as JavaScript prints numbers.
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), score);
    return std::string(buffer.data(), result.ptr);
}

Session::Session(const Tile& tile, int players)
    : engine_(tile, players), players_(players), ended_(static_cast<std::size_t>(players), false),
      eliminated_(static_cast<std::size_t>(players), false), joined_players_(static_cast<std::size_t>(players), false) {}

std::vector<Outgoing> Session::take() {
    std::vector<Outgoing> lines;
    lines.swap(out_);
    return lines;
}

bool Session::waiting_for(int player) const {
    const auto i = static_cast<std::size_t>(player - 1);
    return started_ && !finished_ && !eliminated_[i] && !ended_[i];
}

void Session::join(int player) {
    if (finished_) return;  // a game stopped before everybody joined
    joined_players_[static_cast<std::size_t>(player - 1)] = true;
    ++joined_;
    if (joined_ < players_) {
        send(player, "wait ");
        return;
    }
    start_game();
}

void Session::start_game() {
    started_ = true;
    const Params& p = engine_.params();
    std::string rows;
    for (const auto& row : engine_.landscape_rows()) rows += (rows.empty() ? "\"" : ",\"") + row + "\"";
    for (int player = 1; player <= players_; ++player) {
        const Territory& t = engine_.territory(player);
        send(player, "start \"you\":" + std::to_string(player) + ",\"rows\":" + std::to_string(engine_.height()) +
                         ",\"cols\":" + std::to_string(engine_.width()) + ",\"players\":" + std::to_string(players_) +
                         ",\"x1\":" + std::to_string(t.x1) + ",\"x2\":" + std::to_string(t.x2) +
                         ",\"y1\":" + std::to_string(t.y1) + ",\"y2\":" + std::to_string(t.y2) +
                         ",\"waitForTurn\":" + std::to_string(p.wait_for_turn) +
                         ",\"dogVisibilityR\":" + std::to_string(p.visibility_r) +
                         ",\"dogBarkingR\":" + std::to_string(p.barking_r) +
                         ",\"sheepStandBy\":" + std::to_string(p.sheep_stand_by) +
                         ",\"sheepScaryTurns\":" + std::to_string(p.sheep_scary_turns) +
                         ",\"turnsLimit\":" + std::to_string(p.turns_limit) +
                         ",\"dogScaryTurns\":" + std::to_string(p.dog_scary_turns) +
                         ",\"maxSheepsCount\":" + std::to_string(engine_.sheep_per_tile()) +
                         ",\"iniSheepsCount\":" + std::to_string(engine_.initial_in_pen()));
        send(player, "landscape " + rows);
    }
    start_turn();
}

void Session::start_turn() {
    engine_.begin_turn();
    for (int player = 1; player <= players_; ++player) {
        ended_[static_cast<std::size_t>(player - 1)] = false;
        if (eliminated_[static_cast<std::size_t>(player - 1)]) continue;
        // The original writes the command as "state " / "obj " and then a separating space.
        send(player, "state  \"turn\":" + std::to_string(engine_.turn() + 1));
        for (auto& fields : engine_.snapshot(player)) send(player, "obj  " + fields);
        send(player, "turn");
    }
}

void Session::receive(int player, std::string_view line) {
    std::string text(line);
    std::erase(text, '\r');
    std::erase(text, '\n');
    text += ' ';
    const auto space = text.find(' ');
    const std::string command = text.substr(0, space);
    std::string arg = text.substr(space + 1);
    const auto first = arg.find_first_not_of(" \t");
    arg = first == std::string::npos ? "" : arg.substr(first, arg.find_last_not_of(" \t") - first + 1);
    if (command == "do" || command == "end") {
        // Nothing counts before the start, after the game or after this turn's `end` (ruling 5).
        if (!waiting_for(player)) return;
        if (command == "end") {
            ended_[static_cast<std::size_t>(player - 1)] = true;
            maybe_end_turn();
            return;
        }
        std::vector<std::string> words;
        std::size_t at = 0;
        while (true) {
            const auto next = arg.find(' ', at);
            words.push_back(arg.substr(at, next == std::string::npos ? std::string::npos : next - at));
            if (next == std::string::npos) break;
            at = next + 1;
        }
        std::string warning = engine_.command(player, words);
        if (!warning.empty()) send(player, "warning " + warning);
        return;
    }
    if (command == "join") {
        // A second `join` on a seated connection: the seat is not given twice.
        send(player, "error Already joined");
        return;
    }
    send(player, "error Unknown command: " + command + "(" + arg + ")");
}

void Session::eliminate(int player) {
    eliminated_[static_cast<std::size_t>(player - 1)] = true;
    if (!started_ || finished_) return;
    bool anyone = false;
    for (bool e : eliminated_) anyone = anyone || !e;
    if (!anyone) {
        finish();
        return;
    }
    maybe_end_turn();
}

void Session::abort_game(int player) {
    eliminated_[static_cast<std::size_t>(player - 1)] = true;
    if (finished_) return;
    finished_ = true;
    aborted_ = true;
    winner_ = 0;
    turns_played_ = started_ ? engine_.turn() + 1 : 0;
    for (int p = 1; p <= players_; ++p) {
        if (joined_players_[static_cast<std::size_t>(p - 1)]) send(p, "finished \"youWin\":false,\"error\":\"player.gone\"");
    }
}

void Session::maybe_end_turn() {
    for (int p = 0; p < players_; ++p) {
        if (!ended_[static_cast<std::size_t>(p)] && !eliminated_[static_cast<std::size_t>(p)]) return;
    }
    const bool over = engine_.end_turn();
    turns_played_ = engine_.turn() + 1;
    if (over) {
        finish();
    } else {
        start_turn();
    }
}

void Session::finish() {
    finished_ = true;
    turns_played_ = engine_.turn() + 1;
    winner_ = engine_.winner(eliminated_);
    for (int player = 1; player <= players_; ++player) {
        if (eliminated_[static_cast<std::size_t>(player - 1)]) continue;
        std::string line = std::string("finished \"youWin\":") + (winner_ == player ? "true" : "false");
        if (winner_ != 0) line += ",\"winner\":" + std::to_string(winner_);
        send(player, line);
    }
}

}  // namespace arb::smartdog
