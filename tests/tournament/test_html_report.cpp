// The HTML report's sections over a store written here: settings, crosstable, time and memory,
// the match list with links to the files a match folder holds, escaping, statuses this build
// does not know, and the size of the page for a large tournament.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "arbiter/report/html_report.hpp"
#include "arbiter/report/report_rounds.hpp"
#include "arbiter/tournament/tournament_store.hpp"
#include "core/user_error.hpp"
#include "rating/store_internal.hpp"
#include "tests/test_scratch.hpp"

using namespace arb;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string& name) {
    const auto dir = arb::testing::fresh_scratch("report-" + name);
    return dir;
}

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

bool has(const std::string& html, const std::string& part) { return html.find(part) != std::string::npos; }

// A 3-seat match of bots in seat order with the given scores; usage grows with the score.
MatchRecord record(const std::vector<std::pair<std::string, double>>& seats, std::uint64_t seed) {
    MatchRecord r;
    r.game = "fake";
    r.seed = seed;
    r.config_json = R"({"total-time-ms":2000})";
    r.end_reason = "completed";
    r.turns = 10;
    r.started_at = "2026-11-25T10:00:00Z";
    for (std::size_t i = 0; i < seats.size(); ++i) {
        ParticipantResult p;
        p.bot = seats[i].first;
        p.command = "/bin/true";
        p.seat = static_cast<int>(i);
        p.score = seats[i].second;
        p.usage = {0.5 * p.score, 0.25 * p.score, 0.1 * p.score, 10,
                   1024 * static_cast<std::int64_t>(p.score)};
        r.participants.push_back(p);
    }
    assign_ranks_by_score(r.participants);
    r.pairs = derive_pairs_by_rank(r.participants);
    return r;
}

// The folder a tournament match leaves: record.json, transcript.txt, replay and logs/.
fs::path write_match_folder(const fs::path& files, const std::string& stem, bool with_replay) {
    const fs::path folder = files / "t1" / stem;
    write(folder / "record.json", "{}");
    write(folder / "transcript.txt", "transcript");
    write(folder / "logs" / "seat0-alpha.stderr", "hello");
    if (with_replay) write(folder / "replay.txt", "replay");
    return folder;
}

const std::string kOdd = "<b>&\"odd'";  // a bot name that must be escaped everywhere

// Three matches of tournament t1 in round 0 (one with folders, one with a forfeited seat).
std::string make_store(const fs::path& dir) {
    const std::string db = (dir / "t.sqlite").string();
    auto store = rating::Store::open(db, rating::OpenMode::create_or_open);
    tournament::TournamentStore ts(store);
    ts.open_tournament("t1", "fake",
                       R"({"game":"fake","format":"groups","seed":42,"rounds":1,"players":3,)"
                       R"("bots":["name=alpha cmd=/bin/true","name=beta cmd=\"./b <x>\""],)"
                       R"("options":{"total-time-ms":2000},"memory_mib":256,"future_key":[1,2]})");
    const fs::path files = dir / "t files#1";  // a space and a '#' must not break the links
    for (int s = 0; s < 3; ++s) {
        MatchRecord r = record({{"alpha", 3.0 + s}, {"beta", 2}, {kOdd, 1}}, 100 + s);
        r.rotation = s;
        if (s < 2) {
            const fs::path folder = write_match_folder(files, "r0-g0-s" + std::to_string(s), s == 0);
            r.transcript_path = (folder / "transcript.txt").string();
            r.replay_path = (folder / "replay.txt").string();  // s1's replay is missing on disk
        }
        if (s == 2) {
            r.participants[1].status = SeatStatus::crashed;
            r.participants[1].detail = "exit 3 <oops>";
            r.participants[1].stderr_tail = "reading hand\nassert <failed>";
        }
        store.insert_match(r, std::string("t1"), "t1/r0/g0/s" + std::to_string(s));
    }
    // A status this build does not know, as a newer arbiter would store it.
    rating::store_internal::StoreAccess::db(store).exec("UPDATE participants SET status = 'forfeited' WHERE position = 2 AND match_id = 3");
    return db;
}

std::string percent_decoded(const std::string& href) {
    std::string out;
    for (std::size_t i = 0; i < href.size(); ++i) {
        if (href[i] == '%' && i + 2 < href.size()) {
            out += static_cast<char>(std::stoi(href.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += href[i];
        }
    }
    return out;
}

std::vector<std::string> hrefs(const std::string& html) {
    std::vector<std::string> out;
    const std::regex href("href=\"([^\"]*)\"");
    for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it)
        out.push_back((*it)[1]);
    return out;
}

}  // namespace

TEST_CASE("the report shows settings, crosstable, usage and the match list with links that exist") {
    const auto dir = temp_dir("full");
    const std::string db = make_store(dir);
    auto store = rating::Store::open(db, rating::OpenMode::read_only);
    report::ReportOptions options;
    options.out_dir = dir / "report";
    options.chartjs = "";
    const auto summary = report::write_html_report(store, options);
    const std::string html = read(summary.page);

    CHECK(has(html, "<h1>arbiter report: all matches (fake) of tournament t1</h1>"));
    CHECK(has(html, "3 matches of tournament <b>t1</b>"));
    // Settings from the tournament's identity, unknown keys included, and the options as played.
    // The ranking first, the settings folded below it.
    CHECK(has(html, "<details class=\"settings\"><summary><h3>Settings</h3></summary>"));
    REQUIRE(has(html, "<h3>Ratings"));
    CHECK(html.find("<h3>Ratings") < html.find("<h3>Settings</h3>"));
    CHECK(has(html, "<a href=\"#matches-0?bot=alpha\">alpha</a> <small><a href=\"#matches-0?bot=alpha&amp;result=won\">won"
                    "</a> <a href=\"#matches-0?bot=alpha&amp;result=lost\">lost</a></small>"));
    CHECK(has(html, "<th class=\"name\">Seed</th><td class=\"name\">42</td>"));
    CHECK(has(html, "<code>name=beta cmd=&quot;./b &lt;x&gt;&quot;</code>"));
    CHECK(has(html, "<th class=\"name\">Memory limit (MiB)</th><td class=\"name\">256</td>"));
    CHECK(has(html, "<th class=\"name\">future_key</th>"));
    CHECK(has(
        html,
        "<th class=\"name\">Game options as played</th><td class=\"name\"><div><code>total-time-ms = 2000"));
    // Crosstable: alpha beat beta in all three matches (row alpha, column beta: 3-0-0, score 1).
    CHECK(has(html, "<h3>Head to head</h3>"));
    // Each cell links to the matches of its two bots in the match list below.
    CHECK(has(html, "title=\"3 games\"><a href=\"#matches-0?bot=alpha&amp;vs=beta\">3-0-0<br><small>1.00</small>"));
    CHECK(has(html, "title=\"3 games\"><a href=\"#matches-0?bot=beta&amp;vs=alpha\">0-3-0<br><small>0.00</small>"));
    CHECK(has(html, "<a href=\"#matches-0?bot=%3Cb%3E%26%22odd%27&amp;vs=alpha\">"));
    // Usage: alpha's wall total 0.5 * (3 + 4 + 5) = 6 s, peak memory max 5 MiB.
    CHECK(has(html, "<h3>Time and memory</h3>"));
    CHECK(
        has(html,
            "<tr><td class=\"name\">alpha</td><td>3</td><td>6</td><td>2</td><td>3</td><td>1</td><td>0.5</td>"
            "<td>30</td><td>5.0</td><td>4.0</td></tr>"));
    // Failures: the crash and the forfeit, shown as stored.
    CHECK(has(html, "<h3>Failures</h3>"));
    CHECK(has(html, "<th>Other</th>"));
    CHECK(has(html, "<span class=\"bad\" title=\"exit 3 &lt;oops&gt;\">crashed</span>"));
    CHECK(has(html, ">forfeited</span>"));
    // The failed seat's last stderr lines, escaped, in the list of failed seats.
    CHECK(has(html, "<th class=\"name\">Last stderr lines</th>"));
    CHECK(has(html, "<pre class=\"tail\">reading hand\nassert &lt;failed&gt;</pre>"));
    // The match list by schedule key, with links to the files that exist, relative to the report.
    CHECK(has(html, "<h3>Matches</h3>"));
    CHECK(has(html, "<details open><summary>t1/r0 &middot; 3 matches"));
    CHECK(has(html, "<tr id=\"m2\" data-seats=\"[[&quot;alpha&quot;,1,0],[&quot;beta&quot;,2,0],"
                    "[&quot;&lt;b&gt;&amp;\\&quot;odd&#39;&quot;,3,0]]\"><td>t1/r0/g0/s1</td>"));
    // The filter over the list, with every bot; the ranking's names and their won/lost links set it.
    CHECK(has(html, "<form class=\"filter\" id=\"matches-0\" data-list=\"matches-0\">"));
    CHECK(has(html, "<option>&lt;b&gt;&amp;&quot;odd&#39;</option>"));
    CHECK(has(html, "<div class=\"matchlist\" data-list=\"matches-0\">"));
    CHECK(has(html, "<a href=\"../t%20files%231/t1/r0-g0-s0/replay.txt\">replay</a>"));
    CHECK_FALSE(has(html, "r0-g0-s1/replay.txt"));  // not on disk: not linked
    CHECK(has(html, "<a href=\"../t%20files%231/t1/r0-g0-s1/record.json\">record</a>"));
    CHECK(
        has(html, "<a href=\"../t%20files%231/t1/r0-g0-s1/logs/seat0-alpha.stderr\">seat0-alpha.stderr</a>"));
    std::vector<std::string> links, anchors;
    for (const auto& link : hrefs(html))
        if (link.rfind("#matches-0?", 0) != 0) (link.front() == '#' ? anchors : links).push_back(link);
    CHECK(links.size() == 7);
    // Failed seats link to their match's row.
    CHECK(anchors == std::vector<std::string>{"#m3", "#m3"});
    CHECK(has(html, "<tr id=\"m3\" data-seats=\"[[&quot;alpha&quot;,1,0],[&quot;beta&quot;,2,1],"));
    for (const auto& link : links) {
        INFO(link);
        CHECK(link.front() != '/');
        CHECK(link.find("file:") != 0);
        CHECK(fs::exists(options.out_dir / percent_decoded(link)));
    }
    // Escaping: the odd name never appears raw.
    CHECK_FALSE(has(html, kOdd));
    CHECK(has(html, "&lt;b&gt;&amp;&quot;odd&#39;"));
    // No snapshots: no history section.
    CHECK_FALSE(has(html, "Rating history"));
}

TEST_CASE("a database moved with its files folder keeps the report's links") {
    const auto before = temp_dir("moved-before");
    const auto after = temp_dir("moved-after");
    fs::remove_all(after);
    {
        auto store = rating::Store::open((before / "t.sqlite").string(), rating::OpenMode::create_or_open);
        MatchRecord r = record({{"alpha", 2}, {"beta", 1}}, 7);
        const fs::path folder = write_match_folder(before / "t-files", "r0-g0-s0", true);
        r.transcript_path = (folder / "transcript.txt").string();
        r.replay_path = (folder / "replay.txt").string();
        store.insert_match(r, std::string("t1"), "t1/r0/g0/s0");
    }
    fs::rename(before, after);
    auto store = rating::Store::open((after / "t.sqlite").string(), rating::OpenMode::read_only);
    report::ReportOptions options;
    options.out_dir = after / "report";
    options.chartjs = "";
    options.files_root = after / "t-files";
    const std::string html = read(report::write_html_report(store, options).page);
    CHECK(has(html, "<a href=\"../t-files/t1/r0-g0-s0/transcript.txt\">transcript</a>"));
    CHECK(has(html, "<a href=\"../t-files/t1/r0-g0-s0/replay.txt\">replay</a>"));
    CHECK(has(html, "<a href=\"../t-files/t1/r0-g0-s0/record.json\">record</a>"));
    // Without the files folder the stored paths are dead, and nothing is linked.
    options.files_root.clear();
    const std::string unlinked = read(report::write_html_report(store, options).page);
    CHECK_FALSE(has(unlinked, "transcript.txt"));
}

TEST_CASE("sections without data are left out") {
    const auto dir = temp_dir("bare");
    const std::string db = (dir / "b.sqlite").string();
    {
        auto store = rating::Store::open(db, rating::OpenMode::create_or_open);
        MatchRecord r = record({{"x", 1}, {"y", 0}}, 1);
        r.pairs.clear();  // a match without pairwise results: nothing to rate or cross
        for (auto& p : r.participants) p.usage = {};
        store.insert_match(r);
    }
    auto store = rating::Store::open(db, rating::OpenMode::read_only);
    report::ReportOptions options;
    options.out_dir = dir / "report";
    options.chartjs = "";
    const std::string html = read(report::write_html_report(store, options).page);
    CHECK(has(html, "1 matches, 2026-11-25T10:00:00Z to 2026-11-25T10:00:00Z; no seat failed"));
    for (const char* absent : {"<h3>Settings", "<h3>Ratings", "<h3>Rating history", "<h3>Likelihood",
                               "<h3>Head to head", "<h3>Time and memory", "<h3>Failures", "href="}) {
        INFO(absent);
        CHECK_FALSE(has(html, absent));
    }
    CHECK(has(html, "\"><td>#1</td>"));  // no schedule key: the match id
}

TEST_CASE("the report of one tournament names it, and a large match list stays folded and compact") {
    const auto dir = temp_dir("large");
    const std::string db = (dir / "l.sqlite").string();
    const int rounds = 25, per_round = 400;  // 10,000 matches of 4 seats
    {
        auto store = rating::Store::open(db, rating::OpenMode::create_or_open);
        for (int round = 0; round < rounds; ++round) {
            std::vector<MatchRecord> batch;
            for (int m = 0; m < per_round; ++m)
                batch.push_back(
                    record({{"a1", double(m % 4)}, {"b2", double(m % 3)}, {"c3", 1}, {"d4", 2}}, m));
            const auto ids = store.insert_matches(batch, {});
            for (int m = 0; m < per_round; ++m)
                rating::store_internal::StoreAccess::db(store).exec("UPDATE matches SET tournament = 'big', schedule_key = 'big/r" +
                           std::to_string(round) + "/g" + std::to_string(m / 4) + "/s" +
                           std::to_string(m % 4) + "' WHERE id = " + std::to_string(ids[m]));
        }
    }
    auto store = rating::Store::open(db, rating::OpenMode::read_only);
    report::ReportOptions options;
    options.out_dir = dir / "report";
    options.chartjs = "";
    options.tournament = "big";
    const auto summary = report::write_html_report(store, options);
    const std::string html = read(summary.page);
    CHECK(summary.matches == rounds * per_round);
    CHECK(has(html, "<h1>arbiter report: tournament big</h1>"));
    // One closed fold per round, in round order (r10 after r9), rows in group order (g10 after g9).
    CHECK(has(html, "<details><summary>big/r0 &middot; 400 matches</summary>"));
    CHECK_FALSE(has(html, "<details open>"));
    CHECK(html.find("<summary>big/r9 ") < html.find("<summary>big/r10 "));
    CHECK(html.find(">big/r3/g9/s3<") < html.find(">big/r3/g10/s0<"));
    // Compact: under 400 bytes a match (about 4 MB for 10,000 matches of 4 seats).
    MESSAGE("report of 10,000 matches: " << html.size() << " bytes");
    CHECK(html.size() < 400u * rounds * per_round);
}

TEST_CASE("ratings round by round: cumulative fits that follow the results, only for several rounds") {
    const auto match = [](const std::string& key, const std::string& winner, const std::string& loser) {
        report::ReportMatch m;
        m.schedule_key = key;
        m.seats.resize(2);
        m.seats[0].bot = winner;
        m.seats[0].rank = 1;
        m.seats[1].bot = loser;
        m.seats[1].seat = 1;
        m.seats[1].rank = 2;
        m.pairs = {{.a = 0, .b = 1, .score_a = 1}};
        return m;
    };
    CHECK(report::round_of(match("t/r3/g1/s2", "a", "b")) == 3);
    CHECK(report::round_of(match("ladder/g/bot/r12/s0", "a", "b")) == 12);
    CHECK(report::round_of(match("t/g1", "a", "b")) == -1);

    // Round 0: alpha beats beta; round 1: beta beats alpha three times.
    std::vector<report::ReportMatch> matches = {match("t/r0/g0/s0", "alpha", "beta")};
    nlohmann::json g;
    CHECK(report::rounds_section(matches, "0", false, g).empty());  // one round: nothing to follow
    for (int s = 0; s < 3; ++s) matches.push_back(match("t/r1/g0/s" + std::to_string(s), "beta", "alpha"));
    const std::string html = report::rounds_section(matches, "0", true, g);
    CHECK(has(html, "<h3>Ratings round by round</h3>"));
    CHECK(has(html, "<canvas id=\"rounds-0\""));
    REQUIRE(g["rounds"]["labels"] == nlohmann::json::array({"round 0", "round 1"}));
    std::map<std::string, nlohmann::json> elo;
    for (const auto& s : g["rounds"]["series"]) elo[s["bot"]] = s["elo"];
    CHECK(elo["alpha"][0].get<double>() > elo["beta"][0].get<double>());
    CHECK(elo["alpha"][1].get<double>() < elo["beta"][1].get<double>());
}
