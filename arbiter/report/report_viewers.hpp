#pragma once
// `arbiter report --viewers`: a replay viewer page (arbiter view) in each reported match's folder,
// so that the report's "watch" links have something to open.
#include <string>
#include <vector>

#include "arbiter/report/report_data.hpp"

namespace arb::report {

struct ViewerPages {
    int written = 0;
    int failed = 0;              // matches whose files the viewer could not read
    std::string first_failure;   // why, for the first of them
};

// Writes viewer.html beside the record.json of every match that left a folder; a match without
// a folder is skipped, one the viewer cannot read is counted.
ViewerPages write_viewer_pages(const std::vector<ReportMatch>& matches);

}  // namespace arb::report
