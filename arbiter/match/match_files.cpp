#include "arbiter/match/match_files.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/user_error.hpp"

namespace arb {

namespace fs = std::filesystem;

fs::path default_files_root(const std::string& db_path) {
    const fs::path db = fs::absolute(db_path);
    return db.parent_path() / (db.stem().string() + "-files");
}

std::string match_folder_name(int round, int group, int seating) {
    return fmt::format("r{}-g{}-s{}", round, group, seating);
}

void direct_files_into(MatchRequest& request, const GameDescriptor& game, const fs::path& folder,
                       const std::string& flag) {
    const fs::path dir = fs::absolute(folder).lexically_normal();
    ensure_folder(dir / "logs", flag);
    request.transcript_path = dir / "transcript.txt";
    request.replay_path = dir / game.replay_file;
    request.log_dir = dir / "logs";
    request.record_path = dir / "record.json";
    // A record left by an earlier run of this match (killed before it was stored) would describe
    // files this run rewrites: a folder without record.json is a match not finished yet.
    std::error_code ec;
    fs::remove(request.record_path, ec);
}

void write_record_file(const fs::path& path, const MatchRecord& record) {
    write_file_atomically(path, nlohmann::json(record).dump(2) + "\n");
}

}  // namespace arb
