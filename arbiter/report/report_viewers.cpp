#include "arbiter/report/report_viewers.hpp"

#include <filesystem>

#include "core/user_error.hpp"

namespace arb::report {

ViewerPages write_viewer_pages(const std::vector<ReportMatch>& matches, const ViewerWriter& write) {
    namespace fs = std::filesystem;
    ViewerPages pages;
    for (const auto& m : matches) {
        const std::string& any = !m.transcript_path.empty() ? m.transcript_path : m.replay_path;
        if (any.empty()) continue;
        const fs::path folder = fs::path(any).parent_path();
        std::error_code ec;
        if (!fs::is_regular_file(folder / "record.json", ec)) continue;
        try {
            write(folder);
            ++pages.written;
        } catch (const UserError& e) {
            if (pages.failed++ == 0) pages.first_failure = e.what();
        }
    }
    return pages;
}

}  // namespace arb::report
