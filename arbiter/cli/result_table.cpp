#include "arbiter/cli/result_table.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace arb::cli {

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
                           static_cast<double>(p.usage.peak_memory_kib) / 1024.0, p.detail);
    }
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

}  // namespace arb::cli
