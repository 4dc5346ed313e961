#include "rules/smartdog/smartdog_protocol.hpp"

#include <string>

namespace arb::smartdog {

bool is_join(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!line.starts_with("join ")) return false;
    return line.find_first_not_of(' ', 5) != std::string_view::npos;
}

bool is_join_command(std::string_view line) {
    std::string text(line);
    std::erase(text, '\r');
    return text.substr(0, text.find(' ')) == "join";
}

std::vector<std::string> split_words(const std::string& line) {
    std::vector<std::string> words;
    std::size_t at = 0;
    while (at < line.size()) {
        const auto next = line.find(' ', at);
        if (next != at) words.push_back(line.substr(at, next == std::string::npos ? std::string::npos : next - at));
        if (next == std::string::npos) break;
        at = next + 1;
    }
    return words;
}

std::string hub_of(const std::vector<std::string>& words) {
    if (words.size() < 3) return "";
    return words[2].starts_with("#") ? words[2].substr(1) : words[2];
}

std::optional<Join> read_join(const Reply& reply) {
    const std::string& line = reply.first_line();
    if (!is_join(line)) return std::nullopt;
    return Join{hub_of(split_words(line))};
}

ReplyFramer turn_framer() {
    return [count = 0](std::string_view line) mutable {
        if (line == "end" || line == "end ") return Frame::end_skip;
        return ++count >= kMaxCommandsPerTurn ? Frame::end_keep : Frame::keep;
    };
}

std::optional<std::vector<std::string>> read_commands(const Reply& reply) {
    if (reply.lines.size() >= static_cast<std::size_t>(kMaxCommandsPerTurn)) return std::nullopt;
    return reply.lines;
}

}  // namespace arb::smartdog
