// Every game's step marks (Table::mark_step) against its viewer: a match with in-process bots is
// marked from 0 one frame at a time below the number of frames its renderer draws from the same
// replay data, and a known exchange of each game lies under the step of the frame that draws it.
#include <doctest/doctest.h>

#include <algorithm>
#include <regex>

#include <nlohmann/json.hpp>

#include "tests/rules/every_game_play.hpp"

using namespace arb;
using namespace every_game;

namespace {

// What `arbiter view` hands the game's renderer as its replay data, for a played match.
nlohmann::json viewer_replay(const Played& played) {
    const GameViewer& viewer = find_game(played.request.game).viewer;
    if (viewer.replay_is_folder) {  // Koehandel: its logs replayed with the record's seed and options
        MatchRecord record;
        record.game = played.request.game;
        record.seed = played.request.seed;
        record.deal_set = played.request.deal_set;
        record.config_json = played.request.options.to_json();
        record.participants.resize(played.request.bots.size());
        return viewer.read_folder(record, played.replay_path);
    }
    std::ifstream in(played.replay_path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    ReplayText replay{played.replay_path, text.str()};
    const nlohmann::json json = nlohmann::json::parse(replay.text, nullptr, false);
    if (!json.is_discarded()) replay.json = &json;
    return viewer.read(replay);
}

// smart-dog's turns as its renderer groups the wire transcript: one more at each state sent with
// another "turn" than the last.
std::vector<int> smartdog_viewer_turns(const nlohmann::json& replay) {
    static const std::regex state(R"re(^P\d+ < ?state\s+"turn":(\d+))re");
    std::vector<int> turns;
    for (const auto& line : replay.at("lines")) {
        const std::string text = line.get<std::string>();
        std::smatch m;
        if (!std::regex_search(text, m, state)) continue;
        const int n = std::stoi(m[1].str());
        if (turns.empty() || turns.back() != n) turns.push_back(n);
    }
    return turns;
}

// How many frames the game's renderer draws from that data: each renderer's own count
// (rules/<game>/<game>_viewer.js, `frames`).
int viewer_frames(const std::string& game, const nlohmann::json& replay) {
    using nlohmann::json;
    if (game == "ants") {  // turns 0..length, then the final scores
        const int length = replay.contains("game_length")
                               ? replay["game_length"].get<int>()
                               : static_cast<int>(replay["replaydata"]["scores"][0].size()) - 1;
        return length + 2;
    }
    if (game == "planowanie") {  // per deal: dealt, declared (when declarations are in), each card; a fault
        int n = 0;
        for (const auto& deal : replay.at("deals")) {
            ++n;
            if (deal.contains("declarations") && deal["declarations"].is_array() && !deal["declarations"].empty()) ++n;
            if (deal.contains("tricks") && deal["tricks"].is_array())
                for (const auto& trick : deal["tricks"]) n += static_cast<int>(trick.at("cards").size());
        }
        // A match that ended waiting for a decision draws that request as one more frame.
        return std::max(n, 1) + (replay.contains("fault") ? 1 : 0);
    }
    if (game == "samurai") {  // each game's states, game 2's after game 1's
        int n = 0;
        for (const auto& g : replay.at("games")) n += static_cast<int>(g.at("states").size());
        return n;
    }
    if (game == "smartdog")  // every turn, then the final scores
        return std::max(static_cast<int>(smartdog_viewer_turns(replay).size()), 1) + 1;
    if (game == "koehandel") return static_cast<int>(replay.at("turns").size());
    FAIL("no frame count for " << game);
    return 0;
}

// A transcript line with the step mark in force (-1 before the first).
struct StepLine {
    int step = -1;
    std::string text;
};

std::vector<StepLine> lines_by_step(const std::vector<std::string>& transcript, std::vector<int>* marks = nullptr) {
    std::vector<StepLine> out;
    int step = -1;
    for (const auto& line : transcript) {
        if (line.starts_with("# step ")) {
            step = std::stoi(line.substr(7));
            if (marks) marks->push_back(step);
            continue;
        }
        out.push_back({step, line});
    }
    return out;
}

// What went to (`>`) or came from (`<`) seat `seat` under step `step`.
std::vector<std::string> exchanged(const std::vector<StepLine>& lines, int step, int seat, char way) {
    const std::string prefix = std::to_string(seat) + way + " ";
    std::vector<std::string> out;
    for (const auto& l : lines)
        if (l.step == step && l.text.starts_with(prefix)) out.push_back(l.text.substr(prefix.size()));
    return out;
}

bool is_exchange(const std::string& line) {
    static const std::regex seat_line(R"(^\d+[<>] )");
    return std::regex_search(line, seat_line);
}

bool is_request(const std::string& line) {
    static const std::regex sent_line(R"(^\d+> )");
    return std::regex_search(line, sent_line);
}

}  // namespace

TEST_CASE("every game: step marks number the viewer's frames") {
    for (const auto& game : every_game::every_game_cases()) {
        CAPTURE(game.name);
        const Played played = play(game, 11, scratch(game.name + "-steps"));
        const int frames = viewer_frames(game.name, viewer_replay(played));
        std::vector<int> marks;
        const auto lines = lines_by_step(played.transcript, &marks);
        CAPTURE(frames);
        REQUIRE(!marks.empty());
        CHECK(marks.front() == 0);
        // Each mark is the next frame: none skipped, none gone back to.
        for (std::size_t i = 1; i < marks.size(); ++i) {
            CAPTURE(i);
            CHECK(marks[i] == marks[i - 1] + 1);
        }
        CHECK(marks.back() < frames);
        // Every frame has its exchanges, but for a last one that only sums up (final scores).
        CHECK(marks.back() >= frames - 2);
        for (const auto& l : lines)
            if (l.step < 0) CHECK_MESSAGE(!is_exchange(l.text), "an exchange before the first mark: " << l.text);
    }
}

TEST_CASE("every game: a known exchange lies under the step of the frame that draws it") {
    const auto cases = every_game::every_game_cases();
    const auto game_case = [&](const std::string& name) {
        return *std::find_if(cases.begin(), cases.end(), [&](const GameCase& c) { return c.name == name; });
    };
    const auto played = [&](const std::string& name) { return play(game_case(name), 11, scratch(name + "-known-step")); };
    const auto starts = [](const std::vector<std::string>& texts, std::string_view prefix) {
        return std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return t.starts_with(prefix); });
    };

    SUBCASE("Ants: turn t's request and orders under step t (frame t: the map after turn t)") {
        const Played p = played("ants");
        const auto lines = lines_by_step(p.transcript);
        CHECK(starts(exchanged(lines, 0, 0, '>'), "turn 0\n"));
        CHECK(starts(exchanged(lines, 7, 0, '>'), "turn 7\n"));
        CHECK(!starts(exchanged(lines, 6, 0, '>'), "turn 7\n"));
    }
    SUBCASE("Planowanie: the declarations under step 1, the first card of deal 1 under step 2") {
        const Played p = played("planowanie");
        const nlohmann::json replay = viewer_replay(p);
        const auto lines = lines_by_step(p.transcript);
        const auto& trick = replay["deals"][0]["tricks"][0];
        const int leader = trick["leader"].get<int>();
        const std::string card = trick["cards"][0].get<std::string>();
        CHECK(starts(exchanged(lines, 1, 0, '>'), "gen_declare"));
        CHECK(starts(exchanged(lines, 0, 0, '>'), "set_cards"));  // the hands, drawn by frame 0 'dealt'
        const auto replies = exchanged(lines, 2, leader, '<');
        CAPTURE(card);
        CHECK(std::find(replies.begin(), replies.end(), "= " + card) != replies.end());
    }
    SUBCASE("SamurAI: game 1's plans under steps 1.., game 2's from the frame after game 1's last state + 1") {
        const Played p = played("samurai");
        const nlohmann::json replay = viewer_replay(p);
        const auto lines = lines_by_step(p.transcript);
        const int first = static_cast<int>(replay["games"][0]["states"].size());  // game 2's first frame
        const int frames = viewer_frames("samurai", replay);
        for (int seat = 0; seat < 8; ++seat) {
            CAPTURE(seat);
            const bool game1 = seat < 4;
            CHECK(exchanged(lines, 0, seat, '>').empty());      // game 1's field before its first step
            CHECK(exchanged(lines, first, seat, '>').empty());  // game 2's
            CHECK(exchanged(lines, 1, seat, '>').empty() != game1);
            CHECK(exchanged(lines, first - 1, seat, '>').empty() != game1);
            CHECK(exchanged(lines, first + 1, seat, '>').empty() == game1);
            CHECK(exchanged(lines, frames - 1, seat, '>').empty() == game1);
        }
    }
    SUBCASE("smart-dog: the state sent under step k is the viewer's turn k") {
        const Played p = played("smartdog");
        const auto turns = smartdog_viewer_turns(viewer_replay(p));
        const auto lines = lines_by_step(p.transcript);
        static const std::regex state(R"re((^|\n)state\s+"turn":(\d+))re");
        int states = 0;
        for (const auto& l : lines) {
            std::smatch m;
            if (!is_request(l.text) || !std::regex_search(l.text, m, state)) continue;
            CAPTURE(l.step);
            REQUIRE(l.step >= 0);
            REQUIRE(l.step < static_cast<int>(turns.size()));
            CHECK(std::stoi(m[2].str()) == turns[static_cast<std::size_t>(l.step)]);
            ++states;
        }
        CHECK(states >= 2 * 3);
        CHECK(starts(exchanged(lines, 0, 0, '<'), "join"));  // the joins under the first turn
    }
    SUBCASE("Koehandel: seat 0's start requests under step k are those the viewer shows in turn k") {
        const Played p = played("koehandel");
        const nlohmann::json replay = viewer_replay(p);
        const auto lines = lines_by_step(p.transcript);
        const auto& turns = replay["turns"];
        int asked = 0;
        for (std::size_t k = 0; k < turns.size(); ++k) {
            CAPTURE(k);
            int shown = 0;
            for (const auto& e : turns[k]["events"])
                if (e.value("asked", false) && e.value("seat", -1) == 0 && e.value("type", "") == "start") ++shown;
            int sent = 0;
            for (const auto& r : exchanged(lines, static_cast<int>(k), 0, '>'))
                if (r.find("&type=start") != std::string::npos) ++sent;
            CHECK(sent == shown);
            asked += sent;
        }
        CHECK(asked > 0);
        CHECK(starts(exchanged(lines, 0, 0, '>'), "/?market="));
        const auto last = exchanged(lines, static_cast<int>(turns.size()) - 1, 0, '>');
        CHECK(std::any_of(last.begin(), last.end(), [](const std::string& r) { return r.find("&type=end") != std::string::npos; }));
    }
}
