// A Planowanie bot that plays randomly and misbehaves once, on purpose, for end-to-end tests of
// the referee's adjudication with real processes.
// Usage: planowanie_fault_bot FAULT [DEAL]   (DEAL: 0-based deal index where the fault happens)
//   none          plays the whole game correctly
//   illegal-card  answers gen_move with a card it does not hold
//   question-move answers gen_move with '?'
//   bad-declare   declares one more trick than it has cards
//   no-blank      answers gen_declare without the terminating empty line
//   crash         exits with status 3 on the first `play` of the deal
//   hang          never answers gen_move
//   junk          prints stray debug lines before every reply of the deal (tolerated)
//   hog           on gen_move, fills 512 MiB of memory before answering
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

#include "tools/bots/planowanie/random_strategy.hpp"

int main(int argc, char** argv) {
    const std::string fault = argc > 1 ? argv[1] : "none";
    const int fault_deal = argc > 2 ? std::atoi(argv[2]) : 0;
    planowanie_bot::RandomStrategy strategy(99);
    planowanie_bot::Game game;
    std::string line;
    bool quit = false;
    while (!quit && std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const bool here = game.deal == fault_deal;
        const std::string command = line.substr(0, line.find(' '));
        if (here && fault == "illegal-card" && command == "gen_move") {
            for (char v : game.values) {
                const std::string card{v, game.suits.back()};
                if (std::find(game.hand.begin(), game.hand.end(), *game.parse_card(card)) ==
                    game.hand.end()) {
                    std::cout << "= " << card << "\n\n" << std::flush;
                    break;
                }
            }
            continue;
        }
        if (here && fault == "question-move" && command == "gen_move") {
            std::cout << "? refusing to move\n\n" << std::flush;
            continue;
        }
        if (here && fault == "bad-declare" && command == "gen_declare") {
            std::cout << "= " << game.cards_in_deal() + 1 << "\n\n" << std::flush;
            continue;
        }
        if (here && fault == "no-blank" && command == "gen_declare") {
            std::cout << "= 0\n" << std::flush;
            continue;
        }
        if (here && fault == "crash" && command == "play") std::_Exit(3);
        if (here && fault == "hog" && command == "gen_move") {
            constexpr std::size_t kHog = std::size_t{512} << 20;
            char* block = static_cast<char*>(std::malloc(kHog));
            if (block) std::memset(block, 1, kHog);  // touch every page so it counts
            std::cerr << "hog: " << (block ? block[kHog / 2] : -1) << "\n";
        }
        if (here && fault == "hang" && command == "gen_move") {
            std::this_thread::sleep_for(std::chrono::hours(1));
        }
        auto reply = planowanie_bot::respond(game, strategy, line, quit);
        if (!reply) continue;
        if (game.deal == fault_deal && fault == "junk")
            std::cout << "debug: thinking about " << command << "\n";
        std::cout << *reply << "\n\n" << std::flush;
    }
    return 0;
}
