// arbiter rate | los | import
//   rate   BayesElo ratings from the store (--db) or from PGN headers (--pgn), printed as
//          bayeselo's `ratings` table, JSON or CSV.
//   los    the likelihood-of-superiority matrix, as bayeselo's `los`.
//   import match record JSON files (arbiter play --record) into the store.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "arbiter/cli/result_table.hpp"
#include "core/user_error.hpp"
#include "rating/bayeselo.hpp"
#include "rating/bootstrap.hpp"
#include "rating/pgn_reader.hpp"
#include "rating/rating_output.hpp"
#include "rating/store.hpp"
#include "rules/registry.hpp"

namespace arb::cli {
namespace {

using namespace arb::rating;

// Where the results come from and which of them count.
struct SourceArgs {
    std::string db_path;
    std::vector<std::string> pgn_paths;
    std::string game;
    std::string since;
    std::string until;
    std::string tournament;
    // Set by --by map for one table: only matches on the map (field) of this name.
    std::optional<std::string> option_key, option_file;
};

struct ModelArgs {
    std::optional<double> advantage;  // default: 0 for --db (our games), 32.8 for --pgn
    double drawelo = 97.3;
    double prior = 2.0;
    bool mm_fit = false;
    bool fit_advantage = false;
    bool fit_drawelo = false;
    double confidence = 0.95;
    std::string intervals = "bayeselo";
    int bootstrap_samples = BootstrapOptions{}.samples;
    std::uint64_t bootstrap_seed = BootstrapOptions{}.seed;
    double offset = 0;
    std::string offset_player;
    std::optional<double> scale;
    int threads = 0;
};

void add_source_options(CLI::App* sub, SourceArgs& a) {
    auto* db = sub->add_option("--db", a.db_path, "Results store (SQLite file written by arbiter)");
    auto* pgn = sub->add_option("--pgn", a.pgn_paths, "PGN file(s); only White, Black and Result tags are read")
                    ->check(existing_input());
    db->excludes(pgn);
    sub->add_option("--game", a.game, "Only matches of this game (--db)");
    sub->add_option("--since", a.since, "Only matches started at or after this UTC time, e.g. 2026-11-01 (--db)");
    sub->add_option("--until", a.until, "Only matches started before this UTC time (--db)");
    sub->add_option("--tournament", a.tournament, "Only matches of this tournament id (--db)");
}

void add_model_options(CLI::App* sub, ModelArgs& m) {
    sub->add_option("--advantage", m.advantage,
                    "First-mover advantage in Elo (default 0 for --db: our games have no first mover; "
                    "32.8 for --pgn, as bayeselo)");
    sub->add_option("--drawelo", m.drawelo, "Draw margin in Elo")->capture_default_str();
    sub->add_option("--prior", m.prior, "Virtual draws per player")->capture_default_str();
    sub->add_flag("--mm-fit", m.mm_fit, "Fit advantage and drawelo with the ratings (bayeselo `mm 1 1`)");
    sub->add_flag("--fit-advantage", m.fit_advantage, "Fit advantage only (`mm 1 0`)");
    sub->add_flag("--fit-drawelo", m.fit_drawelo, "Fit drawelo only (`mm 0 1`)");
    sub->add_option("--confidence", m.confidence, "Level of the intervals")->capture_default_str();
    sub->add_option("--offset", m.offset, "Added to every displayed rating")->capture_default_str();
    sub->add_option("--offset-player", m.offset_player, "Choose the offset so this player shows --offset");
    sub->add_option("--scale", m.scale, "Display scale (default: bayeselo's, from drawelo)");
    sub->add_option("--threads", m.threads, "Threads for exact intervals (0 = all cores)")->capture_default_str();
}

void add_bootstrap_options(CLI::App* sub, ModelArgs& m) {
    sub->add_option("--bootstrap-samples", m.bootstrap_samples, "Resamples for --intervals bootstrap")
        ->capture_default_str();
    sub->add_option("--bootstrap-seed", m.bootstrap_seed, "Seed of the bootstrap's resampling")->capture_default_str();
}

void check_time(const std::string& flag, const std::string& value) {
    static const std::regex iso(R"(\d{4}-\d{2}-\d{2}([T ]\d{2}(:\d{2}(:\d{2})?)?Z?)?)");
    if (!value.empty() && !std::regex_match(value, iso))
        throw UserError(fmt::format("{} '{}' is not a UTC date or time like 2026-11-01 or 2026-11-01T18:00:00Z", flag,
                                    value));
}

struct LoadedResults {
    ResultSet results;
    std::vector<std::int64_t> unit_of_game;  // the bootstrap's resampling units (--db)
    bool from_pgn = false;
    std::string description;  // for messages: "store 'x.db' (game GAME)"
};

LoadedResults load_results_from(const SourceArgs& a) {
    LoadedResults out;
    if (a.db_path.empty() && a.pgn_paths.empty()) throw UserError("give the results with --db FILE or --pgn FILE");
    if (!a.pgn_paths.empty()) {
        if (!a.game.empty() || !a.since.empty() || !a.until.empty() || !a.tournament.empty())
            throw UserError("--game, --since, --until and --tournament select matches in a store; they do not apply "
                            "to --pgn");
        out.from_pgn = true;
        PgnReadStats total;
        for (const auto& path : a.pgn_paths) {
            const PgnReadStats s = read_pgn_file(path, out.results);
            total.games += s.games;
            total.ignored += s.ignored;
        }
        spdlog::debug("{} game(s) loaded, {} game(s) ignored", total.games, total.ignored);
        out.description = a.pgn_paths.size() == 1 ? fmt::format("'{}'", a.pgn_paths[0])
                                                  : fmt::format("{} PGN files", a.pgn_paths.size());
        return out;
    }
    check_time("--since", a.since);
    check_time("--until", a.until);
    // Read-only: a failed or read-only command can never modify the store.
    const Store store = Store::open(a.db_path, OpenMode::read_only);
    MatchFilter filter;
    if (!a.game.empty()) filter.game = a.game;
    if (!a.since.empty()) filter.since = a.since;
    if (!a.until.empty()) filter.until = a.until;
    if (!a.tournament.empty()) filter.tournament = a.tournament;
    filter.option_key = a.option_key;
    filter.option_file = a.option_file;
    if (a.game.empty()) {
        const auto games = store.games();
        if (games.size() > 1) {
            std::string list;
            for (const auto& g : games) list += (list.empty() ? "" : ", ") + g;
            throw UserError(fmt::format("store '{}' holds results of several games ({}); choose one with --game",
                                        a.db_path, list));
        }
    }
    out.results = store.pair_games(filter, &out.unit_of_game);
    if (const auto unpaired = store.unpaired_match_count(filter); unpaired > 0)
        spdlog::warn("{} match(es) in the selection have no pairwise result and are not rated", unpaired);
    out.description = fmt::format("store '{}'", a.db_path);
    if (!a.game.empty()) out.description += fmt::format(", game '{}'", a.game);
    if (!a.tournament.empty()) out.description += fmt::format(", tournament '{}'", a.tournament);
    if (!a.since.empty()) out.description += fmt::format(", since {}", a.since);
    if (!a.until.empty()) out.description += fmt::format(", until {}", a.until);
    if (a.option_file) out.description += fmt::format(", {} '{}'", *a.option_key, *a.option_file);
    return out;
}

// A store whose header is fine but whose pages are damaged fails only when read: still the
// user's file, not our bug.
LoadedResults load_results(const SourceArgs& a) {
    try {
        return load_results_from(a);
    } catch (const SqliteError& e) {
        throw UserError(fmt::format("store '{}' could not be read: {}", a.db_path, e.what()));
    }
}

// The model's numbers, each in the range where the model means something.
void check_model_args(const ModelArgs& m) {
    const auto check = [](const char* flag, double v, double lo, double hi, bool open_low = false) {
        if (!std::isfinite(v) || v < lo || v > hi || (open_low && v == lo))
            throw UserError(fmt::format("{} must be {} {} to {}, not {}", flag, open_low ? "above" : "from", lo, hi, v));
    };
    if (m.advantage) check("--advantage", *m.advantage, -2000, 2000);
    check("--drawelo", m.drawelo, 0, 2000);
    check("--prior", m.prior, 0, 1e6);
    check("--confidence", m.confidence, 0, 0.999999, true);
    if (m.scale) check("--scale", *m.scale, 0, 100, true);
    check("--threads", m.threads, 0, 1024);
    check("--bootstrap-samples", m.bootstrap_samples, 1, 1000000);
}

EloOptions model_options(const ModelArgs& m, bool from_pgn) {
    check_model_args(m);
    EloOptions o;
    o.advantage = m.advantage.value_or(from_pgn ? 32.8 : 0.0);
    o.drawelo = m.drawelo;
    o.prior = m.prior;
    o.fit_advantage = m.mm_fit || m.fit_advantage;
    o.fit_drawelo = m.mm_fit || m.fit_drawelo;
    o.confidence = m.confidence;
    if (m.intervals == "bayeselo" || m.intervals == "bootstrap" || m.intervals == "exact")
        o.intervals = IntervalMethod::exact_distribution;
    else if (m.intervals == "covariance") o.intervals = IntervalMethod::covariance;
    else if (m.intervals == "hessian") o.intervals = IntervalMethod::hessian_diagonal;
    else
        throw UserError(fmt::format("--intervals '{}': expected bayeselo, bootstrap, exact, covariance or hessian",
                                    m.intervals));
    o.offset = m.offset;
    if (!m.offset_player.empty()) o.offset_anchor = m.offset_player;
    o.scale = m.scale;
    o.threads = m.threads;
    return o;
}

RatingResult fit(const LoadedResults& loaded, const EloOptions& options) {
    if (loaded.results.empty()) throw UserError(fmt::format("no results to rate in {}", loaded.description));
    RatingResult result = rate(loaded.results, options);
    if (!result.converged)
        spdlog::warn("mm did not converge in {} sweeps (prior 0 with an unbeaten or winless player?)", result.sweeps);
    return result;
}

// The resampling units: the store's matches and deal sets; a PGN game is its own unit (PGN
// says nothing of which games were played together).
std::vector<std::int64_t> units_of(const LoadedResults& loaded) {
    if (!loaded.from_pgn) return loaded.unit_of_game;
    std::vector<std::int64_t> units(loaded.results.games().size());
    for (std::size_t k = 0; k < units.size(); ++k) units[k] = static_cast<std::int64_t>(k);
    return units;
}

// With --intervals bootstrap, the bootstrap's intervals and LOS replace bayeselo's in `result`;
// returns the line that says which intervals are shown ("" for bayeselo's own).
std::string apply_intervals(const LoadedResults& loaded, const ModelArgs& m, const EloOptions& options,
                            RatingResult& result) {
    if (m.intervals != "bootstrap") return "";
    BootstrapOptions b;
    b.samples = m.bootstrap_samples;
    b.seed = m.bootstrap_seed;
    b.threads = m.threads;
    const BootstrapResult boot = bootstrap_ratings(loaded.results, units_of(loaded), options, b);
    apply_bootstrap(result, boot);
    // A percentile bootstrap over a handful of units has too little spread to mean much.
    if (boot.units < 20)
        spdlog::warn("the bootstrap resamples only {} {}; with so few its intervals come out too narrow", boot.units,
                     loaded.from_pgn ? "games" : "matches or deal sets");
    return fmt::format("intervals: bootstrap, {:g}% percentile, {} resamples of {} {} (seed {})\n",
                       100 * options.confidence, boot.samples, boot.units,
                       loaded.from_pgn ? "games" : "matches or deal sets", b.seed);
}

void write_pgn(const std::string& path, const ResultSet& results) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw UserError(fmt::format("cannot write PGN file '{}'", path));
    auto quoted = [](const std::string& s) {
        std::string q;
        for (char ch : s) {
            if (ch == '"' || ch == '\\') q += '\\';
            q += ch;
        }
        return q;
    };
    static const char* tokens[] = {"0-1", "1/2-1/2", "1-0"};
    for (const PairwiseGame& g : results.games()) {
        const char* token = tokens[static_cast<int>(g.outcome)];
        out << "[Event \"arbiter\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \""
            << quoted(results.players()[g.white]) << "\"]\n[Black \"" << quoted(results.players()[g.black])
            << "\"]\n[Result \"" << token << "\"]\n\n"
            << token << "\n\n";
    }
}

struct RateArgs {
    SourceArgs source;
    ModelArgs model;
    std::string by;  // "map": a table per map (or field)
    std::string format = "table";
    std::string write_pgn_path;
    std::string snapshot_label;
};

// The maps (fields) the selected matches were played on, by file name, and the option naming them.
std::pair<std::string, std::set<std::string>> maps_played(const SourceArgs& a) {
    const Store store = Store::open(a.db_path, OpenMode::read_only);
    std::string game = a.game;
    if (game.empty() && store.games().size() == 1) game = store.games().front();
    if (game.empty()) throw UserError(fmt::format("--by map rates one game's matches: choose it with --game"));
    const GameDescriptor& descriptor = find_game(game);
    if (!descriptor.map_files) throw UserError(fmt::format("game '{}' is played without maps: --by map does not apply", game));
    MatchFilter filter;
    filter.game = game;
    if (!a.since.empty()) filter.since = a.since;
    if (!a.until.empty()) filter.until = a.until;
    if (!a.tournament.empty()) filter.tournament = a.tournament;
    std::set<std::string> names;
    store.for_each_match(filter, [&names](StoredMatch& m) {
        if (const std::string map = map_of(m.record); !map.empty()) names.insert(map);
    });
    if (names.empty()) throw UserError(fmt::format("no {} named in the matches of store '{}'", descriptor.map_files->pool_key, a.db_path));
    return {descriptor.map_files->option, names};
}

// --by map: one fit per map, from the matches played on it, in the order of the maps' names.
void run_rate_by_map(const RateArgs& args) {
    if (args.by != "map" && args.by != "field") throw UserError(fmt::format("--by '{}': expected map (or field)", args.by));
    if (args.source.db_path.empty()) throw UserError("--by map reads the matches of a store: give --db");
    if (!args.snapshot_label.empty() || !args.write_pgn_path.empty() || args.format == "csv")
        throw UserError("--by map prints a table (or JSON) per map; --save-snapshot, --write-pgn and csv take one table");
    check_time("--since", args.source.since);
    check_time("--until", args.source.until);
    const auto [option, names] = maps_played(args.source);
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const std::string& name : names) {
        SourceArgs source = args.source;
        source.option_key = option;
        source.option_file = name;
        const LoadedResults loaded = load_results(source);
        const EloOptions options = model_options(args.model, false);
        RatingResult result = fit(loaded, options);
        const std::string intervals_line = apply_intervals(loaded, args.model, options, result);
        if (args.format == "json") {
            all.push_back({{option, name},
                           {"ratings", nlohmann::ordered_json::parse(format_ratings_json(
                                           result, args.model.intervals == "bootstrap" ? "bootstrap" : ""))}});
            continue;
        }
        std::cout << fmt::format("{}{} {}\n", all.empty() ? "" : "\n", option, name) << intervals_line
                  << format_ratings_table(result);
        all.push_back(name);
    }
    if (args.format == "json") std::cout << all.dump(2) << "\n";
}

void run_rate(const RateArgs& args) {
    if (args.format != "table" && args.format != "json" && args.format != "csv")
        throw UserError(fmt::format("--format '{}': expected table, json or csv", args.format));
    if (!args.by.empty()) return run_rate_by_map(args);
    if (!args.snapshot_label.empty() && args.source.db_path.empty())
        throw UserError("--save-snapshot stores into the --db store; it needs --db");
    const LoadedResults loaded = load_results(args.source);
    const EloOptions options = model_options(args.model, loaded.from_pgn);
    RatingResult result = fit(loaded, options);
    const std::string intervals_line = apply_intervals(loaded, args.model, options, result);
    if (!args.write_pgn_path.empty()) write_pgn(args.write_pgn_path, loaded.results);
    if (!args.snapshot_label.empty()) {
        // The only writing path of `rate`, opened after everything else succeeded.
        Store store = Store::open(args.source.db_path, OpenMode::read_write);
        Snapshot snapshot = make_snapshot(args.snapshot_label, args.source.game, result, options);
        if (!intervals_line.empty()) {  // the stored intervals are the bootstrap's: say so with them
            nlohmann::json params = nlohmann::json::parse(snapshot.params_json);
            params["intervals"] = "bootstrap";
            params["bootstrap_samples"] = args.model.bootstrap_samples;
            params["bootstrap_seed"] = args.model.bootstrap_seed;
            snapshot.params_json = params.dump();
        }
        store.save_snapshot(snapshot);
    }
    if (args.format == "json") {
        std::cout << format_ratings_json(result, args.model.intervals == "bootstrap" ? "bootstrap" : "");
    } else if (args.format == "csv") {
        std::cout << format_ratings_csv(result);
    } else {
        std::cout << intervals_line;
        if (options.fit_advantage || options.fit_drawelo)
            std::cout << fmt::format("advantage {:.1f} drawelo {:.1f} (fitted)\n", result.advantage, result.drawelo);
        std::cout << format_ratings_table(result);
    }
}

struct LosArgs {
    SourceArgs source;
    ModelArgs model;
    int first = 0;
    int count = 0;
    int width = 3;
};

void run_los(const LosArgs& args) {
    const LoadedResults loaded = load_results(args.source);
    if (args.model.intervals != "bayeselo" && args.model.intervals != "bootstrap")
        throw UserError(fmt::format("--intervals '{}': expected bayeselo or bootstrap", args.model.intervals));
    EloOptions options = model_options(args.model, loaded.from_pgn);
    options.intervals = IntervalMethod::covariance;  // LOS comes from the covariance (A.2 "los")
    options.want_los = true;
    RatingResult result = fit(loaded, options);
    std::cout << apply_intervals(loaded, args.model, options, result);
    std::cout << format_los_matrix(result, args.first, args.count, args.width);
}

struct ImportArgs {
    std::string db_path;
    std::vector<std::string> files;
    std::string tournament;
};

// A record file holds one match record object, an array of them, or one object per line.
std::vector<MatchRecord> read_records(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw UserError(fmt::format("cannot read match record file '{}'", path));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<MatchRecord> records;
    auto add = [&](const nlohmann::json& j, const std::string& where) {
        try {
            records.push_back(j.get<MatchRecord>());
        } catch (const std::exception& e) {
            throw UserError(fmt::format("{}: not a match record ({})", where, e.what()));
        }
    };
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        if (j.is_array()) {
            for (std::size_t i = 0; i < j.size(); ++i) add(j[i], fmt::format("{} item {}", path, i + 1));
        } else {
            add(j, path);
        }
    } catch (const nlohmann::json::exception&) {  // parse_error, or out_of_range for a number like 1e999
        std::istringstream lines(text);
        std::string line;
        int number = 0;
        while (std::getline(lines, line)) {
            ++number;
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            try {
                add(nlohmann::json::parse(line), fmt::format("{}:{}", path, number));
            } catch (const nlohmann::json::exception& e) {
                throw UserError(fmt::format("{}:{}: not JSON ({})", path, number, e.what()));
            }
        }
    }
    return records;
}

void run_import(const ImportArgs& args) {
    // Everything is read and checked before the store is opened: a bad file changes nothing.
    std::vector<MatchRecord> records;
    for (const auto& f : args.files) {
        auto more = read_records(f);
        records.insert(records.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    }
    if (records.empty()) throw UserError("no match records in " + fmt::format("{}", fmt::join(args.files, ", ")));
    for (const MatchRecord& r : records) check_record(r);
    Store store = Store::open(args.db_path, OpenMode::create_or_open);
    InsertOptions options;
    if (!args.tournament.empty()) options.tournament = args.tournament;
    // A record stored before (or given twice) is counted, not stored again: a rerun of the same
    // import must not double its matches in the ratings.
    std::vector<MatchRecord> fresh;
    std::set<std::string> seen;
    std::size_t already = 0;
    for (MatchRecord& r : records) {
        if (store.find_record(r) || !seen.insert(nlohmann::json(r).dump()).second) ++already;
        else fresh.push_back(std::move(r));
    }
    if (!fresh.empty()) store.insert_matches(fresh, options);
    std::cout << fmt::format("imported into '{}': {} new, {} already stored\n", args.db_path, fresh.size(), already);
}

}  // namespace

void add_rating_commands(CLI::App& app) {
    {
        auto args = std::make_shared<RateArgs>();
        auto* sub = app.add_subcommand("rate", "BayesElo ratings from the store or from PGN files");
        add_source_options(sub, args->source);
        add_model_options(sub, args->model);
        sub->add_option("--intervals", args->model.intervals,
                        "bayeselo (its exactdist, as `exact`), bootstrap (over matches: honest for games of more "
                        "than two), covariance, or hessian (diagonal, as after mm)")
            ->capture_default_str();
        add_bootstrap_options(sub, args->model);
        sub->add_option("--format", args->format, "table (bayeselo's layout), json or csv")->capture_default_str();
        sub->add_option("--by", args->by, "map (or field): a table per map, each from the matches played on it (--db)");
        sub->add_option("--write-pgn", args->write_pgn_path,
                        "Also write the rated pairwise results as a result-only PGN (to check with bayeselo or Ordo)");
        sub->add_option("--save-snapshot", args->snapshot_label, "Store the table as a rating snapshot with this label");
        sub->footer("Example:\n  arbiter rate --db demo.sqlite --game " + example_game().name);
        sub->callback([args] { run_rate(*args); });
    }
    {
        auto args = std::make_shared<LosArgs>();
        auto* sub = app.add_subcommand("los", "Likelihood-of-superiority matrix (bayeselo `los`)");
        add_source_options(sub, args->source);
        add_model_options(sub, args->model);
        sub->add_option("--intervals", args->model.intervals,
                        "bayeselo (from its covariance) or bootstrap (share of resamples of whole matches where the "
                        "row bot is rated above the column bot)")
            ->capture_default_str();
        add_bootstrap_options(sub, args->model);
        sub->add_option("--first", args->first, "First row (0 = best player)")->capture_default_str();
        sub->add_option("--count", args->count, "Number of players (0 = all)")->capture_default_str();
        sub->add_option("--width", args->width, "Column width; values are truncated to width-1 digits")
            ->capture_default_str();
        sub->footer("Example:\n  arbiter los --db demo.sqlite --game " + example_game().name);
        sub->callback([args] { run_los(*args); });
    }
    {
        auto args = std::make_shared<ImportArgs>();
        auto* sub = app.add_subcommand("import", "Store match record JSON files (from arbiter play) in a results store");
        sub->add_option("--db", args->db_path, "Results store (created if missing)")->required();
        sub->add_option("--tournament", args->tournament, "Tournament id to file the matches under");
        sub->add_option("files", args->files, "Match record files")->required()->check(existing_input());
        sub->footer("Example:\n  arbiter import --db results.sqlite arbiter-out/*.json");
        sub->callback([args] { run_import(*args); });
    }
}

}  // namespace arb::cli
