#pragma once
// The ladder in the results repository (rating::LadderTables): the registered bots of each game
// in registration order, and one row per finished ladder run with its verdict. The matches
// themselves are stored under the ladder's tournament name.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/bot_spec.hpp"
#include "core/match_record.hpp"
#include "rating/results_repository.hpp"

namespace arb::ladder {

struct LadderOutcome;

struct LadderBot {
    std::string name;
    BotSpec spec;
    std::string family;
    std::int64_t seq = 0;  // registration order within the game
};

class LadderStore {
public:
    // Creates the ladder's tables when missing.
    explicit LadderStore(rating::Store& store);

    // Registers a bot once; a name registered before with another command is a UserError
    // (a new version needs a new name).
    void register_bot(const std::string& game, const BotSpec& bot);
    std::vector<LadderBot> bots(const std::string& game) const;

    // Every stored match of the ladder tournament, by schedule key (a canonical order for fits).
    std::map<std::string, MatchRecord> matches(const std::string& tournament) const;

    void store_run(const LadderOutcome& outcome);

private:
    rating::LadderTables tables_;
};

}  // namespace arb::ladder
