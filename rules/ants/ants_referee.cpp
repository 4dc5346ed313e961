#include "rules/ants/ants_referee.hpp"

#include <fmt/format.h>

#include "rules/ants/ants_protocol.hpp"
#include "rules/ants/ants_replay.hpp"
#include "rules/live_replay.hpp"
#include "rules/seat_driver.hpp"

namespace arb::ants {
namespace {

class AntsMatch {
public:
    AntsMatch(AntsEngine& engine, Table& table, const AntsRefereeSettings& settings)
        : engine_(engine), table_(table), settings_(settings), n_(engine.players()), live_(settings.live_replay) {
        outcome_.status.assign(n_, "survived");
        outcome_.faults.assign(n_, SeatFault{});
        outcome_.playerturns.assign(n_, 0);
    }

    AntsMatchOutcome play() {
        // A bot that is not running at the start is out before turn 0 ("crashed 0").
        for (int p = 0; p < n_; ++p)
            if (p >= table_.size() || !table_.alive(p)) {
                engine_.kill_player(p);
                outcome_.status[p] = "crashed 0";
            }
        // The original writes the stream's start block before start_game places the food.
        if (settings_.stream) settings_.stream(engine_.stream_start_text());
        engine_.start_game();
        int turn = 0;
        {
            // The viewer's frame t draws the map after turn t's orders: step t is turn t.
            table_.mark_step(0);
            std::vector<Request> requests;
            for (int p = 0; p < n_; ++p)
                if (engine_.is_alive(p)) requests.push_back({p, start_message(engine_), go_framer()});
            bots_listed();
            collect(requests, 0);
        }
        bool over = engine_.game_over();
        while (!over && turn < engine_.params().turns) {
            ++turn;
            table_.mark_step(turn);
            std::vector<Request> requests;
            for (int p = 0; p < n_; ++p) {
                if (!engine_.is_alive(p)) continue;
                requests.push_back({p, turn_message(engine_, p, turn), go_framer()});
                outcome_.playerturns[p] = turn;
            }
            if (settings_.stream)
                settings_.stream("turn " + std::to_string(turn) + "\nscore " + join_words(to_words(engine_.scores())) +
                                 "\n" + engine_.full_state_text());
            engine_.start_turn();
            bots_listed();
            auto moves = collect(requests, turn);
            std::vector<char> alive_before(n_);
            for (int p = 0; p < n_; ++p) alive_before[p] = engine_.is_alive(p);
            // ants.md section 2 step 6: when a fault already ended the game, no orders apply.
            if (!engine_.game_over()) {
                for (int p = 0; p < n_; ++p) {
                    if (!engine_.is_alive(p)) continue;
                    const OrderVerdicts verdicts = engine_.do_moves(p, moves[p]);
                    log_verdicts(p, turn, verdicts);
                    if (settings_.strict && !verdicts.invalid.empty()) {
                        // Quirk 12.12: its valid orders of this turn still execute.
                        engine_.kill_player(p);
                        outcome_.status[p] = "invalid";
                        table_.retire(p, SeatStatus::illegal, "invalid order: " + verdicts.invalid.front());
                    }
                }
            }
            engine_.finish_turn();
            for (int p = 0; p < n_; ++p) {
                if (!alive_before[p] || engine_.is_alive(p)) continue;
                if (outcome_.status[p] == "invalid") continue;  // put out by --strict, not by battle
                outcome_.status[p] = "eliminated";
                outcome_.playerturns[p] = turn;
                table_.send(p, end_message(p));
                table_.retire(p, SeatStatus::killed, "eliminated (no ants left)");
            }
            over = engine_.game_over();
            // The replay so far for a live page: frame `turn` is this turn's end.
            live_.offer(turn, [&] {
                return replay_file(engine_, outcome_.status, outcome_.playerturns, turn, settings_.player_names).dump() + "\n";
            });
        }
        engine_.finish_game();
        outcome_.game_length = turn;
        for (int p = 0; p < n_; ++p)
            if (engine_.is_alive(p) && table_.alive(p)) table_.send(p, end_message(p));
        if (settings_.stream) {
            settings_.stream("end\nplayers " + std::to_string(n_) + "\nscore " +
                             join_words(to_words(engine_.scores())) + "\nstatus " + join_words(outcome_.status) +
                             "\nplayerturns " + join_words(to_words(outcome_.playerturns)) + "\n" +
                             engine_.full_state_text());
        }
        outcome_.replay = replay_file(engine_, outcome_.status, outcome_.playerturns, outcome_.game_length,
                                      settings_.player_names);
        return outcome_;
    }

private:
    void bots_listed() {
        if (!settings_.bots_listed) return;
        int live = 0;
        for (int p = 0; p < n_; ++p) live += engine_.is_alive(p) ? 1 : 0;
        settings_.bots_listed(live);
    }

    // Asks every live bot at once; a bot that fails is out (its ants stay).
    std::vector<std::vector<std::string>> collect(const std::vector<Request>& requests, int turn) {
        std::vector<std::vector<std::string>> moves(n_);
        for (auto& answer : ask_round(table_, requests, reply_lines)) {
            const int p = answer.seat;
            if (!answer.failed()) {
                moves[p] = std::move(*answer.move);  // reply_lines reads every ok reply
                continue;
            }
            // The replay keeps the original's word; the record has the shared status (a kill, and why).
            outcome_.status[p] = answer.reply.status == ReplyStatus::timeout ? "timeout" : "crashed";
            outcome_.faults[p] = answer.fault();
            outcome_.playerturns[p] = turn;
            engine_.kill_player(p);
            table_.note(fmt::format("turn {} bot {} {}", turn, p, outcome_.status[p]));
        }
        return moves;
    }

    void log_verdicts(int p, int turn, const OrderVerdicts& v) {
        if (!v.ignored.empty())
            table_.note(fmt::format("turn {:4} bot {} ignored actions:\n{}", turn, p, fmt::join(v.ignored, "\n")));
        if (!v.invalid.empty())
            table_.note(fmt::format("turn {:4} bot {} invalid actions:\n{}", turn, p, fmt::join(v.invalid, "\n")));
    }

    std::string end_message(int p) { return ants::end_message(engine_, p, outcome_.status, outcome_.playerturns); }

    AntsEngine& engine_;
    Table& table_;
    const AntsRefereeSettings& settings_;
    int n_;
    LiveReplay live_;
    AntsMatchOutcome outcome_;
};

}  // namespace

AntsMatchOutcome run_ants_match(AntsEngine& engine, Table& table, const AntsRefereeSettings& settings) {
    return AntsMatch(engine, table, settings).play();
}

RefereeResult referee_result(const AntsEngine& engine, const AntsMatchOutcome& outcome) {
    RefereeResult out;
    const auto ranks = engine.ranks();
    for (int p = 0; p < engine.players(); ++p) {
        ParticipantOutcome r;
        r.score = engine.scores()[p];
        r.rank = ranks[p] + 1;
        const std::string& s = outcome.status[p];
        if (s == "crashed 0") r.status = SeatStatus::crashed;  // not running at the start
        else if (s == "invalid") r.status = SeatStatus::illegal;
        r.detail = s == "survived" ? "survived" : fmt::format("{} at turn {}", s, outcome.playerturns[p]);
        if (p < static_cast<int>(outcome.faults.size()) && outcome.faults[p].failed()) {
            const SeatFault& fault = outcome.faults[p];
            r.status = fault.status;
            if (fault.status == SeatStatus::killed)
                r.detail = fmt::format("killed at turn {}: {}", outcome.playerturns[p], fault.reason);
        }
        out.participants.push_back(std::move(r));
    }
    out.pairs = derive_pairs_by_rank(out.participants);
    out.end_reason = engine.cutoff();
    out.turns = outcome.game_length;
    return out;
}

}  // namespace arb::ants
