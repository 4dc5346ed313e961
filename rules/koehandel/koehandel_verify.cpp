#include "rules/koehandel/koehandel_verify.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/json_text.hpp"
#include "core/user_error.hpp"
#include "rules/koehandel/koehandel_game.hpp"
#include "rules/koehandel/koehandel_referee.hpp"

namespace arb::koehandel {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxLogBytes = std::size_t{64} << 20;
constexpr std::size_t kMaxMatchFileBytes = 1 << 20;

struct SeatLog {
    fs::path path;
    std::vector<std::string> lines;
    std::size_t next = 0;

    bool at(std::string_view prefix) const { return next < lines.size() && lines[next].starts_with(prefix); }
};

SeatLog read_seat_log(const fs::path& folder, int seat) {
    const std::string prefix = fmt::format("player{}-", seat + 1);
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.starts_with(prefix) || it->path().extension() != ".log") continue;
        SeatLog log{it->path(), {}, 0};
        std::istringstream in(read_text_file(it->path(), kMaxLogBytes));
        for (std::string line; std::getline(in, line);) log.lines.push_back(line);
        return log;
    }
    throw UserError(fmt::format("{}: no {}*.log (the match's player logs)", folder.string(), prefix));
}

// "(timeout)": the referee's note of a failed reply, where a reply would be.
bool is_failure(const std::string& reply) {
    for (const auto status : {ReplyStatus::timeout, ReplyStatus::closed, ReplyStatus::overflow, ReplyStatus::not_running})
        if (reply == std::string("(") + to_string(status) + ")") return true;
    return false;
}

// The first line where a log and the replayed game part.
struct Difference {
    std::string text;
};

// The seats answer as their logs say; what they are told and asked is checked against the logs.
class LoggedPlayers : public Players {
public:
    LoggedPlayers(std::vector<SeatLog> logs, int bots, std::uint64_t market)
        : logs_(std::move(logs)), bots_(bots), market_(market) {}

    void tell(int seat, const Message& message) override {
        expect(seat, message);
        SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        if (log.at("< (")) ++log.next;  // a notification's failed answer (its fault note follows)
    }

    std::optional<Fields> ask(int seat, const Message& message) override {
        expect(seat, message);
        SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        if (log.at("< ")) {
            const std::string reply = log.lines[log.next++].substr(2);
            if (is_failure(reply)) return std::nullopt;
            return parse_query(reply);
        }
        if (seat >= bots_) return Fields{};  // a house seat passes on everything
        return std::nullopt;                 // a seat that is out
    }

    void adjudicated(int seat, const std::string& what) override {
        skip_fault_notes(seat);
        SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        if (!log.at("# default: " + what)) differ(seat, "# default: " + what);
        ++log.next;
    }

    // Every log read to its end once the game is over.
    void check_finished() {
        for (int s = 0; s < kSeats; ++s) {
            skip_fault_notes(s);
            const SeatLog& log = logs_[static_cast<std::size_t>(s)];
            if (log.next < log.lines.size() && !log.lines[log.next].empty())
                differ(s, "the end of the game");
        }
    }

    std::size_t lines_checked() const {
        std::size_t n = 0;
        for (const auto& log : logs_) n += log.next;
        return n;
    }

private:
    // A failed reply is a fault ("# fault 2 of 3: notification receive timeout"); enough of them
    // put the seat out. The table decides those, not the engine: they are skipped.
    void skip_fault_notes(int seat) {
        SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        while (log.at("# out: ") || log.at("# fault ")) ++log.next;
    }

    [[noreturn]] void differ(int seat, const std::string& want) const {
        const SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        throw Difference{fmt::format("{} line {}: the log has '{}' where the replayed game has '{}'",
                                     log.path.filename().string(), log.next + 1,
                                     log.next < log.lines.size() ? log.lines[log.next] : "its end", want)};
    }

    void expect(int seat, const Message& message) {
        skip_fault_notes(seat);
        const std::string want = "> " + request_text(message, market_, seat);
        SeatLog& log = logs_[static_cast<std::size_t>(seat)];
        if (log.next >= log.lines.size() || log.lines[log.next] != want) differ(seat, want);
        ++log.next;
    }

    std::vector<SeatLog> logs_;
    int bots_;
    std::uint64_t market_;
};

struct MatchFile {
    MatchRequest request;  // seed, deal set, options; bots only counted
    int bots = 0;
};

MatchFile read_match_file(const fs::path& file) {
    const nlohmann::json j = parse_json_text(read_text_file(file, kMaxMatchFileBytes), file.string());
    MatchFile m;
    try {
        if (!j.is_object() || j.value("game", "") != "koehandel")
            throw UserError(file.string() + ": not a Koehandel match file (no \"game\": \"koehandel\")");
        m.request.game = "koehandel";
        m.request.seed = json_integer<std::uint64_t>(j.at("seed"));
        if (j.contains("deal_set") && !j.at("deal_set").is_null())
            m.request.deal_set = json_integer<std::uint64_t>(j.at("deal_set"));
        m.bots = json_integer<int>(j.at("bots"));
        if (m.bots < 1 || m.bots > kSeats) throw UserError(fmt::format("{}: bots must be 1 to {}", file.string(), kSeats));
        m.request.options = GameOptions(describe_game().options, j.at("options").get<std::map<std::string, std::string>>());
    } catch (const nlohmann::json::exception& e) {
        throw UserError(file.string() + ": " + e.what());
    }
    return m;
}

}  // namespace

void write_match_file(const fs::path& folder, const MatchRequest& request) {
    fs::create_directories(folder);
    nlohmann::json j = {{"game", "koehandel"},
                        {"seed", request.seed},
                        {"deal_set", request.deal_set ? nlohmann::json(*request.deal_set) : nlohmann::json(nullptr)},
                        {"bots", request.bots.size()},
                        {"options", request.options.values()}};
    std::ofstream out(folder / kMatchFile, std::ios::binary);
    out << j.dump(2) << "\n";
    if (!out) throw UserError("cannot write " + (folder / kMatchFile).string());
}

VerifyOutcome verify_player_logs(const fs::path& path) {
    const fs::path folder = fs::is_directory(path) ? path : path.parent_path();
    const fs::path file = folder / kMatchFile;
    if (!fs::exists(file))
        throw UserError(folder.string() + ": no " + kMatchFile + " (a Koehandel match's --replay folder has one)");
    MatchFile match = read_match_file(file);
    std::vector<SeatLog> logs;
    for (int s = 0; s < kSeats; ++s) logs.push_back(read_seat_log(folder, s));
    LoggedPlayers players(std::move(logs), match.bots, market_of(match.request.seed));
    Game game(engine_options(match.request), players);
    VerifyOutcome outcome;
    try {
        game.play();
        players.check_finished();
    } catch (const Difference& d) {
        outcome.first_difference = fmt::format("turn {}: {}", game.state().turns, d.text);
        outcome.steps = game.state().turns;
        return outcome;
    }
    outcome.ok = true;
    outcome.steps = game.state().turns;
    return outcome;
}

}  // namespace arb::koehandel
