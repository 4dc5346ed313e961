#include "rules/ants/ants_protocol.hpp"

#include <cctype>
#include <string_view>

namespace arb::ants {

ReplyFramer go_framer() {
    return [](std::string_view line) {
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
        if (line.size() == 2 && (line[0] == 'g' || line[0] == 'G') && (line[1] == 'o' || line[1] == 'O'))
            return Frame::end_skip;
        return Frame::keep;
    };
}

std::string join_words(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& s : words) {
        if (!out.empty()) out += ' ';
        out += s;
    }
    return out;
}

std::string start_message(const AntsEngine& engine) { return engine.player_start_text() + "ready\n"; }

std::string turn_message(AntsEngine& engine, int player, int turn) {
    return "turn " + std::to_string(turn) + "\n" + engine.player_state_text(player) + "go\n";
}

std::string end_message(AntsEngine& engine, int player, const std::vector<std::string>& status,
                        const std::vector<int>& playerturns) {
    std::string out = "end\nplayers " + std::to_string(engine.players()) + "\n";
    out += "score " + join_words(engine.order_for_player(player, to_words(engine.scores()))) + "\n";
    out += "status " + join_words(engine.order_for_player(player, status)) + "\n";
    out += "playerturns " + join_words(engine.order_for_player(player, to_words(playerturns))) + "\n";
    out += engine.player_state_text(player);
    out += "go\n";
    return out;
}

}  // namespace arb::ants
