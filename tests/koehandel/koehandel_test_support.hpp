#pragma once
// Scripted players for Koehandel rule cases: every message the engine sends is recorded with
// its recipient; asks are answered from a script of (expected seat, reply) in order.
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "rules/koehandel/koehandel_play.hpp"

namespace arb::koehandel::test {

// One row of a worked example: who gets it, and the message fields in the seed's column order.
struct Row {
    int seat = 0;
    bool asks = false;
    Message message{};

    friend bool operator==(const Row&, const Row&) = default;
};

inline std::string describe(const Row& row) {
    const Message& m = row.message;
    return std::string("SWNE"[row.seat], 1) + (row.asks ? " ask " : " tell ") + "goods=" + m.goods + " type=" + m.type +
           " opponent=" + m.opponent + " money=" + m.money + " auctioneer=" + m.auctioneer + " message=" + m.message;
}

class ScriptedPlayers : public Players {
public:
    // reply nullopt = the player does not answer (timeout, refused)
    void script(int seat, std::optional<Fields> reply) { script_.emplace_back(seat, std::move(reply)); }

    void tell(int seat, const Message& message) override { rows.push_back(Row{seat, false, message}); }

    std::optional<Fields> ask(int seat, const Message& message) override {
        rows.push_back(Row{seat, true, message});
        if (script_.empty()) return Fields{};  // unscripted: an empty reply (pass, auction, accept)
        auto [expected, reply] = script_.front();
        script_.pop_front();
        INFO("asked " << describe(rows.back()));
        CHECK(seat == expected);
        return reply;
    }

    void adjudicated(int seat, const std::string& what) override { notes.emplace_back(seat, what); }

    bool script_done() const { return script_.empty(); }

    std::vector<Row> rows;
    std::vector<std::pair<int, std::string>> notes;

private:
    std::deque<std::pair<int, std::optional<Fields>>> script_;
};

// Compares row by row, naming the first difference.
inline void check_rows(const std::vector<Row>& got, const std::vector<Row>& want) {
    for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
        INFO("message " << i + 1 << ": got  " << describe(got[i]) << "\n            want " << describe(want[i]));
        CHECK(got[i] == want[i]);
    }
    CHECK(got.size() == want.size());
}

// A position with empty animal hands and the starting money; the deck holds `deck` (top last).
inline void clear_position(GameState& state, std::vector<int> deck) {
    for (auto& p : state.players) {
        p.animals = {};
        p.money = starting_money();
        p.barred = false;
    }
    state.deck = std::move(deck);
}

inline constexpr int S = 0, W = 1, N = 2, E = 3;

}  // namespace arb::koehandel::test
