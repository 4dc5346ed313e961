#!/usr/bin/env python3
"""Writes the fuzz targets' generated seeds into tests/fuzz/seeds/ from real matches.

    tests/fuzz/make_seeds.py [BUILD_DIR]     (default build/release; needs the built arbiter and bots)

Bot replies: each game is played with the sample bots and --transcript; every seat's received
lines, one answer per request, become the referee harness's input (referee_harness.hpp).
Files: a Planowanie game log, a match job, its result and its match record.
Hand-written seeds (bot specs, edge cases) sit beside the generated ones and are left alone.
"""
import json, os, re, shutil, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build" / "release").resolve()
SHARED = ROOT.parent / "shared" / "data"
SEEDS = ROOT / "tests" / "fuzz" / "seeds"
ARB = str(BUILD / "bin" / "arbiter")
BOTS = BUILD / "bots"
SEP = b"\x1e"


def run(*args, cwd=None):
    subprocess.run([str(a) for a in args], check=True, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def answers_from_transcripts(folder):
    """Per seat (in the order of the '# seat LABEL:' lines), the lines it printed, one answer per
    stretch of received lines that follows a stretch of sent ones."""
    text = "".join(p.read_text(errors="replace") for p in sorted(Path(folder).glob("*")) if p.is_file())
    seats = re.findall(r"^# seat (\S+):", text, re.M)
    answers = {label: [] for label in seats}
    receiving = {label: False for label in seats}
    for line in text.splitlines():
        m = re.match(r"^\s*[\d.]+ (\S+) ([<>]) ?(.*)$", line)
        if not m or m.group(1) not in answers:
            continue
        label, way, body = m.groups()
        if way == ">":
            receiving[label] = False
        else:
            if not receiving[label]:
                answers[label].append("")
                receiving[label] = True
            answers[label][-1] += body + "\n"
    out = b""
    # Interleave seats round-robin; the harness keeps one queue per seat anyway.
    longest = max((len(a) for a in answers.values()), default=0)
    for i in range(longest):
        for s, label in enumerate(seats):
            if i < len(answers[label]):
                out += bytes([s]) + answers[label][i].encode() + SEP
    return out


def write(target, name, data):
    folder = SEEDS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def transcript_seed(game, folder):
    """The transcript's first 8 KB in whole lines, the bots' paths made portable."""
    text = next(Path(folder).glob("*.transcript")).read_text(errors="replace")[:8000]
    text = text[:text.rfind("\n") + 1].replace(str(BOTS), "/opt/arbiter/bots")
    write("match_transcript", f"{game}-head.txt", text)


def reply_seeds(tmp):
    games = {
        "planowanie": (["--total-time-ms", "60000"],
                       [f"name=h cmd={BOTS}/planowanie/heuristic_bot", f"name=r cmd=\"{BOTS}/planowanie/random_bot 1\"",
                        f"name=q cmd=\"{BOTS}/planowanie/random_bot 2\""]),
        "ants": (["--map", SHARED / "ants/maps/maze_02p_02.map", "--turns", "30"],
                 [f"name=h cmd={BOTS}/ants/hunter_bot", f"name=g cmd={BOTS}/ants/greedy_bot"]),
        "samurai": (["--field", SHARED / "samurai/fields/sample.dighere"],
                    [f"name=g cmd={BOTS}/samurai/greedy_digger", f"name=r cmd={BOTS}/samurai/random_player"]),
        "smartdog": (["--map", SHARED / "smartdog/maps/simple-1.txt", "--turns", "20"],
                     [f"name=h cmd={BOTS}/smartdog/herder", f"name=r cmd={BOTS}/smartdog/random_dog"]),
        "koehandel": (["--max-trade-turns", "20"],
                      [f"name=v cmd={BOTS}/koehandel/value_bot", f"name=w cmd={BOTS}/koehandel/value_bot"]),
    }
    for game, (options, bots) in games.items():
        folder = Path(tmp) / f"tr-{game}"
        args = [ARB, "play", game, "--seed", "7", "--transcript", folder, *options]
        for b in bots:
            args += ["--bot", b]
        run(*args)
        transcript_seed(game, folder)
        data = answers_from_transcripts(folder)
        if game == "smartdog":  # the harness puts each seat's token where the answer says $TOKEN
            data = re.sub(rb"join [0-9a-f]{16}", b"join $TOKEN", data)
        write(f"replies_{game}", "sample-bots", data)


def file_seeds(tmp):
    log = Path(tmp) / "planowanie.json"
    run(ARB, "play", "planowanie", "--seed", "7", "--replay", log,
        "--bot", f"name=h cmd={BOTS}/planowanie/heuristic_bot", "--bot", f"name=r cmd=\"{BOTS}/planowanie/random_bot 1\"",
        "--bot", f"name=q cmd=\"{BOTS}/planowanie/random_bot 2\"")
    write("planowanie_log", "three-bots.json", log.read_bytes())
    jobs = Path(tmp) / "jobs"
    env = dict(os.environ, ARBITER_BOTS=str(BOTS))
    subprocess.run([ARB, "plan", "--config", ROOT / "configs/demo.json", "--db", Path(tmp) / "t.sqlite", "--out", jobs],
                   check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    job = sorted(jobs.glob("job-*.json"))[0]
    result = Path(tmp) / "result.json"
    run(ARB, "run-job", job, "--out", result)
    portable = lambda text: text.replace(str(BOTS), "/opt/arbiter/bots").replace(str(ROOT), "/opt/arbiter")
    write("match_job", "demo-job.json", portable(job.read_text()))
    write("job_result", "demo-result.json", portable(result.read_text()))
    write("match_record", "demo-record.json", portable(json.dumps(json.loads(result.read_text())["record"], indent=1) + "\n"))

    replay = Path(tmp) / "ants.replay.json"
    run(ARB, "play", "ants", "--seed", "7", "--map", SHARED / "ants/maps/maze_02p_02.map", "--turns", "30", "--replay", replay,
        "--bot", f"name=h cmd={BOTS}/ants/hunter_bot", "--bot", f"name=g cmd={BOTS}/ants/greedy_bot")
    write("ants_replay", "maze-30-turns.json", replay.read_bytes())
    write("ants_map", "maze_02p_02.map", (SHARED / "ants/maps/maze_02p_02.map").read_bytes())

    log = Path(tmp) / "game.dighere"
    run(ARB, "play", "samurai", "--seed", "7", "--field", SHARED / "samurai/fields/sample.dighere", "--log", log,
        "--bot", f"name=g cmd={BOTS}/samurai/greedy_digger", "--bot", f"name=r cmd={BOTS}/samurai/random_player")
    write("samurai_log", "sample-game.dighere", log.read_bytes())
    write("samurai_log", "sample-field.dighere", (SHARED / "samurai/fields/sample.dighere").read_bytes())

    wire = Path(tmp) / "wire.txt"
    run(ARB, "play", "smartdog", "--seed", "7", "--map", SHARED / "smartdog/maps/simple-1.txt", "--turns", "20",
        "--replay", wire, "--bot", f"name=h cmd={BOTS}/smartdog/herder", "--bot", f"name=r cmd={BOTS}/smartdog/random_dog")
    # The harness's transcript finds simple-1 by its name; an absolute map note would not travel.
    lines = [l for l in wire.read_text().splitlines(keepends=True) if not l.startswith("# map ")]
    write("smartdog_transcript", "simple-1-20-turns.txt", "".join(lines))
    write("smartdog_map", "simple-1.txt", (SHARED / "smartdog/maps/simple-1.txt").read_bytes())
    write("tournament_config", "demo.json", (ROOT / "configs/demo.json").read_bytes())
    write("tournament_config", "nightly-ladder.json", (ROOT / "configs/nightly-ladder.json").read_bytes())
    # arbiter view reads every game's file: the same seeds, one of each kind.
    for target, name in (("ants_replay", "maze-30-turns.json"), ("planowanie_log", "three-bots.json"),
                         ("samurai_log", "sample-game.dighere"), ("smartdog_transcript", "simple-1-20-turns.txt"),
                         ("match_record", "demo-record.json")):
        write("view_match", name, (SEEDS / target / name).read_bytes())


def main():
    with tempfile.TemporaryDirectory() as tmp:
        reply_seeds(tmp)
        file_seeds(tmp)


if __name__ == "__main__":
    main()
