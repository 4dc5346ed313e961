#include "arbiter/report/html_report.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arbiter/report/html_report_sections.hpp"
#include "arbiter/report/report_data.hpp"
#include "arbiter/report/report_rounds.hpp"
#include "arbiter/report/report_viewers.hpp"
#include "core/user_error.hpp"
#include "rating/bayeselo.hpp"
#include "rating/bootstrap.hpp"
#include "core/utf8_text.hpp"

namespace arb::report {
namespace {

using nlohmann::json;

struct Failure {
    std::int64_t match_id = 0;
    std::string key;         // schedule key, or "#id"
    std::string started_at;
    std::string bot;
    std::string status;      // as stored
    std::string detail;
    std::string transcript;  // link target, "" if none
    std::string stderr_tail;
};

struct FaultCounts {
    int matches = 0, timeout = 0, crashed = 0, illegal = 0, killed = 0, other = 0;
    int failed() const { return timeout + crashed + illegal + killed + other; }
};

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "";
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// JSON inside <script>: "</" must not end the element.
std::string script_safe(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') out += "<\\";
        else out += text[i];
    }
    return out;
}

std::string los_colour(double p) { return score_colour(p); }

const char* kStyle = R"(
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1200px; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0 1.5em; font-size: .9em; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: right; }
th { background: #f3f3f3; } td.name, th.name { text-align: left; }
.los td { text-align: center; min-width: 3em; }
.chart { max-width: 900px; margin-bottom: 1.5em; }
.note { color: #666; font-size: .9em; }
.bad { color: #a00; font-weight: bold; }
pre.tail { margin: 0; font-size: .85em; white-space: pre-wrap; max-width: 40em; max-height: 8em; overflow: auto; }
.cross td { text-align: center; min-width: 4em; }
.settings th { text-align: left; vertical-align: top; } .settings td { text-align: left; }
.matches td { vertical-align: top; text-align: left; } .matches td.n { text-align: right; }
details { margin: .3em 0; } summary { cursor: pointer; } summary h3 { display: inline; }
form.filter { margin: .5em 0; } a.watch { font-weight: 600; }
)";

const char* kChartScript = R"(
for (const g of REPORT.games) {
  const table = document.getElementById('ratings-' + g.id);
  if (table && g.rows.length) {
    new Chart(table, {
      type: 'bar',
      data: {
        labels: g.rows.map(r => r.name),
        datasets: [
          { label: '95% interval', data: g.rows.map(r => [r.elo - r.minus, r.elo + r.plus]),
            backgroundColor: 'rgba(54,162,235,0.35)', borderColor: 'rgb(54,162,235)', borderWidth: 1,
            barPercentage: 0.5 },
          { label: 'rating', type: 'line', data: g.rows.map(r => r.elo), showLine: false,
            pointRadius: 5, pointStyle: 'rectRot', backgroundColor: 'rgb(20,60,120)', borderColor: 'rgb(20,60,120)' }
        ]
      },
      options: { indexAxis: 'y', animation: false, plugins: { legend: { position: 'bottom' } },
                 scales: { x: { title: { display: true, text: 'Elo' } } } }
    });
  }
  const rounds = document.getElementById('rounds-' + g.id);
  if (rounds && g.rounds && g.rounds.labels.length) {
    new Chart(rounds, {
      type: 'line',
      data: { labels: g.rounds.labels,
              datasets: g.rounds.series.map((s, i) => ({ label: s.bot, data: s.elo, spanGaps: true,
                borderColor: `hsl(${(i * 137) % 360},65%,45%)`, backgroundColor: `hsl(${(i * 137) % 360},65%,45%)` })) },
      options: { animation: false, plugins: { legend: { position: 'bottom' } },
                 scales: { y: { title: { display: true, text: 'Elo' } } } }
    });
  }
  const history = document.getElementById('history-' + g.id);
  if (history && g.history.labels.length) {
    new Chart(history, {
      type: 'line',
      data: { labels: g.history.labels,
              datasets: g.history.series.map((s, i) => ({ label: s.bot, data: s.elo, spanGaps: true,
                borderColor: `hsl(${(i * 137) % 360},65%,45%)`, backgroundColor: `hsl(${(i * 137) % 360},65%,45%)` })) },
      options: { animation: false, plugins: { legend: { position: 'bottom' } },
                 scales: { y: { title: { display: true, text: 'Elo' } } } }
    });
  }
}
)";

}  // namespace

std::string escape_html(const std::string& text) { return html_escape(text); }

namespace {

rating::MatchFilter filter_for(const std::string& game, const ReportOptions& options) {
    rating::MatchFilter filter;
    filter.game = game;
    filter.tournament = options.tournament;
    return filter;
}

// The fit with the intervals and LOS the options ask for; `label` says which ones they are.
std::optional<rating::RatingResult> fit_ratings(const rating::Store& store, const rating::MatchFilter& filter,
                                                const ReportOptions& options, std::string& label) {
    std::vector<std::int64_t> units;
    const rating::ResultSet results = store.pair_games(filter, &units);
    if (results.empty()) return std::nullopt;
    rating::EloOptions elo;
    elo.advantage = 0;  // seats are symmetric after rotation (planowanie.md 5.1)
    elo.want_los = true;
    rating::RatingResult fit = rating::rate(results, elo);
    label = "BayesElo, 95% intervals";
    if (options.intervals == rating::IntervalSource::bootstrap) {
        const auto boot = rating::bootstrap_ratings(results, units, elo, options.bootstrap);
        rating::apply_bootstrap(fit, boot);
        label = fmt::format("BayesElo, 95% bootstrap intervals: {} resamples of {} matches or deal sets", boot.samples,
                            boot.units);
    }
    return fit;
}

// The ratings table (and its chart's canvas); the chart's rows go into `g`.
std::string ratings_section(const std::optional<rating::RatingResult>& fit, const std::string& label,
                            const std::string& id, bool charts, json& g) {
    const std::string list_id = "matches-" + id;
    g["rows"] = json::array();
    std::string body = "<h3>Ratings (" + escape_html(label.empty() ? "BayesElo, 95% intervals" : label) + ")</h3>\n";
    if (!fit) return body + "<p class=\"note\">No pairwise results to rate.</p>\n";
    if (charts)
        body += fmt::format("<div class=\"chart\"><canvas id=\"ratings-{}\" height=\"{}\"></canvas></div>\n", id,
                            60 + 22 * fit->rows.size());
    body += "<table><tr><th>Rank</th><th class=\"name\">Bot</th><th>Elo</th><th>+</th><th>&minus;</th>"
            "<th>Games</th><th>Score</th><th>Oppo</th><th>Draws</th></tr>\n";
    for (const auto& r : fit->rows) {
        body += fmt::format(
            "<tr><td>{}</td><td class=\"name\"><a href=\"{}\">{}</a> <small><a href=\"{}\">won</a> "
            "<a href=\"{}\">lost</a></small></td><td>{:.0f}</td><td>{:.0f}</td><td>{:.0f}</td><td>{}</td>"
            "<td>{:.0f}%</td><td>{:.0f}</td><td>{:.0f}%</td></tr>\n",
            r.rank, filter_href(list_id, r.name), escape_html(r.name), filter_href(list_id, r.name, "", "won"),
            filter_href(list_id, r.name, "", "lost"), r.elo, r.plus, r.minus, r.games, 100 * r.score, r.oppo,
            100 * r.draws);
        g["rows"].push_back({{"name", r.name}, {"elo", r.elo}, {"plus", r.plus}, {"minus", r.minus}});
    }
    return body + "</table>\n";
}

// Rating history over ladder (and other) snapshots of this game: a table (and a chart's canvas);
// the chart's series go into `g`.
std::string history_section(const rating::Store& store, const std::string& game, const std::string& id, bool charts,
                            json& g) {
    std::vector<rating::Snapshot> snapshots;
    for (auto& s : store.snapshots())
        if (s.game == game) snapshots.push_back(std::move(s));
    std::sort(snapshots.begin(), snapshots.end(),
              [](const auto& a, const auto& b) { return std::tie(a.created_at, a.id) < std::tie(b.created_at, b.id); });
    json history;
    history["labels"] = json::array();
    history["series"] = json::array();
    std::map<std::string, std::vector<json>> series;
    for (std::size_t i = 0; i < snapshots.size(); ++i) {
        history["labels"].push_back(snapshots[i].created_at.substr(0, 16) + " " + snapshots[i].label);
        for (const auto& row : snapshots[i].rows) {
            auto& s = series[row.bot];
            s.resize(snapshots.size(), json(nullptr));
            s[i] = row.elo;
        }
    }
    for (auto& [bot, values] : series) {
        values.resize(snapshots.size(), json(nullptr));
        history["series"].push_back({{"bot", bot}, {"elo", values}});
    }
    g["history"] = history;
    if (snapshots.empty()) return "";
    std::string body = "<h3>Rating history</h3>\n";
    if (charts) body += fmt::format("<div class=\"chart\"><canvas id=\"history-{}\" height=\"110\"></canvas></div>\n", id);
    body += "<table><tr><th class=\"name\">Snapshot</th>";
    for (const auto& [bot, values] : series) body += "<th>" + escape_html(bot) + "</th>";
    body += "</tr>\n";
    for (std::size_t i = 0; i < snapshots.size(); ++i) {
        body += "<tr><td class=\"name\">" + escape_html(history["labels"][i].get<std::string>()) + "</td>";
        for (const auto& [bot, values] : series)
            body += values[i].is_null() ? "<td></td>" : fmt::format("<td>{:.0f}</td>", values[i].get<double>());
        body += "</tr>\n";
    }
    return body + "</table>\n";
}

// The LOS matrix, rows and columns by rating; nothing without a fit with LOS.
std::string los_section(const std::optional<rating::RatingResult>& fit, rating::IntervalSource source) {
    if (!fit || fit->los.size() != fit->player_count * fit->player_count || fit->rows.empty()) return "";
    const std::size_t n = fit->player_count;
    std::string body = "<h3>Likelihood of superiority</h3>\n<p class=\"note\">P(row bot is stronger than column bot)" +
                       std::string(source == rating::IntervalSource::bootstrap
                                       ? ": share of bootstrap resamples rating the row bot higher"
                                       : "") +
                       ".</p>\n"
                       "<table class=\"los\"><tr><th></th>";
    for (const auto& c : fit->rows) body += "<th>" + escape_html(c.name) + "</th>";
    body += "</tr>\n";
    for (const auto& r : fit->rows) {
        body += "<tr><th class=\"name\">" + escape_html(r.name) + "</th>";
        for (const auto& c : fit->rows) {
            if (r.player == c.player) {
                body += "<td></td>";
                continue;
            }
            const double p = fit->los[r.player * n + c.player];
            body += fmt::format("<td style=\"background:{}\">{:.2f}</td>", los_colour(p), p);
        }
        body += "</tr>\n";
    }
    return body + "</table>\n";
}

// The list of failed seats, the last `max_failure_links` of them, folded.
std::string failed_seats_list(const std::vector<Failure>& failures, int max_failure_links) {
    if (failures.empty()) return "";
    std::string body =
        fmt::format("<details><summary>{} failed seats{}</summary>\n<table><tr><th class=\"name\">Match</th>"
                    "<th>Started</th>"
                    "<th class=\"name\">Bot</th><th class=\"name\">Status</th><th class=\"name\">Detail</th>"
                    "<th class=\"name\">Transcript</th><th class=\"name\">Last stderr lines</th></tr>\n",
                    failures.size(),
                    static_cast<int>(failures.size()) > max_failure_links
                        ? fmt::format(" (the last {} listed)", max_failure_links)
                        : "");
    const std::size_t first =
        failures.size() > static_cast<std::size_t>(max_failure_links) ? failures.size() - max_failure_links : 0;
    for (std::size_t i = first; i < failures.size(); ++i) {
        const auto& f = failures[i];
        body += fmt::format("<tr><td class=\"name\"><a href=\"#m{}\">{}</a></td><td>{}</td><td class=\"name\">{}</td>"
                            "<td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td>"
                            "<td class=\"name\">{}</td></tr>\n",
                            f.match_id, escape_html(f.key), escape_html(f.started_at), escape_html(f.bot),
                            escape_html(f.status),
                            escape_html(f.detail),
                            f.transcript.empty() ? "" : "<a href=\"" + escape_html(f.transcript) + "\">transcript</a>",
                            f.stderr_tail.empty() ? "" : "<pre class=\"tail\">" + escape_html(f.stderr_tail) + "</pre>");
    }
    return body + "</table></details>\n";
}

// Fault counts per bot, and the list of failed seats with links to their transcripts. Statuses
// this build does not know (a newer arbiter's) count under "Other" and are listed as stored.
std::string failures_section(const std::vector<ReportMatch>& matches, const ReportOptions& options) {
    std::map<std::string, FaultCounts> counts;
    std::vector<Failure> failures;
    for (const auto& m : matches) {
        for (const auto& p : m.seats) {
            auto& c = counts[p.bot];
            ++c.matches;
            if (p.status == "ok") continue;
            if (p.status == "timeout") ++c.timeout;
            else if (p.status == "crashed") ++c.crashed;
            else if (p.status == "illegal") ++c.illegal;
            else if (p.status == "killed") ++c.killed;
            else ++c.other;
            failures.push_back({m.id, m.schedule_key.value_or("#" + std::to_string(m.id)), m.started_at, p.bot,
                                p.status, p.detail,
                                link_if_exists(m.transcript_path, options.out_dir), p.stderr_tail});
        }
    }
    if (failures.empty()) return "";
    const bool others = std::any_of(counts.begin(), counts.end(), [](const auto& c) { return c.second.other > 0; });
    std::string body = "<h3>Failures</h3>\n<table><tr><th class=\"name\">Bot</th><th>Matches</th><th>Timeouts</th>"
                       "<th>Crashes</th><th>Illegal moves</th><th>Killed</th>";
    body += others ? "<th>Other</th></tr>\n" : "</tr>\n";
    for (const auto& [bot, c] : counts) {
        const bool all_failed = c.matches > 0 && c.failed() == c.matches;
        body += fmt::format("<tr><td class=\"name{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                            all_failed ? " bad" : "", escape_html(bot) + (all_failed ? " (failed every match)" : ""),
                            c.matches, c.timeout, c.crashed, c.illegal, c.killed);
        body += others ? fmt::format("<td>{}</td></tr>\n", c.other) : "</tr>\n";
    }
    body += "</table>\n";
    return body + failed_seats_list(failures, options.max_failure_links);
}

// The tournaments the matches belong to, in order of first match, and how many belong to none.
std::vector<std::string> tournaments_of(const std::vector<ReportMatch>& matches, int& outside) {
    std::vector<std::string> names;
    outside = 0;
    for (const auto& m : matches) {
        if (!m.tournament) ++outside;
        else if (std::find(names.begin(), names.end(), *m.tournament) == names.end()) names.push_back(*m.tournament);
    }
    return names;
}

// "32 matches of tournament t1 (and 3 outside a tournament), 2026-... to 2026-..."
std::string coverage_line(const std::vector<ReportMatch>& matches, bool* any_failed) {
    int outside = 0;
    const auto names = tournaments_of(matches, outside);
    std::string of;
    for (std::size_t i = 0; i < names.size(); ++i)
        of += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + ("<b>" + escape_html(names[i]) + "</b>");
    std::string text = fmt::format("{} matches", matches.size());
    if (!names.empty()) text += fmt::format(" of tournament{} {}", names.size() > 1 ? "s" : "", of);
    if (outside > 0 && !names.empty()) text += fmt::format(" and {} outside a tournament", outside);
    if (!matches.front().started_at.empty())
        text += fmt::format(", {} to {}", escape_html(matches.front().started_at),
                            escape_html(matches.back().started_at));
    *any_failed = std::any_of(matches.begin(), matches.end(), [](const ReportMatch& m) {
        return std::any_of(m.seats.begin(), m.seats.end(), [](const ReportSeat& s) { return s.status != "ok"; });
    });
    if (!*any_failed) text += "; no seat failed";
    return "<p class=\"note\">" + text + "</p>\n";
}

// One game's part of the page; its chart data goes into `g`.
std::string game_section(const rating::Store& store, const std::string& game, const rating::MatchFilter& filter,
                         const std::vector<ReportMatch>& matches, const std::string& id,
                         const ReportOptions& options, bool charts, json& g) {
    bool any_failed = false;
    std::string body = "<h2>" + escape_html(game) + "</h2>\n" + coverage_line(matches, &any_failed);
    g["id"] = id;
    g["rows"] = json::array();
    std::string label;
    const auto fit = fit_ratings(store, filter, options, label);
    int outside = 0;
    // The ranking first; the settings it was played under folded below it.
    if (fit) body += ratings_section(fit, label, id, charts, g);
    body += rounds_section(matches, id, charts, g);
    body += settings_section(load_tournaments(store, tournaments_of(matches, outside)), matches);
    body += history_section(store, game, id, charts, g);
    body += los_section(fit, options.intervals);
    std::vector<std::string> by_rating;
    if (fit)
        for (const auto& r : fit->rows) by_rating.push_back(r.name);
    body += crosstable_section(matches, by_rating, "matches-" + id);
    body += usage_section(matches);
    if (any_failed) body += failures_section(matches, options);
    MatchListOptions list;
    list.out_dir = options.out_dir;
    list.list_id = "matches-" + id;
    body += match_list_section(matches, list);
    return body;
}

// "a, b and c"
std::string listed(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

// What the page covers, for its heading: the filters given, or everything in the database, and
// the tournaments the reported matches belong to.
std::string scope_text(const ReportOptions& options, const std::vector<std::string>& games,
                       const std::vector<std::string>& tournaments) {
    if (options.tournament)
        return "tournament " + *options.tournament + (options.game ? ", game " + *options.game : "");
    std::string scope = options.game ? "game " + *options.game : "all matches (" + listed(games) + ")";
    if (!tournaments.empty())
        scope += fmt::format(" of tournament{} {}", tournaments.size() > 1 ? "s" : "", listed(tournaments));
    return scope;
}

void write_page(const ReportSummary& summary, const rating::Store& store, const std::string& scope,
                const std::string& body, const std::string& chartjs, const json& data) {
    std::ofstream out(summary.page, std::ios::binary);
    if (!out) throw UserError("cannot write " + summary.page.string());
    out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>arbiter report: "
        << escape_html(scope) << "</title>\n<style>" << kStyle << "</style>\n</head><body>\n<h1>arbiter report: "
        << escape_html(scope) << "</h1>\n"
        << fmt::format("<p class=\"note\">Database {} &middot; generated {} &middot; {} matches</p>\n",
                       escape_html(store.path()), utc_timestamp_now(), summary.matches);
    if (!summary.charts)
        out << "<p class=\"note\">Charts need Chart.js (Debian: <code>apt-get install libjs-chart.js</code>, or "
               "<code>arbiter report --chartjs FILE</code>); the tables below have every number.</p>\n";
    out << body;
    // Following a link to a match's row opens its fold (browsers without this still show the row
    // once the fold is opened by hand).
    out << "<script>\nfunction openTarget() {"
           " const t = location.hash && document.getElementById(location.hash.slice(1));"
           " if (t && t.closest('details')) { t.closest('details').open = true; t.scrollIntoView(); } }\n"
           "addEventListener('hashchange', openTarget); addEventListener('load', openTarget);\n</script>\n";
    out << "<script>" << kMatchFilterScript << "</script>\n";
    if (summary.charts) {
        out << "<script>\n" << script_safe(chartjs) << "\n</script>\n";
        out << "<script>\nconst REPORT = " << script_safe(data.dump()) << ";\n" << kChartScript << "</script>\n";
    }
    out << "</body></html>\n";
}

ReportSummary write_report_now(const rating::Store& store, const ReportOptions& options) {
    ReportSummary summary;
    std::vector<std::string> games = store.games();
    if (options.game) {
        if (std::find(games.begin(), games.end(), *options.game) == games.end())
            throw UserError("the database " + store.path() + " has no matches of game '" + *options.game + "'");
        games = {*options.game};
    }
    const std::string chartjs = read_file(options.chartjs);
    summary.charts = !chartjs.empty();

    std::string body;
    json data;
    data["games"] = json::array();
    std::vector<std::string> reported, tournaments;
    for (const auto& game : games) {
        const rating::MatchFilter filter = filter_for(game, options);
        auto matches = load_report_matches(store, game, options.tournament);
        relocate_match_files(matches, options.files_root);
        if (options.map_name)
            for (auto& m : matches) m.map = options.map_name(m.game, m.config_json);
        if (matches.empty()) continue;
        if (reported.empty()) ensure_folder(options.out_dir, "--out");  // links are made relative to it
        if (options.viewers) {  // before the list, which links only to pages that exist
            const ViewerPages pages = write_viewer_pages(matches, options.viewers);
            summary.viewers_written += pages.written;
            if (summary.viewers_failed == 0) summary.first_viewer_failure = pages.first_failure;
            summary.viewers_failed += pages.failed;
        }
        json g;
        body += game_section(store, game, filter, matches, std::to_string(summary.games), options, summary.charts, g);
        ++summary.games;
        summary.matches += static_cast<int>(matches.size());
        data["games"].push_back(g);
        reported.push_back(game);
        for (const auto& m : matches)
            if (m.tournament && std::find(tournaments.begin(), tournaments.end(), *m.tournament) == tournaments.end())
                tournaments.push_back(*m.tournament);
    }
    if (summary.games == 0) throw UserError("the database " + store.path() + " has no matches to report");

    summary.page = options.out_dir / "index.html";
    write_page(summary, store, scope_text(options, reported, tournaments), body, chartjs, data);
    return summary;
}

}  // namespace

ReportSummary write_html_report(const rating::Store& store, const ReportOptions& options) {
    // Every section from one state of the file: a tournament storing meanwhile shows up in the
    // next report, not in half of this one.
    ReportSummary summary;
    store.read_snapshot([&] { summary = write_report_now(store, options); });
    return summary;
}

}  // namespace arb::report
