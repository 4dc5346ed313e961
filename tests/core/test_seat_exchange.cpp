// The seat exchange without processes: a fake bot process and a fake channel, driven event by
// event as a real channel reports them, and the exchange's decisions read back.
#include <doctest/doctest.h>

#include <thread>

#include "core/table/seat_exchange.hpp"

using namespace arb;
using namespace arb::process_table_detail;

namespace {

struct FakeProcess final : SeatProcess {
    bool has_exited = false, oom = false, is_runnable = false;
    std::optional<Nanos> cpu;
    std::optional<SchedSample> sched;
    int wakes = 0, rests = 0, kills = 0, burials = 0;

    bool exited() const override { return has_exited; }
    std::string exit_or(std::string otherwise) override { return has_exited ? "exited with code 3" : otherwise; }
    bool exits_within(Millis) const override { return has_exited; }
    bool oom_killed() const override { return oom; }
    std::optional<Nanos> cpu_now() const override { return cpu; }
    std::optional<SchedSample> sched_sample() const override { return sched; }
    bool runnable() const override { return is_runnable; }
    void wake() override { ++wakes; }
    void rest() override { ++rests; }
    void kill() override { ++kills; }
    void bury() override { ++burials; }
};

struct FakeChannel final : Channel {
    explicit FakeChannel(const ChannelSeat& seat, bool per_request) : Channel(seat), per_request(per_request) {}
    bool per_request;
    std::vector<std::string> requests;
    int last_reads = 0, stops = 0;
    bool exchange_per_request() const override { return per_request; }
    bool request(std::string_view text) override {
        requests.emplace_back(text);
        return true;
    }
    void read_now() override { ++last_reads; }
    void stop() override { ++stops; }
};

// One seat: its exchange, its fake process and channel.
struct Bench {
    explicit Bench(TimeControl time = {}, bool per_request = false)
        : exchange(time, process, seat_transcript, 256),
          channel(ChannelSeat{exchange, ctx, launch, 1024, chunk, port, memory}, per_request) {
        exchange.attach(channel);
    }
    asio::io_context ctx;
    SeatLaunch launch;
    std::array<char, 64> chunk{};
    SharedPort port{ctx, {}};
    ReadOpMemory memory;
    Transcript transcript;
    SeatTranscript seat_transcript{transcript, "p0"};
    FakeProcess process;
    SeatExchange exchange;
    FakeChannel channel;
};

TimeControl per_request(Millis limit) {
    TimeControl time;
    time.per_request = limit;
    return time;
}

}  // namespace

TEST_CASE("seat exchange: a reply framed line by line ends the request, charged once") {
    Bench b(per_request(Millis{1000}));
    Reply reply;
    b.exchange.begin("turn 1\n", terminator_framer("go"), reply);
    CHECK(b.channel.requests == std::vector<std::string>{"turn 1\n"});
    CHECK(b.process.wakes == 1);
    CHECK(b.exchange.pending());
    CHECK(!b.exchange.reading());  // not written yet: what arrives is not its reply
    CHECK(b.exchange.written());
    CHECK(!b.exchange.written());  // once
    for (std::string line : {"o 1 1 N", "go"}) b.exchange.frame_line(line);
    CHECK(!b.exchange.pending());
    b.exchange.end();
    CHECK(reply.ok());
    CHECK(reply.lines == std::vector<std::string>{"o 1 1 N"});
    CHECK(!reply.fault);
    CHECK(b.exchange.clock().requests() == 1);
    CHECK(b.process.rests == 1);
    CHECK(b.exchange.playing());
}

TEST_CASE("seat exchange: a passed deadline reads once more, then times out and retires the seat") {
    Bench b(per_request(Millis{5}));
    Reply reply;
    b.exchange.begin("turn 1\n", one_line_framer(), reply);
    b.exchange.written();
    const auto due = b.exchange.deadline();
    REQUIRE(due);
    b.exchange.expire(*due - Millis{1});  // not yet
    CHECK(b.channel.last_reads == 0);
    b.exchange.expire(*due);
    CHECK(b.channel.last_reads == 1);
    CHECK(!b.exchange.pending());
    b.exchange.end();
    CHECK(reply.status == ReplyStatus::timeout);
    CHECK(reply.fault->status == SeatStatus::timeout);
    CHECK(b.exchange.status() == SeatStatus::timeout);
    CHECK(b.exchange.limit() == "time");
    CHECK(b.exchange.detail().find("no complete reply within") == 0);
    CHECK(b.process.kills == 1);
    CHECK(b.channel.stops == 1);
    CHECK(b.process.burials == 1);
    // A retired seat answers at once, with the status it was retired with.
    Reply later;
    b.exchange.begin("turn 2\n", one_line_framer(), later);
    CHECK(!b.exchange.pending());
    b.exchange.end();
    CHECK(later.status == ReplyStatus::not_running);
    CHECK(later.fault->status == SeatStatus::timeout);
    CHECK(b.channel.requests.size() == 1);
}

TEST_CASE("seat exchange: time the bot waited for a CPU moves its deadline, at most a second") {
    Bench b(per_request(Millis{5}));
    b.process.sched = SchedSample{Nanos{0}, Nanos{0}};
    Reply reply;
    b.exchange.begin("turn 1\n", one_line_framer(), reply);
    b.exchange.written();
    const auto due = *b.exchange.deadline();
    b.process.sched = SchedSample{Nanos{0}, std::chrono::milliseconds(3)};  // starved for 3 ms
    b.exchange.expire(due);
    CHECK(b.exchange.pending());
    CHECK(*b.exchange.deadline() == due + std::chrono::milliseconds(3));
    b.process.sched = SchedSample{Nanos{0}, std::chrono::seconds(5)};  // starved far longer
    b.exchange.expire(*b.exchange.deadline());
    CHECK(*b.exchange.deadline() == due + kMaxCompensation);
    b.exchange.expire(*b.exchange.deadline());
    CHECK(!b.exchange.pending());
    b.exchange.end();
    CHECK(reply.status == ReplyStatus::timeout);
}

TEST_CASE("seat exchange: the kernel's memory kill is the seat's fault, named as such") {
    Bench b(per_request(Millis{1000}));
    Reply reply;
    b.exchange.begin("turn 1\n", one_line_framer(), reply);
    b.exchange.written();
    b.process.oom = true;
    b.exchange.finish(ReplyStatus::closed, "closed its output");
    b.exchange.end();
    CHECK(reply.fault->status == SeatStatus::killed);
    CHECK(reply.fault->reason == "memory limit of 256 MiB exceeded");
    CHECK(b.exchange.limit() == "memory");
}

TEST_CASE("seat exchange: a line over the cap kills the seat with the channel's words") {
    Bench b(per_request(Millis{1000}));
    Reply reply;
    b.exchange.begin("turn 1\n", one_line_framer(), reply);
    b.exchange.written();
    b.exchange.finish(ReplyStatus::overflow, "line longer than 1024 bytes");
    b.exchange.end();
    CHECK(reply.fault->status == SeatStatus::killed);
    CHECK(reply.fault->reason == "line longer than 1024 bytes");
    CHECK(b.exchange.limit() == "line length");
}

TEST_CASE("seat exchange: a failed request of its own exchange (HTTP) leaves the seat playing") {
    Bench b(per_request(Millis{1000}), /*per_request=*/true);
    Reply reply;
    b.exchange.begin("GET /\n", one_line_framer(), reply);
    b.exchange.written();
    b.exchange.finish(ReplyStatus::closed, "connection closed");
    b.exchange.end();
    CHECK(reply.fault->status == SeatStatus::crashed);
    CHECK(b.exchange.playing());
    CHECK(b.process.kills == 0);
    // ... unless the bot itself is gone.
    Reply second;
    b.exchange.begin("GET /\n", one_line_framer(), second);
    b.process.has_exited = true;
    b.exchange.finish(ReplyStatus::closed, "connection closed");
    b.exchange.end();
    CHECK(b.exchange.status() == SeatStatus::crashed);
    CHECK(b.process.kills == 1);
}

TEST_CASE("seat exchange: an exit with a request open reads what the bot wrote, then fails it") {
    Bench b(per_request(Millis{1000}));
    Reply reply;
    b.exchange.begin("turn 1\n", one_line_framer(), reply);
    b.exchange.written();
    b.process.has_exited = true;
    b.exchange.exited_while_pending();
    b.exchange.end();
    CHECK(reply.status == ReplyStatus::closed);
    CHECK(b.exchange.detail() == "exited with code 3");
    CHECK(reply.fault->status == SeatStatus::crashed);
}
