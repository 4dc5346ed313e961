// What `arbiter diff` prints and the page that shows a pair of matches side by side.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "core/utf8_text.hpp"
#include "arbiter/diff/diff.hpp"
#include "core/seat.hpp"

namespace arb::diff {
namespace {

constexpr std::size_t kQuotedChars = 60;

// A line as printed: quoted, control characters as '?', cut at kQuotedChars.
std::string quoted(const std::string& line) {
    std::string out;
    for (const char c : line.substr(0, kQuotedChars)) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c;
    return "\"" + out + (line.size() > kQuotedChars ? "...\"" : "\"");
}

// Line i of what one side said, or what it said instead of a line there.
std::string said(const std::vector<std::string>& lines, std::size_t i) {
    if (i < lines.size()) return quoted(lines[i]);
    return lines.empty() ? "nothing" : "no more lines";
}

std::string lines_apart(const FirstDifference& d, const std::string& verb, const std::string& new_who,
                        const std::string& old_who) {
    std::size_t i = 0;
    while (i < d.old_lines.size() && i < d.new_lines.size() && d.old_lines[i] == d.new_lines[i]) ++i;
    return fmt::format("{} {} {}, {} {}", new_who, verb, said(d.new_lines, i), old_who, said(d.old_lines, i));
}

const ParticipantResult* seat_of(const MatchRecord& record, int seat) {
    return seat >= 0 && seat < static_cast<int>(record.participants.size())
               ? &record.participants[static_cast<std::size_t>(seat)]
               : nullptr;
}

// "won", "drew", "lost", "placed 3" (and the status when not ok), then the score.
std::string standing(const MatchRecord& record, int seat) {
    const ParticipantResult* p = seat_of(record, seat);
    if (!p) return "no result";
    const auto tied = std::count_if(record.participants.begin(), record.participants.end(),
                                    [&](const ParticipantResult& q) { return q.rank == p->rank; });
    std::string word;
    if (record.participants.size() > 1) {
        if (p->rank == 1) word = tied == 1 ? "won" : "drew";
        else if (record.participants.size() == 2) word = "lost";
        else word = fmt::format("placed {}", p->rank);
    }
    if (p->status != SeatStatus::ok) word += fmt::format("{}({})", word.empty() ? "" : " ", to_string(p->status));
    return word;
}

std::string score_text(double score) { return fmt::format("{:g}", score); }

std::string results_text(const PairResult& pair) {
    const std::string old_word = standing(pair.old_record, pair.seat), new_word = standing(pair.new_record, pair.seat);
    const ParticipantResult* o = seat_of(pair.old_record, pair.seat);
    const ParticipantResult* n = seat_of(pair.new_record, pair.seat);
    const std::string old_score = o ? score_text(o->score) : "-", new_score = n ? score_text(n->score) : "-";
    if (!result_changed(pair))
        return fmt::format("the same result ({}score {})", old_word.empty() ? "" : old_word + ", ", old_score);
    std::string text;
    if (old_word != new_word) text = fmt::format("{} -> {}, ", old_word, new_word);
    else if (!old_word.empty()) text = old_word + " both times, ";
    return text + fmt::format("score {} -> {}", old_score, new_score);
}

std::string pair_line(const DiffPlan& plan, const PairResult& pair) {
    const FirstDifference& d = pair.difference;
    const std::string unit = pair.marked ? "step" : "exchange";
    const bool reply = d.kind == FirstDifference::Kind::reply;
    std::string what;
    if (d.participant == pair.seat) {
        what = lines_apart(d, reply ? "replied" : "was sent", plan.new_bot.name, plan.old_bot.name);
    } else {
        const ParticipantResult* opponent = seat_of(pair.old_record, d.participant);
        what = lines_apart(d, reply ? "replied" : "was sent",
                           fmt::format("seat {} ({}) {}", d.participant, opponent ? opponent->bot : "?",
                                       "against " + plan.new_bot.name),
                           "against " + plan.old_bot.name);
    }
    const std::string head = reply ? fmt::format("first difference at {} {}", unit, d.step)
                                   : fmt::format("the same replies, but first sent other lines at {} {}", unit, d.step);
    return fmt::format("g{} seed {} seat {}: {} ({}); {}", pair.game, pair.seed, pair.seat, head, what,
                       results_text(pair));
}

// A path as a shell word: relative to the working folder when it lies under it, quoted when it
// holds anything but letters, digits and -_./+,=:@.
std::string shell_path(const std::filesystem::path& path) {
    std::error_code ec;
    const std::filesystem::path here = std::filesystem::current_path(ec);
    std::filesystem::path shown = path;
    if (!ec && path.is_absolute()) {
        const std::filesystem::path rel = path.lexically_relative(here);
        if (!rel.empty() && *rel.begin() != "..") shown = rel;
    }
    const std::string text = shown.generic_string();
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_./+,=:@").find(c) != std::string_view::npos;
    });
    if (plain) return text;
    std::string quoted = "'";
    for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}


}  // namespace

std::string look_line(const PairResult& pair) {
    const FirstDifference& d = pair.difference;
    const int seat = d.participant >= 0 ? d.participant : pair.seat;
    std::string line = fmt::format("arbiter show {} --seat {}", shell_path(pair.new_folder), seat);
    if (pair.marked) return line + fmt::format(" --step {}", d.step);
    return line + fmt::format("   (at its request number {}: the game marks no steps)", d.step);
}

int result_change(const PairResult& pair) {
    const ParticipantResult* o = seat_of(pair.old_record, pair.seat);
    const ParticipantResult* n = seat_of(pair.new_record, pair.seat);
    if (!o || !n) return 0;
    if (n->rank != o->rank) return n->rank < o->rank ? 1 : -1;
    if (n->score != o->score) return n->score > o->score ? 1 : -1;
    return 0;
}

bool result_changed(const PairResult& pair) {
    const ParticipantResult* o = seat_of(pair.old_record, pair.seat);
    const ParticipantResult* n = seat_of(pair.new_record, pair.seat);
    if (!o || !n) return o != n;
    return o->rank != n->rank || o->score != n->score || o->status != n->status;
}

std::vector<std::string> report_lines(const DiffPlan& plan, const DiffReport& report) {
    std::vector<std::string> out;
    const std::string unit = report.marked ? "step" : "exchange";
    if (!report.marked)
        out.push_back(fmt::format("{} marks no steps: differences are given by exchange number (the n-th request "
                                  "to a seat)",
                                  plan.game->name));
    const FirstDifference& again = report.old_again;
    if (again.kind == FirstDifference::Kind::reply)
        out.push_back(fmt::format("not deterministic: {} differs from itself at {} {} of g0 (a bot or the game reads the "
                                  "clock or unseeded randomness); differences below may not be the new version's",
                                  plan.old_bot.name, unit, again.step));
    // Sent lines that differ under the same replies are the referee's own (a clock it sends, such as
    // the time left) when OLD's second run shows them too: then they are not differences.
    const bool sent_is_noise = again.kind != FirstDifference::Kind::none;
    if (again.kind == FirstDifference::Kind::sent)
        out.push_back(fmt::format("{} was sent other lines in its second run of g0 from {} {} with the same replies (the "
                                  "game sends something the replies do not decide, such as the time left): lines sent "
                                  "are not compared",
                                  plan.old_bot.name, unit, again.step));
    std::vector<const PairResult*> differing, sent_only;
    for (const auto& pair : report.pairs) {
        if (pair.difference.kind == FirstDifference::Kind::reply) differing.push_back(&pair);
        else if (pair.difference.kind == FirstDifference::Kind::sent && !sent_is_noise) sent_only.push_back(&pair);
    }
    // Rank or status changes first (won -> lost), then score changes, then the same result.
    const auto weight = [](const PairResult& pair) {
        const ParticipantResult* o = seat_of(pair.old_record, pair.seat);
        const ParticipantResult* n = seat_of(pair.new_record, pair.seat);
        if (!o || !n || o->rank != n->rank || o->status != n->status) return o == n ? 0 : 2;
        return result_changed(pair) ? 1 : 0;
    };
    std::stable_sort(differing.begin(), differing.end(),
                     [&](const PairResult* a, const PairResult* b) { return weight(*a) > weight(*b); });
    for (const PairResult* pair : differing) {
        out.push_back(pair_line(plan, *pair));
        if (!pair->new_folder.empty()) out.push_back("  look: " + look_line(*pair));
    }
    for (const PairResult* pair : sent_only) out.push_back(pair_line(plan, *pair));
    const int matches = static_cast<int>(report.pairs.size());
    if (differing.empty()) {
        out.push_back(fmt::format("no differences: the replies are the same at every {} of the {} match{}", unit, matches,
                                  matches == 1 ? "" : "es"));
    } else {
        int changed = 0, better = 0, worse = 0;
        for (const PairResult* pair : differing) {
            changed += result_changed(*pair) ? 1 : 0;
            better += result_change(*pair) > 0 ? 1 : 0;
            worse += result_change(*pair) < 0 ? 1 : 0;
        }
        out.push_back(fmt::format("{} of {} matches differ; {} changed result: +{} -{}", differing.size(), matches, changed,
                                  better, worse));
    }
    if (!sent_only.empty())
        out.push_back(fmt::format("{} more matches have the same replies but were sent other lines", sent_only.size()));
    return out;
}

std::string side_by_side_page(const std::string& title, const std::string& old_page, const std::string& new_page,
                              int frame) {
    const std::string hash = fmt::format("#frame={}", frame);
    return fmt::format(R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ margin: 0; font: 14px sans-serif; display: flex; flex-direction: column; height: 100vh; }}
header {{ padding: 4px 8px; }}
main {{ flex: 1; display: flex; }}
section {{ flex: 1; display: flex; flex-direction: column; border-left: 1px solid #ccc; }}
section h2 {{ font-size: 1em; margin: 2px 8px; }}
iframe {{ flex: 1; border: 0; width: 100%; }}
</style></head>
<body>
<header>{title}. Stepping either side steps the other.</header>
<main>
<section><h2>old: <a href="{old}{hash}">{old}</a></h2><iframe id="old" src="{old}{hash}"></iframe></section>
<section><h2>new: <a href="{new}{hash}">{new}</a></h2><iframe id="new" src="{new}{hash}"></iframe></section>
</main>
<script>
'use strict';
// Each viewer posts {{arbiterFrame: N}} to this page when its frame changes; the other is told
// {{arbiterGo: N}}. Messages, not each other's documents: pages opened from file:// may not reach
// into one another.
var sides = [document.getElementById('old'), document.getElementById('new')];
window.addEventListener('message', function (e) {{
  var d = e.data;
  if (!d || typeof d.arbiterFrame !== 'number') return;
  sides.forEach(function (f) {{
    if (f.contentWindow && f.contentWindow !== e.source) f.contentWindow.postMessage({{ arbiterGo: d.arbiterFrame }}, '*');
  }});
}});
</script>
</body></html>
)",
                       fmt::arg("title", html_escape(title)), fmt::arg("old", html_escape(old_page)),
                       fmt::arg("new", html_escape(new_page)), fmt::arg("hash", hash));
}

}  // namespace arb::diff
