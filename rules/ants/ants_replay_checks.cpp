// The numbers of a recorded Ants game, checked before anything is sized or indexed by them: a
// replay is outside text, and a player count of 0, a hill owner past the player count or a
// radius of 10^9 must be one clear error, not a crash or gigabytes of offsets.
#include <string>

#include <fmt/format.h>

#include "core/user_error.hpp"
#include "rules/ants/ants_replay.hpp"

namespace arb::ants {
namespace {

using nlohmann::json;

constexpr int kMaxPlayers = 26;        // map letters a-z
constexpr int kMaxSide = kMaxMapSide;  // rows and columns (the contest's maps are at most 200)
constexpr int kMaxRadius2 = 1000000;   // view, attack and spawn radii squared
constexpr int kMaxTurns = 1000000;

class ReplayChecker {
public:
    ReplayChecker(const json& rd, std::string source) : rd_(rd), source_(std::move(source)) {}

    void check() {
        if (rd_.contains("revision")) integer(rd_, "revision", 2, 3);  // the replay formats the original's viewer reads
        players_ = integer(rd_, "players", 1, kMaxPlayers);
        const json& map = member(rd_, "map", "map");
        rows_ = integer(map, "rows", 1, kMaxSide, "map.rows");
        cols_ = integer(map, "cols", 1, kMaxSide, "map.cols");
        for (const char* key : {"viewradius2", "attackradius2", "spawnradius2"})
            if (rd_.contains(key)) integer(rd_, key, 0, kMaxRadius2);
        if (rd_.contains("turns")) integer(rd_, "turns", 0, kMaxTurns);
        rows_of("hills", 4, [&](const json& h, const std::string& at) {
            cell(h, at);
            entry(h, 2, 0, players_ - 1, at + " owner");
        });
        rows_of("ants", 6, [&](const json& a, const std::string& at) {
            cell(a, at);
            entry(a, 4, 0, players_ - 1, at + " owner");
            if (!a[5].is_string()) fail(at + ": the orders must be a string");
        });
        rows_of("food", 4, [&](const json& f, const std::string& at) {
            cell(f, at);
            if (f.size() > 4) entry(f, 4, -1, players_ - 1, at + " owner");
        });
        for (const char* key : {"scores", "hive_history"}) per_player(key);
    }

private:
    [[noreturn]] void fail(const std::string& what) const { throw UserError(source_ + ": " + what); }

    const json& member(const json& obj, const char* key, const std::string& name) const {
        if (!obj.is_object() || !obj.contains(key)) fail("replaydata has no '" + name + "'");
        return obj.at(key);
    }

    int integer(const json& obj, const char* key, int lo, int hi, const std::string& name = "") const {
        const json& v = member(obj, key, name.empty() ? key : name);
        if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
            fail(fmt::format("'{}' must be an integer from {} to {}, not {}", name.empty() ? key : name, lo, hi, v.dump()));
        return v.get<int>();
    }

    void entry(const json& row, std::size_t i, int lo, int hi, const std::string& what) const {
        const json& v = row[i];
        if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
            fail(fmt::format("{} must be an integer from {} to {}, not {}", what, lo, hi, v.dump()));
    }

    void cell(const json& row, const std::string& at) const {
        entry(row, 0, 0, rows_ - 1, at + " row");
        entry(row, 1, 0, cols_ - 1, at + " column");
        entry(row, 2, 0, kMaxTurns, at + " turn");
        entry(row, 3, 0, kMaxTurns + 1, at + " end turn");
    }

    template <typename Check>
    void rows_of(const char* key, std::size_t width, Check check) const {
        const json& list = member(rd_, key, key);
        if (!list.is_array()) fail(fmt::format("'{}' must be a list", key));
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string at = fmt::format("{} {}", key, i);
            if (!list[i].is_array() || list[i].size() < width) fail(fmt::format("{} must be a list of at least {} values", at, width));
            check(list[i], at);
        }
    }

    void per_player(const char* key) const {
        const json& list = member(rd_, key, key);
        if (!list.is_array() || static_cast<int>(list.size()) != players_)
            fail(fmt::format("'{}' must have one list per player ({})", key, players_));
        for (std::size_t p = 0; p < list.size(); ++p) {
            if (!list[p].is_array()) fail(fmt::format("{} of player {} must be a list of integers", key, p));
            for (const json& v : list[p])
                if (!v.is_number_integer()) fail(fmt::format("{} of player {} must be a list of integers", key, p));
        }
    }

    const json& rd_;
    std::string source_;
    int players_ = 0, rows_ = 0, cols_ = 0;
};

}  // namespace

void check_replay_numbers(const nlohmann::json& replaydata, const std::string& source) {
    ReplayChecker(replaydata, source).check();
}

}  // namespace arb::ants
