#include "rules/planowanie/planowanie_game.hpp"

#include <fmt/format.h>

#include <charconv>
#include <sstream>

#include "core/user_error.hpp"
#include "rules/planowanie/planowanie_referee.hpp"
#include "rules/planowanie/planowanie_replay.hpp"
#include "rules/planowanie/planowanie_verify.hpp"

namespace arb::planowanie {
namespace {

// Seed, "Przebieg turnieju": 3 to 15 minutes per game; we default to the lower end.
constexpr std::int64_t kDefaultTotalTimeMs = 180000;
constexpr int kMaxPlayers = 16;  // a sanity bound; the deck size is the real limit

// "d c1 s1 ... cd sd", the arguments of the seed's set_game command.
std::vector<DealSpec> parse_schedule(const std::string& text) {
    std::vector<long long> numbers;
    std::istringstream in(text);
    std::string word;
    while (in >> word) {
        long long value = 0;
        const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
        if (ec != std::errc() || end != word.data() + word.size() || value < 0 || value > 100000) {
            throw UserError(
                fmt::format("game option 'schedule': '{}' is not a small non-negative integer", word));
        }
        numbers.push_back(value);
    }
    if (numbers.empty()) throw UserError("game option 'schedule' is empty; expected 'd c1 s1 ... cd sd'");
    const auto count = static_cast<std::size_t>(numbers.front());
    if (numbers.size() != 1 + 2 * count) {
        throw UserError(
            fmt::format("game option 'schedule': {} deals need {} numbers after the count, got {}", count,
                        2 * count, numbers.size() - 1));
    }
    std::vector<DealSpec> deals;
    for (std::size_t i = 0; i < count; ++i) {
        deals.push_back(DealSpec{static_cast<int>(numbers[1 + 2 * i]), static_cast<int>(numbers[2 + 2 * i])});
    }
    return deals;
}

Config config_for(const MatchRequest& request) {
    const std::string& values = request.options.text("deck-values");
    const std::string& suits = request.options.text("deck-suits");
    if (auto p = Deck::problem(values, suits); !p.empty())
        throw UserError("game option 'deck-values'/'deck-suits': " + p);
    Config config;
    config.deck = Deck(values, suits);
    config.players = static_cast<int>(request.bots.size());
    config.deals = request.options.has("schedule")
                       ? parse_schedule(request.options.text("schedule"))
                       : Config::default_schedule(config.players, config.deck.size());
    if (auto p = config.problem(); !p.empty()) throw UserError("planowanie: " + p);
    return config;
}

bool sends_quit(const MatchRequest& request) {
    const std::string& end = request.options.text("end");
    if (end == "quit") return true;
    if (end == "kill") return false;
    throw UserError("game option 'end' must be 'quit' or 'kill', got '" + end + "'");
}

}  // namespace

GameDescriptor describe_game() {
    GameDescriptor game;
    game.name = "planowanie";
    game.replay_file = "replay.json";
    game.summary = "Planowanie (ITPW 2009): trick taking with secret simultaneous declarations";
    game.min_bots = 2;
    game.max_bots = kMaxPlayers;
    game.options = {
        {"deck-values", OptionKind::text, "23456789TJQKA", "card values, lowest to highest (set_deck V)"},
        {"deck-suits", OptionKind::text, "CDHS", "card suits; the first is trump (set_deck C)"},
        {"schedule", OptionKind::text, "",
         "deals as set_game arguments 'd c1 s1 ... cd sd'; default: 1..13 cards (as the deck allows), "
         "starter rotating"},
        {"total-time-ms", OptionKind::integer, std::to_string(kDefaultTotalTimeMs),
         "time budget per bot for the whole match, in ms (every reply is charged)"},
        {"end", OptionKind::text, "quit", "how bots are stopped at the end: 'quit' (send quit) or 'kill'"},
    };
    game.plan = [](const MatchRequest& request) {
        (void)config_for(request);
        (void)sends_quit(request);
        const std::int64_t total_ms = request.options.integer("total-time-ms");
        if (total_ms <= 0) throw UserError("game option 'total-time-ms' must be positive");
        return one_seat_per_bot(request, TimeControl{.total_budget = Millis(total_ms)});
    };
    game.referee = [](const MatchRequest& request, Table& table) {
        RefereeSettings settings{config_for(request), request.deal_seed(), sends_quit(request),
                                 request.replay_path, request.live_replay_path};
        return run_referee(settings, table);
    };
    game.verify = [](const std::filesystem::path& path) { return verify_game_log(read_game_log(path)); };
    game.viewer = viewer();
    return game;
}

}  // namespace arb::planowanie
