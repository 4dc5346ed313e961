#include "rules/koehandel/koehandel_referee.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/user_error.hpp"
#include "rules/koehandel/koehandel_play.hpp"
#include "rules/koehandel/koehandel_protocol.hpp"
#include "rules/koehandel/koehandel_replay.hpp"
#include "rules/live_replay.hpp"
#include "rules/seat_driver.hpp"

namespace arb::koehandel {
namespace {

constexpr std::size_t kDetailNotes = 3;  // default actions quoted in a participant's detail

// The player logs' names: the bots', then "house".
std::vector<std::string> seat_names(Table& table, int bots) {
    std::vector<std::string> names;
    for (int s = 0; s < kSeats; ++s) names.push_back(s < bots ? table.info(s).bot_name : "house");
    return names;
}

// The engine's players over the table: bots on seats 0..bots-1, house bots on the rest.
class TablePlayers : public Players {
public:
    TablePlayers(Table& table, int bots, std::uint64_t market, int max_faults, const std::filesystem::path& log_dir)
        : table_(table), bots_(bots), market_(market), max_faults_(max_faults), notes_(kSeats), defaults_(kSeats),
          failures_(kSeats), logs_(log_dir, log_dir.empty() ? std::vector<std::string>{} : seat_names(table, bots)) {}

    // A notification is a request like a decision (the seed's time limit is per request): its
    // answer is read and ignored, and a late or failed one is a fault like a decision's.
    void tell(int seat, const Message& message) override {
        mark_step();
        const std::string text = request_text(message, market_, seat);
        logs_.request(seat, text);
        if (seat >= bots_ || !table_.alive(seat)) return;
        const auto answer = ask_seat(table_, seat, text, [](std::string_view) { return Frame::skip; }, nothing_to_read);
        if (answer.failed()) {
            logs_.failed_reply(seat, answer.reply.status);
            ++notification_failures_[seat];
            count_failure(seat, answer.reply.status, answer.fault(), "notification " + message.type);
        }
    }

    std::optional<Fields> ask(int seat, const Message& message) override {
        mark_step();
        const std::string text = request_text(message, market_, seat);
        logs_.request(seat, text);
        if (seat >= bots_) return Fields{};  // a house bot passes on everything
        if (!table_.alive(seat)) return std::nullopt;
        auto answer = ask_seat(table_, seat, text, one_line_framer(), read_fields);
        if (answer.failed()) {
            logs_.failed_reply(seat, answer.reply.status);
            count_failure(seat, answer.reply.status, answer.fault(), "decision " + message.type);
            return std::nullopt;
        }
        logs_.reply(seat, answer.reply.first_line());
        return std::move(answer.move);
    }

    void adjudicated(int seat, const std::string& what) override {
        mark_step();
        logs_.default_action(seat, what);
        if (seat >= bots_) return;
        ++defaults_[seat];
        if (notes_[seat].size() < kDetailNotes) notes_[seat].push_back(what);
        table_.note(fmt::format("seat {} default action: {}", seat + 1, what));
    }

    // What follows belongs to step `step`, marked at its first message: a turn that ends the game
    // says nothing, so its step is never marked and the marks never go back.
    void start_step(int step) { step_ = step; }
    void flush_logs() { logs_.flush(); }

    int defaults(int seat) const { return defaults_[seat]; }
    int failures(int seat) const { return failures_[seat]; }
    int notification_failures(int seat) const { return notification_failures_[seat]; }
    const std::vector<std::string>& notes(int seat) const { return notes_[seat]; }
    // How the seat's failed replies ended it (status ok while it plays).
    const SeatFault& out(int seat) const { return out_[seat]; }

private:
    void mark_step() {
        if (step_ == marked_) return;
        table_.mark_step(step_);
        marked_ = step_;
    }

    // A failed reply (to a decision: it also costs the default action; or to a notification) is
    // a fault; after max_faults of them (0 = never) the bot is out, so a slow or hung server
    // cannot stretch a game by more than max_faults reply limits. `failed` is how the reply ended
    // the seat (seat_driver.hpp), applied when the table stopped it or the faults run out.
    void count_failure(int seat, ReplyStatus status, const SeatFault& failed, const std::string& what) {
        ++failures_[seat];
        const std::string fault = fmt::format("fault {}{}: {} {}", failures_[seat],
                                              max_faults_ == 0 ? "" : fmt::format(" of {}", max_faults_), what, to_string(status));
        logs_.note(seat, fault);
        table_.note(fmt::format("seat {} {}", seat + 1, fault));
        if (!table_.alive(seat)) {
            // The table stopped the seat itself (its process exited or hit a limit).
            if (!out_[seat].failed()) out_[seat] = failed;
            return;
        }
        if (max_faults_ == 0 || failures_[seat] < max_faults_) return;
        const std::string detail = fmt::format("{} failed replies (the last: {})", failures_[seat], to_string(status));
        logs_.note(seat, "out: " + detail);
        out_[seat] = failed;
        table_.retire(seat, failed.status, detail);
    }

    Table& table_;
    int bots_;
    std::uint64_t market_;
    int max_faults_;
    std::vector<std::vector<std::string>> notes_;
    std::vector<int> defaults_;
    std::vector<int> failures_;
    std::vector<int> notification_failures_ = std::vector<int>(kSeats);
    std::vector<SeatFault> out_ = std::vector<SeatFault>(kSeats);
    PlayerLogs logs_;
    int step_ = 0;
    int marked_ = -1;
};

}  // namespace

Options engine_options(const MatchRequest& request) {
    Options options;
    options.seed = request.deal_seed();
    const auto edition = request.options.integer("edition");
    if (edition != 1 && edition != 2) throw UserError("koehandel: --edition must be 1 or 2, not " + std::to_string(edition));
    options.edition = edition == 1 ? Edition::first : Edition::second;
    options.max_trade_turns = static_cast<int>(request.options.integer("max-trade-turns"));
    if (options.max_trade_turns < 0) throw UserError("koehandel: --max-trade-turns must be 0 or more");
    options.bluffer_rejoins = !request.options.flag("bluffer-sits-out");
    return options;
}

static int max_faults(const MatchRequest& request) {
    const auto faults = request.options.integer("max-faults");
    if (faults < 0 || faults > 1000000) throw UserError("koehandel: --max-faults must be between 0 and 1000000, not " + std::to_string(faults));
    return static_cast<int>(faults);
}

std::vector<SeatPlan> plan_match(const MatchRequest& request) {
    engine_options(request);  // checks the options before any bot starts
    max_faults(request);
    const auto reply_ms = request.options.integer("turn-ms");
    const auto startup_ms = request.options.integer("startup-ms");
    if (reply_ms <= 0) throw UserError("koehandel: --turn-ms must be positive");
    if (startup_ms <= 0) throw UserError("koehandel: --startup-ms must be positive");
    std::vector<SeatPlan> seats;
    for (int b = 0; b < static_cast<int>(request.bots.size()); ++b) {
        SeatPlan seat;
        seat.bot = b;
        seat.label = fmt::format("p{}", b);
        seat.time.per_request = Millis{reply_ms};
        seat.time.first_request = Millis{std::max(reply_ms, startup_ms)};
        seat.time.grace = Millis{20};
        seat.channel = ChannelKind::http_server;
        seats.push_back(seat);
    }
    return seats;
}

RefereeResult referee_match(const MatchRequest& request, Table& table) {
    const int bots = static_cast<int>(request.bots.size());
    // The logs' match file first: `arbiter verify koehandel` replays them from it.
    if (!request.replay_path.empty()) write_match_file(request.replay_path, request);
    TablePlayers players(table, bots, market_of(request.seed), max_faults(request), request.replay_path);
    Game game(engine_options(request));
    // The viewer draws the game after its opening (frame 0), then after each turn: the
    // exchanges of turn k are step k.
    players.start_step(0);
    begin(game, players);
    // The logs so far for a live page, made whole at a turn's end: the page replays them up to
    // the frame the live file names (koehandel_view.cpp).
    LiveReplay live(request.live_replay_path);
    int step = 1;
    for (;; ++step) {
        live.offer(step - 1, [&] {
            players.flush_logs();
            return std::string();
        });
        players.start_step(step);
        if (!play_turn(game, players)) break;
    }
    players.start_step(step - 1);  // the game's end is told under its last frame
    finish(game, players);
    const auto scores = game.scores();
    RefereeResult result;
    result.turns = game.state().turns;
    result.end_reason = game.state().end_reason == "cap" ? "trade-turn cap" : "completed";
    for (int b = 0; b < bots; ++b) {
        ParticipantOutcome p;
        p.score = scores[b];
        p.status = players.out(b).failed() ? players.out(b).status : table.status(b);
        std::string detail = table.retire_detail(b);
        if (players.defaults(b) > 0) {
            detail += fmt::format("{}{} default action{}: {}", detail.empty() ? "" : "; ", players.defaults(b),
                                  players.defaults(b) == 1 ? "" : "s", fmt::join(players.notes(b), "; "));
            if (players.defaults(b) > static_cast<int>(players.notes(b).size())) detail += "; ...";
        }
        if (const int n = players.notification_failures(b); n > 0) {
            detail += fmt::format("{}{} failed notification{}", detail.empty() ? "" : "; ", n, n == 1 ? "" : "s");
        }
        if (game.state().players[b].barred) detail += detail.empty() ? "barred from starting trades" : "; barred from starting trades";
        p.detail = detail;
        result.participants.push_back(p);
    }
    assign_ranks_by_score(result.participants);
    result.pairs = derive_pairs_by_rank(result.participants);
    return result;
}

}  // namespace arb::koehandel
