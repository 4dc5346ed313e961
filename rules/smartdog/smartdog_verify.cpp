// `arbiter verify smartdog TRANSCRIPT`: replays the player lines of a wire transcript
// ("P<k> > line" from a player, "P<k> < line" to it, "# ..." notes) through the session and
// compares every server line and the final scores.
#include "rules/smartdog/smartdog_verify.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <set>

#include "core/user_error.hpp"
#include "rules/smartdog/smartdog_map.hpp"
#include "rules/smartdog/smartdog_protocol.hpp"
#include "rules/smartdog/smartdog_session.hpp"

namespace arb::smartdog {
namespace {

constexpr std::size_t kMaxLine = 1 << 20;

struct TranscriptLine {
    int player = 0;   // 0 for a note
    char way = '#';   // '>' from the player, '<' to it, '#' a note
    std::string text;
};

TranscriptLine parse_line(const std::string& raw, const std::string& where) {
    TranscriptLine line;
    if (raw.starts_with("#")) {
        line.text = raw.size() > 1 ? raw.substr(raw.find_first_not_of(' ', 1) == std::string::npos ? raw.size() : raw.find_first_not_of(' ', 1)) : "";
        return line;
    }
    // P<k> <way> <text>
    std::size_t digits = 1;
    while (digits < raw.size() && std::isdigit(static_cast<unsigned char>(raw[digits]))) ++digits;
    if (!raw.starts_with("P") || digits == 1 || digits > 2 || raw.size() < digits + 2 || raw[digits] != ' ' ||
        (raw[digits + 1] != '<' && raw[digits + 1] != '>')) {
        throw UserError(where + ": not a transcript line (expected 'P<k> > ...' or 'P<k> < ...')");
    }
    line.player = std::stoi(raw.substr(1, digits - 1));
    if (line.player < 1) throw UserError(where + ": players are P1 to P4, not P" + std::to_string(line.player));
    line.way = raw[digits + 1];
    line.text = raw.size() > digits + 3 ? raw.substr(digits + 3) : "";
    return line;
}

}  // namespace

std::filesystem::path map_for_transcript(const std::filesystem::path& transcript, const std::vector<std::string>& notes) {
    for (const auto& note : notes) {
        if (note.starts_with("map ")) {
            std::filesystem::path p = note.substr(4);
            return p.is_absolute() ? p : transcript.parent_path() / p;
        }
    }
    // The golden transcripts: transcripts/<map>_<N>p.txt beside maps/<map>.txt.
    const std::string stem = transcript.stem().string();
    const auto cut = stem.rfind('_');
    if (cut == std::string::npos) {
        throw UserError(transcript.string() + ": no '# map FILE' line and the name is not <map>_<N>p.txt");
    }
    return transcript.parent_path().parent_path() / "maps" / (stem.substr(0, cut) + ".txt");
}

VerifyOutcome verify_transcript(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UserError("cannot read transcript " + path.string());
    std::vector<TranscriptLine> lines;
    std::vector<std::string> notes;
    std::set<int> players;
    std::string raw;
    while (std::getline(in, raw)) {
        if (raw.size() > kMaxLine) throw UserError(path.string() + ": line " + std::to_string(lines.size() + 1) + " is too long");
        if (!raw.empty() && raw.back() == '\r') raw.pop_back();
        lines.push_back(parse_line(raw, path.string() + ":" + std::to_string(lines.size() + 1)));
        if (lines.back().way == '#') notes.push_back(lines.back().text);
        if (lines.back().player > 0) players.insert(lines.back().player);
    }
    for (const auto& note : notes) {
        if (!note.starts_with("players ")) continue;
        const int n = std::atoi(note.c_str() + 8);
        for (int p = 1; p <= n && p <= 4; ++p) players.insert(p);
    }
    if (players.empty() || *players.rbegin() > 4 || static_cast<int>(players.size()) != *players.rbegin()) {
        throw UserError(path.string() + ": expected players P1..Pn with n from 1 to 4");
    }
    Tile tile = read_tile(map_for_transcript(path, notes).string());
    check_seed_bounds(tile, static_cast<int>(players.size()));
    // Our referee notes the options it changed from the map's.
    for (const auto& note : notes) {
        for (const auto& [key, target] : {std::pair<std::string, int*>{"turns ", &tile.params.turns_limit},
                                          {"waitForTurn ", &tile.params.wait_for_turn}}) {
            if (!note.starts_with(key)) continue;
            try {
                *target = std::stoi(note.substr(key.size()));
            } catch (const std::exception&) {
                throw UserError(path.string() + ": bad note '# " + note + "'");
            }
            if (*target < 1) throw UserError(path.string() + ": bad note '# " + note + "'");
        }
    }
    Session session(tile, static_cast<int>(players.size()));
    const bool abort_on_fault = std::find(notes.begin(), notes.end(), "on-fault abort") != notes.end();

    VerifyOutcome outcome;
    std::deque<Outgoing> sent;
    std::set<int> joined;
    std::set<int> refused;  // a first line that was not a `join`, not answered yet
    auto differ = [&](std::size_t index, const std::string& what) {
        outcome.ok = false;
        outcome.first_difference = "line " + std::to_string(index + 1) + ": " + what;
        outcome.steps = session.engine().turn() + 1;
        return outcome;
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const TranscriptLine& line = lines[i];
        if (line.way == '>') {
            if (!joined.count(line.player) && !is_join(line.text)) {
                // Our referee answers a first line that is not a `join` at once, not through the
                // session's queue; the fault note follows.
                refused.insert(line.player);
            } else if (!joined.count(line.player)) {
                joined.insert(line.player);
                session.join(line.player);
            } else {
                session.receive(line.player, line.text);
            }
            for (auto& o : session.take()) sent.push_back(std::move(o));
        } else if (line.way == '<' && refused.count(line.player) && line.text == kExpectedJoin) {
            refused.erase(line.player);
        } else if (line.way == '<') {
            const std::string expected = "P" + std::to_string(line.player) + " < " + line.text;
            if (sent.empty()) return differ(i, "expected '" + expected + "', we sent nothing");
            const std::string ours = "P" + std::to_string(sent.front().player) + " < " + sent.front().line;
            if (ours != expected) return differ(i, "expected '" + expected + "', we sent '" + ours + "'");
            sent.pop_front();
        } else if (line.text.starts_with("P") && line.text.find(" out: ") != std::string::npos) {
            // Our referee's note of a player put out by a fault, where it happened.
            const int player = std::atoi(line.text.c_str() + 1);
            if (player < 1 || player > static_cast<int>(players.size())) return differ(i, "no such player in a fault note");
            if (abort_on_fault) {
                session.abort_game(player);
            } else {
                session.eliminate(player);
                if (joined.insert(player).second) session.join(player);  // it never joined
            }
            for (auto& o : session.take()) sent.push_back(std::move(o));
        } else if (line.text.starts_with("final score P")) {
            const auto eq = line.text.find(" = ");
            if (eq == std::string::npos) continue;
            const int player = std::stoi(line.text.substr(13, eq - 13));
            if (player < 1 || player > static_cast<int>(players.size())) return differ(i, "no such player in a score note");
            const std::string ours = format_score(session.result_score(player));
            if (ours != line.text.substr(eq + 3)) {
                return differ(i, "final score of P" + std::to_string(player) + ": expected " + line.text.substr(eq + 3) + ", ours " + ours);
            }
        }
    }
    if (!sent.empty()) {
        return differ(lines.size(), "we sent more: 'P" + std::to_string(sent.front().player) + " < " + sent.front().line + "'");
    }
    outcome.ok = true;
    outcome.steps = session.turns_played();
    return outcome;
}

}  // namespace arb::smartdog
