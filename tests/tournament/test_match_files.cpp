// The folder a match leaves: where it is, what the request is pointed at, and records written
// whole or not at all.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "arbiter/match/match_files.hpp"
#include "core/user_error.hpp"
#include "tests/tournament/fake_game.hpp"
#include "tests/test_scratch.hpp"

namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
    const fs::path dir = arb::testing::fresh_scratch("match-files-" + name);
    return dir;
}

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("match files: the default root is beside the database, named by its stem") {
    CHECK(arb::default_files_root("/data/spring.sqlite") == fs::path("/data/spring-files"));
    CHECK(arb::default_files_root("results.db") == fs::current_path() / "results-files");
    CHECK(arb::match_folder_name(3, 1, 2) == "r3-g1-s2");
}

TEST_CASE("match files: a request points into its folder by absolute paths, and a stale record goes") {
    const fs::path dir = fresh_dir("direct");
    const arb::GameDescriptor game = arb::test::fake_game();
    fs::create_directories(dir / "t" / "r0-g0-s0");
    { std::ofstream(dir / "t" / "r0-g0-s0" / "record.json") << "{}"; }
    arb::MatchRequest r;
    arb::direct_files_into(r, game, dir / "t" / ".." / "t" / "r0-g0-s0", "--out");
    const fs::path folder = dir / "t" / "r0-g0-s0";
    CHECK(r.transcript_path == folder / "transcript.txt");
    CHECK(r.replay_path == folder / game.replay_file);
    CHECK(r.log_dir == folder / "logs");
    CHECK(r.record_path == folder / "record.json");
    CHECK(fs::is_directory(folder / "logs"));
    CHECK_FALSE(fs::exists(folder / "record.json"));  // this run's record replaces it when the match ends
}

TEST_CASE("match files: a folder that cannot be made is a user error naming the flag") {
    const fs::path dir = fresh_dir("blocked");
    { std::ofstream(dir / "file") << "x"; }
    arb::MatchRequest r;
    CHECK_THROWS_WITH_AS(arb::direct_files_into(r, arb::test::fake_game(), dir / "file" / "m", "--out"),
                         doctest::Contains("--out"), arb::UserError);
}

TEST_CASE("match files: a record is replaced whole, and a failed write leaves the old one and no temporary") {
    const fs::path dir = fresh_dir("atomic");
    const fs::path path = dir / "record.json";
    arb::write_file_atomically(path, "first\n");
    arb::write_file_atomically(path, "second\n");
    CHECK(read(path) == "second\n");
    // A rename onto a folder fails after the temporary file was written: it must not stay.
    fs::create_directories(dir / "taken" / "inside");
    CHECK_THROWS_AS(arb::write_file_atomically(dir / "taken", "third\n"), arb::UserError);
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file() ? 1 : 0;
    CHECK(files == 1);  // record.json only
    CHECK(read(path) == "second\n");
}
