// Koehandel sample bot in C++ on Boost.Beast: an HTTP/1.1 server on 127.0.0.1:$ARBITER_PORT (or
// the port given as the first argument) that keeps connections alive and answers each GET in
// query form. Same strategy as value_bot.py: it tracks who holds which animals, bids up to a
// share of an animal's value that grows with the cards it holds, never bids more than it owns,
// pays with the fewest cards that cover, trades to complete sets (always once the deck is
// empty) and counters trades for kinds it collects.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;

namespace {

constexpr std::array<int, 10> kValue = {10, 40, 90, 160, 250, 350, 500, 650, 800, 1000};
constexpr std::string_view kSeats = "SWNE";
constexpr std::string_view kLetters = "ntfhTF";
constexpr std::array<int, 6> kMoney = {0, 10, 50, 100, 200, 500};

using Query = std::map<std::string, std::string>;

int money_of(char c) {
    const auto i = kLetters.find(c);
    return i == std::string_view::npos ? 0 : kMoney[i];
}
int total(const std::string& cards) {
    int t = 0;
    for (char c : cards) t += money_of(c);
    return t;
}
int seat_index(const std::string& letter) {
    const auto i = letter.empty() ? std::string_view::npos : kSeats.find(letter[0]);
    return i == std::string_view::npos ? 0 : static_cast<int>(i);
}
int kind_index(const std::string& goods) {
    const std::string g = !goods.empty() && goods[0] == '-' ? goods.substr(1) : goods;
    return g.empty() || g[0] < 'A' || g[0] > 'J' ? -1 : g[0] - 'A';
}

class Strategy {
public:
    std::string answer(const Query& q) {
        const std::string type = get(q, "type");
        if (type == "start") return auctioned_ = -1, start();
        if (type == "auction") return auction(q);
        if (type == "collect") return collect(q);
        if (type == "trade") return auctioned_ = -1, trade(q);
        note(q, type);
        return "";
    }

private:
    static std::string get(const Query& q, const std::string& key) {
        const auto it = q.find(key);
        return it == q.end() ? std::string() : it->second;
    }
    int worth() const { return total(money_); }
    int seen() const {
        int n = 0;
        for (const auto& seat : animals_)
            for (int c : seat) n += c;
        return n;
    }
    int willing(int kind) const { return static_cast<int>(kValue[kind] * (0.25 + 0.2 * animals_[0][kind])); }

    std::string cards_up_to(int target) const {
        std::string sorted = money_, picked;
        std::sort(sorted.begin(), sorted.end(), [](char a, char b) { return money_of(a) > money_of(b); });
        int sum = 0;
        for (char c : sorted)
            if (c != 'n' && sum + money_of(c) <= target) picked += c, sum += money_of(c);
        return picked;
    }
    std::optional<std::string> cards_covering(int amount) const {
        std::string hand;
        for (char c : money_)
            if (c != 'n') hand += c;
        std::sort(hand.begin(), hand.end(), [](char a, char b) { return money_of(a) > money_of(b); });
        std::optional<std::string> best;
        for (std::size_t skip = 0; skip <= hand.size(); ++skip) {
            const std::string order = hand.substr(skip) + hand.substr(0, skip);
            std::string picked;
            for (char c : order) {
                if (total(picked) >= amount) break;
                picked += c;
            }
            if (total(picked) >= amount &&
                (!best || std::pair(total(picked), picked.size()) < std::pair(total(*best), best->size())))
                best = picked;
        }
        return best;
    }
    static std::string letters_for(int value) {
        std::string out;
        for (int d = 5; d >= 1; --d)
            while (value >= kMoney[d]) out += kLetters[d], value -= kMoney[d];
        return out;
    }

    std::string start() const {
        const bool deck_empty = seen() >= 40;
        int best_score = -1, best_kind = 0, best_seat = 0;
        for (int k = 0; k < 10; ++k) {
            const int n = animals_[0][k];
            if (n == 0 || n == 4) continue;
            for (int p = 1; p < 4; ++p) {
                const int theirs = animals_[p][k];
                if (theirs > 0 && (deck_empty || (n + theirs == 4 && n >= 2)) && kValue[k] * (n + 1) > best_score)
                    best_score = kValue[k] * (n + 1), best_kind = k, best_seat = p;
            }
        }
        if (best_score < 0) return "type=auction";
        return std::string("type=trade&goods=") + static_cast<char>('A' + best_kind) + "&opponent=" + kSeats[best_seat] +
               "&money=" + cards_up_to(willing(best_kind));
    }

    std::string auction(const Query& q) {
        const int kind = std::max(0, kind_index(get(q, "goods")));
        const int bid = total(get(q, "money"));
        auctioned_ = kind;
        if (get(q, "auctioneer").empty()) {  // we are the auctioneer: the right to buy
            return bid <= willing(kind) && bid <= worth() ? "money=" + get(q, "money") : "";
        }
        return bid + 10 <= std::min(willing(kind), worth()) ? "money=" + letters_for(bid + 10) : "";
    }

    std::string collect(const Query& q) {
        const int kind = kind_index(get(q, "goods"));
        if (kind >= 0) {
            const int n = static_cast<int>(get(q, "goods").size());
            animals_[0][kind] -= n;
            animals_[seat_index(get(q, "opponent"))][kind] += n;
            return "";
        }
        const std::string wanted = get(q, "money");
        std::string hand = money_, pay;
        bool exact = true;
        for (char c : wanted) {
            const auto at = hand.find(c);
            if (at == std::string::npos) {
                exact = false;
                break;
            }
            hand.erase(at, 1);
        }
        pay = exact ? wanted : cards_covering(total(wanted)).value_or("");
        for (char c : pay) money_.erase(money_.find(c), 1);
        return "money=" + pay;
    }

    std::string trade(const Query& q) const {
        const int kind = std::max(0, kind_index(get(q, "goods")));
        const std::string counter = cards_up_to(animals_[0][kind] >= 2 ? willing(kind) : 0);
        return counter.empty() ? "" : "money=" + counter;
    }

    void note(const Query& q, const std::string& type) {
        const int who = seat_index(get(q, "opponent"));
        const std::string goods = get(q, "goods"), money = get(q, "money");
        const int kind = kind_index(goods);
        if (type == "receive") {
            if (kind >= 0) {
                animals_[0][kind] += static_cast<int>(goods.size());
                if (who != 0) animals_[who][kind] -= static_cast<int>(goods.size());
            } else if (auctioned_ >= 0 && who != 0) {
                ++animals_[who][auctioned_];  // the buyer paid us: it got the card
            }
            if (kind >= 0 || who != 0) auctioned_ = -1;
            for (char c : money)
                if (kLetters.find(c) != std::string_view::npos) money_ += c;
        } else if (type == "information" && kind >= 0 && q.find("message") == q.end()) {
            if (goods[0] == '-') animals_[who][kind] -= static_cast<int>(goods.size()) - 1;
            else if (who != 0) animals_[who][kind] += static_cast<int>(goods.size());
        } else if (type == "information" && get(q, "message") == "begin") {
            *this = Strategy();
        }
    }

    std::array<std::array<int, 10>, 4> animals_{};
    std::string money_ = "nnttttf";
    int auctioned_ = -1;
};

Query parse_target(std::string_view target) {
    Query q;
    const auto mark = target.find('?');
    std::string_view rest = mark == std::string_view::npos ? std::string_view() : target.substr(mark + 1);
    while (!rest.empty()) {
        const auto amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
        const auto eq = pair.find('=');
        if (eq != std::string_view::npos) q[std::string(pair.substr(0, eq))] = std::string(pair.substr(eq + 1));
    }
    return q;
}

}  // namespace

int main(int argc, char** argv) {
    const char* port_text = argc > 1 ? argv[1] : std::getenv("ARBITER_PORT");
    if (!port_text) {
        std::cerr << "value_bot: no port (ARBITER_PORT or an argument)\n";
        return 2;
    }
    asio::io_context ctx;
    asio::ip::tcp::acceptor acceptor(ctx, {asio::ip::address_v4::loopback(), static_cast<unsigned short>(std::atoi(port_text))});
    Strategy strategy;
    for (;;) {
        asio::ip::tcp::socket socket(ctx);
        acceptor.accept(socket);
        socket.set_option(asio::ip::tcp::no_delay(true));
        beast::flat_buffer buffer;
        for (;;) {  // requests on this connection while the client keeps it alive
            http::request<http::empty_body> request;
            beast::error_code ec;
            http::read(socket, buffer, request, ec);
            if (ec) break;
            http::response<http::string_body> response{http::status::ok, request.version()};
            response.set(http::field::content_type, "text/plain");
            response.body() = "?" + strategy.answer(parse_target(request.target())) + "\n";
            response.keep_alive(request.keep_alive());
            response.prepare_payload();
            http::write(socket, response, ec);
            if (ec || !request.keep_alive()) break;
        }
    }
}
