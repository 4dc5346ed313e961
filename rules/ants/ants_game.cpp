#include "rules/ants/ants_game.hpp"

#include <fstream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/user_error.hpp"
#include "rules/ants/ants_engine.hpp"
#include "rules/ants/ants_food.hpp"
#include "rules/ants/ants_map.hpp"
#include "rules/ants/ants_referee.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/ants/ants_verify.hpp"
#include "rules/ants/cpython_random.hpp"

namespace arb::ants {
namespace {

struct Setup {
    AntsMap map;
    AntsParams params;
    std::string food_mode;
    // The one generator of the match: CPython's MT19937 seeded with the engine seed, drawn in
    // the original's order (ants.md section 9), so a seed gives the original engine's game.
    std::shared_ptr<CPythonRandom> python;
    bool strict = false;
};

int positive_int(const MatchRequest& request, const char* key, bool allow_zero = false) {
    const std::int64_t v = request.options.integer(key);
    if (v < (allow_zero ? 0 : 1) || v > 1'000'000'000)
        throw UserError(fmt::format("game option '{}' must be {} (got {})", key, allow_zero ? ">= 0" : "positive", v));
    return static_cast<int>(v);
}

// A food parameter: the value given, or randrange(lo, hi + 1) as the original (ants.md section 5).
int food_param(const MatchRequest& request, const char* key, int lo, int hi, CPythonRandom& python) {
    if (request.options.has(key) && !request.options.text(key).empty()) return positive_int(request, key, true);
    return static_cast<int>(python.randrange(lo, hi + 1));
}

Setup setup_for(const MatchRequest& request) {
    Setup s;
    if (!request.options.has("map")) throw UserError("ants needs a map: --map FILE (maps: ../shared/data/ants/maps)");
    s.map = load_map_file(request.options.path("map").string());
    if (static_cast<int>(request.bots.size()) != s.map.players)
        throw UserError(fmt::format("map '{}' is for {} players, {} bots given", request.options.path("map").string(),
                                    s.map.players, request.bots.size()));
    auto& p = s.params;
    p.turns = positive_int(request, "turns");
    p.loadtime_ms = positive_int(request, "startup-ms");
    p.turntime_ms = positive_int(request, "turn-ms");
    p.viewradius2 = positive_int(request, "viewradius2", true);
    p.attackradius2 = positive_int(request, "attackradius2", true);
    p.spawnradius2 = positive_int(request, "spawnradius2", true);
    for (const char* key : {"viewradius2", "attackradius2", "spawnradius2"})
        if (request.options.integer(key) > 100)
            throw UserError(fmt::format("game option '{}' must be at most 100 (the original's limit)", key));
    p.cutoff_turn = positive_int(request, "cutoff-turn");
    p.cutoff_percent = request.options.number("cutoff-percent");
    if (!(p.cutoff_percent > 0 && p.cutoff_percent <= 1))
        throw UserError("game option 'cutoff-percent' must be in (0, 1]");
    const std::uint64_t seed = request.seed;
    p.engine_seed = request.options.has("engine-seed") && !request.options.text("engine-seed").empty()
                        ? request.options.integer("engine-seed")
                        : static_cast<std::int64_t>(seed & 0x7fffffffffffffffULL);
    p.player_seed = request.options.has("player-seed") && !request.options.text("player-seed").empty()
                        ? request.options.integer("player-seed")
                        : p.engine_seed;
    s.python = std::make_shared<CPythonRandom>(p.engine_seed);
    p.food_rate = food_param(request, "food-rate", 5, 11, *s.python);
    p.food_turn = food_param(request, "food-turn", 19, 37, *s.python);
    if (p.food_turn <= 0) throw UserError("game option 'food-turn' must be positive");
    p.food_start = food_param(request, "food-start", 75, 175, *s.python);
    p.food_visible = food_param(request, "food-visible", 3, 5, *s.python);
    s.food_mode = request.options.text("food");
    if (s.food_mode != "symmetric" && s.food_mode != "random" && s.food_mode != "sections" && s.food_mode != "none")
        throw UserError("game option 'food' must be symmetric, random, sections or none (got '" + s.food_mode + "')");
    const std::string attack = request.options.text("attack");
    const auto rule = attack_rule_from_name(attack);
    if (!rule) throw UserError("game option 'attack' must be focus, closest, support or damage (got '" + attack + "')");
    p.attack = *rule;
    s.strict = request.options.flag("strict");
    return s;
}

std::unique_ptr<FoodSource> food_source(const Setup& s) {
    if (s.food_mode == "none") return std::make_unique<NoFood>();
    if (s.food_mode == "random") return std::make_unique<RandomFood>(s.python);
    if (s.food_mode == "sections") return std::make_unique<SectionsFood>(s.python);
    return std::make_unique<SymmetricFood>(s.python);
}

}  // namespace

GameDescriptor describe_game() {
    GameDescriptor game;
    game.name = "ants";
    game.replay_file = "replay.json";
    game.summary = "Ants (Google AI Challenge 2011): the original engine's rules, protocol and replays";
    game.min_bots = 2;
    game.max_bots = 10;
    // A map seats as many bots as its `players` line says (2 to 10, as the contest's pool).
    game.map_files = MapFiles{"map", "maps", [](const std::filesystem::path& path) -> std::optional<int> {
                                  return load_map_file(path.string()).players;
                              }};
    game.options = {
        {"map", OptionKind::path, "", "map file in the original format (players must match the bots)", true},
        {"turns", OptionKind::integer, "1000", "turn limit"},
        {"startup-ms", OptionKind::integer, "3000", "ms for the turn-0 reply (the original's loadtime)", false,
         {"loadtime"}},
        {"turn-ms", OptionKind::integer, "1000", "ms per turn (the original's turntime; the contest servers used 500)", false,
         {"turntime"}},
        {"viewradius2", OptionKind::integer, "77", "squared view radius"},
        {"attackradius2", OptionKind::integer, "5", "squared attack radius"},
        {"spawnradius2", OptionKind::integer, "1", "squared gathering radius"},
        {"food-rate", OptionKind::text, "", "food per player per food-turn turns (default: drawn from 5..11)", false,
         {"food_rate"}},
        {"food-turn", OptionKind::text, "", "food period in turns (default: drawn from 19..37)", false, {"food_turn"}},
        {"food-start", OptionKind::text, "", "starting food = land area / food-start (default: drawn from 75..175)", false,
         {"food_start"}},
        {"food-visible", OptionKind::text, "", "starting food per player near its hill (default: drawn from 3..5)", false,
         {"food_visible"}},
        {"food", OptionKind::text, "symmetric",
         "food placer: symmetric (the contest's), random, sections (each player's nearest squares) or none"},
        {"attack", OptionKind::text, "focus",
         "battle rule: focus (the contest's), closest, support or damage (see rules/ants/README.md)"},
        {"cutoff-turn", OptionKind::integer, "150", "turns one side may hold cutoff-percent before the game ends", false,
         {"cutoff_turn"}},
        {"cutoff-percent", OptionKind::number, "0.85", "share of the population that counts as dominating", false,
         {"cutoff_percent"}},
        {"engine-seed", OptionKind::integer, "", "engine seed written to the replay (default: --seed)", false,
         {"engine_seed"}},
        {"player-seed", OptionKind::integer, "", "player_seed sent to the bots (default: the engine seed)", false,
         {"player_seed"}},
        {"strict", OptionKind::flag, "", "an invalid order line puts the bot out (status invalid)"},
        {"stream", OptionKind::text, "", "also write the original's stream log (playgame -S) to this file"},
    };
    game.plan = [](const MatchRequest& request) {
        const Setup s = setup_for(request);
        if (s.food_mode == "symmetric") {
            AntsEngine probe(s.map, s.params, nullptr, nullptr);
            SymmetricFood::check_symmetric(probe);
        }
        return one_seat_per_bot(request, TimeControl{.per_request = Millis(s.params.turntime_ms),
                                                     .first_request = Millis(s.params.loadtime_ms)});
    };
    game.referee = [](const MatchRequest& request, Table& table) {
        const Setup s = setup_for(request);
        auto python = s.python;
        AntsEngine engine(s.map, s.params, food_source(s),
                          [python](const AntsEngine&, int) { return python->random(); });
        AntsRefereeSettings settings;
        settings.strict = s.strict;
        settings.bots_listed = [python](int live) {
            std::vector<int> bots(static_cast<std::size_t>(live));
            python->shuffle(bots);
        };
        for (const auto& bot : request.bots) settings.player_names.push_back(bot.name);
        settings.live_replay = request.live_replay_path;
        std::ofstream stream;
        if (const std::string stream_path = request.options.text("stream"); !stream_path.empty()) {
            stream.open(stream_path, std::ios::binary);
            if (!stream) throw UserError("ants: cannot write the stream file '" + stream_path + "'");
            settings.stream = [&stream](std::string_view text) { stream.write(text.data(), static_cast<std::streamsize>(text.size())); };
        }
        const AntsMatchOutcome outcome = run_ants_match(engine, table, settings);
        if (stream.is_open()) {
            stream.close();
            if (!stream) spdlog::error("ants: could not write the stream file {}", request.options.text("stream"));
        }
        if (!request.replay_path.empty()) write_replay(request.replay_path, outcome.replay);
        return referee_result(engine, outcome);
    };
    game.verify = [](const std::filesystem::path& path) { return verify_replay_file(path); };
    game.viewer = viewer();
    return game;
}

}  // namespace arb::ants
