#pragma once
// Food placers for the Ants engine (ants.md section 3.7).
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "rules/ants/ants_engine.hpp"
#include "rules/ants/cpython_random.hpp"

namespace arb::ants {

// --food none: nothing is ever placed.
class NoFood final : public FoodSource {
public:
    void start_game(AntsEngine&) override {}
    int place(AntsEngine&, int amount) override { return amount; }
};

// Food exactly as a recorded game had it (level A): items with start 0 before turn 1, items
// with start t in the food phase of turn t, in recorded order. Records squares that were not free.
class ScheduledFood final : public FoodSource {
public:
    struct Item { int cell; int start_turn; };
    explicit ScheduledFood(std::vector<Item> items);
    void start_game(AntsEngine& engine) override;
    int place(AntsEngine& engine, int amount) override;
    const std::vector<std::string>& problems() const { return problems_; }

private:
    void place_turn(AntsEngine& engine, int turn);
    std::vector<Item> items_;
    std::size_t next_ = 0;
    std::vector<std::string> problems_;
};


// --food symmetric (the contest default): food in sets at the same offset from every player's
// hill under one of the map's symmetries, sets cycled in shuffled passes, food queued until its
// square is free. With a CPythonRandom (what `arbiter play` uses) the draws and the set order
// are the original's, so an engine seed gives the original's food (level C); the Rng
// constructor is for callers that only need reproducible food.
class SymmetricFood final : public FoodSource {
public:
    explicit SymmetricFood(std::uint64_t seed);
    // The original's exact draws: CPython's generator and CPython's set order for the food-set
    // locations (level C).
    explicit SymmetricFood(std::shared_ptr<CPythonRandom> python);
    // Throws UserError when the map has no symmetry matching all players' hills (the original
    // refuses such maps with --food symmetric). start_game() needs a symmetric map.
    static void check_symmetric(const AntsEngine& engine);
    void start_game(AntsEngine& engine) override;
    int place(AntsEngine& engine, int amount) override;
    std::size_t set_count() const { return normal_.sets.size(); }
    // The original's start_game places food_visible x players food from the "visible" sets
    // (do_food_visible) whatever the placer (none aside) when food_visible > 0; the random and
    // sections placers call this first. Chooses the symmetry and places that food; false
    // (nothing drawn) when food_visible is 0, or on a map without symmetry, where the original
    // stops with an error.
    bool start_visible(AntsEngine& engine);

private:
    struct Aim { int hill_cell; int aim; };
    using FoodSet = std::vector<int>;
    struct Cycle {
        std::vector<FoodSet> sets;  // a deque with a sentinel (-1 index) marking a full pass
        std::deque<int> queue;      // indices into sets, -1 = sentinel; back = next
    };
    static std::vector<std::vector<Aim>> symmetries(const AntsEngine& engine);
    std::vector<FoodSet> food_sets(const AntsEngine& engine, bool starting) const;
    int take(AntsEngine& engine, Cycle& cycle, int amount);
    void place_visible(AntsEngine& engine);  // with symmetry_ chosen

    std::function<std::uint64_t(std::uint64_t)> below_;  // uniform in [0, n)
    bool python_order_ = false;
    std::vector<Aim> symmetry_;
    Cycle visible_, normal_;
    bool started_ = false;
};

// --food random (do_food_random): pending food on land squares drawn with randrange(rows),
// randrange(cols), redrawn until the square is free land. Starts as the original's start_game:
// the symmetric visible food, then land_area / food_start minus that from this placer.
class RandomFood final : public FoodSource {
public:
    explicit RandomFood(std::shared_ptr<CPythonRandom> python) : python_(python), visible_(std::move(python)) {}
    void start_game(AntsEngine& engine) override;
    int place(AntsEngine& engine, int amount) override;

private:
    std::shared_ptr<CPythonRandom> python_;
    SymmetricFood visible_;
};

// --food sections (do_food_sections, the original Ants class's default placer): the map is
// split into each player's section, the squares its starting ants reach strictly first
// (access_map: a breadth-first search over non-water squares from all starting ants at once);
// each round draws one square per player with choice(section), and a square that is not free
// land wastes its draw. amount % players is left for later. Starts like RandomFood.
class SectionsFood final : public FoodSource {
public:
    explicit SectionsFood(std::shared_ptr<CPythonRandom> python) : python_(python), visible_(std::move(python)) {}
    void start_game(AntsEngine& engine) override;
    int place(AntsEngine& engine, int amount) override;
    // Per player, the squares of its section in the original's list order (the starting ants'
    // squares row by row, then the search's discovery order, as CPython 3 keeps dict order).
    static std::vector<std::vector<int>> sections(const AntsEngine& engine);

private:
    std::shared_ptr<CPythonRandom> python_;
    SymmetricFood visible_;
    std::vector<std::vector<int>> sections_;
};

}  // namespace arb::ants
