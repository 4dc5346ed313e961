#!/usr/bin/env python3
"""Times the original Ants engine (aichallenge/aichallenge ants/ants.py, class Ants) replaying a
recorded game, doing the work ants_bench does with ours: the game set up from the replay's
parameters and engine seed (food parameters, symmetric food, spawn draws and the engine's
per-turn shuffle of the bot list all from that seed, as worker/engine.py run_game makes them),
every live bot's state text built before each turn, the recorded orders given as order lines,
recorded crashes and timeouts applied at their turns. No processes. At the end the game must be
the recorded one (replaydata, game length, scores, status, player turns), else exit 1.

Usage: original_replay.py ANTS_DIR REPLAY.json [--runs N]
  ANTS_DIR: the original's ants/ folder (commit 4237971f).
Prints one line per run: replay=NAME turns=N turn_cpu_us=X setup_cpu_ms=Y (CPU time).
"""
import json
import os
import random
import sys
import time


class Mismatch(Exception):
    """The replayed game left the recorded one."""


def fail(message, code=2):
    print("original_replay: " + message, file=sys.stderr)
    sys.exit(code)


def map_text(rd):
    """The map as the original's parser reads it: water from the recorded map, hills from the
    recorded hill list (the final-state rendering in map.data is not the starting map)."""
    rows = [['%' if c == '%' else '.' for c in line] for line in rd['map']['data']]
    for row, col, owner, *_ in rd['hills']:
        rows[row][col] = str(owner)
    lines = ['rows %d' % rd['map']['rows'], 'cols %d' % rd['map']['cols'], 'players %d' % rd['players']]
    return '\n'.join(lines + ['m ' + ''.join(r) for r in rows]) + '\n'


def game_options(rd):
    # playgame.py's defaults for everything the replay does not record.
    return {
        'map': map_text(rd), 'attack': rd.get('attack', 'focus'), 'kill_points': 2, 'food': 'symmetric',
        'viewradius2': rd['viewradius2'], 'attackradius2': rd['attackradius2'],
        'spawnradius2': rd['spawnradius2'], 'loadtime': rd['loadtime'], 'turntime': rd['turntime'],
        'turns': rd['turns'], 'food_rate': (5, 11), 'food_turn': (19, 37), 'food_start': (75, 175),
        'food_visible': (3, 5), 'cutoff_turn': 150, 'cutoff_percent': 0.85, 'scenario': False,
        'engine_seed': rd['engine_seed'], 'player_seed': rd['player_seed'],
    }


def moves_by_turn(rd):
    """(ant index, owner, direction) of every recorded move, grouped by turn."""
    moves = {}
    for i, (_, _, start, _, owner, orders) in enumerate(rd['ants']):
        for k, d in enumerate(orders):
            if d != '-':
                moves.setdefault(start + 1 + k, []).append((i, owner, d))
    return moves


def faults(replay):
    """Per player: (turn, status) of a recorded crash, timeout or invalid-order put-out."""
    out = {}
    for p, (status, turn) in enumerate(zip(replay.get('status', []), replay.get('playerturns', []))):
        if status in ('crashed', 'timeout', 'invalid', 'crashed 0'):
            out[p] = (turn, status)
    return out


def play(Ants, replay):
    """One replay in run_game's order of calls; returns (game, turns, status, playerturns, times)."""
    rd = replay['replaydata']
    moves, fault = moves_by_turn(rd), faults(replay)
    n = rd['players']
    status, playerturns = ['survived'] * n, [0] * n
    c0 = time.process_time()
    game = Ants(game_options(rd))
    for p, (turn, s) in fault.items():
        if s == 'crashed 0':
            game.kill_player(p)
            status[p] = s
    turn = 0
    for turn in range(game.turns + 1):
        if turn == 0:
            game.start_game()
        for b in range(n):
            if game.is_alive(b) and turn > 0:
                game.get_player_state(b)
                playerturns[b] = turn
        if turn == 0:
            c1 = time.process_time()
        else:
            game.start_turn()
        bot_list = [b for b in range(n) if game.is_alive(b)]
        random.shuffle(bot_list)
        for b in bot_list:
            if b in fault and fault[b] == (turn, fault[b][1]) and fault[b][1] in ('crashed', 'timeout'):
                game.kill_player(b)
                status[b] = fault[b][1]
        alive = [game.is_alive(b) for b in range(n)]
        if turn > 0 and not game.game_over():
            lines = [[] for _ in range(n)]
            for i, owner, d in moves.get(turn, ()):
                row, col = game.all_ants[i].loc
                lines[owner].append('o %d %d %s' % (row, col, d))
            for b in range(n):
                if game.is_alive(b):
                    _, ignored, invalid = game.do_moves(b, lines[b])
                    if ignored or invalid:
                        raise Mismatch('turn %d: player %d order refused: %s' % (turn, b, (invalid or ignored)[0]))
                    if fault.get(b) == (turn, 'invalid'):
                        game.kill_player(b)
                        status[b] = 'invalid'
        if turn > 0:
            game.finish_turn()
        for b in range(n):
            if alive[b] and not game.is_alive(b) and status[b] == 'survived':
                status[b] = 'eliminated'
                playerturns[b] = turn
        if game.game_over():
            break
    game.finish_game()
    c2 = time.process_time()
    return game, turn, status, playerturns, (c1 - c0, c2 - c1)


def check(game, turn, status, playerturns, replay):
    ours = game.get_replay()
    rd = replay['replaydata']
    for key in ('ants', 'food', 'hills', 'scores', 'hive_history', 'bonus', 'cutoff', 'winning_turn',
                'ranking_turn'):
        if key in rd and json.loads(json.dumps(ours[key])) != rd[key]:
            return "field '%s' differs" % key
    for key, value in (('game_length', turn), ('score', game.get_scores()), ('status', status),
                       ('playerturns', playerturns)):
        if key in replay and replay[key] != value:
            return "field '%s' differs: %s, replay %s" % (key, value, replay[key])
    return None


def main():
    args = sys.argv[1:]
    runs = 1
    if '--runs' in args:
        i = args.index('--runs')
        try:
            runs = int(args[i + 1])
        except (IndexError, ValueError):
            fail('--runs needs a whole number')
        del args[i:i + 2]
    if len(args) != 2:
        fail('usage: original_replay.py ANTS_DIR REPLAY.json [--runs N]')
    ants_dir, path = args
    if not os.path.isfile(os.path.join(ants_dir, 'ants.py')):
        fail('%s has no ants.py (the original engine\'s ants/ folder)' % ants_dir)
    sys.path.insert(0, os.path.abspath(ants_dir))
    from ants import Ants  # the original engine
    try:
        with open(path) as f:
            replay = json.load(f)
        replay['replaydata']['engine_seed']
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail('%s: not a replay with an engine seed (%s)' % (path, e))
    name = os.path.basename(path)
    for _ in range(runs):
        try:
            game, turn, status, playerturns, (setup, turns) = play(Ants, replay)
            problem = check(game, turn, status, playerturns, replay)
        except Mismatch as e:
            problem = str(e)
        if problem:
            fail('%s does not replay as recorded in the original: %s' % (path, problem), 1)
        print('replay=%s turns=%d turn_cpu_us=%.4f setup_cpu_ms=%.4f' % (name, turn, turns / max(1, turn) * 1e6,
                                                                       setup * 1e3), flush=True)


if __name__ == '__main__':
    main()
