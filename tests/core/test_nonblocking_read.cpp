// read_available(): the one read loop of the process table, on a plain non-blocking pipe.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <string>

#include "core/channel/nonblocking_read.hpp"
#include "core/unique_fd.hpp"

using arb::read_available;
using arb::ReadStatus;
using arb::UniqueFd;

namespace {

struct Pipe {
    UniqueFd read_end, write_end;
    Pipe() {
        int fds[2];
        REQUIRE(::pipe2(fds, O_NONBLOCK | O_CLOEXEC) == 0);
        read_end.reset(fds[0]);
        write_end.reset(fds[1]);
    }
    void write(std::string_view text) { REQUIRE(::write(write_end.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size())); }
};

}  // namespace

TEST_CASE("read_available reads what is there and says when the descriptor is drained or ended") {
    Pipe pipe;
    std::array<char, 64> buffer{};
    std::string got;
    auto sink = [&](std::string_view bytes) {
        got.append(bytes);
        return true;
    };
    CHECK(read_available(pipe.read_end.get(), buffer, 16, sink) == ReadStatus::drained);  // nothing yet
    CHECK(got.empty());
    pipe.write("hello\n");
    CHECK(read_available(pipe.read_end.get(), buffer, 16, sink) == ReadStatus::drained);
    CHECK(got == "hello\n");
    pipe.write("bye");
    pipe.write_end.reset();
    CHECK(read_available(pipe.read_end.get(), buffer, 16, sink) == ReadStatus::drained);  // a short read
    CHECK(read_available(pipe.read_end.get(), buffer, 16, sink) == ReadStatus::eof);
    CHECK(got == "hello\nbye");
}

TEST_CASE("read_available pauses after max_reads and when the sink says stop") {
    Pipe pipe;
    std::array<char, 4> buffer{};
    std::string got;
    pipe.write("0123456789ab");
    CHECK(read_available(pipe.read_end.get(), buffer, 2, [&](std::string_view bytes) {
              got.append(bytes);
              return true;
          }) == ReadStatus::paused);
    CHECK(got == "01234567");
    CHECK(read_available(pipe.read_end.get(), buffer, 16, [&](std::string_view bytes) {
              got.append(bytes);
              return false;  // a cap reached
          }) == ReadStatus::paused);
    CHECK(got == "0123456789ab");
}
