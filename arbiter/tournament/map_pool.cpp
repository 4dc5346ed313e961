#include "arbiter/tournament/map_pool.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "arbiter/tournament/tournament_config.hpp"
#include "core/did_you_mean.hpp"
#include "core/rng.hpp"
#include "core/user_error.hpp"

namespace arb::tournament {
namespace {

namespace fs = std::filesystem;

// Streams of derive_seed(seed, {stream, ...}) beside the formats' (match seeds use 3 elements,
// groupings 4): a 5-element path cannot collide with either.
constexpr std::uint64_t kPoolOrderStream = 11;
constexpr std::uint64_t kSitOutStream = 12;

bool is_glob(const std::string& text) { return text.find_first_of("*?[") != std::string::npos; }

std::vector<fs::path> glob_files(const std::string& pattern, const std::string& shown, const std::string& where) {
    glob_t found{};
    const int rc = ::glob(pattern.c_str(), GLOB_ERR, nullptr, &found);
    std::vector<fs::path> out;
    for (std::size_t i = 0; rc == 0 && i < found.gl_pathc; ++i) out.emplace_back(found.gl_pathv[i]);
    ::globfree(&found);
    if (rc == GLOB_NOMATCH || (rc == 0 && out.empty()))
        throw UserError(fmt::format("{}: '{}' matches no file", where, shown));
    if (rc != 0) throw UserError(fmt::format("{}: cannot read the folders of '{}'", where, shown));
    return out;
}

std::vector<fs::path> folder_files(const fs::path& folder, const std::string& shown, const std::string& where) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        if (entry.path().filename().string().starts_with(".")) continue;
        if (entry.is_regular_file(ec)) out.push_back(entry.path());
    }
    if (ec) throw UserError(fmt::format("{}: cannot read the folder '{}': {}", where, shown, ec.message()));
    if (out.empty()) throw UserError(fmt::format("{}: the folder '{}' holds no file", where, shown));
    return out;
}

}  // namespace

std::vector<PoolMap> expand_map_pool(const std::vector<std::string>& sources, const std::string& base,
                                     const MapFiles& files, const std::string& where) {
    if (sources.empty()) throw UserError(fmt::format("{}: the {} pool is empty", where, files.pool_key));
    std::set<std::string> paths;
    for (const std::string& written : sources) {
        if (written.empty()) throw UserError(fmt::format("{}: an empty name in the {} pool", where, files.pool_key));
        const std::string source = expand_variables(written);  // ${ARBITER_DATA}/ants/maps, in any install
        const fs::path full = fs::path(source).is_absolute() ? fs::path(source) : fs::path(base) / source;
        std::vector<fs::path> named;
        std::error_code ec;
        if (is_glob(source) && !fs::exists(full, ec)) named = glob_files(full.string(), source, where);
        else if (fs::is_directory(full, ec)) named = folder_files(full, source, where);
        else if (fs::is_regular_file(full, ec)) named = {full};
        else throw UserError(fmt::format("{}: no {} file '{}': {}", where, files.option, source, unreadable_reason(full)));
        for (const auto& p : named) paths.insert(fs::absolute(p).lexically_normal().string());
    }
    std::vector<PoolMap> pool;
    for (const std::string& path : paths) {
        std::optional<int> players;
        try {
            players = files.players(path);
        } catch (const UserError& e) {
            throw UserError(fmt::format("{}: {} '{}' cannot be used: {}", where, files.option, path, e.what()));
        }
        pool.push_back({path, players.value_or(0)});
    }
    return pool;
}

std::vector<PoolMap> pool_in_seed_order(std::vector<PoolMap> pool, std::uint64_t seed) {
    std::sort(pool.begin(), pool.end(), [](const PoolMap& a, const PoolMap& b) { return a.path < b.path; });
    Rng rng(derive_seed(seed, {kPoolOrderStream, 0, 0, 0, 0}));
    rng.shuffle(std::span<PoolMap>(pool));
    return pool;
}

std::vector<int> player_counts(const std::vector<PoolMap>& pool) {
    std::set<int> counts;
    for (const auto& m : pool)
        if (m.players > 0) counts.insert(m.players);
    return {counts.begin(), counts.end()};
}

RoundMap map_of_round(const std::vector<PoolMap>& seeded, int round) {
    if (seeded.empty()) return {};
    const std::vector<int> counts = player_counts(seeded);
    if (counts.empty()) {
        const auto& m = seeded[static_cast<std::size_t>(round) % seeded.size()];
        return {m.path, 0, round};
    }
    const int count = counts[static_cast<std::size_t>(round) % counts.size()];
    const int visit = round / static_cast<int>(counts.size());
    std::vector<const PoolMap*> of_count;
    for (const auto& m : seeded)
        if (m.players == count) of_count.push_back(&m);
    const PoolMap& m = *of_count[static_cast<std::size_t>(visit) % of_count.size()];
    return {m.path, count, visit};
}

std::vector<int> sitting_out(int n, int size, int visit, std::uint64_t seed) {
    if (size <= 0 || n <= 0) return {};
    const int left = n % size;
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    Rng rng(derive_seed(seed, {kSitOutStream, static_cast<std::uint64_t>(size), 0, 0, 0}));
    rng.shuffle(std::span<int>(order));
    std::vector<int> out;
    for (int i = 0; i < left; ++i)
        out.push_back(order[static_cast<std::size_t>((static_cast<std::int64_t>(visit) * left + i) % n)]);
    std::sort(out.begin(), out.end());
    return out;
}

void load_map_pool(TournamentConfig& c, const GameDescriptor& game) {
    if (c.map_sources_key.empty()) return;
    const std::string& where = c.map_sources_where;
    if (!game.map_files)
        throw UserError(fmt::format("{}: game '{}' is played without maps or fields: remove '{}'", where, game.name,
                                    c.map_sources_key));
    const MapFiles& files = *game.map_files;
    if (c.map_sources_key != files.pool_key)
        throw UserError(fmt::format("{}: game '{}' is played on {}: write '{}', not '{}'", where, game.name,
                                    files.pool_key, files.pool_key, c.map_sources_key));
    for (const auto& [key, value] : c.options)
        if (find_option_spec(game.options, key) == find_option_spec(game.options, files.option))
            throw UserError(fmt::format("{}: give a pool of {} or the option '{}', not both", where, files.pool_key, key));
    c.map_option = files.option;
    c.map_pool = expand_map_pool(c.map_sources, c.map_sources_base, files, where);
}

std::string map_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace arb::tournament
