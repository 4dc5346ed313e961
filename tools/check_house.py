#!/usr/bin/env python3
"""The house rules of the source tree, checked from the code itself.

  tools/check_house.py [REPO] [--only PATH ...]

1. Layers: the folders are the layers (core -> rating, rules -> arbiter -> tools, tests), and no
   #include runs from a lower layer to a higher one; inside arbiter/ the same holds for
   match -> tournament -> ladder, diff, report, view -> cli; a game folder includes no other game's folder,
   and nothing of arbiter/ includes a game's folder (a game reaches the arbiter through its
   descriptor, rules/game.hpp, and the registry);
   inside core/ the rooms stand in the order of CORE_ROOMS (its own files, confine/, channel/,
   table/): a room includes nothing of a room above it.
2. Sizes: no source file over 600 lines and no function over 150, unless the file's first lines
   or the lines just above the function say why ("long because ...").
3. SQL stays in rating/ (the results repository): no C/C++ file of core/, rules/ or arbiter/ holds
   an SQL statement in a string, or includes sqlite3.h or the store's internals (tests forge
   files and may).
4. Engines are pure: a game's engine files include no input/output header (<iostream>,
   <fstream>, <cstdio>, ...), nothing of the seats and tables (core/seat.hpp, core/table/,
   core/channel/, core/confine/, ..., rules/game.hpp) and nothing from arbiter/. The engine files of
   rules/<game>/ are its <game>_engine* files, every .cpp whose first project include is
   <game>_engine.hpp (a part of the engine split off), the parts named in ENGINE_PARTS, and every
   header of the folder one of them includes.
5. Referees ask through the seat driver: outside rules/seat_driver.hpp, no
   file of rules/ asks a table itself (table.ask, table.ask_all) or maps a failed reply itself
   (reply_fault, status_after: the table types a failed reply once, core/seat.hpp).
6. The viewer and the command line name no game: no file of NAMELESS_FOLDERS (sources, scripts,
   styles, CMake) holds the name of a game (a folder rules/<game>/ with its <game>_game
   descriptor), in any case and with or without a dash or underscore inside ("smart-dog"). What
   they say of a game (help, examples, kinds of replay) comes from its descriptor.

Functions are measured with Universal Ctags (tools/setup installs it). Prints one line per
breach and exits 1 when there is any, 0 otherwise.
"""
import json
import os
import re
import subprocess
import sys

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 150
REASON = re.compile(r"long because", re.IGNORECASE)
SOURCE_ENDINGS = (".cpp", ".hpp", ".c", ".h", ".py", ".sh")
CHECKED_ROOTS = ("core", "rating", "rules", "arbiter", "tools", "tests")

# What each folder may include from the project. A longer prefix wins over a shorter one.
ALLOWED = {
    "core": {"core"},
    "rating": {"core", "rating"},
    "rules": {"core", "rules"},
    "arbiter/match": {"core", "rules", "arbiter/match"},
    "arbiter/tournament": {"core", "rating", "rules", "arbiter/match", "arbiter/tournament"},
    "arbiter/ladder": {"core", "rating", "rules", "arbiter/match", "arbiter/tournament", "arbiter/ladder"},
    "arbiter/diff": {"core", "rating", "rules", "arbiter/match", "arbiter/tournament", "arbiter/diff"},
    "arbiter/report": {"core", "rating", "arbiter/report"},
    "arbiter/view": {"core", "rules", "arbiter/match", "arbiter/view"},
    "arbiter/cli": {"core", "rating", "rules", "arbiter"},
    "tools": {"core", "rating", "rules", "arbiter", "tools"},
    "tests": {"core", "rating", "rules", "arbiter", "tools", "tests"},
}
# The rooms of core/, bottom to top: the files directly in core/ first.
CORE_ROOMS = ("core", "core/confine", "core/channel", "core/table")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# The engine's parts whose names do not say so and that do not start with the engine's header.
ENGINE_PARTS = {
    "ants": ("ants_food", "cpython_random"),
    "koehandel": ("koehandel_cards",),
}
# Rule 5: the table's asks and the fault mapping, called anywhere but in the driver.
DRIVER_FILES = ("rules/seat_driver.hpp",)
TABLE_ASK = re.compile(r"\b\w*table_?\s*(?:\.|->)\s*ask(?:_all)?\s*\(|\bask_all\s*\(|\b(?:reply_fault|status_after)\s*\(")
ANY_INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]([^>"]+)[>"]')
ENGINE_FORBIDDEN_SYSTEM = ("iostream", "fstream", "cstdio", "stdio.h", "istream", "ostream", "filesystem")
ENGINE_FORBIDDEN_PREFIXES = ("spdlog/", "core/table/", "core/channel/", "core/confine/", "core/seat",
                             "core/table_settings", "arbiter/", "rules/game.hpp")
NAMELESS_FOLDERS = ("arbiter/view", "arbiter/cli", "arbiter/diff")
NAMELESS_ENDINGS = SOURCE_ENDINGS + (".js", ".css", ".cmake", ".txt")
SQL_ROOTS = ("core", "rules", "arbiter")
SQL_TEXT = re.compile(r'"\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|BEGIN|COMMIT)\b')
SQL_LAYER = re.compile(r'^\s*#\s*include\s+[<"](sqlite3\.h|rating/store_internal\.hpp)[>"]')


def folder_rule(path):
    best = None
    for prefix in ALLOWED:
        if path == prefix or path.startswith(prefix + "/"):
            if best is None or len(prefix) > len(best):
                best = prefix
    return best


def game_folder(path):
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "rules" else None


def tracked_sources(repo, only):
    out = subprocess.run(["git", "-C", repo, "ls-files", "--cached", "--others", "--exclude-standard"],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    files = [f for f in out if f.endswith(SOURCE_ENDINGS) and f.split("/")[0] in CHECKED_ROOTS]
    files = [f for f in files if os.path.exists(os.path.join(repo, f))]
    if only:
        files = [f for f in files if any(f == o or f.startswith(o.rstrip("/") + "/") for o in only)]
    return sorted(files)


def core_room(path):
    """The room of core/ that a file of it stands in (CORE_ROOMS), None outside core/."""
    parts = path.split("/")
    if parts[0] != "core":
        return None
    return f"core/{parts[1]}" if len(parts) > 2 and f"core/{parts[1]}" in CORE_ROOMS else "core"


def include_breaches(repo, path):
    rule = folder_rule(path)
    if rule is None or not path.endswith((".cpp", ".hpp", ".c", ".h")):
        return []
    breaches = []
    with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m or "/" not in m.group(1):
                continue
            target = m.group(1)
            if not any(target == a or target.startswith(a + "/") for a in ALLOWED[rule]):
                if target.split("/")[0] in CHECKED_ROOTS:
                    breaches.append(f"{path}:{number}: includes {target}, above its layer ({rule})")
                continue
            room, target_room = core_room(path), core_room(target)
            if room and target_room and CORE_ROOMS.index(target_room) > CORE_ROOMS.index(room):
                breaches.append(f"{path}:{number}: includes {target}, from the room {target_room} above its own ({room})")
                continue
            mine, theirs = game_folder(path), game_folder(target)
            if theirs and path.startswith("arbiter/"):
                breaches.append(f"{path}:{number}: includes the {theirs} game's {target}; the arbiter reaches a game "
                                "through its descriptor (rules/game.hpp) and the registry")
                continue
            if mine and theirs and mine != theirs:
                breaches.append(f"{path}:{number}: the {mine} game includes the {theirs} game's {target}")
    return breaches


def sql_breaches(path, lines):
    if path.split("/")[0] not in SQL_ROOTS or not path.endswith((".cpp", ".hpp", ".c", ".h")):
        return []
    breaches = []
    for number, line in enumerate(lines, 1):
        if SQL_LAYER.match(line):
            breaches.append(f"{path}:{number}: includes the SQLite internals; ask rating/results_repository.hpp instead")
        elif SQL_TEXT.search(line):
            breaches.append(f"{path}:{number}: SQL outside rating/; put the statement in the results repository")
    return breaches


def project_includes(lines):
    return [m.group(1) for m in map(INCLUDE.match, lines) if m]


def engine_files(paths, texts):
    """The engine files of each game folder (rule 4), as {path: game}."""
    games = sorted({game_folder(p) for p in paths if game_folder(p)})
    engine = {}
    for game in games:
        folder = f"rules/{game}/"
        mine = [p for p in paths if p.startswith(folder) and "/" not in p[len(folder):]]
        header = f"{folder}{game}_engine.hpp"
        parts = {f"{game}_engine"} | set(ENGINE_PARTS.get(game, ()))
        todo = []
        for p in mine:
            stem = os.path.splitext(os.path.basename(p))[0]
            first = project_includes(texts[p])[:1]
            if stem.startswith(f"{game}_engine") or stem in parts or (p.endswith(".cpp") and first == [header]):
                todo.append(p)
        while todo:
            p = todo.pop()
            if p in engine:
                continue
            engine[p] = game
            todo += [t for t in project_includes(texts[p]) if t.startswith(folder) and t.endswith((".hpp", ".h"))
                     and t in texts]
    return engine


def engine_breaches(paths, texts):
    breaches = []
    for game, parts in ENGINE_PARTS.items():
        for part in parts:
            if not any(p.startswith(f"rules/{game}/{part}.") for p in paths):
                breaches.append(f"tools/check_house.py: ENGINE_PARTS names rules/{game}/{part}, which has no file")
    for path, game in sorted(engine_files(paths, texts).items()):
        for number, line in enumerate(texts[path], 1):
            m = ANY_INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            if target in ENGINE_FORBIDDEN_SYSTEM or target.startswith(ENGINE_FORBIDDEN_PREFIXES):
                breaches.append(f"{path}:{number}: the {game} engine includes {target}; an engine does no input or "
                                "output and knows no seats or tables (the referee and the replay do)")
    return breaches


def driver_breaches(path, lines):
    if not path.startswith("rules/") or path in DRIVER_FILES:
        return []
    breaches = []
    for number, line in enumerate(lines, 1):
        code = line.split("//", 1)[0]
        m = TABLE_ASK.search(code)
        if m:
            breaches.append(f"{path}:{number}: '{m.group(0).strip()}' outside the seat driver; a referee asks "
                            "through rules/seat_driver.hpp (ask_round, ask_seat), which maps failed replies once")
    return breaches


def game_names(paths):
    """The games of the tree, as {name: pattern}: each folder rules/<game>/ with a <game>_game file."""
    games = {game_folder(p) for p in paths if game_folder(p) and
             os.path.basename(p).startswith(f"{game_folder(p)}_game.")}
    word = "(?<![A-Za-z0-9]){}(?![A-Za-z0-9])"
    letters = {g: [c for c in g if c not in "-_"] for g in games}
    return {g: re.compile(word.format("[-_]?".join(map(re.escape, letters[g]))), re.IGNORECASE) for g in sorted(games)}


def nameless_breaches(repo, paths):
    out = subprocess.run(["git", "-C", repo, "ls-files", "--cached", "--others", "--exclude-standard", "--",
                          *NAMELESS_FOLDERS], capture_output=True, text=True, check=True).stdout.split("\n")
    games = game_names(paths)
    breaches = []
    for path in sorted(f for f in out if f.endswith(NAMELESS_ENDINGS) and os.path.exists(os.path.join(repo, f))):
        with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                for game, pattern in games.items():
                    if pattern.search(line):
                        breaches.append(f"{path}:{number}: names the {game} game; what the viewer and the command "
                                        "line say of a game comes from its descriptor (rules/game.hpp)")
    return breaches


def size_breaches(repo, path, lines):
    head = "".join(lines[:12])
    if len(lines) > MAX_FILE_LINES and not REASON.search(head):
        return [f"{path}: {len(lines)} lines (over {MAX_FILE_LINES}, and no 'long because' at its top)"]
    return []


def function_breaches(repo, paths, texts):
    cpp = [p for p in paths if p.endswith((".cpp", ".hpp", ".c", ".h"))]
    if not cpp:
        return []
    try:
        run = subprocess.run(["ctags", "--output-format=json", "--fields=+ne", "--c++-kinds=f",
                              "--c-kinds=f", "--languages=C,C++", "-o", "-"] + cpp,
                             cwd=repo, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return [f"cannot measure functions: Universal Ctags did not run ({e}); run tools/setup"]
    breaches = []
    for row in run.stdout.splitlines():
        try:
            tag = json.loads(row)
        except ValueError:
            continue
        if tag.get("_type") != "tag" or "end" not in tag:
            continue
        length = tag["end"] - tag["line"] + 1
        if length <= MAX_FUNCTION_LINES:
            continue
        lines = texts[tag["path"]]
        above = "".join(lines[max(0, tag["line"] - 6):tag["line"]])
        if not REASON.search(above):
            breaches.append(f"{tag['path']}:{tag['line']}: function {tag['name']} has {length} lines "
                            f"(over {MAX_FUNCTION_LINES}, and no 'long because' above it)")
    return breaches


def main(argv):
    args = argv[1:]
    only = []
    if "--only" in args:
        i = args.index("--only")
        only, args = args[i + 1:], args[:i]
    repo = os.path.abspath(args[0]) if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = tracked_sources(repo, only)
    texts = {}
    breaches = []
    for path in paths:
        with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as f:
            texts[path] = f.readlines()
        breaches += include_breaches(repo, path)
        breaches += size_breaches(repo, path, texts[path])
        breaches += sql_breaches(path, texts[path])
        breaches += driver_breaches(path, texts[path])
    breaches += engine_breaches(paths, texts)
    breaches += nameless_breaches(repo, paths)
    breaches += function_breaches(repo, paths, texts)
    for b in breaches:
        print(b)
    print(f"house: {len(paths)} files checked, {len(breaches)} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
