#!/usr/bin/env python3
"""A Planowanie bot that plays legal moves at random (python3, standard library only).

Usage: random_bot.py [SEED]

Protocol (seed 000, "Protokół"): one command per line; answer "= result" or "? message",
then an empty line, and flush. Blank command lines are ignored. `play` arrives for every card,
our own included: the hand and the trick are updated there, never in gen_move.
"""
import random
import sys


class Game:
    """The game as this bot sees it."""

    def __init__(self):
        self.values = "23456789TJQKA"
        self.suits = "CDHS"  # the first suit is trump
        self.players = 4
        self.me = 0
        self.schedule = []  # (cards, starter) per deal
        self.deal = -1
        self.hand = []  # cards as 2-character strings
        self.declared = []
        self.taken = []
        self.trick = []  # (player, card)
        self.leader = 0
        self.time_left_ms = None

    def cards_in_deal(self):
        return self.schedule[self.deal][0] if 0 <= self.deal < len(self.schedule) else 0

    def is_card(self, text):
        return len(text) == 2 and text[0] in self.values and text[1] in self.suits

    def beats(self, card, best):
        """Does `card` beat the card currently winning the trick?"""
        if card[1] == best[1]:
            return self.values.index(card[0]) > self.values.index(best[0])
        return card[1] == self.suits[0]

    def legal_cards(self):
        if not self.trick:
            return list(self.hand)
        led = self.trick[0][1][1]
        follow = [c for c in self.hand if c[1] == led]
        return follow or list(self.hand)

    def new_deal(self, cards):
        self.deal += 1
        self.hand = cards
        self.declared = [None] * self.players
        self.taken = [0] * self.players
        self.trick = []
        self.leader = self.schedule[self.deal][1] if self.deal < len(self.schedule) else 0

    def play(self, player, card):
        if player == self.me and card in self.hand:
            self.hand.remove(card)
        self.trick.append((player, card))
        if len(self.trick) < self.players:
            return
        best = self.trick[0]
        for entry in self.trick[1:]:
            if self.beats(entry[1], best[1]):
                best = entry
        self.taken[best[0]] += 1
        self.leader = best[0]
        self.trick = []


def respond(game, rng, words):
    """The reply to one command (without the empty line), and whether to quit."""
    command, args = words[0], words[1:]
    try:
        if command == "set_deck":
            game.values, game.suits = args[0], args[1]
        elif command == "set_players":
            game.players, game.me = int(args[0]), int(args[1])
        elif command == "set_game":
            count = int(args[0])
            game.schedule = [(int(args[1 + 2 * i]), int(args[2 + 2 * i])) for i in range(count)]
            game.deal = -1
        elif command == "set_cards":
            count = int(args[0])
            cards = args[1:1 + count]
            if len(cards) != count or not all(game.is_card(c) for c in cards):
                return "? bad set_cards", False
            game.new_deal(cards)
        elif command == "time_left":
            game.time_left_ms = int(args[0])
        elif command == "gen_declare":
            return "= %d" % rng.randint(0, game.cards_in_deal()), False
        elif command == "declare":
            game.declared[int(args[0])] = int(args[1])
        elif command == "gen_move":
            legal = game.legal_cards()
            if not legal:
                return "? no cards in hand", False
            return "= " + rng.choice(legal), False
        elif command == "play":
            if not game.is_card(args[1]):
                return "? unknown card " + args[1], False
            game.play(int(args[0]), args[1])
        elif command == "quit":
            return "=", True
        else:
            return "? unknown command '%s'" % command, False
    except (IndexError, ValueError):
        return "? bad arguments to " + command, False
    return "=", False


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 2009)
    game = Game()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue  # blank lines from the arbiter are ignored
        reply, quit_now = respond(game, rng, words)
        sys.stdout.write(reply + "\n\n")
        sys.stdout.flush()
        if quit_now:
            break


if __name__ == "__main__":
    main()
