#include "rules/planowanie/planowanie_referee.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <span>

#include "rules/planowanie/planowanie_protocol.hpp"
#include "rules/live_replay.hpp"
#include "rules/planowanie/planowanie_replay.hpp"
#include "rules/seat_driver.hpp"

namespace arb::planowanie {
namespace {

std::string without_newline(std::string_view command) {
    while (!command.empty() && command.back() == '\n') command.remove_suffix(1);
    return std::string(command);
}

// Keeps a reply readable in one line of the record.
std::string shorten(std::string_view text) {
    constexpr std::size_t kMax = 60;
    return text.size() <= kMax ? std::string(text) : std::string(text.substr(0, kMax)) + "...";
}

using Answer = SeatAnswer<GtpReply>;

struct Fault {
    SeatStatus status = SeatStatus::ok;
    std::string detail;
};

class Referee {
  public:
    Referee(const RefereeSettings& settings, Table& table)
        : settings_(settings),
          table_(table),
          state_(settings.config),
          n_(settings.config.players),
          faults_(static_cast<std::size_t>(n_)),
          warnings_(static_cast<std::size_t>(n_), 0) {
        log_.values = settings.config.deck.values();
        log_.suits = settings.config.deck.suits();
        log_.players = n_;
        log_.schedule = settings.config.deals;
        log_.deal_seed = settings.deal_seed;
    }

    RefereeResult run() {
        if (play_all()) table_.note("game over");
        end_bots();
        RefereeResult out = result();
        write_log(out);
        return out;
    }

  private:
    // --- the seed's command sequence ----------------------------------------------------------

    // Steps as the viewer numbers its frames: per deal one for the deal (the hands sent), one for
    // the declarations, one per card; the set-up commands belong to step 0. A fault that ends the
    // match before a declaration round or a card is logged leaves its step without a decision to
    // draw: the log's "fault" names it, so that the viewer draws that step as well.
    void mark_step() {
        // The log so far, for a live page: it draws the steps up to the one that ends here.
        if (marked_ >= 0) live_.offer(marked_, [&] { return to_json(log_).dump(1) + "\n"; });
        if (step_ != marked_) table_.mark_step(step_);
        marked_ = step_++;
    }

    bool play_all() {
        step_ = 0;
        mark_step();
        step_ = 0;  // the first deal's frame is step 0 as well
        const Config& config = settings_.config;
        if (!broadcast_same(set_deck_command(config))) return false;
        std::vector<std::string> players;
        players.reserve(static_cast<std::size_t>(n_));
        for (int s = 0; s < n_; ++s) players.push_back(set_players_command(n_, s));
        if (!broadcast(std::move(players))) return false;
        if (!broadcast_same(set_game_command(config))) return false;
        while (state_.phase() != Phase::over) {
            if (!play_deal()) return false;
        }
        return true;
    }

    bool play_deal() {
        const int deal = state_.deal_index();
        const auto hands = deal_hands(settings_.config, deal, settings_.deal_seed);
        if (auto v = state_.apply_deal(hands))
            throw std::logic_error("planowanie: own deal rejected: " + v->what);
        table_.note(fmt::format("deal {}: {} cards, player {} starts", deal + 1, state_.cards_this_deal(),
                                state_.leader()));
        // The step first: the log offered to a live page at its mark must not hold this deal yet.
        mark_step();
        DealLog& deal_log = log_.deals.emplace_back();
        deal_log.cards = state_.cards_this_deal();
        deal_log.starter = state_.leader();
        for (const auto& hand : hands) {
            auto& texts = deal_log.hands.emplace_back();
            for (const Card& c : hand) texts.push_back(settings_.config.deck.text(c));
        }

        std::vector<std::string> set_cards;
        set_cards.reserve(hands.size());
        for (const auto& hand : hands) set_cards.push_back(set_cards_command(settings_.config.deck, hand));
        if (!broadcast(std::move(set_cards))) return false;
        if (!declarations()) return false;
        while (state_.phase() == Phase::play) {
            if (!one_card()) return false;
        }
        return true;
    }

    bool declarations() {
        mark_step();
        std::vector<std::string> times;
        times.reserve(static_cast<std::size_t>(n_));
        for (int s = 0; s < n_; ++s) times.push_back(time_left(s));
        if (!broadcast(std::move(times))) return unanswered("declarations");

        std::vector<Request> requests;
        requests.reserve(static_cast<std::size_t>(n_));
        for (int s = 0; s < n_; ++s) requests.push_back(Request{s, std::string(kGenDeclare), gtp_framer()});
        const std::vector<Answer> answers = ask_round(table_, requests, read_gtp_reply);
        std::vector<int> declared(static_cast<std::size_t>(n_), 0);
        for (const Answer& answer : answers) {
            const int s = answer.seat;
            const auto reply = decision_reply(answer, "gen_declare");
            if (!reply) continue;
            const auto number = parse_declaration(reply->payload);
            if (!number) {
                fault(s, SeatStatus::illegal,
                      fmt::format("malformed declaration '{}' in {}", shorten(reply->payload), where()));
                continue;
            }
            if (auto v = state_.apply_declaration(s, *number)) {
                fault(s, SeatStatus::illegal,
                      fmt::format("illegal declaration {} in {}: {}", *number, where(), v->what));
                continue;
            }
            declared[static_cast<std::size_t>(s)] = *number;
        }
        if (any_fault()) return unanswered("declarations");
        log_.deals.back().declarations = declared;
        for (int s = 0; s < n_; ++s) {
            if (!broadcast_same(declare_command(s, declared[static_cast<std::size_t>(s)])))
                return false;
        }
        return true;
    }

    bool one_card() {
        mark_step();
        const int seat = state_.to_move();
        if (!ask_ack(seat, time_left(seat))) return unanswered("play");
        const Answer answer = ask_seat(table_, seat, kGenMove, gtp_framer(), read_gtp_reply);
        const GtpReply* reply = decision_reply(answer, "gen_move");
        if (!reply) return unanswered("play");
        const auto card = settings_.config.deck.parse(reply->payload);
        if (!card) {
            fault(seat, SeatStatus::illegal,
                  fmt::format("malformed card '{}' in {}", shorten(reply->payload), where()));
            return unanswered("play");
        }
        const bool leads = state_.trick().empty();
        if (auto v = state_.apply_card(seat, *card)) {
            // A rejected card leaves the state as it was (the engine checks before it plays), so
            // where() still names the trick it was played in.
            fault(seat, SeatStatus::illegal,
                  fmt::format("illegal card '{}' in {}: {}", reply->payload, where(), v->what));
            return unanswered("play");
        }
        log_card(seat, *card, leads);
        return broadcast_same(play_command(settings_.config.deck, seat, *card));
    }

    // --- the game log ------------------------------------------------------------------------

    void log_card(int seat, Card card, bool leads) {
        DealLog& deal = log_.deals.back();
        if (leads) deal.tricks.push_back(TrickLog{seat, {}, std::nullopt});
        deal.tricks.back().cards.push_back(settings_.config.deck.text(card));
        if (!state_.trick().empty()) return;  // the trick goes on
        deal.tricks.back().winner = state_.last_trick_winner();
        if (state_.results().size() == log_.deals.size()) {
            deal.taken = state_.results().back().taken;
            deal.points = state_.results().back().points;
        }
    }

    // A log that cannot be written does not undo the match: it is noted, and the record stands.
    void write_log(const RefereeResult& result) {
        if (settings_.log_path.empty()) return;
        for (const auto& p : result.participants) log_.scores.push_back(static_cast<int>(p.score));
        log_.end_reason = result.end_reason;
        try {
            write_game_log(settings_.log_path, log_);
        } catch (const std::exception& e) {
            spdlog::error("{}", e.what());
            table_.note(e.what());
        }
    }

    std::string time_left(int seat) const { return time_left_command(table_.time_left(seat).count()); }

    // --- replies ------------------------------------------------------------------------------

    // Sends each seat its own command (texts[s] to seat s) at once; every reply must be an
    // acknowledgement. false when a seat failed. The texts move into the requests.
    bool broadcast(std::vector<std::string> texts) {
        std::vector<Request> requests;
        requests.reserve(static_cast<std::size_t>(n_));
        for (int s = 0; s < n_; ++s)
            requests.push_back(Request{s, std::move(texts[static_cast<std::size_t>(s)]), gtp_framer()});
        return acknowledged(requests);
    }

    // The same command to every seat: one copy per request, the last takes the text itself.
    bool broadcast_same(std::string text) {
        std::vector<Request> requests;
        requests.reserve(static_cast<std::size_t>(n_));
        for (int s = 0; s < n_; ++s) {
            if (s + 1 < n_)
                requests.push_back(Request{s, text, gtp_framer()});
            else
                requests.push_back(Request{s, std::move(text), gtp_framer()});
        }
        return acknowledged(requests);
    }

    bool acknowledged(std::span<const Request> requests) {
        const std::vector<Answer> answers = ask_round(table_, requests, read_gtp_reply);
        for (std::size_t i = 0; i < answers.size(); ++i) check_ack(answers[i], requests[i].text);
        return !any_fault();
    }

    bool ask_ack(int seat, const std::string& text) {
        check_ack(ask_seat(table_, seat, text, gtp_framer(), read_gtp_reply), text);
        return !any_fault();
    }

    // An informational command: any '=' or '?' reply will do; '?' is only noted (the seed lets
    // bots answer '?' to commands they do not handle, e.g. time_left).
    void check_ack(const Answer& answer, const std::string& command) {
        const GtpReply* reply = framed_reply(answer, command);
        if (!reply) return;
        if (reply->kind == GtpReply::Kind::failure)
            warn(answer.seat,
                 fmt::format("answered '? {}' to '{}'", shorten(reply->payload), without_newline(command)));
    }

    // A decision (gen_declare / gen_move): '?' is a fault.
    const GtpReply* decision_reply(const Answer& answer, const std::string& command) {
        const GtpReply* reply = framed_reply(answer, command);
        if (!reply) return nullptr;
        if (reply->kind == GtpReply::Kind::failure) {
            fault(answer.seat, SeatStatus::illegal,
                  fmt::format("answered '? {}' to {} in {}", shorten(reply->payload), command, where()));
            return nullptr;
        }
        return reply;
    }

    // Channel failures and framing: null when the seat failed (recorded as a fault); else the
    // answer's reading.
    const GtpReply* framed_reply(const Answer& answer, const std::string& command) {
        const int seat = answer.seat;
        const Reply& raw = answer.reply;
        if (answer.failed()) {
            const SeatFault& failed = answer.fault();
            // "killed" (a limit the table enforces): the table's own reason says more than "closed".
            std::string detail = fmt::format("{}{} waiting for the reply to '{}' in {}",
                                             failed.reason.empty() ? "" : failed.reason + ": ",
                                             to_string(raw.status), without_newline(command), where());
            // Tell the bot's author what did arrive: a reply without its empty line, or half a line
            // (often an unflushed or unterminated write).
            if (!raw.lines.empty()) {
                detail += fmt::format(" (received '{}' but no closing empty line)",
                                      shorten(normalize_line(raw.lines.back())));
            } else if (!raw.partial.empty()) {
                detail += fmt::format(" (incomplete line: '{}')", shorten(normalize_line(raw.partial)));
            }
            fault(seat, failed.status, std::move(detail));
            return nullptr;
        }
        if (!answer.move) {
            retire_illegal(seat, fmt::format("no '=' or '?' line in the reply to '{}' in {} ({} lines)",
                                             without_newline(command), where(), raw.lines.size()));
            return nullptr;
        }
        const GtpReply& reply = *answer.move;
        if (reply.extra_lines >= kMaxReplyLines) {
            retire_illegal(seat, fmt::format("reply to '{}' in {} has no empty line after {} lines",
                                             without_newline(command), where(), reply.extra_lines + 1));
            return nullptr;
        }
        if (reply.junk_lines > 0)
            warn(seat, fmt::format("{} stray lines before the reply to '{}'", reply.junk_lines,
                                   without_newline(command)));
        if (reply.extra_lines > 0)
            warn(seat, fmt::format("{} extra lines in the reply to '{}'", reply.extra_lines,
                                   without_newline(command)));
        if (reply.glued)
            warn(seat,
                 fmt::format("no space after the marker in the reply to '{}'", without_newline(command)));
        return &reply;
    }

    // --- faults and the result ----------------------------------------------------------------

    std::string where() const {
        if (state_.phase() == Phase::deal && state_.deal_index() == 0 && state_.results().empty())
            return "setup";
        std::string out = fmt::format("deal {}", state_.deal_index() + 1);
        if (state_.phase() == Phase::play) out += fmt::format(", trick {}", state_.tricks_played() + 1);
        return out;
    }

    void fault(int seat, SeatStatus status, std::string detail) {
        auto& f = faults_.at(static_cast<std::size_t>(seat));
        if (f) return;
        if (status == SeatStatus::illegal) table_.retire(seat, SeatStatus::illegal, detail);
        f = Fault{status, std::move(detail)};
    }
    void retire_illegal(int seat, std::string detail) { fault(seat, SeatStatus::illegal, std::move(detail)); }

    // The match ends at a step whose decision (`during`: "declarations" or "play") never came.
    bool unanswered(const char* during) {
        FaultLog f{during, {}};
        for (int s = 0; s < n_; ++s)
            if (faults_.at(static_cast<std::size_t>(s))) f.seats.push_back(s);
        log_.fault = std::move(f);
        return false;
    }

    void warn(int seat, std::string text) {
        ++warnings_.at(static_cast<std::size_t>(seat));
        table_.note(fmt::format("seat {} protocol warning: {}", seat, text));
    }

    bool any_fault() const {
        return std::any_of(faults_.begin(), faults_.end(), [](const auto& f) { return f.has_value(); });
    }

    // The seed's tester sends `quit`; the tournament judge kills the programs (the table's close()
    // does that in both cases, after a grace for those that were told to quit).
    void end_bots() {
        if (!settings_.send_quit) return;
        for (int s = 0; s < n_; ++s) {
            if (table_.alive(s)) table_.send(s, kQuit);
        }
    }

    RefereeResult result() const {
        RefereeResult out;
        out.turns = static_cast<int>(state_.results().size());
        std::vector<int> faulty;
        for (int s = 0; s < n_; ++s) {
            ParticipantOutcome p;
            p.score = state_.score(s);
            const auto& f = faults_.at(static_cast<std::size_t>(s));
            if (f) {
                p.status = f->status;
                p.detail = f->detail;
                faulty.push_back(s);
            } else if (warnings_.at(static_cast<std::size_t>(s)) > 0) {
                p.detail = fmt::format("{} protocol warnings (see the transcript)",
                                       warnings_.at(static_cast<std::size_t>(s)));
            }
            out.participants.push_back(std::move(p));
        }
        if (faulty.empty()) {
            assign_ranks_by_score(out.participants);
            out.pairs = derive_pairs_fault_loses(out.participants, std::nullopt);
            out.end_reason = "completed";
            return out;
        }
        // A fault ends the match: the faulty seats lose to every other seat, which all win
        // (seed, "taki gracz przegrywa, a pozostali gracze zostają zwycięzcami").
        const int first_faulty_rank = n_ - static_cast<int>(faulty.size()) + 1;
        for (auto& p : out.participants) p.rank = p.status == SeatStatus::ok ? 1 : first_faulty_rank;
        if (faulty.size() == 1) {
            out.pairs = derive_pairs_fault_loses(out.participants, faulty.front());
        } else {
            // Several seats failed on the same command: each loses to every seat that did not.
            for (int a = 0; a < n_; ++a) {
                for (int b = a + 1; b < n_; ++b) {
                    const bool fa = out.participants[a].status != SeatStatus::ok;
                    const bool fb = out.participants[b].status != SeatStatus::ok;
                    if (fa != fb) out.pairs.push_back(PairResult{a, b, fa ? 0.0 : 1.0});
                }
            }
        }
        std::string reason;
        for (int s : faulty) {
            reason += fmt::format("{}seat {} {}", reason.empty() ? "" : ", ", s,
                                  to_string(out.participants[s].status));
        }
        out.end_reason = reason;
        return out;
    }

    const RefereeSettings& settings_;
    Table& table_;
    State state_;
    int n_;
    std::vector<std::optional<Fault>> faults_;
    std::vector<int> warnings_;
    int step_ = 0;     // the next step to mark
    int marked_ = -1;  // the last step marked
    GameLog log_;
    LiveReplay live_{settings_.live_replay};
};

}  // namespace

RefereeResult run_referee(const RefereeSettings& settings, Table& table) {
    return Referee(settings, table).run();
}

}  // namespace arb::planowanie
