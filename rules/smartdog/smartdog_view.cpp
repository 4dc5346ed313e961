// A smart-dog match for the viewer: its wire transcript, {"lines": [...]}: "P<n> > ..." (sent by
// player n), "P<n> < ..." (sent to it), "# ..." (a note).
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/user_error.hpp"
#include "rules/smartdog/smartdog_game.hpp"

namespace arb::smartdog {
namespace {

constexpr std::size_t kMaxTranscriptLines = 2'000'000;

bool is_transcript_line(const std::string& line) {
    if (line.empty() || line[0] == '#') return true;
    return line.size() >= 4 && line[0] == 'P' && line[1] >= '1' && line[1] <= '9' && line[2] == ' ' &&
           (line[3] == '>' || line[3] == '<');
}

// The first line after the leading notes says whether a text is meant as a transcript; the
// others are then checked one by one.
bool looks_like_transcript(const std::string& text) {
    std::size_t at = 0;
    while (at < text.size() && (text[at] == '#' || text[at] == '\n')) {
        const std::size_t end = text.find('\n', at);
        if (end == std::string::npos) return false;
        at = end + 1;
    }
    const std::string first = text.substr(at, text.find('\n', at) - at);
    return first.size() >= 4 && first[0] == 'P' && is_transcript_line(first);
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
    }
    return lines;
}

nlohmann::json transcript_json(const ReplayText& r) {
    std::vector<std::string> lines = split_lines(r.text);
    if (lines.size() > kMaxTranscriptLines)
        throw UserError(fmt::format("{}: {} lines, at most {}", r.path.string(), lines.size(), kMaxTranscriptLines));
    bool any = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!is_transcript_line(lines[i]))
            throw UserError(fmt::format("{}:{}: not a smart-dog transcript line (\"P<n> > ...\", \"P<n> < ...\" or "
                                        "\"# ...\")",
                                        r.path.string(), i + 1));
        any = any || lines[i].rfind("P", 0) == 0;
    }
    if (!any) throw UserError(r.path.string() + ": an empty smart-dog transcript");
    return {{"lines", lines}};
}

}  // namespace

GameViewer viewer() {
    GameViewer v;
    v.script = viewer_script();
    v.kind = "a smart-dog transcript";
    v.example_replay = "game.txt";
    v.recognises = [](const ReplayText& r) { return r.json == nullptr && looks_like_transcript(r.text); };
    v.read = transcript_json;
    return v;
}

}  // namespace arb::smartdog
