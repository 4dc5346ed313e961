#include "arbiter/diff/diff.hpp"

#include <algorithm>
#include <exception>
#include <fstream>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "arbiter/match/match_files.hpp"
#include "core/table/transcript_steps.hpp"
#include "core/user_error.hpp"

namespace arb::diff {
namespace {

const std::vector<std::string>& lines_of(const MatchSteps& m, int step, std::size_t participant, bool reply) {
    static const std::vector<std::string> none;
    const auto it = m.steps.find(step);
    if (it == m.steps.end() || participant >= it->second.size()) return none;
    return reply ? it->second[participant].reply : it->second[participant].sent;
}

std::size_t participants_of(const MatchSteps& m) {
    std::size_t n = m.bots.size();
    for (const auto& [step, seats] : m.steps) n = std::max(n, seats.size());
    return n;
}

}  // namespace

FirstDifference first_difference(const MatchSteps& old_steps, const MatchSteps& new_steps, int first) {
    std::set<int> steps;
    for (const auto& [step, seats] : old_steps.steps) steps.insert(step);
    for (const auto& [step, seats] : new_steps.steps) steps.insert(step);
    const std::size_t participants = std::max(participants_of(old_steps), participants_of(new_steps));
    // Within a step, `first` is looked at before the others: where the version and an opponent
    // both reply otherwise at one step (an opponent answering the version's new move in the
    // same turn), the version's reply is the difference.
    std::vector<std::size_t> order;
    if (first >= 0 && static_cast<std::size_t>(first) < participants) order.push_back(static_cast<std::size_t>(first));
    for (std::size_t p = 0; p < participants; ++p)
        if (order.empty() || p != order.front()) order.push_back(p);
    FirstDifference sent;
    for (const int step : steps) {
        for (const std::size_t p : order) {
            const auto& old_reply = lines_of(old_steps, step, p, true);
            const auto& new_reply = lines_of(new_steps, step, p, true);
            if (old_reply != new_reply)
                return {FirstDifference::Kind::reply, step, static_cast<int>(p), old_reply, new_reply};
            if (sent.kind != FirstDifference::Kind::none) continue;
            const auto& old_sent = lines_of(old_steps, step, p, false);
            const auto& new_sent = lines_of(new_steps, step, p, false);
            if (old_sent != new_sent) sent = {FirstDifference::Kind::sent, step, static_cast<int>(p), old_sent, new_sent};
        }
    }
    return sent;
}

MatchSteps exchanges_by_participant(const std::filesystem::path& transcript, const MatchRecord& record) {
    MatchSteps steps = steps_by_participant(read_transcript_steps(transcript, StepNumbering::exchanges), record);
    steps.marked = false;
    return steps;
}

FirstDifference compare_matches(const MatchRecord& old_record, const MatchRecord& new_record, bool& marked, int first) {
    for (const MatchRecord* r : {&old_record, &new_record})
        if (r->transcript_path.empty()) throw UserError("a match of the diff has no transcript");
    const TranscriptSteps old_transcript = read_transcript_steps(old_record.transcript_path);
    const TranscriptSteps new_transcript = read_transcript_steps(new_record.transcript_path);
    marked = old_transcript.marked && new_transcript.marked;
    if (marked)
        return first_difference(steps_by_participant(old_transcript, old_record),
                                steps_by_participant(new_transcript, new_record), first);
    return first_difference(exchanges_by_participant(old_record.transcript_path, old_record),
                            exchanges_by_participant(new_record.transcript_path, new_record), first);
}

int version_seat(const DiffPlan& plan, int game) {
    return plan.fixed.empty() ? game % plan.seats : plan.fixed[static_cast<std::size_t>(game)].seat;
}

std::string match_folder(const DiffPlan& plan, int game) {
    (void)plan;
    return fmt::format("g{}", game);
}

std::vector<BotSpec> seating(const DiffPlan& plan, const BotSpec& version, int game) {
    if (!plan.fixed.empty()) {
        const DiffPlan::FixedGame& fixed = plan.fixed[static_cast<std::size_t>(game)];
        std::vector<BotSpec> bots = fixed.bots;
        bots[static_cast<std::size_t>(fixed.seat)] = version;
        // An opponent that is one of the versions (the old one in the ladder's pool) is named apart.
        std::set<std::string> taken{plan.old_bot.name, plan.new_bot.name};
        for (std::size_t s = 0; s < bots.size(); ++s) {
            if (static_cast<int>(s) == fixed.seat) continue;
            const std::string name = bots[s].name;
            for (int copy = 2; taken.count(bots[s].name); ++copy) bots[s].name = fmt::format("{}#{}", name, copy);
            taken.insert(bots[s].name);
        }
        return bots;
    }
    std::set<std::string> taken{plan.old_bot.name, plan.new_bot.name};
    std::vector<BotSpec> bots;
    std::size_t next = 0;
    for (int seat = 0; seat < plan.seats; ++seat) {
        if (seat == version_seat(plan, game) || plan.opponents.empty()) {
            bots.push_back(version);
            continue;
        }
        BotSpec bot = plan.opponents[next++ % plan.opponents.size()];
        const std::string name = bot.name;
        for (int copy = 2; taken.count(bot.name); ++copy) bot.name = fmt::format("{}#{}", name, copy);
        taken.insert(bot.name);
        bots.push_back(std::move(bot));
    }
    return bots;
}

DiffReport play_and_compare(const DiffPlan& plan, const tournament::MatchFunction& play) {
    std::vector<MatchRequest> requests;
    const auto request = [&](const BotSpec& version, int game, const std::string& side) {
        MatchRequest r;
        r.game = plan.game->name;
        r.bots = seating(plan, version, game);
        r.seed = plan.seed + static_cast<std::uint64_t>(game);
        if (!plan.fixed.empty()) {
            const DiffPlan::FixedGame& fixed = plan.fixed[static_cast<std::size_t>(game)];
            r.seed = fixed.seed;
            r.deal_set = fixed.deal_set;
            r.rotation = fixed.rotation;
        }
        r.options = plan.options;
        r.limits = plan.limits;
        direct_files_into(r, *plan.game, plan.out / side / match_folder(plan, game), "--out");
        requests.push_back(std::move(r));
    };
    for (int g = 0; g < plan.games; ++g) {
        request(plan.old_bot, g, "old");
        request(plan.new_bot, g, "new");
    }
    request(plan.old_bot, 0, "old-again");
    const auto played = tournament::play_concurrently(requests, plan.jobs, play);
    std::vector<MatchRecord> records;
    for (const auto& result : played) {
        if (result.error) std::rethrow_exception(result.error);
        if (!result.record) throw UserError("the diff was stopped before all its matches were played");
        records.push_back(*result.record);
    }
    DiffReport report;
    for (int g = 0; g < plan.games; ++g) {
        PairResult pair;
        pair.game = g;
        pair.seed = requests[static_cast<std::size_t>(2 * g)].seed;
        pair.seat = version_seat(plan, g);
        pair.old_record = records[static_cast<std::size_t>(2 * g)];
        pair.new_record = records[static_cast<std::size_t>(2 * g + 1)];
        pair.old_folder = requests[static_cast<std::size_t>(2 * g)].record_path.parent_path();
        pair.new_folder = requests[static_cast<std::size_t>(2 * g + 1)].record_path.parent_path();
        pair.difference = compare_matches(pair.old_record, pair.new_record, pair.marked, pair.seat);
        report.marked = report.marked && pair.marked;
        report.pairs.push_back(std::move(pair));
    }
    bool marked = true;
    report.old_again = compare_matches(records.front(), records.back(), marked, version_seat(plan, 0));
    return report;
}

}  // namespace arb::diff
