#include "arbiter/cli/result_table.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "core/utf8_text.hpp"
#include "rules/registry.hpp"

namespace arb::cli {
namespace {

// The detail column: the detail, and for a failed seat the limit it hit and how it exited.
std::string reason(const ParticipantResult& p) {
    if (p.status == SeatStatus::ok) return p.detail;
    std::string out;
    if (!p.limit.empty()) out = p.limit + " limit";
    if (const std::string exit = exit_text(p); !exit.empty()) out += (out.empty() ? "" : ", ") + exit;
    if (!p.detail.empty()) out += (out.empty() ? "" : ": ") + p.detail;
    return out;
}

}  // namespace

void print_match_result(std::ostream& out, const MatchRecord& record) {
    std::size_t width = 4;
    for (const auto& p : record.participants) width = std::max(width, p.bot.size());
    out << fmt::format("{} seed {} rotation {}: {} ({} turns, {:.2f} s)\n", record.game, record.seed,
                       record.rotation, record.end_reason, record.turns, record.wall_s);
    out << fmt::format("{:>4}  {:<{}}  {:>8}  {:>4}  {:<8}  {:>8}  {:>8}  {:>9}  {}\n", "seat", "bot", width, "score",
                       "rank", "status", "time s", "cpu s", "peak MiB", "detail");
    for (const auto& p : record.participants) {
        out << fmt::format("{:>4}  {:<{}}  {:>8g}  {:>4}  {:<8}  {:>8.3f}  {:>8.3f}  {:>9.1f}  {}\n", p.seat, p.bot,
                           width, p.score, p.rank, to_string(p.status), p.usage.wall_used_s, p.usage.cpu_used_s,
                           static_cast<double>(p.usage.peak_memory_kib) / 1024.0, terminal_text(reason(p)));
    }
}

void print_stderr_tails(std::ostream& out, const MatchRecord& record) {
    for (const auto& p : record.participants) {
        if (p.stderr_tail.empty()) continue;
        out << fmt::format("stderr of {} (seat {}), last lines:\n", terminal_text(p.bot), p.seat);
        std::size_t start = 0;
        while (start < p.stderr_tail.size()) {
            const std::size_t nl = std::min(p.stderr_tail.find('\n', start), p.stderr_tail.size());
            out << "    " << terminal_text(std::string_view(p.stderr_tail).substr(start, nl - start)) << "\n";
            start = nl + 1;
        }
    }
}

void print_failed_seats(std::ostream& out, const std::vector<KeyedRecord>& matches, std::size_t max_rows,
                        std::optional<std::size_t> all_rows) {
    std::size_t rows = 0;
    for (const auto& m : matches) {
        for (const auto& p : m.record->participants) {
            // Forfeited seats never ran: the fault counts say why, and there is nothing to show.
            if (p.status == SeatStatus::ok || p.status == SeatStatus::forfeited) continue;
            if (rows == 0) out << "failed seats (arbiter show --db DB KEY for the whole match):\n";
            if (++rows > max_rows) continue;
            const std::size_t last_nl = p.stderr_tail.rfind('\n');
            const std::string last_line =
                last_nl == std::string::npos ? p.stderr_tail : p.stderr_tail.substr(last_nl + 1);
            out << fmt::format("  {}  {}: {}{}\n", m.key, terminal_text(p.bot), terminal_text(failure_summary(p)),
                               last_line.empty() ? "" : " | stderr: " + terminal_text(last_line));
        }
    }
    if (all_rows) rows = std::max(rows, *all_rows);
    if (rows > max_rows) out << fmt::format("  ... and {} more\n", rows - max_rows);
}

void print_rotation_summary(std::ostream& out, const std::vector<MatchRecord>& records) {
    std::map<std::string, double> total;
    std::map<std::string, int> faults;
    for (const auto& r : records) {
        for (const auto& p : r.participants) {
            total[p.bot] += p.score;
            if (p.status != SeatStatus::ok) ++faults[p.bot];
        }
    }
    std::vector<std::pair<std::string, double>> rows(total.begin(), total.end());
    std::stable_sort(rows.begin(), rows.end(), [](auto& a, auto& b) { return a.second > b.second; });
    out << fmt::format("total over {} rotations:\n", records.size());
    for (const auto& [bot, score] : rows) {
        out << fmt::format("  {:<20} {:>8g}{}\n", bot, score,
                           faults[bot] ? fmt::format("  ({} faulted)", faults[bot]) : std::string());
    }
}

std::string map_of(const MatchRecord& record) { return map_file_of(record.game, record.config_json); }

}  // namespace arb::cli
