#pragma once
// The smart-dog-sized turn the seat benchmarks ask, in one place: bench_smartdog_seat (through
// the arbiter's seats), bench_raw_channels (the same turn without the arbiter) and the peer they
// both start, smartdog_echo_peer, so that both sides send and receive the same bytes.
#include <string>
#include <string_view>

namespace smartdog_bench {

// The state: 8 lines (a state line, 6 objects, `turn`), 447 bytes; built once, sent every turn.
inline std::string state_text() {
    std::string state = "state  \"turn\":1\n";
    for (int i = 0; i < 6; ++i) state += "obj  \"type\":\"Sheep\",\"x\":12,\"y\":7,\"action\":\"standBy\",\"direction\":\"down\"\n";
    state += "turn\n";
    return state;
}

// The peer's reply to every `turn` line: 2 lines, the second the terminator.
inline constexpr std::string_view kReply = "do 1 bark\nend\n";
inline constexpr const char* kTerminator = "end";

// The secret a TCP peer joins with (`join TOKEN`).
inline constexpr const char* kToken = "bench-token";

}  // namespace smartdog_bench
