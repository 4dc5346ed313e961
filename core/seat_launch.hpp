#pragma once
// What starts one seat of a table: which bot, with which arguments, clock and channel. A plain
// value below the process table (core/table/process_table.hpp takes a list of them), so that a seat's
// channel (core/channel/channel.hpp) sees it without the table.
#include <cstdint>
#include <string>
#include <vector>

#include "core/bot_spec.hpp"
#include "core/seat.hpp"
#include "core/table_settings.hpp"

namespace arb {

struct SeatLaunch {
    SeatInfo info;
    BotSpec bot;
    std::vector<std::string> extra_args;  // appended to the bot's argv (e.g. a role)
    TimeControl time;
    ChannelKind channel = ChannelKind::stdio;
    // tcp_client: the port the seat listens on (0 = a free one). Seats with ARBITER_TOKEN in the
    // bot's env that ask for the same port share it and are seated by `join TOKEN`, unless each
    // has a network of its own (confined): there, as everywhere else, the seat is its connection.
    std::uint16_t listen_port = 0;
};

}  // namespace arb
