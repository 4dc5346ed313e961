#pragma once
// `arbiter report`: one static HTML page from the results store that opens offline in a
// browser. Its heading says what it covers (a tournament, a game, or all matches); per game: the
// settings of its tournaments, the rating table with error bars, the rating history of every
// bot over the ladder snapshots, the pairwise LOS matrix, the head-to-head crosstable, per-bot
// time and memory, per-bot failure counts, and the list of matches by schedule key, folded by
// round, with links to the files each match left (record.json, replay, transcript, stderr logs).
// A section with nothing to show is left out. Links are relative to the report's folder and
// only to files that exist when the page is written.
//
// Charts use Chart.js (Debian package libjs-chart.js, MIT licence), inlined into the page so
// it needs no network and no second file. Without it the page still has every table and says
// how to get the charts.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "arbiter/report/report_viewers.hpp"
#include "rating/bootstrap.hpp"
#include "rating/store.hpp"

namespace arb::report {

struct ReportOptions {
    std::filesystem::path out_dir;
    std::optional<std::string> game;        // only this game
    std::optional<std::string> tournament;  // only this tournament's matches
    std::filesystem::path chartjs = "/usr/share/javascript/chart.js/chart.min.js";
    int max_failure_links = 200;            // per game
    // Where the database keeps its match files by default ("<db stem>-files" beside it). Files are
    // stored by absolute path; one that is gone is looked for here under the same folders, so
    // the links survive moving the database together with that folder.
    std::filesystem::path files_root;
    // The rating table's intervals and the LOS matrix: bayeselo's, or the bootstrap over matches.
    rating::IntervalSource intervals = rating::IntervalSource::bayeselo;
    rating::BootstrapOptions bootstrap;
    ViewerWriter viewers;                   // when set, each match's replay viewer page is written first
    // The map (or field) a match was played on, from its game and options (JSON), shown in the
    // match list; the caller knows the games (rules/registry.hpp: map_file_of). Unset: none shown.
    std::function<std::string(const std::string& game, const std::string& options_json)> map_name;
};

struct ReportSummary {
    std::filesystem::path page;
    int games = 0;
    int matches = 0;
    bool charts = false;
    int viewers_written = 0;
    int viewers_failed = 0;
    std::string first_viewer_failure;
};

ReportSummary write_html_report(const rating::Store& store, const ReportOptions& options);

// HTML-escapes text for element content and attribute values.
std::string escape_html(const std::string& text);

}  // namespace arb::report
