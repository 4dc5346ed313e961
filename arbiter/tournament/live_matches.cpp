#include "arbiter/tournament/live_matches.hpp"

#include <algorithm>
#include <system_error>

#include <nlohmann/json.hpp>

#include "arbiter/match/match_files.hpp"
#include "core/json_text.hpp"
#include "core/match_record.hpp"
#include "core/user_error.hpp"

namespace arb::tournament {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kLiveFileMax = 64 * 1024;

constexpr const char* kReplaySuffix = ".replay";

// Removes the files when the match returns, however it returns.
struct LiveFile {
    fs::path path;
    fs::path replay;
    ~LiveFile() {
        std::error_code ec;
        if (!path.empty()) fs::remove(path, ec);
        if (!replay.empty()) fs::remove(replay, ec);
    }
};

}  // namespace

fs::path live_folder(const fs::path& tournament_folder) { return tournament_folder / "live"; }

MatchFunction with_live_files(MatchFunction play, fs::path live_dir) {
    return [play = std::move(play), live_dir = std::move(live_dir)](const MatchRequest& given) {
        LiveFile file;
        if (given.transcript_path.empty()) return play(given);
        MatchRequest request = given;
        const fs::path folder = request.transcript_path.parent_path();
        const fs::path replay = live_dir / (folder.filename().string() + kReplaySuffix);
        json j = {{"folder", folder.string()},
                  {"transcript", request.transcript_path.string()},
                  {"seed", request.seed},
                  {"deal_set", request.deal_set ? json(*request.deal_set) : json(nullptr)},
                  {"rotation", request.rotation},
                  {"options", request.options.to_json()},
                  {"started_at", utc_timestamp_now()}};
        j["bots"] = json::array();
        for (const auto& b : request.bots) j["bots"].push_back(b.name);
        try {
            std::error_code ec;
            fs::create_directories(live_dir, ec);
            const fs::path path = live_dir / (folder.filename().string() + ".json");
            // Not synced: the file lives only while its match plays.
            write_file_atomically(path, j.dump(), Durability::unsynced);
            file.path = path;
            file.replay = replay;
            request.live_replay_path = replay;
        } catch (const std::exception&) {
            // The live page is a view; the match plays whether it can be listed or not.
        }
        return play(request);
    };
}

void clear_live_files(const fs::path& live_dir) {
    std::error_code ec;
    for (fs::directory_iterator it(live_dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" || it->path().extension() == kReplaySuffix ||
            it->path().extension() == ".tmp")
            fs::remove(it->path(), ec);
}

std::vector<LiveMatchFile> read_live_files(const fs::path& live_dir, std::size_t limit) {
    std::vector<LiveMatchFile> out;
    std::error_code ec;
    for (fs::directory_iterator it(live_dir, ec), end; !ec && it != end && out.size() < limit; it.increment(ec)) {
        const fs::path& p = it->path();
        if (p.extension() != ".json" || !it->is_regular_file(ec)) continue;
        try {
            const json j = parse_json_text(read_text_file(p, kLiveFileMax), p.string());
            LiveMatchFile f;
            f.name = p.stem().string();
            f.folder = j.at("folder").get<std::string>();
            f.transcript = j.at("transcript").get<std::string>();
            f.live_replay = live_dir / (f.name + kReplaySuffix);
            if (j.contains("deal_set") && !j.at("deal_set").is_null()) f.deal_set = j.at("deal_set").get<std::uint64_t>();
            f.seed = j.at("seed").get<std::uint64_t>();
            f.rotation = j.at("rotation").get<int>();
            f.options_json = j.at("options").get<std::string>();
            f.started_at = j.at("started_at").get<std::string>();
            for (const auto& b : j.at("bots")) f.bots.push_back(b.get<std::string>());
            out.push_back(std::move(f));
        } catch (const json::exception&) {  // not ours
        } catch (const UserError&) {        // too large, unreadable, or not JSON
        }
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
}

}  // namespace arb::tournament
