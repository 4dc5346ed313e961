#include "arbiter/match/match_locator.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/json_text.hpp"
#include "core/user_error.hpp"

namespace arb {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMaxRecordBytes = 64 << 20;
constexpr int kMaxEntriesLooked = 10'000;  // a folder is a match's, not a data set

bool is_record_json(const fs::path& path) {
    std::error_code ec;
    if (path.extension() != ".json" || !fs::is_regular_file(path, ec) || fs::file_size(path, ec) > kMaxRecordBytes)
        return false;
    try {
        const nlohmann::json json = parse_json_text(read_text_file(path, kMaxRecordBytes), path.string());
        return json.is_object() && json.contains("participants") && json.contains("game");
    } catch (const UserError&) {
        return false;
    }
}

std::vector<fs::path> records_directly_in(const fs::path& folder) {
    std::vector<fs::path> records;
    std::error_code ec;
    int looked = 0;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        if (++looked > kMaxEntriesLooked) break;
        if (is_record_json(entry.path())) records.push_back(entry.path());
    }
    std::sort(records.begin(), records.end());
    return records;
}

// A folder of player logs: the record beside it names it as its replay.
std::optional<fs::path> record_naming(const fs::path& folder) {
    const fs::path parent = fs::absolute(folder).lexically_normal().parent_path();
    const std::string name = fs::absolute(folder).lexically_normal().filename().string();
    for (const fs::path& record : records_directly_in(parent)) {
        try {
            const MatchRecord r = read_record_file(record);
            if (!r.replay_path.empty() && fs::path(r.replay_path).lexically_normal().filename() == name) return record;
        } catch (const UserError&) {
        }
    }
    return std::nullopt;
}

}  // namespace

MatchRecord read_record_file(const fs::path& path) {
    const nlohmann::json json = parse_json_text(read_text_file(path, kMaxRecordBytes), path.string());
    try {
        MatchRecord record = json.get<MatchRecord>();
        check_record(record);
        return record;
    } catch (const nlohmann::json::exception& e) {
        throw UserError(fmt::format("{}: not a match record ({})", path.string(), e.what()));
    }
}

std::optional<fs::path> record_in_folder(const fs::path& folder) {
    std::error_code ec;
    if (fs::is_regular_file(folder / "record.json", ec)) return folder / "record.json";
    const std::vector<fs::path> records = records_directly_in(folder);
    if (records.size() > 1) {
        std::vector<std::string> names;
        for (const auto& r : records) names.push_back(r.filename().string());
        throw UserError(fmt::format("{}: {} match records here (one per seat rotation): name one, e.g. {}",
                                    folder.string(), records.size(), (folder / names.front()).string()));
    }
    if (records.size() == 1) return records.front();
    return record_naming(folder);
}

fs::path find_record(const fs::path& input) {
    std::error_code ec;
    if (!fs::exists(input, ec)) throw UserError(input.string() + ": no such file or folder");
    if (!fs::is_directory(input, ec)) return input;
    if (auto record = record_in_folder(input)) return *record;
    throw UserError(input.string() +
                    ": no match record in this folder; give a match folder (a tournament's, with record.json, or "
                    "the one `arbiter play` printed), a record (.json) or a replay");
}

std::optional<fs::path> find_record_file(const fs::path& record_path, const std::string& stored,
                                         const std::string& usual) {
    const fs::path folder = record_path.parent_path();
    std::vector<fs::path> candidates;
    if (!stored.empty()) {
        const fs::path named = stored;
        candidates.push_back(folder / named.filename());
        candidates.push_back(named);
        candidates.push_back(folder / named);
    }
    if (!usual.empty()) candidates.push_back(folder / usual);
    for (const fs::path& p : candidates) {
        std::error_code ec;
        if (!p.empty() && fs::exists(p, ec)) return p;
    }
    return std::nullopt;
}

}  // namespace arb
