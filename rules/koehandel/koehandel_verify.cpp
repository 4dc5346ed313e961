#include "rules/koehandel/koehandel_verify.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/json_text.hpp"
#include "core/user_error.hpp"
#include "rules/koehandel/koehandel_game.hpp"
#include "rules/koehandel/koehandel_play.hpp"
#include "rules/koehandel/koehandel_protocol.hpp"
#include "rules/koehandel/koehandel_replay.hpp"
#include "rules/koehandel/koehandel_referee.hpp"

namespace arb::koehandel {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxMatchFileBytes = 1 << 20;

struct MatchFile {
    MatchRequest request;  // seed, deal set, options; bots only counted
    int bots = 0;
};

MatchFile read_match_file(const fs::path& file) {
    const nlohmann::json j = parse_json_text(read_text_file(file, kMaxMatchFileBytes), file.string());
    MatchFile m;
    try {
        if (!j.is_object() || j.value("game", "") != "koehandel")
            throw UserError(file.string() + ": not a Koehandel match file (no \"game\": \"koehandel\")");
        m.request.game = "koehandel";
        m.request.seed = json_integer<std::uint64_t>(j.at("seed"));
        if (j.contains("deal_set") && !j.at("deal_set").is_null())
            m.request.deal_set = json_integer<std::uint64_t>(j.at("deal_set"));
        m.bots = json_integer<int>(j.at("bots"));
        if (m.bots < 1 || m.bots > kSeats) throw UserError(fmt::format("{}: bots must be 1 to {}", file.string(), kSeats));
        m.request.options = GameOptions(describe_game().options, j.at("options").get<std::map<std::string, std::string>>());
    } catch (const nlohmann::json::exception& e) {
        throw UserError(file.string() + ": " + e.what());
    }
    return m;
}

}  // namespace

VerifyOutcome verify_player_logs(const fs::path& path) {
    const fs::path folder = fs::is_directory(path) ? path : path.parent_path();
    const fs::path file = folder / kMatchFile;
    if (!fs::exists(file))
        throw UserError(folder.string() + ": no " + kMatchFile + " (a Koehandel match's --replay folder has one)");
    MatchFile match = read_match_file(file);
    std::vector<SeatLog> logs;
    for (int s = 0; s < kSeats; ++s) logs.push_back(read_seat_log(folder, s));
    LoggedPlayers players(std::move(logs), match.bots, market_of(match.request.seed));
    Game game(engine_options(match.request));
    VerifyOutcome outcome;
    // The turns whose every line matched: the engine counts a turn as soon as its last answer is
    // in, before its last messages are delivered (and checked).
    int turns = 0;
    try {
        begin(game, players);
        while (play_turn(game, players)) turns = game.state().turns;
        finish(game, players);
        players.check_finished();
    } catch (const LogDifference& d) {
        outcome.first_difference = fmt::format("turn {}: {} line {}: the log has '{}' where the replayed game has '{}'", turns,
                                               d.path.filename().string(), d.line, d.has, d.want);
        outcome.steps = turns;
        return outcome;
    }
    outcome.ok = true;
    outcome.steps = game.state().turns;
    return outcome;
}

}  // namespace arb::koehandel
