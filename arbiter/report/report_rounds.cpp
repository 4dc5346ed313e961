#include "arbiter/report/report_rounds.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "arbiter/report/html_report.hpp"
#include "rating/bayeselo.hpp"
#include "rating/result_set.hpp"

namespace arb::report {

int round_of(const ReportMatch& match) {
    if (!match.schedule_key) return -1;
    const std::string& key = *match.schedule_key;
    int round = -1;
    std::size_t start = 0;
    while (start <= key.size()) {
        const std::size_t end = std::min(key.find('/', start), key.size());
        const std::string part = key.substr(start, end - start);
        if (part.size() > 1 && part.size() < 8 && part[0] == 'r' &&
            std::all_of(part.begin() + 1, part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            round = std::stoi(part.substr(1));
        start = end + 1;
    }
    return round;
}

std::string rounds_section(const std::vector<ReportMatch>& matches, const std::string& id, bool charts,
                           nlohmann::json& g) {
    std::map<int, std::vector<const ReportMatch*>> by_round;
    for (const auto& m : matches)
        if (const int r = round_of(m); r >= 0) by_round[r].push_back(&m);
    if (by_round.size() < 2) return "";
    rating::ResultSet results;
    rating::EloOptions elo;
    elo.advantage = 0;  // as the ratings table: seats are symmetric after rotation
    std::vector<std::string> labels;
    std::map<std::string, std::vector<nlohmann::json>> series;
    for (const auto& [round, round_matches] : by_round) {
        for (const ReportMatch* m : round_matches)
            for (const auto& p : m->pairs) {
                if (p.a < 0 || p.b < 0 || p.a >= static_cast<int>(m->seats.size()) ||
                    p.b >= static_cast<int>(m->seats.size()) || m->seats[p.a].bot == m->seats[p.b].bot)
                    continue;
                results.add_game(m->seats[p.a].bot, m->seats[p.b].bot, rating::outcome_from_score(p.score_a));
            }
        if (results.empty()) continue;
        const rating::RatingResult fit = rating::rate(results, elo);
        const std::size_t column = labels.size();
        labels.push_back(fmt::format("round {}", round));
        for (const auto& row : fit.rows) {
            auto& values = series[row.name];
            values.resize(column + 1, nullptr);
            values[column] = row.elo;
        }
    }
    if (labels.size() < 2) return "";
    nlohmann::json rounds = {{"labels", labels}, {"series", nlohmann::json::array()}};
    for (auto& [bot, values] : series) {
        values.resize(labels.size(), nullptr);
        rounds["series"].push_back({{"bot", bot}, {"elo", values}});
    }
    g["rounds"] = rounds;
    std::string body = "<h3>Ratings round by round</h3>\n<p class=\"note\">BayesElo of every pairwise result up to "
                       "and including each round.</p>\n";
    if (charts) body += fmt::format("<div class=\"chart\"><canvas id=\"rounds-{}\" height=\"110\"></canvas></div>\n", id);
    body += "<table><tr><th class=\"name\">Bot</th>";
    for (const auto& label : labels) body += "<th>" + escape_html(label) + "</th>";
    body += "</tr>\n";
    for (const auto& [bot, values] : series) {
        body += "<tr><td class=\"name\">" + escape_html(bot) + "</td>";
        for (const auto& v : values) body += v.is_null() ? "<td></td>" : fmt::format("<td>{:.0f}</td>", v.get<double>());
        body += "</tr>\n";
    }
    return body + "</table>\n";
}

}  // namespace arb::report
