#pragma once
// `arbiter diff OLD NEW`: two versions of a bot played on the same seeds, in the same seats and
// against the same opponents, each match with a transcript; the two transcripts of each pair are
// compared step by step (or, where the game marks no steps, request by request), and the results
// of the version's seat compared.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arbiter/match/match_steps.hpp"
#include "arbiter/tournament/worker_pool.hpp"
#include "core/bot_spec.hpp"
#include "core/match_record.hpp"
#include "rules/game.hpp"

namespace arb::diff {

// Where two matches first part: the first step at which a participant replied other lines, else
// (the replies all the same) the first step at which one was sent other lines.
struct FirstDifference {
    enum class Kind { none, reply, sent };
    Kind kind = Kind::none;
    int step = 0;
    int participant = -1;
    std::vector<std::string> old_lines, new_lines;  // that participant's replies (or sent lines) there
};

// Steps are compared in order (step -1, what came before the first mark, too); a step or a
// participant that one match has and the other has not counts as no lines. Within a step,
// participant `first` (the version's, when >= 0) is compared before the others.
FirstDifference first_difference(const MatchSteps& old_steps, const MatchSteps& new_steps, int first = -1);

// A match transcript whose referee marked no steps, numbered by exchange instead: seat s's n-th
// request (n from 1) and the reply to it are step n (step 0: what a seat said before its first
// request). Grouped by the record's participants as steps_by_participant groups them.
MatchSteps exchanges_by_participant(const std::filesystem::path& transcript, const MatchRecord& record);

// Two matches' transcripts compared by steps where both are marked, else by exchanges (`marked`
// says which). UserError when a record has no transcript or it cannot be read.
FirstDifference compare_matches(const MatchRecord& old_record, const MatchRecord& new_record, bool& marked,
                                int first = -1);

struct DiffPlan {
    const GameDescriptor* game = nullptr;
    BotSpec old_bot, new_bot;
    std::vector<BotSpec> opponents;  // cycled over the other seats; empty when the game plays one bot
    int seats = 2;
    int games = 1;
    std::uint64_t seed = 1;          // game i is played with seed + i
    GameOptions options;
    Limits limits;
    int jobs = 1;
    std::filesystem::path out;       // old/ and new/ (and old-again/) under it
    // Games as a ladder played them (arbiter diff --ladder-db): each with its seed, deal set,
    // rotation, the version's seat and the other bots in their seats. When set, game i is
    // fixed[i] and `games`, `seed`, `seats` and `opponents` are not used.
    struct FixedGame {
        std::uint64_t seed = 0;
        std::optional<std::uint64_t> deal_set;
        int rotation = 0;
        int seat = 0;
        std::vector<BotSpec> bots;  // every seat; the version's is replaced by OLD or NEW
    };
    std::vector<FixedGame> fixed;
};

// The bots of game i's match for one version: the version in seat i mod seats, the opponents in
// the other seats in order, each opponent named apart from both versions (NAME#2, ...).
std::vector<BotSpec> seating(const DiffPlan& plan, const BotSpec& version, int game);
int version_seat(const DiffPlan& plan, int game);
// "g3": a pair's folder under old/ and new/ (game 3's).
std::string match_folder(const DiffPlan& plan, int game);

struct PairResult {
    int game = 0;
    std::uint64_t seed = 0;
    int seat = 0;
    MatchRecord old_record, new_record;
    std::filesystem::path old_folder, new_folder;
    FirstDifference difference;
    bool marked = false;
};

struct DiffReport {
    std::vector<PairResult> pairs;            // in game order
    FirstDifference old_again;                // OLD against its own second run of game 0
    bool marked = true;                       // every transcript marked its steps
};

// Plays the 2 * games + 1 matches (OLD's second run of game 0 last) with `play` on plan.jobs
// threads and compares them. UserError when a match could not be played at all.
DiffReport play_and_compare(const DiffPlan& plan, const tournament::MatchFunction& play);

// Whether the version's result differs between the two matches, and which way: +1 better
// (a lower rank, or the same rank with a higher score), -1 worse, 0 the same or only otherwise.
int result_change(const PairResult& pair);
// Where to look at a differing pair: `arbiter show NEW_FOLDER --seat N --step K` (the seat that
// replied otherwise; without --step where the game marks no steps).
std::string look_line(const PairResult& pair);
bool result_changed(const PairResult& pair);

// What `arbiter diff` prints after its matches: one line per pair whose replies differ (those
// whose result changed first), then the summary line or "no differences".
std::vector<std::string> report_lines(const DiffPlan& plan, const DiffReport& report);

// The page that shows a pair's two viewer pages side by side (each a viewer.html beside the
// match, given relative to the page), both opened at `frame` (the viewer's #frame=N) and kept on
// the same frame as either is stepped (the viewer posts its frame to the page that holds it).
std::string side_by_side_page(const std::string& title, const std::string& old_page, const std::string& new_page,
                              int frame);

}  // namespace arb::diff
