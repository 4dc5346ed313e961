#pragma once
// `arbiter report --viewers`: a replay viewer page (arbiter view) in each reported match's folder,
// so that the report's "watch" links have something to open. The page itself is made by the
// caller's writer (the report knows no game's files).
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "arbiter/report/report_data.hpp"

namespace arb::report {

struct ViewerPages {
    int written = 0;
    int failed = 0;              // matches whose files the viewer could not read
    std::string first_failure;   // why, for the first of them
};

// Writes viewer.html into a match folder; throws UserError when the match cannot be shown.
using ViewerWriter = std::function<void(const std::filesystem::path& match_folder)>;

// Calls `write` for every match that left a folder with a record.json; a match without one is
// skipped, one the writer refuses is counted.
ViewerPages write_viewer_pages(const std::vector<ReportMatch>& matches, const ViewerWriter& write);

}  // namespace arb::report
