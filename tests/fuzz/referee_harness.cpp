#include "tests/fuzz/referee_harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <vector>

#include "arbiter/match/match_runner.hpp"
#include "core/match_record.hpp"
#include "core/table/scripted_table.hpp"
#include "core/user_error.hpp"
#include "rules/registry.hpp"

namespace arb::fuzz {

std::string shared_data(const std::string& relative) { return std::string(ARBITER_SHARED_DIR) + "/data/" + relative; }

namespace {

std::vector<std::deque<std::string>> split_answers(std::string_view data, int seats) {
    std::vector<std::deque<std::string>> answers(static_cast<std::size_t>(seats));
    while (!data.empty()) {
        const auto end = data.find(kAnswerSeparator);
        const std::string_view answer = data.substr(0, end);
        if (!answer.empty()) {
            answers[static_cast<unsigned char>(answer[0]) % static_cast<std::size_t>(seats)].emplace_back(answer.substr(1));
        }
        data = end == std::string_view::npos ? std::string_view{} : data.substr(end + 1);
    }
    return answers;
}

// A ScriptedTable whose sends reach no bot: only asks take answers from the input, so an input's
// answers line up with the requests whatever the referee sends in between.
class FuzzTable final : public Table {
public:
    explicit FuzzTable(std::vector<ScriptedTable::Seat> seats) : inner_(std::move(seats)) {}
    int size() const override { return inner_.size(); }
    const SeatInfo& info(int seat) const override { return inner_.info(seat); }
    SeatStatus status(int seat) const override { return inner_.status(seat); }
    std::string retire_detail(int seat) const override { return inner_.retire_detail(seat); }
    bool send(int seat, std::string_view) override { return inner_.alive(seat); }
    Reply ask(int seat, std::string_view text, ReplyFramer framer) override { return inner_.ask(seat, text, framer); }
    std::vector<Reply> ask_all(std::span<const Request> requests) override { return inner_.ask_all(requests); }
    Millis time_left(int seat) const override { return inner_.time_left(seat); }
    void retire(int seat, SeatStatus why, std::string_view detail) override { inner_.retire(seat, why, detail); }
    void note(std::string_view) override {}

private:
    ScriptedTable inner_;
};

std::string with_token(std::string answer, const std::string& token) {
    for (auto at = answer.find("$TOKEN"); at != std::string::npos; at = answer.find("$TOKEN", at + token.size()))
        answer.replace(at, 6, token);
    return answer;
}

}  // namespace

void play_scripted_match(const std::string& game, const std::map<std::string, std::string>& options, int bots,
                         std::string_view data) {
    const GameDescriptor& descriptor = find_game(game);
    MatchRequest request;
    request.game = game;
    request.seed = 7;
    for (int b = 0; b < bots; ++b) {
        BotSpec bot;
        bot.name = "b" + std::to_string(b);
        bot.command = "/bin/true";
        bot.argv = {"/bin/true"};
        request.bots.push_back(bot);
    }
    request.options = GameOptions(descriptor.options, options);
    const std::vector<SeatPlan> plans = descriptor.plan(request);
    auto answers = std::make_shared<std::vector<std::deque<std::string>>>(split_answers(data, static_cast<int>(plans.size())));
    std::vector<ScriptedTable::Seat> seats;
    for (std::size_t s = 0; s < plans.size(); ++s) {
        const SeatPlan& plan = plans[s];
        const auto token = plan.env.contains("ARBITER_TOKEN") ? plan.env.at("ARBITER_TOKEN") : std::string();
        ScriptedTable::Seat seat;
        seat.info = {plan.bot, request.bots[static_cast<std::size_t>(plan.bot)].name, plan.label};
        seat.bot = [answers, s, token](std::string_view) {
            auto& queue = (*answers)[s];
            if (queue.empty()) return ScriptedAnswer::crash();
            std::string answer = with_token(std::move(queue.front()), token);
            queue.pop_front();
            return ScriptedAnswer::text(std::move(answer));
        };
        seats.push_back(std::move(seat));
    }
    FuzzTable table(std::move(seats));
    RefereeResult result = descriptor.referee(request, table);
    const std::size_t participants = result.participants.size();
    // The record as the match runner makes it (no processes ran: no usage, no process ends).
    MatchRecord record = record_for(request);
    finish_record(record, request, std::move(result), nullptr);
    try {
        if (static_cast<int>(participants) != bots) throw UserError("wrong participant count");
        check_record(record);
    } catch (const UserError& e) {
        std::fprintf(stderr, "%s referee: result breaks the record's rules: %s\n", game.c_str(), e.what());
        std::abort();
    }
}

}  // namespace arb::fuzz
