#include "rules/registry.hpp"

#include <filesystem>
#include <stdexcept>

#include "core/did_you_mean.hpp"
#include "core/user_error.hpp"
#include "rules/ants/ants_game.hpp"
#include "rules/koehandel/koehandel_game.hpp"
#include "rules/planowanie/planowanie_game.hpp"
#include "rules/samurai/samurai_game.hpp"
#include "rules/smartdog/smartdog_game.hpp"

namespace arb {

namespace {

std::deque<GameDescriptor>& games() {
    static std::deque<GameDescriptor> list = {planowanie::describe_game(), ants::describe_game(), samurai::describe_game(),
                                             smartdog::describe_game(), koehandel::describe_game()};
    return list;
}

}  // namespace

const std::deque<GameDescriptor>& all_games() { return games(); }

void add_game(GameDescriptor game) {
    for (const auto& g : games())
        if (g.name == game.name) throw std::invalid_argument("a game named '" + game.name + "' exists already");
    games().push_back(std::move(game));
}

const GameDescriptor& find_game(const std::string& name) {
    std::string known;
    std::vector<std::string> names;
    for (const auto& g : all_games()) {
        if (g.name == name) return g;
        known += (known.empty() ? "" : ", ") + g.name;
        names.push_back(g.name);
    }
    throw UserError("unknown game '" + name + "'" + did_you_mean(name, names) + " (known: " + known + ")");
}

std::string map_file_of(const std::string& game, const std::string& options_json) {
    const GameDescriptor* descriptor = nullptr;
    for (const auto& g : all_games())
        if (g.name == game) descriptor = &g;
    if (descriptor == nullptr || !descriptor->map_files) return "";
    const auto options = nlohmann::json::parse(options_json, nullptr, false);
    if (!options.is_object()) return "";
    // Under its key or an older name of it, as the record was written.
    const GameOptionSpec* wanted = find_option_spec(descriptor->options, descriptor->map_files->option);
    for (const auto& [key, value] : options.items())
        if (value.is_string() && find_option_spec(descriptor->options, key) == wanted)
            return std::filesystem::path(value.get<std::string>()).filename().string();
    return "";
}

}  // namespace arb
