#pragma once
// Helpers of the Planowanie referee tests over in-process bots (ScriptedTable): tables of
// scripted bots, referee settings, transcripts, scripted faults and the common checks of a
// match ended by a fault.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/match/match_runner.hpp"
#include "rules/planowanie/planowanie_game.hpp"
#include "rules/planowanie/planowanie_protocol.hpp"
#include "rules/planowanie/planowanie_referee.hpp"
#include "rules/planowanie/planowanie_replay.hpp"
#include "rules/planowanie/planowanie_verify.hpp"
#include "tools/bots/planowanie/in_process_bots.hpp"

namespace planowanie_referee_test {

using namespace arb;
using namespace arb::planowanie;
using namespace planowanie_test;

inline constexpr Millis kBudget{180000};

inline ScriptedTable make_table(std::vector<ScriptedBot> bots, Millis budget = kBudget) {
    std::vector<ScriptedTable::Seat> seats;
    for (std::size_t i = 0; i < bots.size(); ++i) {
        const int s = static_cast<int>(i);
        seats.push_back(
            {SeatInfo{s, "bot" + std::to_string(s), "p" + std::to_string(s)}, std::move(bots[i]), budget});
    }
    return ScriptedTable(std::move(seats));
}

inline std::vector<ScriptedBot> random_bots(int n, std::uint64_t first_seed = 1) {
    std::vector<ScriptedBot> bots;
    for (int i = 0; i < n; ++i) bots.push_back(random_bot(first_seed + static_cast<std::uint64_t>(i)));
    return bots;
}

inline RefereeSettings settings_for(Config config, std::uint64_t deal_seed = 42, bool quit = true,
                             std::filesystem::path log_path = {}) {
    return RefereeSettings{std::move(config), deal_seed, quit, std::move(log_path), {}};
}

inline std::filesystem::path scratch_file(const std::string& name) {
    const auto dir = std::filesystem::path(ARBITER_BINARY_DIR) / "test-scratch" / "planowanie";
    std::filesystem::create_directories(dir);
    return dir / name;
}

// Commands the referee sent to a seat, without the trailing newline.
inline std::vector<std::string> commands_to(const ScriptedTable& table, int seat) {
    const std::string prefix = std::to_string(seat) + "> ";
    std::vector<std::string> out;
    for (const auto& line : table.transcript()) {
        if (starts_with(line, prefix)) {
            std::string text = line.substr(prefix.size());
            if (!text.empty() && text.back() == '\n') text.pop_back();
            out.push_back(text);
        }
    }
    return out;
}

inline std::string transcript_text(const ScriptedTable& table) {
    std::string out;
    for (std::string line : table.transcript()) {
        if (!line.empty() && line.back() == '\n') line.pop_back();
        out += line + "\n";
    }
    return out;
}

// The tests' own deterministic player: declares 0, plays its first legal card.
class FirstLegal final : public planowanie_bot::Strategy {
  public:
    int declare(const planowanie_bot::Game&) override { return 0; }
    planowanie_bot::Card choose(const planowanie_bot::Game& game) override {
        return game.legal_cards().front();
    }
};

inline std::vector<ScriptedBot> first_legal_bots(int n) {
    std::vector<ScriptedBot> bots;
    for (int i = 0; i < n; ++i) bots.push_back(scripted_bot(std::make_shared<FirstLegal>()));
    return bots;
}

// A card of the deck that the bot does not hold.
inline std::string card_not_in_hand(const planowanie_bot::Game& game) {
    for (std::size_t s = 0; s < game.suits.size(); ++s) {
        for (std::size_t v = 0; v < game.values.size(); ++v) {
            planowanie_bot::Card c{static_cast<int>(v), static_cast<int>(s)};
            if (std::find(game.hand.begin(), game.hand.end(), c) == game.hand.end()) return game.text(c);
        }
    }
    return "??";
}

// Four random bots (seat s seeded s + 1), of which seat `faulty` also answers `fault`.
inline std::vector<ScriptedBot> random_bots_with_fault(int faulty, Fault fault) {
    std::vector<ScriptedBot> bots = random_bots(4);
    bots[static_cast<std::size_t>(faulty)] = random_bot(static_cast<std::uint64_t>(faulty) + 1, std::move(fault));
    return bots;
}

inline Fault on(std::string_view command_prefix, int at_deal, ScriptedAnswer answer) {
    return [prefix = std::string(command_prefix), at_deal, answer](
               std::string_view command, int deal,
               const planowanie_bot::Game&) -> std::optional<ScriptedAnswer> {
        if (deal == at_deal && starts_with(command, prefix)) return answer;
        return std::nullopt;
    };
}

inline void check_fault_result(const RefereeResult& result, int faulty, SeatStatus status,
                        const ScriptedTable& table) {
    const int n = static_cast<int>(result.participants.size());
    CHECK(result.end_reason == "seat " + std::to_string(faulty) + " " + to_string(status));
    for (int s = 0; s < n; ++s) {
        const auto& p = result.participants[static_cast<std::size_t>(s)];
        if (s == faulty) {
            CHECK(p.status == status);
            CHECK(p.rank == n);
            CHECK_FALSE(p.detail.empty());
        } else {
            CHECK(p.status == SeatStatus::ok);
            CHECK(p.rank == 1);
        }
    }
    // Only the faulty seat's losses: one pair per other seat, each a loss of the faulty seat.
    REQUIRE(result.pairs.size() == static_cast<std::size_t>(n - 1));
    for (const auto& pair : result.pairs) {
        CHECK((pair.a == faulty || pair.b == faulty));
        CHECK(pair.score_a == (pair.a == faulty ? 0.0 : 1.0));
    }
    // The match stops at once: after the fault, the others get only the rest of the same
    // broadcast (a simultaneous command goes to every seat) and `quit`.
    bool after = false;
    std::string last_command;
    for (const auto& line : table.transcript()) {
        const auto arrow = line.find("> ");
        if (starts_with(line, "# seat " + std::to_string(faulty) + " retired"))
            after = true;
        else if (arrow != std::string::npos && !after)
            last_command = line.substr(arrow + 2);
        else if (arrow != std::string::npos) {
            const std::string command = line.substr(arrow + 2);
            CHECK((command == "quit\n" || (command == last_command && !starts_with(command, "gen_"))));
        }
    }
    if (status == SeatStatus::illegal) CHECK(table.status(faulty) == SeatStatus::illegal);
}

}  // namespace planowanie_referee_test
