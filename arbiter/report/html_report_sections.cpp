// Settings, head-to-head crosstable and per-bot time and memory of the HTML report.
#include "arbiter/report/html_report_sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "arbiter/report/html_report.hpp"

namespace arb::report {
namespace {

using nlohmann::ordered_json;

// The labels of the identity's known keys, in the order shown; other keys follow as stored.
const std::vector<std::pair<std::string, std::string>>& setting_labels() {
    static const std::vector<std::pair<std::string, std::string>> labels = {
        {"pairing", "Pairing"},
        {"format", "Format"},
        {"rounds", "Rounds"},
        {"seed", "Seed"},
        {"players", "Seats per match"},
        {"seating", "Seating"},
        {"all_seatings", "All seatings"},
        {"random_rounds", "Random rounds"},
        {"vary_cyclic_order", "Vary cyclic order"},
        {"memory_mib", "Memory limit (MiB)"},
        {"freeze_idle", "Freeze idle bots"},
        {"options", "Game options"},
        {"bots", "Bots"},
        {"house_bots", "House bots"},
        {"challengers", "Challengers"},
    };
    return labels;
}

std::string setting_value(const ordered_json& v) {
    if (v.is_null()) return "<span class=\"note\">not set</span>";
    if (v.is_string()) return escape_html(v.get<std::string>());
    if (v.is_array()) {
        if (v.empty()) return "<span class=\"note\">none</span>";
        std::string out;
        for (const auto& item : v)
            out += "<div><code>" + escape_html(item.is_string() ? item.get<std::string>() : item.dump()) +
                   "</code></div>";
        return out;
    }
    if (v.is_object()) {
        if (v.empty()) return "<span class=\"note\">defaults</span>";
        std::string out;
        for (const auto& [key, item] : v.items())
            out += "<div><code>" + escape_html(key) + " = " +
                   escape_html(item.is_string() ? item.get<std::string>() : item.dump()) + "</code></div>";
        return out;
    }
    return escape_html(v.dump());
}

std::string setting_row(const std::string& label, const std::string& value_html) {
    return "<tr><th class=\"name\">" + escape_html(label) + "</th><td class=\"name\">" + value_html +
           "</td></tr>\n";
}

// The game options the tournament's matches ran with (defaults included), when they agree.
std::string options_as_played(const std::string& tournament, const std::vector<ReportMatch>& matches) {
    std::set<std::string> seen;
    for (const auto& m : matches)
        if (m.tournament == tournament) seen.insert(m.config_json);
    if (seen.size() != 1) return seen.empty() ? "" : fmt::format("{} different sets", seen.size());
    const auto parsed = ordered_json::parse(*seen.begin(), nullptr, /*allow_exceptions=*/false);
    return parsed.is_discarded() ? escape_html(*seen.begin()) : setting_value(parsed);
}

std::string tournament_settings(const TournamentInfo& t, const std::vector<ReportMatch>& matches) {
    std::string body = "<table class=\"settings\">\n" + setting_row("Tournament", escape_html(t.name)) +
                       setting_row("Created", escape_html(t.created_at));
    const auto identity = ordered_json::parse(t.identity_json, nullptr, /*allow_exceptions=*/false);
    if (!identity.is_object()) {
        body += setting_row("Settings", "<code>" + escape_html(t.identity_json) + "</code>");
    } else {
        std::set<std::string> shown = {"game"};
        for (const auto& [key, label] : setting_labels()) {
            if (!identity.contains(key)) continue;
            shown.insert(key);
            body += setting_row(label, setting_value(identity.at(key)));
        }
        for (const auto& [key, value] : identity.items())
            if (!shown.count(key)) body += setting_row(key, setting_value(value));
    }
    const std::string played = options_as_played(t.name, matches);
    if (!played.empty()) body += setting_row("Game options as played", played);
    return body + "</table>\n";
}

// Wins, losses and draws of one bot against another, from its own side.
struct Tally {
    int wins = 0, losses = 0, draws = 0;
    int games() const { return wins + losses + draws; }
    double score() const { return games() ? (wins + 0.5 * draws) / games() : 0.5; }
    void add(double score) {
        if (score > 0.75)
            ++wins;
        else if (score < 0.25)
            ++losses;
        else
            ++draws;
    }
};

std::vector<std::string> bots_in_order(const std::vector<ReportMatch>& matches,
                                       const std::vector<std::string>& order) {
    std::vector<std::string> bots = order;
    std::set<std::string> rest;
    for (const auto& m : matches)
        for (const auto& s : m.seats)
            if (std::find(order.begin(), order.end(), s.bot) == order.end()) rest.insert(s.bot);
    bots.insert(bots.end(), rest.begin(), rest.end());
    return bots;
}

std::string tally_cell(const Tally& t, const std::string& href) {
    if (t.games() == 0) return "<td></td>";
    return fmt::format(
        "<td style=\"background:{}\" title=\"{} games\"><a href=\"{}\">{}-{}-{}<br><small>{:.2f}</small></a></td>",
        score_colour(t.score()), t.games(), href, t.wins, t.losses, t.draws, t.score());
}

std::string human_seconds(double s) { return s >= 100 ? fmt::format("{:.0f}", s) : fmt::format("{:.3g}", s); }

std::string memory_mib(std::int64_t kib) { return kib > 0 ? fmt::format("{:.1f}", kib / 1024.0) : "&ndash;"; }

}  // namespace

std::string score_colour(double p) {
    const int strength = static_cast<int>(std::abs(p - 0.5) * 2 * 155);
    return p >= 0.5 ? fmt::format("rgb({},{},{})", 255 - strength, 255, 255 - strength)
                    : fmt::format("rgb({},{},{})", 255, 255 - strength, 255 - strength);
}

std::string settings_section(const std::vector<TournamentInfo>& tournaments,
                             const std::vector<ReportMatch>& matches) {
    if (tournaments.empty()) return "";
    std::string body = "<details class=\"settings\"><summary><h3>Settings</h3></summary>\n";
    for (const auto& t : tournaments) body += tournament_settings(t, matches);
    return body + "</details>\n";
}

std::string crosstable_section(const std::vector<ReportMatch>& matches,
                               const std::vector<std::string>& order, const std::string& list_id) {
    std::map<std::pair<std::string, std::string>, Tally> cells;
    std::map<std::string, Tally> totals;
    for (const auto& m : matches) {
        for (const auto& p : m.pairs) {
            if (p.a < 0 || p.b < 0 || p.a >= static_cast<int>(m.seats.size()) ||
                p.b >= static_cast<int>(m.seats.size()))
                continue;
            const std::string& a = m.seats[p.a].bot;
            const std::string& b = m.seats[p.b].bot;
            if (a == b) continue;  // a bot against itself tells nothing about either
            cells[{a, b}].add(p.score_a);
            cells[{b, a}].add(1 - p.score_a);
            totals[a].add(p.score_a);
            totals[b].add(1 - p.score_a);
        }
    }
    if (cells.empty()) return "";
    std::vector<std::string> bots;
    for (const auto& bot : bots_in_order(matches, order))
        if (totals.count(bot)) bots.push_back(bot);
    std::string body =
        "<h3>Head to head</h3>\n<p class=\"note\">Row bot against column bot over the pairwise results: "
        "wins-losses-draws and mean score (1 win, &frac12; draw).</p>\n<table class=\"cross\"><tr><th></th>";
    for (const auto& c : bots) body += "<th>" + escape_html(c) + "</th>";
    body += "<th>All</th></tr>\n";
    for (const auto& r : bots) {
        body += "<tr><th class=\"name\"><a href=\"" + filter_href(list_id, r) + "\">" + escape_html(r) + "</a></th>";
        for (const auto& c : bots) {
            const auto it = cells.find({r, c});
            body += it == cells.end() ? "<td></td>" : tally_cell(it->second, filter_href(list_id, r, c));
        }
        body += tally_cell(totals[r], filter_href(list_id, r)) + "</tr>\n";
    }
    return body + "</table>\n";
}

std::string usage_section(const std::vector<ReportMatch>& matches) {
    struct Usage {
        int seats = 0;
        double wall = 0, cpu = 0, longest = 0;
        std::int64_t requests = 0, peak_kib = 0, peak_sum_kib = 0;
        int peak_known = 0;
    };
    std::map<std::string, Usage> per_bot;
    bool any = false;
    for (const auto& m : matches) {
        for (const auto& s : m.seats) {
            auto& u = per_bot[s.bot];
            ++u.seats;
            u.wall += s.wall_used_s;
            u.cpu += s.cpu_used_s;
            u.longest = std::max(u.longest, s.longest_reply_s);
            u.requests += s.requests;
            u.peak_kib = std::max(u.peak_kib, s.peak_memory_kib);
            if (s.peak_memory_kib > 0) u.peak_sum_kib += s.peak_memory_kib, ++u.peak_known;
            any = any || s.wall_used_s > 0 || s.cpu_used_s > 0 || s.requests > 0 || s.peak_memory_kib > 0;
        }
    }
    if (!any) return "";
    std::string body =
        "<h3>Time and memory</h3>\n<p class=\"note\">Per bot over its seats: time charged to its clocks "
        "(wall), CPU "
        "time of its processes, its longest single reply, and its peak memory (&ndash;: not measured).</p>\n"
        "<table><tr><th class=\"name\">Bot</th><th>Seats</th><th>Wall total s</th><th>Wall mean s</th>"
        "<th>CPU total s</th><th>CPU mean s</th><th>Longest reply s</th><th>Requests</th>"
        "<th>Peak memory max MiB</th><th>Peak memory mean MiB</th></tr>\n";
    for (const auto& [bot, u] : per_bot) {
        body += fmt::format(
            "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td><td>{}</td><td>{}</td></tr>\n",
            escape_html(bot), u.seats, human_seconds(u.wall), human_seconds(u.wall / u.seats),
            human_seconds(u.cpu), human_seconds(u.cpu / u.seats), human_seconds(u.longest), u.requests,
            memory_mib(u.peak_kib), memory_mib(u.peak_known ? u.peak_sum_kib / u.peak_known : 0));
    }
    return body + "</table>\n";
}

}  // namespace arb::report
