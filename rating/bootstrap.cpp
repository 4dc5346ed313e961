#include "rating/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "core/rng.hpp"
#include "core/user_error.hpp"

namespace arb::rating {
namespace {

// The games of each unit, units numbered in order of first appearance.
std::vector<std::vector<std::size_t>> games_by_unit(const std::vector<std::int64_t>& unit_of_game) {
    std::unordered_map<std::int64_t, std::size_t> dense;
    std::vector<std::vector<std::size_t>> units;
    for (std::size_t k = 0; k < unit_of_game.size(); ++k) {
        auto [it, inserted] = dense.try_emplace(unit_of_game[k], units.size());
        if (inserted) units.emplace_back();
        units[it->second].push_back(k);
    }
    return units;
}

// One resample's centred model ratings; NaN for players without a game in it.
std::vector<double> one_resample(const ResultSet& results, const std::vector<std::vector<std::size_t>>& units,
                                 const EloOptions& options, std::uint64_t seed) {
    Rng rng(seed);
    ResultSet sample;
    for (const auto& name : results.players()) sample.player_index(name);
    std::vector<char> played(results.players().size(), 0);
    for (std::size_t drawn = 0; drawn < units.size(); ++drawn) {
        for (std::size_t k : units[rng.below(units.size())]) {
            const PairwiseGame& g = results.games()[k];
            sample.add_game(g.white, g.black, g.outcome);
            played[g.white] = played[g.black] = 1;
        }
    }
    const RatingResult fit = rate(sample, options);
    std::vector<double> elo(results.players().size(), std::nan(""));
    for (std::size_t p = 0; p < elo.size(); ++p)
        if (played[p]) elo[p] = fit.model_elo[p];
    return elo;
}

// Linear interpolation between order statistics (Hyndman-Fan type 7) of sorted values.
double quantile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0;
    const double h = (static_cast<double>(sorted.size()) - 1) * p;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

void summarise(const std::vector<std::vector<double>>& draws, double confidence, BootstrapResult& out) {
    const std::size_t n = draws.empty() ? 0 : draws.front().size();
    out.lower.assign(n, 0.0);
    out.upper.assign(n, 0.0);
    out.los.assign(n * n, 0.5);
    std::vector<double> values;
    for (std::size_t p = 0; p < n; ++p) {
        values.clear();
        for (const auto& d : draws)
            if (!std::isnan(d[p])) values.push_back(d[p]);
        std::sort(values.begin(), values.end());
        out.lower[p] = quantile(values, (1 - confidence) / 2);
        out.upper[p] = quantile(values, (1 + confidence) / 2);
    }
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            if (i == j) continue;
            double above = 0;
            int both = 0;
            for (const auto& d : draws) {
                if (std::isnan(d[i]) || std::isnan(d[j])) continue;
                ++both;
                above += d[i] > d[j] ? 1.0 : d[i] == d[j] ? 0.5 : 0.0;
            }
            if (both > 0) out.los[i * n + j] = above / both;
        }
    }
}

}  // namespace

const char* to_string(IntervalSource source) { return source == IntervalSource::bootstrap ? "bootstrap" : "bayeselo"; }

IntervalSource parse_interval_source(const std::string& text, const std::string& flag) {
    if (text == "bayeselo") return IntervalSource::bayeselo;
    if (text == "bootstrap") return IntervalSource::bootstrap;
    throw UserError(fmt::format("{} '{}': expected bayeselo or bootstrap", flag, text));
}

BootstrapResult bootstrap_ratings(const ResultSet& results, const std::vector<std::int64_t>& unit_of_game,
                                  const EloOptions& options, const BootstrapOptions& bootstrap) {
    if (unit_of_game.size() != results.games().size())
        throw std::invalid_argument("bootstrap: one unit per pairwise game expected");
    if (results.empty()) throw UserError("no results to rate (the selection has no games)");
    if (bootstrap.samples < 1) throw UserError("the bootstrap needs at least one sample");
    const auto units = games_by_unit(unit_of_game);
    EloOptions refit = options;
    refit.intervals = IntervalMethod::hessian_diagonal;  // the cheapest; only the ratings are used
    refit.want_covariance = refit.want_los = false;
    refit.offset_anchor.reset();  // the anchor may sit out a resample

    const auto samples = static_cast<std::size_t>(bootstrap.samples);
    std::vector<std::vector<double>> draws(samples);
    unsigned threads = bootstrap.threads > 0 ? static_cast<unsigned>(bootstrap.threads)
                                             : std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, samples));
    // Resample k always uses seed derive_seed(seed, {k}) and slot k: the thread count changes nothing.
    auto work = [&](unsigned t) {
        for (std::size_t k = t; k < samples; k += threads)
            draws[k] = one_resample(results, units, refit, derive_seed(bootstrap.seed, {k}));
    };
    if (threads <= 1) {
        work(0);
    } else {
        std::vector<std::thread> pool;
        std::vector<std::exception_ptr> errors(threads);
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                try {
                    work(t);
                } catch (...) {
                    errors[t] = std::current_exception();
                }
            });
        for (auto& th : pool) th.join();
        for (auto& e : errors)
            if (e) std::rethrow_exception(e);
    }
    BootstrapResult out;
    out.samples = bootstrap.samples;
    out.units = static_cast<int>(units.size());
    summarise(draws, options.confidence, out);
    return out;
}

void apply_bootstrap(RatingResult& result, const BootstrapResult& bootstrap) {
    for (RatingRow& row : result.rows) {
        const auto p = static_cast<std::size_t>(row.player);
        if (p >= bootstrap.lower.size()) continue;
        const double centre = result.model_elo[p];
        // A percentile interval need not contain the point estimate; a negative width would read
        // as nonsense, so the estimate's side is shown as 0.
        row.plus = std::max(0.0, result.scale * (bootstrap.upper[p] - centre));
        row.minus = std::max(0.0, result.scale * (centre - bootstrap.lower[p]));
    }
    result.los = bootstrap.los;
}

}  // namespace arb::rating
