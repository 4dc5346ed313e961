// arbiter plan | run-job | ingest: a tournament handed out as one job file per match, for GNU
// parallel, Slurm or any other runner, and its results merged back into the store.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "arbiter/cli/commands.hpp"
#include "arbiter/cli/tournament_args.hpp"
#include "arbiter/match/match_files.hpp"
#include "arbiter/match/match_runner.hpp"
#include "arbiter/tournament/match_jobs.hpp"
#include "arbiter/tournament/tournament_runner.hpp"
#include "core/bot_spec.hpp"
#include "core/user_error.hpp"
#include "rules/registry.hpp"

namespace arb::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kManifestFormat = "arbiter-job-manifest";
constexpr int kNothingNewExit = 3;

struct PlanArgs {
    TournamentArgs tournament;
    std::string out;
    bool reissue = false;
};

// A jobs folder belongs to one tournament of one database: planning another one into it would
// mix their jobs.
void check_jobs_folder(const fs::path& dir, const std::string& db, const std::string& name) {
    if (fs::exists(dir) && !fs::is_directory(dir)) throw UserError(fmt::format("--out {}: not a folder", dir.string()));
    const fs::path manifest = dir / "manifest.json";
    if (!fs::exists(manifest)) return;
    const json m = tournament::read_json_file(manifest);
    // A member that is missing or no string reads as "" (.value() would throw a JSON type error).
    auto text = [&m](const char* key) {
        const auto it = m.find(key);
        return it != m.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (!m.is_object() || text("format") != kManifestFormat)
        throw UserError(fmt::format("{}: not an arbiter job manifest", manifest.string()));
    if (text("tournament") != name || text("db") != db)
        throw UserError(fmt::format("{} holds the jobs of tournament '{}' of {}; plan '{}' into another folder",
                                    dir.string(), text("tournament"), text("db"), name));
}

// Job files of matches whose results are stored are removed: what is left in the folder is
// what still has to run.
void remove_done_jobs(const fs::path& dir, const std::set<std::string>& done_files) {
    for (const auto& entry : fs::directory_iterator(dir))
        if (done_files.count(entry.path().filename().string())) fs::remove(entry.path());
}

std::vector<tournament::Job> plan_matches(const tournament::TournamentConfig& c, const GameDescriptor& game,
                                          rating::Store& store) {
    tournament::RunnerOptions options;
    options.plan_only = true;
    options.jobs = 1;
    options.progress_out = nullptr;
    auto no_play = [](const MatchRequest&) -> MatchRecord { throw std::logic_error("plan plays no match"); };
    tournament::TournamentRunner runner(c, game, store, no_play, tournament::fit_rating_model, options);
    return runner.run().to_play;
}

// manifest.json says what the folder holds; jobs.txt lists the job files still to run (new and
// earlier ones without a result), one path a line, for `parallel ... :::: jobs.txt` or an array job.
void write_plan_files(const fs::path& dir, const tournament::TournamentConfig& c, const std::string& db,
                      const json& written, const json& listed, bool complete) {
    const std::string state = complete ? "complete" : written.empty() ? "awaiting-results" : "planned";
    tournament::write_json_file(dir / "manifest.json", json{{"format", kManifestFormat},
                                                            {"version", 1},
                                                            {"tournament", c.name},
                                                            {"db", db},
                                                            {"game", c.game},
                                                            {"planned_at", utc_timestamp_now()},
                                                            {"state", state},
                                                            {"new_jobs", written},
                                                            {"jobs", listed}});
    std::string list;
    for (const auto& f : listed) list += (dir / f.get<std::string>()).string() + "\n";
    const fs::path tmp = dir / "jobs.txt.tmp";
    std::FILE* out = std::fopen(tmp.c_str(), "w");
    const bool ok = out && std::fputs(list.c_str(), out) >= 0;
    if (out && std::fclose(out) != 0) throw UserError(fmt::format("{}: cannot write", tmp.string()));
    if (!ok) throw UserError(fmt::format("{}: cannot write", tmp.string()));
    fs::rename(tmp, dir / "jobs.txt");
}

void report_plan(const std::string& name, const fs::path& dir, std::size_t written, std::size_t earlier,
                 int elsewhere, bool complete) {
    if (complete) {
        std::cerr << fmt::format("tournament {}: complete, nothing to plan\n", name);
        return;
    }
    const std::string waiting =
        earlier + elsewhere == 0
            ? ""
            : fmt::format("{} job(s) planned earlier have no result yet ({} in {}{})", earlier + elsewhere, earlier,
                          (dir / "jobs.txt").string(),
                          elsewhere ? fmt::format(", {} written to another folder: --reissue writes them here",
                                                  elsewhere)
                                    : "");
    if (written == 0) {
        std::cerr << fmt::format("tournament {}: nothing new to plan until these have results: {}; run them and "
                                 "ingest their results\n",
                                 name, waiting);
        throw ExitStatus{kNothingNewExit};
    }
    std::cerr << fmt::format("tournament {}: {} new job(s) written to {}, listed in {}{}\n", name, written,
                             dir.string(), (dir / "jobs.txt").string(), waiting.empty() ? "" : "; " + waiting);
}

void run_plan_command(const PlanArgs& a) {
    tournament::TournamentConfig c = tournament_config_from(a.tournament);
    if (!c.rounds || c.time_budget_s)
        throw UserError("plan needs a fixed number of rounds (--rounds or the config key 'rounds'); a time budget "
                        "cannot be handed out as jobs");
    const GameDescriptor& game = find_game(c.game);
    tournament::validate(c, game.min_bots, game.max_bots);
    tournament::check_game_options(c, game.name, game.options);
    check_bots(tournament::participants_of(c));
    const fs::path dir = a.out;
    const std::string db = fs::absolute(a.tournament.common.db).lexically_normal().string();
    check_jobs_folder(dir, db, c.name);
    auto store = rating::Store::open(a.tournament.common.db, rating::OpenMode::create_or_open);
    tournament::TournamentStore(store).check_resumable(c.name, c.identity_json());
    // On this machine, before any job is written: a bot that cannot start here most likely
    // cannot start where the jobs run either (they share its path).
    preflight_bots(a.tournament, game, c, "no job was written");
    ensure_folder(dir, "--out");

    const std::vector<tournament::Job> unplayed = plan_matches(c, game, store);
    tournament::TournamentStore tstore(store);
    const std::set<std::string> handed = tstore.handed_out(c.name);
    std::set<std::string> done_files;
    for (const auto& [index, round] : tstore.stored_rounds(c.name))
        for (const auto& m : round.matches) done_files.insert(tournament::job_file_name(m));
    json written = json::array(), listed = json::array();
    std::vector<std::string> keys;
    int elsewhere = 0;  // handed out earlier, their files not in this folder
    for (const auto& job : unplayed) {
        const std::string file = tournament::job_file_name(job.match);
        done_files.erase(file);
        if (handed.count(job.match.key) && !a.reissue) {
            if (fs::exists(dir / file)) listed.push_back(file);
            else ++elsewhere;
            continue;
        }
        tournament::write_json_file(dir / file, tournament::job_to_json({c.name, job}, game));
        written.push_back(file);
        listed.push_back(file);
        keys.push_back(job.match.key);
    }
    tstore.mark_handed_out(keys);
    remove_done_jobs(dir, done_files);
    write_plan_files(dir, c, db, written, listed, unplayed.empty());
    for (const auto& f : written) std::cout << (dir / f.get<std::string>()).string() << "\n";
    report_plan(c.name, dir, written.size(), listed.size() - written.size(), elsewhere, unplayed.empty());
}

struct RunJobArgs {
    std::vector<std::string> jobs;
    std::string out;
    std::string out_dir;
    std::string logs;
};

void run_one_job(const std::string& job_file, const std::string& out, const std::string& logs);

// Several jobs in one process (--out-dir): a batch of short matches pays the start of one
// arbiter, not one each. Each result is written as soon as its match ends.
void run_job_command(const RunJobArgs& a) {
    if (a.jobs.size() == 1 && a.out_dir.empty()) {
        if (a.out.empty()) throw UserError("run-job needs --out RESULT.json (or --out-dir DIR)");
        run_one_job(a.jobs.front(), a.out, a.logs);
        return;
    }
    if (a.out_dir.empty() || !a.out.empty() || !a.logs.empty())
        throw UserError("several jobs need --out-dir DIR (each result is DIR/<job name>.result.json), without --out "
                        "or --logs");
    for (const auto& job : a.jobs)
        run_one_job(job, (fs::path(a.out_dir) / (fs::path(job).stem().string() + ".result.json")).string(), "");
}

void run_one_job(const std::string& job_file, const std::string& out, const std::string& logs) {
    const tournament::MatchJob job = tournament::job_from_json(tournament::read_json_file(job_file), job_file, find_game);
    const GameDescriptor& game = find_game(job.job.request.game);
    MatchRequest request = job.job.request;
    if (!logs.empty()) direct_files_into(request, game, logs, "--logs");  // the match's folder
    if (fs::is_directory(out)) throw UserError(fmt::format("--out {}: a folder, not a file name", out));
    const tournament::JobResult result =
        tournament::play_job({job.tournament, {job.job.match, request}}, tournament::real_matches(game));
    if (const fs::path parent = fs::path(out).parent_path(); !parent.empty()) ensure_folder(parent, "--out");
    tournament::write_json_file(out, tournament::result_to_json(result));
    std::string ranks;
    for (const auto& p : result.record.participants)
        ranks += fmt::format("{}{} {} ({})", ranks.empty() ? "" : ", ", p.bot, p.score, to_string(p.status));
    std::cout << fmt::format("{} {}: {}\n", job.tournament, job.job.match.key, ranks);
}

struct IngestArgs {
    std::string db;
    std::vector<std::string> paths;
};

// Every result file named, a folder standing for the *.json files in it (sorted, so that the
// order of storing does not depend on the file system).
std::vector<fs::path> result_files(const std::vector<std::string>& paths) {
    std::vector<fs::path> files;
    for (const auto& p : paths) {
        if (!fs::exists(p)) throw UserError(fmt::format("{}: no such file or folder", p));
        if (!fs::is_directory(p)) {
            files.emplace_back(p);
            continue;
        }
        std::vector<fs::path> in_dir;
        for (const auto& entry : fs::directory_iterator(p))
            if (entry.is_regular_file() && entry.path().extension() == ".json") in_dir.push_back(entry.path());
        std::sort(in_dir.begin(), in_dir.end());
        files.insert(files.end(), in_dir.begin(), in_dir.end());
    }
    return files;
}

void run_ingest_command(const IngestArgs& a) {
    const std::vector<fs::path> files = result_files(a.paths);
    auto store = rating::Store::open(a.db, rating::OpenMode::read_write);
    tournament::TournamentStore tstore(store);
    tournament::ResultIngester ingester(tstore);
    int stored = 0, again = 0;
    for (const auto& f : files) {
        tournament::JobResult r = tournament::result_from_json(tournament::read_json_file(f), f.string());
        try {
            check_record(r.record);
        } catch (const UserError& e) {
            throw UserError(fmt::format("{}: {}", f.string(), e.what()));
        }
        if (ingester.ingest(r) == tournament::IngestStatus::stored) ++stored;
        else ++again;
    }
    std::cout << fmt::format("ingested {} result(s) into {}{}\n", stored, a.db,
                             again ? fmt::format("; {} were stored already and count once", again) : "");
}

}  // namespace

void add_cluster_commands(CLI::App& app) {
    auto p_args = std::make_shared<PlanArgs>();
    auto* p = app.add_subcommand(
        "plan", "Write the matches a tournament can schedule now as one job file per match (GNU parallel, Slurm)");
    p->footer(
        "Example (tools/cluster/ has whole recipes):\n"
        "  arbiter plan --config configs/demo.json --db demo.sqlite --out jobs\n"
        "  parallel arbiter run-job {} --out results/{/.}.result.json :::: jobs/jobs.txt\n"
        "  arbiter ingest --db demo.sqlite results\n"
        "and plan again until it says the tournament is complete. Exit 3: nothing new to plan until the\n"
        "jobs listed in jobs.txt have results.");
    add_common(p, p_args->tournament.common, false);
    p->remove_option(p->get_option("--jobs"));  // the runner of the jobs decides
    add_tournament_flags(p, p_args->tournament);
    p->add_option("--out", p_args->out, "Jobs folder: job-r<round>-g<group>-s<seating>.json, jobs.txt, manifest.json")
        ->required();
    p->add_flag("--reissue", p_args->reissue, "Write again the jobs planned earlier that have no result yet");
    p_args->tournament.allow_broken_offered = false;
    p->add_flag("--no-preflight", p_args->tournament.no_preflight,
                "Do not start every bot once on this machine before writing the jobs");
    p->callback([p_args] { run_plan_command(*p_args); });

    auto r_args = std::make_shared<RunJobArgs>();
    auto* r = app.add_subcommand("run-job", "Play one match job on this machine and write its result (no database)");
    r->footer("Example:\n  arbiter run-job jobs/job-r0-g0-s0.json --out results/job-r0-g0-s0.result.json --logs logs/r0-g0-s0\n"
              "  arbiter run-job jobs/job-r0-g0-s*.json --out-dir results");
    r->add_option("job", r_args->jobs, "Job file(s) written by arbiter plan")->required()->check(existing_input());
    r->add_option("--out", r_args->out, "Result file to write (JSON), for one job");
    r->add_option("--out-dir", r_args->out_dir,
                  "Folder for the results of several jobs, played in turn: DIR/<job name>.result.json");
    r->add_option("--logs", r_args->logs,
                  "The match's folder: record.json, the game's replay, transcript.txt and logs/ with the bots' "
                  "stderr");
    r->callback([r_args] { run_job_command(*r_args); });

    auto i_args = std::make_shared<IngestArgs>();
    auto* i = app.add_subcommand("ingest", "Store match job results in the database that planned them");
    i->footer("A result stored twice counts once; one the database never planned is refused.\nExample:\n"
              "  arbiter ingest --db demo.sqlite results");
    i->add_option("--db", i_args->db, "SQLite results file the jobs were planned in")->required();
    i->add_option("results", i_args->paths, "Result files, or folders of them")->required();
    i->callback([i_args] { run_ingest_command(*i_args); });
}

}  // namespace arb::cli
