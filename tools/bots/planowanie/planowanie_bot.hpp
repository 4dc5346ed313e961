#pragma once
// What every Planowanie bot needs, for the sample bots (random_bot.cpp, heuristic_bot.cpp):
// a line protocol handler and a tracker of the game state. Standalone on purpose (only the
// standard library), so it can be copied into a contestant's own program.
//
// Protocol (seed 000, "Protokół"): one command per line; answer "= result" or "? message",
// followed by an empty line, and flush. Blank command lines are ignored. `play` comes for every
// card, our own included: that is where the hand and the trick are updated, never in gen_move.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace planowanie_bot {

struct Card {
    int value = 0;  // index into the value string, 0 = lowest
    int suit = 0;   // index into the suit string, 0 = trump
    friend bool operator==(const Card&, const Card&) = default;
};

struct Played {
    int player = 0;
    Card card;
};

// The game as one bot sees it.
class Game {
  public:
    std::string values = "23456789TJQKA";
    std::string suits = "CDHS";
    int players = 4;
    int me = 0;
    std::vector<std::pair<int, int>> schedule;  // (cards, starter) per deal
    int deal = -1;                              // index of the current deal
    std::vector<Card> hand;
    std::vector<int> declared;  // -1 until revealed
    std::vector<int> taken;
    std::vector<int> score;
    std::vector<Played> trick;
    int leader = 0;
    std::vector<Card> gone;  // cards played in this deal
    long long time_left_ms = -1;

    int cards_in_deal() const {
        return deal >= 0 && deal < static_cast<int>(schedule.size()) ? schedule[deal].first : 0;
    }

    std::optional<Card> parse_card(const std::string& text) const {
        if (text.size() != 2) return std::nullopt;
        const auto v = values.find(text[0]);
        const auto s = suits.find(text[1]);
        if (v == std::string::npos || s == std::string::npos) return std::nullopt;
        return Card{static_cast<int>(v), static_cast<int>(s)};
    }
    std::string text(Card c) const { return std::string{values[c.value], suits[c.suit]}; }

    // Cards we may play now: the led suit if we hold it, otherwise anything.
    std::vector<Card> legal_cards() const {
        if (trick.empty()) return hand;
        std::vector<Card> follow;
        for (const Card& c : hand) {
            if (c.suit == trick.front().card.suit) follow.push_back(c);
        }
        return follow.empty() ? hand : follow;
    }

    // Index of the winning card: highest of the led suit unless trumped, then highest trump.
    static std::size_t winner(const std::vector<Played>& cards) {
        std::size_t best = 0;
        for (std::size_t i = 1; i < cards.size(); ++i) {
            const Card& c = cards[i].card;
            const Card& b = cards[best].card;
            if ((c.suit == b.suit && c.value > b.value) || (c.suit == 0 && b.suit != 0)) best = i;
        }
        return best;
    }

    // Would `card`, played now, be winning the trick so far?
    bool would_win(Card card) const {
        std::vector<Played> next = trick;
        next.push_back({me, card});
        return winner(next) == next.size() - 1;
    }

    void new_deal(std::vector<Card> cards) {
        ++deal;
        hand = std::move(cards);
        declared.assign(players, -1);
        taken.assign(players, 0);
        if (static_cast<int>(score.size()) != players) score.assign(players, 0);
        trick.clear();
        gone.clear();
        leader = deal < static_cast<int>(schedule.size()) ? schedule[deal].second : 0;
    }

    void play(int player, Card card) {
        if (player == me) {
            auto it = std::find(hand.begin(), hand.end(), card);
            if (it != hand.end()) hand.erase(it);
        }
        trick.push_back({player, card});
        gone.push_back(card);
        if (static_cast<int>(trick.size()) < players) return;
        const int won = trick[winner(trick)].player;
        ++taken[won];
        leader = won;
        trick.clear();
        if (hand.empty()) {  // last trick of the deal: score it
            for (int p = 0; p < players; ++p) {
                score[p] += taken[p] + (taken[p] == declared[p] ? cards_in_deal() : 0);
            }
        }
    }
};

// The decisions; everything else is bookkeeping done by respond().
class Strategy {
  public:
    virtual ~Strategy() = default;
    virtual int declare(const Game& game) = 0;  // 0..cards_in_deal()
    virtual Card choose(const Game& game) = 0;  // one of game.legal_cards()
};

// Handles one command line. Returns the reply without its terminating empty line, or nothing for
// a blank line. Sets `quit` on the quit command.
inline std::optional<std::string> respond(Game& game, Strategy& strategy, const std::string& line,
                                          bool& quit) {
    std::istringstream in(line);
    std::string command;
    if (!(in >> command)) return std::nullopt;
    auto fail = [&](const std::string& why) { return "? " + why; };
    if (command == "set_deck") {
        std::string v, s;
        if (!(in >> v >> s)) return fail("set_deck needs values and suits");
        game.values = v;
        game.suits = s;
        return "=";
    }
    if (command == "set_players") {
        int n = 0, i = 0;
        if (!(in >> n >> i) || n < 1 || i < 0 || i >= n) return fail("bad set_players");
        game.players = n;
        game.me = i;
        game.score.assign(n, 0);
        return "=";
    }
    if (command == "set_game") {
        int d = 0;
        if (!(in >> d) || d < 0) return fail("bad set_game");
        game.schedule.clear();
        for (int i = 0; i < d; ++i) {
            int c = 0, s = 0;
            if (!(in >> c >> s)) return fail("bad set_game");
            game.schedule.emplace_back(c, s);
        }
        game.deal = -1;
        return "=";
    }
    if (command == "set_cards") {
        int c = 0;
        if (!(in >> c) || c < 0) return fail("bad set_cards");
        std::vector<Card> cards;
        std::string word;
        for (int i = 0; i < c; ++i) {
            if (!(in >> word)) return fail("set_cards: too few cards");
            auto card = game.parse_card(word);
            if (!card) return fail("set_cards: unknown card " + word);
            cards.push_back(*card);
        }
        game.new_deal(std::move(cards));
        return "=";
    }
    if (command == "time_left") {
        long long t = 0;
        if (in >> t) game.time_left_ms = t;
        return "=";
    }
    if (command == "gen_declare") return "= " + std::to_string(strategy.declare(game));
    if (command == "declare") {
        int p = 0, l = 0;
        if (!(in >> p >> l) || p < 0 || p >= game.players) return fail("bad declare");
        game.declared[p] = l;
        return "=";
    }
    if (command == "gen_move") {
        if (game.hand.empty()) return fail("no cards in hand");
        return "= " + game.text(strategy.choose(game));
    }
    if (command == "play") {
        int p = 0;
        std::string word;
        if (!(in >> p >> word) || p < 0 || p >= game.players) return fail("bad play");
        auto card = game.parse_card(word);
        if (!card) return fail("play: unknown card " + word);
        game.play(p, *card);
        return "=";
    }
    if (command == "quit") {
        quit = true;
        return "=";
    }
    return fail("unknown command '" + command + "'");
}

// The main loop: read commands from stdin, answer on stdout, flush after every answer (a bot
// that does not flush hangs until it runs out of time).
inline int run(Strategy& strategy) {
    Game game;
    std::string line;
    bool quit = false;
    while (!quit && std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        auto reply = respond(game, strategy, line, quit);
        if (!reply) continue;
        std::cout << *reply << "\n\n" << std::flush;
    }
    return 0;
}

}  // namespace planowanie_bot
