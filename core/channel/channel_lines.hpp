#pragma once
// The channels that talk lines over a byte stream, stdio and TCP (core/channel/channel.hpp): requests
// go out through an outbox written as the bot reads, replies are cut into lines and framed.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/channel/channel.hpp"

namespace arb::process_table_detail {

class LineChannel : public Channel {
public:
    using Channel::Channel;

    bool request(std::string_view text) override;
    void notify(std::string_view text) override;
    void drop_earlier_lines(Reply& reply) override;
    void read_now() override;
    void read_after_exit() override;
    void quit(std::string_view quit_text) override;
    void stop() override;
    void release() override;

protected:
    // Not connected yet (TCP): what is queued goes out once the bot is there.
    virtual bool connecting() const { return false; }
    // End of input for the bot: stdin closed (TCP: shutdown, the bot sees end of stream).
    virtual void close_input();
    // The descriptors requests are written to and replies read from, once the bot is there.
    void attach_streams(int in, int out);
    // Writes the outbox as far as the bot takes it, the rest when it has room. false: it broke.
    bool flush();
    // Keeps one read in flight: what arrives is framed while a request is open, else kept.
    void watch();
    // What the bot has written by now, without waiting.
    void read();
    // Complete lines through the framer while the open request is written and unanswered.
    void feed();

private:
    Descriptor in_, out_;  // requests are written to in_; replies are read from out_
    std::vector<char> out_buffer_ = std::vector<char>(kReadChunk);  // one read in flight
    bool out_waiting_ = false, out_eof_ = false, write_waiting_ = false;
    std::string outbox_;  // written as the bot reads
    std::size_t outbox_sent_ = 0;
};

}  // namespace arb::process_table_detail
