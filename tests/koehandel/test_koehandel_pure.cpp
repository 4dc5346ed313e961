// The pure engine driven directly, with no Players: its waits and advance() give, message for
// message, the game the driver (play(), which the referee and the log replays use) gives.
#include <cstdint>
#include <string>
#include <vector>

#include "koehandel_test_policy.hpp"
#include "koehandel_test_support.hpp"
#include "rules/koehandel/koehandel_protocol.hpp"

namespace arb::koehandel::test {
namespace {

// A whole game as lines: every message in request form, every answer and default action.
struct Transcript {
    std::vector<std::string> lines;

    void told(int seat, const Message& m) { lines.push_back("tell " + request_text(m, 1, seat)); }
    void asked(int seat, const Message& m, const std::optional<Fields>& reply) {
        std::string text = "ask " + request_text(m, 1, seat) + " ->";
        if (!reply) text += " (none)";
        else
            for (const auto& [key, value] : *reply) text += " " + key + "=" + value;
        lines.push_back(text);
    }
    void defaulted(int seat, const std::string& what) { lines.push_back("default " + std::to_string(seat) + " " + what); }
};

class PolicyPlayers : public Players {
public:
    PolicyPlayers(std::uint64_t seed, const GameState& state) : policy_(seed), state_(state) {}

    void tell(int seat, const Message& message) override { transcript.told(seat, message); }
    std::optional<Fields> ask(int seat, const Message& message) override {
        auto reply = policy_.answer(seat, message, state_);
        transcript.asked(seat, message, reply);
        return reply;
    }
    void adjudicated(int seat, const std::string& what) override { transcript.defaulted(seat, what); }

    Transcript transcript;

private:
    RandomPolicy policy_;
    const GameState& state_;
};

Transcript play_pure(Game& game, std::uint64_t seed, int& waits) {
    RandomPolicy policy(seed);
    Transcript transcript;
    for (;;) {
        ++waits;
        const Wait& wait = game.wait();
        for (const Notice& notice : wait.deliver) {
            if (notice.is_default())
                transcript.defaulted(notice.seat, notice.default_action);
            else
                transcript.told(notice.seat, notice.message);
        }
        if (game.over()) break;
        CHECK(wait.question.has_value() != game.between_turns());
        if (!wait.question) {
            game.advance(std::nullopt);
            continue;
        }
        const Question question = *wait.question;
        auto reply = policy.answer(question.seat, question.message, game.state());
        transcript.asked(question.seat, question.message, reply);
        game.advance(std::move(reply));
    }
    return transcript;
}

std::uint64_t fnv1a(const std::vector<std::string>& lines) {
    std::uint64_t h = 1469598103934665603ULL;
    for (const auto& line : lines)
        for (const char c : line + "\n") h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return h;
}

}  // namespace

TEST_CASE("koehandel: the pure engine driven directly plays the driver's game, message for message") {
    std::vector<std::string> all;
    int trades = 0, bluffs = 0, defaults = 0, capped = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        CAPTURE(seed);
        const Options options{.seed = seed, .edition = seed % 2 ? Edition::second : Edition::first, .max_trade_turns = seed <= 2 ? 2 : 30};
        Game driven(options);
        PolicyPlayers players(seed, driven.state());
        play(driven, players);

        Game pure(options);
        int waits = 0;
        const Transcript transcript = play_pure(pure, seed, waits);
        REQUIRE(transcript.lines.size() == players.transcript.lines.size());
        for (std::size_t i = 0; i < transcript.lines.size(); ++i) {
            INFO("line " << i + 1);
            REQUIRE(transcript.lines[i] == players.transcript.lines[i]);
        }
        CHECK(pure.scores() == driven.scores());
        CHECK(pure.state().turns == driven.state().turns);
        CHECK(pure.state().end_reason == driven.state().end_reason);
        CHECK(pure.over());
        CHECK(waits > pure.state().turns);
        // A finished game stays where it is.
        pure.advance(Fields{});
        CHECK(pure.over());
        CHECK(pure.state().turns == driven.state().turns);

        capped += pure.state().end_reason == "cap";
        for (const auto& line : transcript.lines) {
            trades += line.find("type=trade&") != std::string::npos && line.starts_with("ask");
            bluffs += line.find("message=bluffed") != std::string::npos;
            defaults += line.starts_with("default");
        }
        all.insert(all.end(), transcript.lines.begin(), transcript.lines.end());
    }
    // The games pass through trades, bluffs and default actions, and both ends.
    CHECK(trades > 20);
    CHECK(bluffs > 4);
    CHECK(defaults > 20);
    CHECK(capped > 0);
    CHECK(capped < 8);
    // The same games as the engine played before it was a state machine (it called the players).
    MESSAGE("lines " << all.size() << " fnv1a " << fnv1a(all));
    CHECK(all.size() == 5995);
    CHECK(fnv1a(all) == 6990383122247912583ULL);
}

}  // namespace arb::koehandel::test
