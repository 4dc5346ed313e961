// The smart-dog referee over Table seats (see the header for the protocol and the order).
#include "rules/smartdog/smartdog_referee.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/rng.hpp"
#include "core/user_error.hpp"
#include "rules/live_replay.hpp"
#include "rules/seat_driver.hpp"
#include "rules/smartdog/smartdog_map.hpp"
#include "rules/smartdog/smartdog_protocol.hpp"
#include "rules/smartdog/smartdog_replay.hpp"
#include "rules/smartdog/smartdog_session.hpp"

namespace arb::smartdog {
namespace {

constexpr Millis kMinJoinLimit{2000};  // to start, connect and send `join`: at least a turn

struct Match {
    Session& session;
    Table& table;
    WireLog& log;
    int players = 0;
    std::vector<std::string> fault;  // per player: why it is out ("" = playing)
    bool abort_on_fault = false;      // ruling 6: the original stops the game; we forfeit by default
    std::vector<std::size_t> ignored = std::vector<std::size_t>(static_cast<std::size_t>(players));  // lines after `end`
    std::vector<SeatStatus> status = std::vector<SeatStatus>(static_cast<std::size_t>(players));  // per player, once out

    void retire(int player, SeatStatus why, const std::string& detail) {
        if (!fault[static_cast<std::size_t>(player - 1)].empty()) return;
        fault[static_cast<std::size_t>(player - 1)] = detail;
        status[static_cast<std::size_t>(player - 1)] = why;
        if (table.alive(player - 1)) table.retire(player - 1, why, detail);
        log.note(fmt::format("P{} out: {}", player, detail));
        if (abort_on_fault) {
            session.abort_game(player);
        } else {
            session.eliminate(player);
        }
    }

    // The session's output, grouped per player in order, logged.
    std::vector<std::string> pending_text() {
        std::vector<std::string> text(static_cast<std::size_t>(players));
        for (auto& o : session.take()) {
            if (!fault[static_cast<std::size_t>(o.player - 1)].empty()) continue;
            log.to(o.player, o.line);
            text[static_cast<std::size_t>(o.player - 1)] += o.line + "\n";
        }
        return text;
    }

    void feed(int player, const std::string& line) {
        log.from(player, line);
        session.receive(player, line);
    }
};

// Everybody connects and joins; player ids are seat order. A seat is known by the connection
// it arrives on, so `join` may name any user (the seed's `join <username> [hub]`).
void join_all(Match& m) {
    std::vector<Request> requests;
    for (int s = 0; s < m.players; ++s) requests.push_back({s, "", one_line_framer()});
    for (const auto& answer : ask_round(m.table, requests, read_join)) {
        const int p = answer.seat + 1;
        if (answer.failed()) {
            m.retire(p, answer.fault().status, std::string("no join: ") + to_string(answer.reply.status));
            continue;
        }
        m.log.from(p, answer.reply.first_line());
        if (!answer.move) {
            const std::string error(kExpectedJoin);
            m.table.send(p - 1, error + "\n");
            m.log.to(p, error);
            m.retire(p, SeatStatus::illegal, "first line is not `join <username> [hub]`");
            continue;
        }
        if (!answer.move->hub.empty()) m.log.note(fmt::format("P{} hub {} (ignored)", p, answer.move->hub));
        // Stopping on a fault: joins take effect in the logged order, so `verify` replays them.
        if (m.abort_on_fault) m.session.join(p);
    }
    if (m.abort_on_fault) return;
    for (int p = 1; p <= m.players; ++p) m.session.join(p);
    for (int p = 1; p <= m.players; ++p) {
        if (!m.fault[static_cast<std::size_t>(p - 1)].empty()) m.session.eliminate(p);
    }
}

// A repeated `join` gets `error Already joined` wherever it comes. One sent with the first `join`
// (in the same write), after it, or after a turn's `end` arrives before this turn's request, with
// the lines the table drops unread: it is taken out of them here and answered by the session
// (with this turn's other answers, before the next state), in the order it came.
void answer_repeated_joins(Match& m, int p, Reply& reply) {
    std::vector<std::string> rest;
    for (auto& line : reply.dropped) {
        if (!is_join_command(line)) {
            rest.push_back(std::move(line));
            continue;
        }
        m.feed(p, line);
        --reply.dropped_count;
    }
    reply.dropped = std::move(rest);
}

// Ruling 5: what a player sent after its `end` and before this turn's state answers nothing.
// It is dropped with a warning in the wire log (a note, so `verify` does not replay it).
void note_ignored(Match& m, int p, const Reply& reply) {
    if (reply.dropped_count == 0) return;
    m.ignored[static_cast<std::size_t>(p - 1)] += reply.dropped_count;
    std::string quoted;
    for (const auto& line : reply.dropped) quoted += (quoted.empty() ? "'" : ", '") + line + "'";
    if (reply.dropped_count > reply.dropped.size()) quoted += ", ...";
    m.log.note(fmt::format("warning: {} line{} from P{} after its `end` ignored: {}", reply.dropped_count,
                           reply.dropped_count == 1 ? "" : "s", p, quoted));
    m.table.note(fmt::format("P{}: {} line(s) after `end` ignored", p, reply.dropped_count));
}

void play_turn(Match& m, bool arrival) {
    const std::vector<std::string> text = m.pending_text();
    std::vector<Request> requests;
    for (int p = 1; p <= m.players; ++p) {
        if (!m.session.waiting_for(p)) continue;
        requests.push_back({p - 1, text[static_cast<std::size_t>(p - 1)], turn_framer(), true});
    }
    std::map<int, std::vector<std::string>> commands;
    std::map<int, std::chrono::nanoseconds> wall;  // per player: how long its reply took
    std::vector<int> ok;
    for (auto& answer : ask_round(m.table, requests, read_commands)) {
        const int p = answer.seat + 1;
        answer_repeated_joins(m, p, answer.reply);
        note_ignored(m, p, answer.reply);
        wall[p] = answer.reply.wall;
        if (answer.failed()) {
            m.retire(p, answer.fault().status,
                     fmt::format("turn {}: {}", m.session.engine().turn() + 1, to_string(answer.reply.status)));
        } else if (!answer.move) {
            m.retire(p, SeatStatus::illegal, fmt::format("more than {} lines in a turn", kMaxCommandsPerTurn - 1));
        } else {
            commands[p] = std::move(*answer.move);
            ok.push_back(p);
        }
    }
    if (ok.empty()) return;
    if (arrival) {
        // Live play: each player's commands as one block, the blocks in the order the replies
        // were complete (the requests went out together, so the shortest reply time was first).
        std::stable_sort(ok.begin(), ok.end(), [&](int a, int b) { return wall[a] < wall[b]; });
        for (int p : ok) {
            for (const auto& line : commands[p]) m.feed(p, line);
            m.log.from(p, "end");
            m.session.receive(p, "end");
        }
        return;
    }
    // Round robin, one command per player, the first player rotating with the turn.
    const int first = m.session.engine().turn() % m.players;
    std::vector<int> order;
    for (int i = 0; i < m.players; ++i) {
        const int p = (first + i) % m.players + 1;
        if (commands.count(p)) order.push_back(p);
    }
    std::string order_text;
    for (int p : order) order_text += fmt::format(" P{}", p);
    m.log.note(fmt::format("turn {} order:{}", m.session.engine().turn() + 1, order_text));
    for (std::size_t k = 0;; ++k) {
        bool any = false;
        for (int p : order) {
            const auto& list = commands[p];
            if (k >= list.size()) continue;
            any = true;
            m.feed(p, list[k]);
        }
        if (!any) break;
    }
    for (int p : order) {
        m.log.from(p, "end");
        m.session.receive(p, "end");
    }
}

}  // namespace

std::vector<std::string> seat_tokens(std::uint64_t seed, int seats) {
    Rng rng(seed ^ 0x5ea7'70c3'd06aULL);
    std::vector<std::string> tokens;
    for (int s = 0; s < seats; ++s) tokens.push_back(fmt::format("{:016x}", rng.next_u64()));
    return tokens;
}

Tile load_match_tile(const MatchRequest& request) {
    Tile tile = read_tile(request.options.path("map").string());
    check_seed_bounds(tile, static_cast<int>(request.bots.size()));
    if (request.options.has("turns")) {
        const auto turns = request.options.integer("turns");
        if (turns < 1 || turns > 1000000) throw UserError("--turns must be 1..1000000");
        tile.params.turns_limit = static_cast<int>(turns);
    }
    // Bots are told the per-turn limit they really have.
    const auto turn_ms = request.options.integer("turn-ms");
    if (turn_ms < 1 || turn_ms > 100000000) throw UserError("--turn-ms must be 1..100000000");
    tile.params.wait_for_turn = static_cast<int>(turn_ms);
    return tile;
}

static bool on_fault_abort(const MatchRequest& request) {
    const std::string& mode = request.options.text("on-fault");
    if (mode != "abort" && mode != "forfeit") throw UserError("--on-fault must be abort or forfeit, not '" + mode + "'");
    return mode == "abort";
}

std::vector<SeatPlan> plan_match(const MatchRequest& request) {
    load_match_tile(request);  // fails early on a bad map
    on_fault_abort(request);
    const auto turn_ms = request.options.integer("turn-ms");
    const auto port = request.options.integer("port");
    const auto bots = static_cast<std::int64_t>(request.bots.size());
    if (port < 0 || port + bots - 1 > 65535) throw UserError("--port must be 0.." + std::to_string(65536 - bots));
    const auto tokens = seat_tokens(request.seed, static_cast<int>(request.bots.size()));
    std::vector<SeatPlan> seats;
    for (std::size_t b = 0; b < request.bots.size(); ++b) {
        SeatPlan seat;
        seat.bot = static_cast<int>(b);
        seat.label = fmt::format("p{}", b + 1);
        seat.time.per_request = Millis(turn_ms);
        seat.time.first_request = std::max(Millis(turn_ms), kMinJoinLimit);
        seat.channel = ChannelKind::tcp_client;
        // A name the bot may join with; the seat is its connection, on a listener of its own
        // (--port N: seat k listens on N + k - 1, in its own network under the sandbox).
        seat.env["ARBITER_TOKEN"] = tokens[b];
        seat.listen_port = port == 0 ? 0 : static_cast<std::uint16_t>(port + static_cast<std::int64_t>(b));
        seats.push_back(std::move(seat));
    }
    return seats;
}

RefereeResult referee_match(const MatchRequest& request, Table& table) {
    const Tile tile = load_match_tile(request);
    const int players = table.size();
    const bool arrival = request.options.flag("arrival");
    Session session(tile, players);
    WireLog log(request.replay_path, !request.live_replay_path.empty());
    LiveReplay live(request.live_replay_path);  // the wire log so far, for a live page
    const bool abort_on_fault = on_fault_abort(request);
    note_match_header(log, request.options.path("map"), players, tile.params, arrival, abort_on_fault);
    Match m{session, table, log, players, std::vector<std::string>(static_cast<std::size_t>(players)), abort_on_fault};
    // The viewer draws a frame per state sent (a turn), the joins under the first: step k is the
    // k-th turn's state and the commands that answer it; the last state, sent after the end,
    // is the step after the last turn.
    table.mark_step(0);
    join_all(m);
    int step = 0;
    for (; !session.finished(); ++step) {
        if (step > 0) {
            live.offer(step - 1, [&] { return log.text(); });
            table.mark_step(step);
        }
        play_turn(m, arrival);
    }
    table.mark_step(step);
    const std::vector<std::string> last = m.pending_text();
    for (int p = 1; p <= players; ++p) {
        if (!last[static_cast<std::size_t>(p - 1)].empty()) table.send(p - 1, last[static_cast<std::size_t>(p - 1)]);
    }

    RefereeResult result;
    result.turns = session.turns_played();
    for (int p = 1; p <= players; ++p) {
        ParticipantOutcome r;
        const std::string& fault = m.fault[static_cast<std::size_t>(p - 1)];
        r.score = session.result_score(p);
        r.status = fault.empty() ? SeatStatus::ok : m.status[static_cast<std::size_t>(p - 1)];
        r.detail = fault.empty() ? (session.aborted() ? "game stopped by a fault" : "") : fault;
        if (const std::size_t n = m.ignored[static_cast<std::size_t>(p - 1)]; n > 0) {
            r.detail += fmt::format("{}{} line{} after `end` ignored", r.detail.empty() ? "" : "; ", n, n == 1 ? "" : "s");
        }
        log.note(fmt::format("final score P{} = {}", p, format_score(r.score)));
        result.participants.push_back(std::move(r));
    }
    // Ranks: faulted players last; otherwise by score, equal scores share a rank.
    for (auto& r : result.participants) {
        r.rank = 1;
        for (const auto& o : result.participants) {
            const bool r_out = r.status != SeatStatus::ok, o_out = o.status != SeatStatus::ok;
            if ((!o_out && r_out) || (o_out == r_out && o.score > r.score)) ++r.rank;
        }
    }
    result.pairs = derive_pairs_by_rank(result.participants);
    // Equal scores share the first place (smartdog.md, ties): the wire's lowest-id winner is kept
    // for the `finished` line only.
    std::vector<int> first;
    for (int p = 1; p <= players; ++p) {
        const auto& r = result.participants[static_cast<std::size_t>(p - 1)];
        if (session.winner() && r.rank == 1 && r.status == SeatStatus::ok) first.push_back(p);
    }
    if (first.size() == 1) {
        auto& r = result.participants[static_cast<std::size_t>(first.front() - 1)];
        r.detail = "winner" + (r.detail.empty() ? "" : "; " + r.detail);
    }
    result.end_reason = first.empty()       ? "turn limit; no winner"
                        : first.size() == 1 ? fmt::format("turn limit; winner P{}", first.front())
                                            : fmt::format("turn limit; tie for first: P{}", fmt::join(first, ", P"));
    if (session.aborted()) result.end_reason = "stopped by a fault (--on-fault abort); no winner";
    return result;
}

}  // namespace arb::smartdog
