#pragma once
// `arbiter report`: one static HTML page from the results store that opens offline in a
// browser: per game, the rating table with error bars, the rating history of every bot over
// the ladder snapshots, the pairwise LOS matrix, and per-bot failure counts with links to the
// transcripts of the failed matches.
//
// Charts use Chart.js (Debian package libjs-chart.js, MIT licence), inlined into the page so
// it needs no network and no second file. Without it the page still has every table and says
// how to get the charts.
#include <filesystem>
#include <optional>
#include <string>

#include "rating/bootstrap.hpp"
#include "rating/store.hpp"

namespace arb::report {

struct ReportOptions {
    std::filesystem::path out_dir;
    std::optional<std::string> game;        // only this game
    std::optional<std::string> tournament;  // only this tournament's matches
    std::filesystem::path chartjs = "/usr/share/javascript/chart.js/chart.min.js";
    int max_failure_links = 200;            // per game
    // The rating table's intervals and the LOS matrix: bayeselo's, or the bootstrap over matches.
    rating::IntervalSource intervals = rating::IntervalSource::bayeselo;
    rating::BootstrapOptions bootstrap;
};

struct ReportSummary {
    std::filesystem::path page;
    int games = 0;
    int matches = 0;
    bool charts = false;
};

ReportSummary write_html_report(const rating::Store& store, const ReportOptions& options);

// HTML-escapes text for element content and attribute values.
std::string escape_html(const std::string& text);

}  // namespace arb::report
