#pragma once
// What the generic game test needs of each game beyond its descriptor: options for a short
// match, a bot count, an in-process bot that plays at random from a seed, and the game's answer
// to a reply its rules reject. A new game adds one entry to every_game_cases().
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/rng.hpp"
#include "core/table/scripted_table.hpp"
#include "tools/bots/planowanie/in_process_bots.hpp"

namespace every_game {

inline std::string shared_data(const std::string& relative) {
    return (std::filesystem::path(ARBITER_SHARED_DIR) / "data" / relative).string();
}

struct GameCase {
    std::string name;
    std::map<std::string, std::string> options;  // a short match
    int bots = 2;
    // A bot playing at random: legal-looking replies drawn from its seed.
    std::function<arb::ScriptedBot(std::uint64_t seed)> random_bot;
    // A complete reply (framed as the game wants) that the game's rules reject, sent to every
    // request, and what its rules make of it: most games put the bot out (illegal); SamurAI
    // plays an invalid plan as -1 and Koehandel gives the default action, and the bot plays on.
    std::string illegal_reply;
    std::map<std::string, std::string> illegal_options;  // Ants: --strict puts an invalid order out
    arb::SeatStatus illegal_status = arb::SeatStatus::illegal;
    std::string illegal_detail;  // a word of the detail that says what happened
};

inline std::vector<std::string> lines_of(std::string_view text) {
    std::vector<std::string> lines;
    std::size_t at = 0;
    while (at < text.size()) {
        auto end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        lines.emplace_back(text.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

// Ants: every own ant ("a ROW COL 0") gets a random direction or stays; the turn-0 block is
// answered with `go`.
inline arb::ScriptedBot ants_random_bot(std::uint64_t seed) {
    auto rng = std::make_shared<arb::Rng>(seed);
    return [rng](std::string_view request) {
        std::string out;
        if (request.starts_with("turn ") && !request.starts_with("turn 0\n")) {
            for (const auto& line : lines_of(request)) {
                int row = 0, col = 0, owner = -1;
                if (std::sscanf(line.c_str(), "a %d %d %d", &row, &col, &owner) != 3 || owner != 0) continue;
                const auto pick = rng->below(5);
                if (pick < 4) out += fmt::format("o {} {} {}\n", row, col, "NESW"[pick]);
            }
        }
        return arb::ScriptedAnswer::text(out + "go\n");
    };
}

// SamurAI: a plan from -1 (stay) to 23 (plug toward 7), valid or not for the agent.
inline arb::ScriptedBot samurai_random_bot(std::uint64_t seed) {
    auto rng = std::make_shared<arb::Rng>(seed);
    return [rng](std::string_view) { return arb::ScriptedAnswer::text(fmt::format("{}\n", rng->between(-1, 23))); };
}

// smart-dog: joins, then each turn up to two commands for dogs 1 to 4 (some refused), then `end`.
inline arb::ScriptedBot smartdog_random_bot(std::uint64_t seed) {
    auto rng = std::make_shared<arb::Rng>(seed);
    return [rng](std::string_view request) {
        if (request.empty()) return arb::ScriptedAnswer::text("join random\n");
        static const char* const kMoves[] = {"move up", "move down", "move left", "move right", "bark"};
        std::string out;
        for (auto n = rng->below(3); n > 0; --n) out += fmt::format("do {} {}\n", rng->between(1, 4), kMoves[rng->below(5)]);
        return arb::ScriptedAnswer::text(out + "end\n");
    };
}

// Koehandel: auctions on its turn, random bids (some too low: a pass), accepts trades, lets the
// server pick the cards it pays with; notifications get an empty body.
inline arb::ScriptedBot koehandel_random_bot(std::uint64_t seed) {
    auto rng = std::make_shared<arb::Rng>(seed);
    return [rng](std::string_view request) {
        const auto has = [&](std::string_view field) { return request.find(field) != std::string_view::npos; };
        if (has("&type=start")) return arb::ScriptedAnswer::text("type=auction\n");
        if (has("&type=auction") && has("&auctioneer=")) {
            static const char* const kBids[] = {"t", "tt", "f", "h", ""};
            return arb::ScriptedAnswer::text(fmt::format("money={}\n", kBids[rng->below(5)]));
        }
        return arb::ScriptedAnswer::text("");
    };
}

inline std::vector<GameCase> every_game_cases() {
    using arb::SeatStatus;
    std::vector<GameCase> cases;
    cases.push_back({"planowanie", {{"schedule", "3 5 0 3 1 1 2"}}, 3,
                     [](std::uint64_t seed) { return planowanie_test::random_bot(seed); }, "= zz\n\n", {},
                     SeatStatus::illegal, "malformed"});
    cases.push_back({"ants", {{"map", shared_data("ants/maps/maze_02p_02.map")}, {"turns", "30"}}, 2, ants_random_bot,
                     "o 0 0 Z\ngo\n", {{"strict", "true"}}, SeatStatus::illegal, "invalid"});
    cases.push_back({"samurai", {{"field", shared_data("samurai/fields/sample.dighere")}}, 2, samurai_random_bot,
                     "xyzzy\n", {}, SeatStatus::ok, "unparsable"});
    cases.push_back({"smartdog", {{"map", shared_data("smartdog/maps/simple-1.txt")}, {"turns", "20"}}, 2,
                     smartdog_random_bot, "xyzzy\n", {}, SeatStatus::illegal, "join"});
    cases.push_back({"koehandel", {{"max-trade-turns", "20"}}, 2, koehandel_random_bot, "xyzzy=1\n", {},
                     SeatStatus::ok, "default action"});
    return cases;
}

}  // namespace every_game
