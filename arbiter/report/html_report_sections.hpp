#pragma once
// The report's sections beyond the ratings: tournament settings, the head-to-head crosstable,
// per-bot time and memory, and the match list with links to each match's files. Each returns ""
// when it has nothing to show, so that empty sections are left out of the page.
#include <filesystem>
#include <string>
#include <vector>

#include "arbiter/report/report_data.hpp"

namespace arb::report {

// A link target for `file` that works from the report folder (relative, percent-encoded), or ""
// when the file does not exist as the report is written.
std::string link_if_exists(const std::string& file, const std::filesystem::path& out_dir);

// Red (0) through white (0.5) to green (1), for cells that read as a probability or a score.
std::string score_colour(double p);

std::string settings_section(const std::vector<TournamentInfo>& tournaments,
                             const std::vector<ReportMatch>& matches);

// Bots in `order` first (e.g. by rating), then any others by name.
// Each cell links to the matches of its two bots in the list `list_id`.
std::string crosstable_section(const std::vector<ReportMatch>& matches,
                               const std::vector<std::string>& order, const std::string& list_id);

std::string usage_section(const std::vector<ReportMatch>& matches);

struct MatchListOptions {
    std::filesystem::path out_dir;
    std::string list_id = "matches";  // the list's element id, for links that filter it
    std::size_t rows_per_fold = 500;  // a round with more matches is split into several folds
    std::size_t open_up_to = 100;     // folds start open when the list is this short
};
std::string match_list_section(const std::vector<ReportMatch>& matches, const MatchListOptions& options);
// A link that shows the list's matches of `bot` (against `vs`, with `result`: won, lost, drawn,
// failed; "" for any), escaped for an attribute; kMatchFilterScript reads it.
std::string filter_href(const std::string& list_id, const std::string& bot, const std::string& vs = "",
                        const std::string& result = "");
extern const char* const kMatchFilterScript;

}  // namespace arb::report
