#!/usr/bin/env python3
"""Ours against the original Ants engine on every recorded game, measured in one run: for each
replay, SAMPLES rounds that alternate one ants_bench invocation (median of --ours-runs replays in
one process) with one original_replay.py run (the original's Ants class replaying the same game).
Both report CPU time per turn and of the turn-0 set-up, and both exit non-zero unless they
reproduced the recorded game, which stops this script. Prints the markdown rows of
docs/benchmarks/ants.md, the minimum ratio, and the machine's load before and after.

Usage: compare_original.py [--build DIR] [--original ANTS_DIR] [--samples N] [--ours-runs M] [REPLAY...]
  --original: the original's ants/ folder (aichallenge/aichallenge at 4237971f); default
  $ANTS_ORIGINAL. Without it the original's columns are left out and how to get it is printed.
  REPLAY: default every replay in ../shared/data/ants/replays and tests/ants/data/multi_hill.
"""
import argparse
import glob
import os
import platform
import statistics
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
HOW_TO_GET = ('original engine not given (--original or $ANTS_ORIGINAL): get aichallenge/aichallenge at '
              'commit 4237971f (git archive 4237971f ants worker | tar -x -C DIR) and pass DIR/ants')


def default_replays():
    shared = os.path.join(ROOT, '..', 'shared', 'data', 'ants', 'replays')
    found = sorted(glob.glob(os.path.join(shared, '*.json'))) + sorted(glob.glob(os.path.join(shared, '*', '*.replay')))
    return found + sorted(glob.glob(os.path.join(ROOT, 'tests', 'ants', 'data', 'multi_hill', '*.replay.json')))


def measure(cmd):
    """The key=value fields of the last line a benchmark printed; exits on failure."""
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit('compare_original: %s failed (exit %d): %s' % (cmd[0], done.returncode, done.stderr.strip()))
    fields = dict(f.split('=', 1) for f in done.stdout.strip().splitlines()[-1].split())
    return int(fields['turns']), float(fields['turn_cpu_us']), float(fields['setup_cpu_ms'])


def loadavg():
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


def label(path):
    name = os.path.basename(path)
    if name == '0.replay':
        name = os.path.basename(os.path.dirname(path)) + '/0.replay'
    return name.replace('.replay.json', '').replace('__seed42', '')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=os.path.join(ROOT, 'build', 'release'))
    ap.add_argument('--original', default=os.environ.get('ANTS_ORIGINAL'))
    ap.add_argument('--samples', type=int, default=7)
    ap.add_argument('--ours-runs', type=int, default=11)
    ap.add_argument('replays', nargs='*')
    a = ap.parse_args()
    if a.samples < 1 or a.ours_runs < 1:
        sys.exit('compare_original: --samples and --ours-runs must be at least 1')
    replays = a.replays or default_replays()
    bench = os.path.join(a.build, 'bench', 'ants_bench')
    original = None
    if a.original and os.path.isfile(os.path.join(a.original, 'ants.py')):
        original = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'original_replay.py'),
                    a.original]
    else:
        print(HOW_TO_GET, file=sys.stderr)
    print('load before: %s; %s, Python %s; %d alternating samples per replay, ours median of %d runs each'
          % (loadavg(), platform.machine(), platform.python_version(), a.samples, a.ours_runs))
    print()
    print('| replay | players | turns | ours CPU µs/turn (range) | original CPU µs/turn (range) | ratio | '
          'ours set-up ms | original set-up ms |')
    print('|---|---|---|---|---|---|---|---|')
    ratios, pair_ratios = [], []
    for path in replays:
        ours, orig = [], []
        for _ in range(a.samples):
            ours.append(measure([bench, '--runs', str(a.ours_runs), '--machine', path]))
            if original:
                orig.append(measure(original + [path]))
        players = int(subprocess.run([sys.executable, '-c', 'import json,sys; print(json.load(open(sys.argv[1]))'
                                      '["replaydata"]["players"])', path], capture_output=True, text=True).stdout)
        o_us = statistics.median(t[1] for t in ours)
        row = '| %s | %d | %d | %.2f (%.2f-%.2f) | ' % (label(path), players, ours[0][0], o_us,
                                                        min(t[1] for t in ours), max(t[1] for t in ours))
        if original:
            r_us = statistics.median(t[1] for t in orig)
            ratio = r_us / o_us
            ratios.append((ratio, label(path)))
            pair_ratios += [r[1] / o[1] for o, r in zip(ours, orig)]
            row += '%.0f (%.0f-%.0f) | **%.0fx** | ' % (r_us, min(t[1] for t in orig), max(t[1] for t in orig), ratio)
        else:
            row += '- | - | '
        row += '%.2f | %s |' % (statistics.median(t[2] for t in ours),
                                '%.0f' % statistics.median(t[2] for t in orig) if original else '-')
        print(row, flush=True)
    print()
    if ratios:
        low = min(ratios)
        print('minimum ratio (median per replay): %.0fx (%s); lowest single alternating pair: %.0fx; '
              'median over replays: %.0fx' % (low[0], low[1], min(pair_ratios),
                                              statistics.median(r for r, _ in ratios)))
    print('load after: %s' % loadavg())


if __name__ == '__main__':
    main()
