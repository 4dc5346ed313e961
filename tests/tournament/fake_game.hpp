#pragma once
// A deterministic stand-in for a game, for tournament and ladder tests without processes.
#include "core/match_record.hpp"
#include "core/rng.hpp"
#include "rules/game.hpp"

namespace arb::test {

inline GameDescriptor fake_game() {
    GameDescriptor g;
    g.name = "fake";
    g.min_bots = 2;
    g.max_bots = 4;
    return g;
}

// A deterministic "game": each bot's score = strength + noise from the match seed. Bots whose
// name starts with "crash" fail at once.
inline MatchRecord fake_match(const MatchRequest& request) {
    MatchRecord r;
    r.game = request.game;
    r.seed = request.seed;
    r.deal_set = request.deal_set;
    r.rotation = request.rotation;
    r.end_reason = "completed";
    r.transcript_path = request.transcript_path.string();
    Rng rng(request.seed);
    std::optional<int> faulty;
    for (int s = 0; s < static_cast<int>(request.bots.size()); ++s) {
        ParticipantResult p;
        p.bot = request.bots[s].name;
        p.seat = s;
        const int strength = p.bot.back() - '0';
        p.score = strength * 3 + static_cast<double>(rng.below(20));
        if (p.bot.rfind("crash", 0) == 0 && !faulty) {
            p.status = SeatStatus::crashed;
            faulty = s;
        }
        r.participants.push_back(p);
    }
    assign_ranks_by_score(r.participants);
    r.pairs = derive_pairs_fault_loses(r.participants, faulty);
    return r;
}

}  // namespace arb::test
