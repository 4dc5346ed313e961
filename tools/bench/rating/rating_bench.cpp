// Benchmarks and data generators for the rating stage (docs/benchmarks/rating.md).
//
//   rating_bench gen-pgn  --players N --games M --seed S --out FILE.pgn   synthetic result-only PGN
//   rating_bench fill-db  --players N --games M --seed S --out FILE.db    same games as 2-player match
//                                                                          records in a store (batched)
//   rating_bench inserts  --records N --out DIR                           store insert rate: batched
//                                                                          and one match per transaction
//   rating_bench fit      --players N --games M --seed S [--intervals exact|covariance] [--mm-fit]
//                                                                          in-process phase timings
//
// End-to-end timings use the real CLI on the generated files (tools/bench/rating/run.sh):
//   arbiter rate --pgn FILE.pgn          (bayeselo's standard script: readpgn elo mm exactdist ratings)
//   arbiter rate --db FILE.db --advantage 32.8
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "rating/bayeselo.hpp"
#include "rating/store.hpp"
#include "rating/synthetic.hpp"

using namespace arb;
using namespace arb::rating;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Args {
    std::string command;
    int players = 200;
    std::int64_t games = 200000;
    std::uint64_t seed = 777;
    std::string out;
    std::int64_t records = 20000;
    std::string intervals = "exact";
    bool mm_fit = false;
};

Args parse(int argc, char** argv) {
    if (argc < 2) throw std::invalid_argument("usage: rating_bench gen-pgn|fill-db|inserts|fit [options]");
    Args a;
    a.command = argv[1];
    for (int i = 2; i < argc; ++i) {
        const std::string flag = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
            return argv[++i];
        };
        if (flag == "--players") a.players = std::stoi(value());
        else if (flag == "--games") a.games = std::stoll(value());
        else if (flag == "--seed") a.seed = std::stoull(value());
        else if (flag == "--out") a.out = value();
        else if (flag == "--records") a.records = std::stoll(value());
        else if (flag == "--intervals") a.intervals = value();
        else if (flag == "--mm-fit") a.mm_fit = true;
        else throw std::invalid_argument("unknown option " + flag);
    }
    return a;
}

SyntheticData generate(const Args& a) {
    SyntheticSpec spec;
    spec.players = a.players;
    spec.games = a.games;
    spec.spread = 200;
    spec.seed = a.seed;
    return generate_synthetic(spec);
}

void gen_pgn(const Args& a) {
    const SyntheticData data = generate(a);
    std::ofstream out(a.out, std::ios::binary | std::ios::trunc);
    static const char* tokens[] = {"0-1", "1/2-1/2", "1-0"};
    std::string buffer;
    for (const PairwiseGame& g : data.results.games()) {
        const char* t = tokens[static_cast<int>(g.outcome)];
        buffer += fmt::format(
            "[Event \"synthetic\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"{}\"]\n"
            "[Black \"{}\"]\n[Result \"{}\"]\n\n{}\n\n",
            data.results.players()[g.white], data.results.players()[g.black], t, t);
        if (buffer.size() > (1 << 20)) {
            out << buffer;
            buffer.clear();
        }
    }
    out << buffer;
    std::ofstream truth(a.out + ".truth.csv");
    truth << "name,true_elo\n";
    for (std::size_t i = 0; i < data.true_elo.size(); ++i)
        truth << fmt::format("{},{:.3f}\n", data.results.players()[i], data.true_elo[i]);
    std::printf("wrote %s (%lld games, %d players) and its .truth.csv\n", a.out.c_str(),
                static_cast<long long>(data.results.games().size()), a.players);
}

MatchRecord two_player_record(const std::string& white, const std::string& black, Outcome outcome,
                              std::uint64_t seed) {
    MatchRecord m;
    m.game = "synthetic";
    m.seed = seed;
    m.started_at = "2026-11-22T00:00:00Z";
    m.end_reason = "completed";
    for (int s = 0; s < 2; ++s) {
        ParticipantResult p;
        p.bot = s == 0 ? white : black;
        p.command = "./" + p.bot;
        p.seat = s;
        p.score = outcome == Outcome::draw ? 1 : ((outcome == Outcome::white_wins) == (s == 0) ? 2 : 0);
        m.participants.push_back(p);
    }
    assign_ranks_by_score(m.participants);
    m.pairs = derive_pairs_by_rank(m.participants);
    return m;
}

void fill_db(const Args& a) {
    const SyntheticData data = generate(a);
    std::filesystem::remove(a.out);
    Store store = Store::open(a.out, OpenMode::create_or_open);
    const auto start = Clock::now();
    const auto& games = data.results.games();
    constexpr std::size_t kBatch = 10000;
    std::vector<MatchRecord> batch;
    for (std::size_t i = 0; i < games.size(); ++i) {
        const PairwiseGame& g = games[i];
        batch.push_back(two_player_record(data.results.players()[g.white], data.results.players()[g.black], g.outcome, i));
        if (batch.size() == kBatch || i + 1 == games.size()) {
            store.insert_matches(batch);
            batch.clear();
        }
    }
    const double t = seconds_since(start);
    std::printf("stored %zu matches in %.2f s (%.0f records/s, batches of %zu)\n", games.size(), t, games.size() / t,
                kBatch);
}

void inserts(const Args& a) {
    std::filesystem::create_directories(a.out);
    // A 4-player Planowanie-like record: 4 participants, 6 pairs, the usual fields filled.
    auto record = [](std::int64_t i) {
        MatchRecord m;
        m.game = "planowanie";
        m.config_json = R"({"deals":12})";
        m.seed = static_cast<std::uint64_t>(i);
        m.started_at = "2026-11-22T00:00:00Z";
        m.end_reason = "completed";
        m.transcript_path = fmt::format("out/m{}.transcript", i);
        for (int s = 0; s < 4; ++s) {
            ParticipantResult p;
            p.bot = fmt::format("bot{}", (i + s) % 16);
            p.command = "./" + p.bot;
            p.seat = s;
            p.score = static_cast<double>((i * 7 + s * 13) % 40);
            p.usage = {1.0, 0.9, 0.1, 24, 10240};
            m.participants.push_back(p);
        }
        assign_ranks_by_score(m.participants);
        m.pairs = derive_pairs_fault_loses(m.participants, std::nullopt);
        return m;
    };
    {
        const std::string path = (std::filesystem::path(a.out) / "batched.db").string();
        std::filesystem::remove(path);
        Store store = Store::open(path, OpenMode::create_or_open);
        std::vector<MatchRecord> all;
        for (std::int64_t i = 0; i < a.records; ++i) all.push_back(record(i));
        const auto start = Clock::now();
        for (std::size_t k = 0; k < all.size(); k += 1000)
            store.insert_matches(std::vector<MatchRecord>(all.begin() + k, all.begin() + std::min(all.size(), k + 1000)));
        const double t = seconds_since(start);
        std::printf("batched (1000 per transaction): %lld records in %.2f s = %.0f records/s\n",
                    static_cast<long long>(a.records), t, a.records / t);
    }
    {
        const std::string path = (std::filesystem::path(a.out) / "single.db").string();
        std::filesystem::remove(path);
        Store store = Store::open(path, OpenMode::create_or_open);
        const std::int64_t n = std::min<std::int64_t>(a.records, 5000);
        const auto start = Clock::now();
        for (std::int64_t i = 0; i < n; ++i)
            store.insert_match(record(i), std::string("bench"), fmt::format("bench/{}", i));
        const double t = seconds_since(start);
        std::printf("one per transaction (with schedule key): %lld records in %.2f s = %.0f records/s\n",
                    static_cast<long long>(n), t, n / t);
    }
}

void fit(const Args& a) {
    auto start = Clock::now();
    const SyntheticData data = generate(a);
    std::printf("generate: %.2f s\n", seconds_since(start));
    EloOptions o;
    o.fit_advantage = o.fit_drawelo = a.mm_fit;
    o.intervals = a.intervals == "covariance" ? IntervalMethod::covariance
                  : a.intervals == "hessian"  ? IntervalMethod::hessian_diagonal
                                              : IntervalMethod::exact_distribution;
    start = Clock::now();
    const RatingResult r = rate(data.results, o);
    std::printf("rate (condense + mm + %s): %.2f s, %d sweeps\n", a.intervals.c_str(), seconds_since(start), r.sweeps);
    int inside = 0;
    for (const RatingRow& row : r.rows) {
        const double truth = r.scale * data.true_elo[row.player];
        inside += truth >= row.elo - row.minus && truth <= row.elo + row.plus;
    }
    std::printf("true rating inside the interval: %d / %zu\n", inside, r.rows.size());
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Args a = parse(argc, argv);
        if (a.command == "gen-pgn") gen_pgn(a);
        else if (a.command == "fill-db") fill_db(a);
        else if (a.command == "inserts") inserts(a);
        else if (a.command == "fit") fit(a);
        else throw std::invalid_argument("unknown command " + a.command);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rating_bench: %s\n", e.what());
        return 2;
    }
    return 0;
}
