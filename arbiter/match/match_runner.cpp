#include "arbiter/match/match_runner.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <spdlog/spdlog.h>

#include "arbiter/match/match_files.hpp"
#include "core/table/process_table.hpp"
#include "core/user_error.hpp"

namespace arb {
namespace {

// The last few KiB of a file: enough for a tail of kStderrTailLines lines of kStderrTailBytes.
std::string read_file_end(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "";
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    const std::streamoff from = std::max<std::streamoff>(0, size - 4 * static_cast<std::streamoff>(kStderrTailBytes));
    in.seekg(from);
    std::string text(static_cast<std::size_t>(size - from), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
    return text;
}

// The seats a participant played, in table order (a team has several).
std::vector<int> seats_of(const ProcessTable& table, int participant) {
    std::vector<int> seats;
    for (int s = 0; s < table.size(); ++s)
        if (table.info(s).bot == participant) seats.push_back(s);
    return seats;
}

UsageStats usage_of(const ProcessTable& table, const std::vector<int>& seats) {
    UsageStats total;
    for (int s : seats) {
        const UsageStats u = table.usage(s);
        total.wall_used_s += u.wall_used_s;
        total.cpu_used_s += u.cpu_used_s;
        total.longest_reply_s = std::max(total.longest_reply_s, u.longest_reply_s);
        total.requests += u.requests;
        total.peak_memory_kib = std::max(total.peak_memory_kib, u.peak_memory_kib);
    }
    return total;
}

// The tail of the seats' stderr logs; a team's seats share it, each line saying which seat wrote it.
std::string stderr_of(const ProcessTable& table, const std::vector<int>& seats, const std::filesystem::path& log_dir,
                      bool team) {
    std::string text;
    for (int s : seats) {
        const std::string& label = table.info(s).label;
        std::string log = read_file_end(log_dir / (label + ".stderr.log"));
        if (!team || log.empty()) {
            text += log;
            continue;
        }
        std::size_t start = 0;
        while (start < log.size()) {
            const std::size_t nl = log.find('\n', start);
            const std::size_t end_of_line = nl == std::string::npos ? log.size() : nl;
            text += "[" + label + "] " + log.substr(start, end_of_line - start) + "\n";
            start = end_of_line + 1;
        }
    }
    return stderr_tail_of(text);
}

// One participant's result, made once: the referee's outcome, the bot as the request named it,
// its seats' usage and, when it failed, why: the exit and limit of its first failed seat (of its
// first seat when the referee, not the table, faulted it) and the tail of its stderr.
ParticipantResult participant_result(int i, const BotSpec& bot, ParticipantOutcome outcome, const ProcessTable* played,
                                     const std::filesystem::path& log_dir) {
    ParticipantResult p;
    static_cast<ParticipantOutcome&>(p) = std::move(outcome);
    p.bot = bot.name;
    p.command = bot.command;
    p.seat = i;
    if (!played) return p;
    const ProcessTable& table = *played;
    const std::vector<int> seats = seats_of(table, i);
    p.usage = usage_of(table, seats);
    std::vector<int> failed;
    for (int s : seats)
        if (table.status(s) != SeatStatus::ok) failed.push_back(s);
    // A process of the bot's killed for memory while its main process played on (a child it
    // forked): the table knows only at the end, and the bot broke its limit all the same.
    for (int s : failed)
        if (p.status == SeatStatus::ok && table.status(s) == SeatStatus::killed && table.seat_end(s).limit == "memory")
            p.status = SeatStatus::killed;
    if (p.status == SeatStatus::ok || seats.empty()) return p;
    const SeatEnd end = table.seat_end(failed.empty() ? seats.front() : failed.front());
    p.exit_code = end.exit_code;
    p.exit_signal = end.exit_signal;
    p.limit = end.limit;
    if (!log_dir.empty()) p.stderr_tail = stderr_of(table, failed.empty() ? seats : failed, log_dir, seats.size() > 1);
    return p;
}

}  // namespace

double machine_load_now() {
    double load[1] = {0};
    if (getloadavg(load, 1) != 1) return 0;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return load[0] / cores;
}

MatchRecord record_for(const MatchRequest& request) {
    MatchRecord record;
    record.game = request.game;
    record.config_json = request.options.to_json();
    record.seed = request.seed;
    record.deal_set = request.deal_set;
    record.rotation = request.rotation;
    record.started_at = utc_timestamp_now();
    return record;
}

void finish_record(MatchRecord& record, const MatchRequest& request, RefereeResult result, const ProcessTable* table) {
    const int n = static_cast<int>(request.bots.size());
    result.participants.resize(static_cast<std::size_t>(n));
    record.participants.clear();
    for (int i = 0; i < n; ++i)
        record.participants.push_back(participant_result(i, request.bots[static_cast<std::size_t>(i)],
                                                         std::move(result.participants[static_cast<std::size_t>(i)]),
                                                         table, request.log_dir));
    record.pairs = std::move(result.pairs);
    record.end_reason = std::move(result.end_reason);
    record.turns = result.turns;
}

MatchRequest rotated_request(const MatchRequest& base, int rotation) {
    MatchRequest r = base;
    const int n = static_cast<int>(base.bots.size());
    if (n == 0) return r;
    const int shift = ((rotation % n) + n) % n;
    for (int i = 0; i < n; ++i) r.bots[i] = base.bots[(i + shift) % n];
    r.rotation = rotation;
    if (!r.deal_set) r.deal_set = base.seed;
    return r;
}

MatchRecord run_match(const GameDescriptor& game, const MatchRequest& request) {
    const int n = static_cast<int>(request.bots.size());
    if (n < game.min_bots || n > game.max_bots) {
        throw UserError("game '" + game.name + "' takes " + std::to_string(game.min_bots) +
                        (game.min_bots == game.max_bots ? "" : " to " + std::to_string(game.max_bots)) +
                        " bots, got " + std::to_string(n));
    }
    check_bots(request.bots);
    const std::vector<SeatPlan> plans = game.plan(request);

    std::vector<SeatLaunch> launches;
    launches.reserve(plans.size());
    for (const auto& plan : plans) {
        SeatLaunch launch;
        launch.info = SeatInfo{plan.bot, request.bots.at(plan.bot).name, plan.label};
        launch.bot = request.bots.at(plan.bot);
        launch.extra_args = plan.extra_args;
        launch.time = plan.time;
        launch.channel = plan.channel;
        for (const auto& [key, value] : plan.env) launch.bot.env[key] = value;
        launch.listen_port = plan.listen_port;
        launches.push_back(std::move(launch));
    }
    TableOptions options;
    options.limits = request.limits;
    options.freeze_idle = request.freeze_idle;
    options.transcript_path = request.transcript_path;
    options.log_dir = request.log_dir;
    for (const auto& output : {request.record_path, request.replay_path})
        if (!output.empty()) options.private_paths.push_back(output);

    MatchRecord record = record_for(request);
    record.game = game.name;
    record.machine_load = machine_load_now();
    if (!request.transcript_path.empty()) record.transcript_path = request.transcript_path.string();
    if (!request.replay_path.empty()) record.replay_path = request.replay_path.string();

    const auto start = std::chrono::steady_clock::now();
    auto table = ProcessTable::launch(std::move(launches), options);
    spdlog::debug("match {} seed {}: {} seats, limits by {}", game.name, request.seed, table->size(),
                  table->limit_mechanism());
    RefereeResult result;
    try {
        result = game.referee(request, *table);
    } catch (...) {
        table->close();
        throw;
    }
    table->close();
    record.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    finish_record(record, request, std::move(result), table.get());
    if (!request.record_path.empty()) write_record_file(request.record_path, record);
    return record;
}

}  // namespace arb
