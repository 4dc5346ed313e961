#include "rules/samurai/samurai_referee.hpp"

#include <optional>

#include <fmt/format.h>

#include "core/user_error.hpp"
#include "rules/live_replay.hpp"
#include "rules/samurai/samurai_protocol.hpp"
#include "rules/seat_driver.hpp"

namespace arb::samurai {
namespace {

const char* role_name(int agent) { return is_samurai(agent) ? "samurai" : "dog"; }

std::int64_t time_left_ms(const Table& table, int seat) {
    return table.alive(seat) ? static_cast<std::int64_t>(table.time_left(seat).count()) : 0;
}

}  // namespace

std::filesystem::path game_log_path(const std::filesystem::path& log_path, int game) {
    if (game == 0) return log_path;
    std::filesystem::path p = log_path;
    p.replace_filename(log_path.stem().string() + "-game" + std::to_string(game + 1) + log_path.extension().string());
    return p;
}

GameOutcome play_game(const Field& field, Table& table, int first_seat, int first_step, const StepPlayed& step_played) {
    GameOutcome outcome;
    outcome.log.field = field;
    GameState state = initial_state(field);

    // The viewer draws a game's field before its first step (frame first_step), then after each
    // step: the plans asked at step s are drawn at frame first_step + s + 1.
    for (int s = 0; !game_over(field, state); ++s) {
        table.mark_step(first_step + s + 1);
        std::vector<Request> requests;
        for (int a = 0; a < kAgents; ++a) {
            const int seat = first_seat + a;
            if (!table.alive(seat)) continue;  // out of time or gone: plan -1, sent nothing (samurai.md 2.7)
            requests.push_back({seat, state_message(field, state, a, time_left_ms(table, seat)), one_line_framer()});
        }
        std::array<std::int64_t, kAgents> plans{kStay, kStay, kStay, kStay};
        for (const auto& answer : ask_round(table, requests, read_plan)) {
            const int a = answer.seat - first_seat;
            AgentFault& fault = outcome.faults[a];
            if (answer.failed()) {
                // The table has retired the seat; the agent stays for the rest of the game.
                if (fault.status == SeatStatus::ok) {
                    fault.status = answer.fault().status;
                    fault.reason = answer.fault().reason;
                    fault.step = state.step;
                }
            } else if (answer.move) {
                plans[a] = *answer.move;
            } else {
                ++fault.unparsable_replies;
            }
        }
        const StepRecord record = play_step(field, state, plans);
        std::array<std::int64_t, kAgents> left{};
        for (int a = 0; a < kAgents; ++a) left[a] = time_left_ms(table, first_seat + a);
        outcome.log.plays.push_back(to_logged_play(record, left));
        if (step_played) step_played(first_step + s + 1, outcome.log);
    }
    outcome.scores = state.scores;
    outcome.all_gold_dug = state.scores[0] + state.scores[1] == total_gold(field);
    return outcome;
}

Field load_match_field(const MatchRequest& request) {
    if (!request.options.has("field")) throw UserError("game 'samurai' needs --field FILE (a .dighere field)");
    Field field = read_game_log(request.options.path("field")).field;
    if (request.options.has("total-time-ms")) {
        const std::int64_t ms = request.options.integer("total-time-ms");
        if (ms < 0) throw UserError("--total-time-ms must not be negative");
        field.think_time_ms = ms;
    }
    return field;
}

std::vector<SeatPlan> plan_match(const MatchRequest& request) {
    const Field field = load_match_field(request);
    std::vector<SeatPlan> seats;
    for (int g = 0; g < kGamesPerMatch; ++g) {
        for (int a = 0; a < kAgents; ++a) {
            SeatPlan seat;
            seat.bot = bot_of_agent(g, a);
            seat.label = fmt::format("g{}-agent{}-{}", g + 1, a, role_name(a));
            seat.time.total_budget = Millis(field.think_time_ms);
            seats.push_back(std::move(seat));
        }
    }
    return seats;
}

RefereeResult referee_match(const MatchRequest& request, Table& table) {
    const Field field = load_match_field(request);
    if (table.size() != kSeatsPerMatch) {
        throw std::logic_error(fmt::format("samurai referee needs {} seats, the table has {}", kSeatsPerMatch,
                                           table.size()));
    }
    RefereeResult result;
    result.participants.resize(2);
    std::array<std::vector<std::string>, 2> notes;
    std::array<int, 2> unparsable{0, 0};
    std::string end_reason;

    // The match so far for a live page: a JSON array of the games' logs (samurai_view.cpp).
    LiveReplay live(request.live_replay_path);
    std::string logs_before;  // the finished games' logs, each followed by a comma
    const auto step_played = [&](int frame, const GameLog& so_far) {
        live.offer(frame, [&] { return "[" + logs_before + game_log_json(so_far) + "]\n"; });
    };

    int first_step = 0;  // the viewer's frames run on over both games
    for (int g = 0; g < kGamesPerMatch; ++g) {
        table.mark_step(first_step);  // the game's field before its first step
        table.note(fmt::format("game {} starts: bot 0 is team {}", g + 1, g == 0 ? 0 : 1));
        const GameOutcome game = play_game(field, table, g * kAgents, first_step,
                                           live.on() ? step_played : StepPlayed{});
        if (live.on()) logs_before += game_log_json(game.log) + ",";
        first_step += static_cast<int>(game.log.plays.size()) + 1;
        for (int a = 0; a < kAgents; ++a) {
            const int bot = bot_of_agent(g, a);
            const AgentFault& fault = game.faults[a];
            unparsable[bot] += fault.unparsable_replies;
            if (fault.status == SeatStatus::ok) continue;
            auto& p = result.participants[bot];
            if (p.status == SeatStatus::ok) p.status = fault.status;
            notes[bot].push_back(fmt::format("game {} {}: {} at step {}{}", g + 1, role_name(a),
                                             to_string(fault.status), fault.step,
                                             fault.reason.empty() ? "" : " (" + fault.reason + ")"));
        }
        for (int team = 0; team < 2; ++team) {
            result.participants[g == 0 ? team : 1 - team].score += game.scores[team];
        }
        result.turns += static_cast<int>(game.log.plays.size());
        end_reason += fmt::format("{}game {}: {} after {} steps ({}:{})", g ? "; " : "", g + 1,
                                  game.all_gold_dug ? "all gold dug" : "step limit", game.log.plays.size(),
                                  game.scores[0], game.scores[1]);
        if (!request.replay_path.empty()) write_game_log(game_log_path(request.replay_path, g), game.log);
        // The game's processes are done; stop them now rather than at match end.
        for (int a = 0; a < kAgents; ++a) table.retire(g * kAgents + a, SeatStatus::killed, "game over");
    }
    for (int bot = 0; bot < 2; ++bot) {
        if (unparsable[bot] > 0) notes[bot].push_back(fmt::format("{} unparsable replies (played as -1)", unparsable[bot]));
        std::string detail;
        for (const auto& n : notes[bot]) detail += (detail.empty() ? "" : "; ") + n;
        result.participants[bot].detail = detail;
    }
    assign_ranks_by_score(result.participants);
    result.pairs = derive_pairs_by_rank(result.participants);
    result.end_reason = end_reason;
    return result;
}

}  // namespace arb::samurai
