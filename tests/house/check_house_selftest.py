#!/usr/bin/env python3
"""tools/check_house.py on a small tree of its own: clean, it reports nothing; each rule, broken
once, is reported at the breaking line and nowhere else. So a rule that stops matching fails here
instead of passing the real tree silently.

  tests/house/check_house_selftest.py REPO     (REPO holds tools/check_house.py)
"""
import os
import subprocess
import sys
import tempfile

CLEAN = {
    "core/seat.hpp": "#pragma once\nstruct Table {};\n",
    "core/channel/pipe.hpp": '#pragma once\n#include "core/seat.hpp"\n',
    "core/table/table.hpp": '#pragma once\n#include "core/channel/pipe.hpp"\n',
    "rules/seat_driver.hpp": '#pragma once\n#include "core/seat.hpp"\n// table.ask_all( lives here\n'
                             "inline void ask_round(Table& table) { table.ask_all(); }\n",
    "rules/game/game_engine.hpp": "#pragma once\n#include <vector>\nint next(int state);\n",
    "rules/game/game_engine.cpp": '#include "rules/game/game_engine.hpp"\nint next(int state) { return state + 1; }\n',
    "rules/game/game_referee.cpp": '#include "rules/seat_driver.hpp"\n#include "rules/game/game_engine.hpp"\n'
                                   "// Asks through the driver, never table.ask( itself.\n"
                                   "void play(Table& table) { ask_round(table); }\n",
    "arbiter/match/runner.cpp": '#include "rules/registry.hpp"\nconst char* kind = "select a game";\n',
    "rules/registry.hpp": '#pragma once\n#include "rules/game/game_engine.hpp"\n',
    # A game (its folder holds its descriptor), and a viewer that says only what descriptors say.
    "rules/smart_dog/smart_dog_game.cpp": 'const char* name = "smart_dog";\n',
    "arbiter/view/page.cpp": '#include "rules/registry.hpp"\n// Draws any game: smartdogs and dog-smart ones.\n',
    # Parts the checker names by file (ENGINE_PARTS) must exist in any tree it reads.
    "rules/ants/ants_food.cpp": "int food();\n",
    "rules/ants/cpython_random.cpp": "int random();\n",
    "rules/koehandel/koehandel_cards.cpp": "int cards();\n",
}

# (rule, file, text appended, the words the breach line must hold)
BREAKS = [
    ("layers", "core/seat.hpp", '#include "rules/game/game_engine.hpp"\n', "core/seat.hpp:3"),
    ("arbiter names no game", "arbiter/match/runner.cpp", '#include "rules/game/game_engine.hpp"\n',
     "arbiter/match/runner.cpp:3: includes the game game's rules/game/game_engine.hpp"),
    ("core rooms", "core/channel/pipe.hpp", '#include "core/table/table.hpp"\n',
     "core/channel/pipe.hpp:3: includes core/table/table.hpp, from the room core/table above its own"),
    ("viewer names a game", "arbiter/view/page.cpp", "// the Smart-Dog board\n",
     "arbiter/view/page.cpp:3: names the smart_dog game"),
    ("file size", "arbiter/match/runner.cpp", "int x;\n" * 600, "arbiter/match/runner.cpp: 602 lines"),
    ("function size", "rules/game/game_engine.cpp",
     "int long_one() {\n" + "    int a = 0;\n" * 150 + "    return 0;\n}\n", "function long_one has 153 lines"),
    ("SQL in arbiter/", "arbiter/match/runner.cpp", 'const char* q = "SELECT * FROM matches";\n',
     "arbiter/match/runner.cpp:3: SQL outside rating/"),
    ("engine purity", "rules/game/game_engine.cpp", "#include <fstream>\n",
     "rules/game/game_engine.cpp:3: the game engine includes fstream"),
    ("driver: ask", "rules/game/game_referee.cpp", "void more(Table& table) { table.ask(0); }\n",
     "rules/game/game_referee.cpp:5: 'table.ask('"),
    ("driver: ask_all", "rules/game/game_referee.cpp", "void more(Table* table_) { table_->ask_all({}); }\n",
     "rules/game/game_referee.cpp:5: 'table_->ask_all('"),
    ("driver: mapping", "rules/game/game_referee.cpp", "auto f = reply_fault(s, st, d);\n",
     "rules/game/game_referee.cpp:5: 'reply_fault('"),
]


def run(checker, tree):
    out = subprocess.run([sys.executable, checker, tree], capture_output=True, text=True)
    lines = [line for line in out.stdout.splitlines() if not line.startswith("house:")]
    return out.returncode, lines


def make_tree(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    subprocess.run(["git", "init", "-q", root], check=True)


def main(argv):
    checker = os.path.join(os.path.abspath(argv[1]), "tools", "check_house.py")
    failures = []
    with tempfile.TemporaryDirectory() as clean:
        make_tree(clean, CLEAN)
        code, lines = run(checker, clean)
        if code != 0 or lines:
            failures.append(f"the clean tree: exit {code}, {lines}")
    for rule, path, extra, expected in BREAKS:
        files = dict(CLEAN)
        files[path] = files[path] + extra
        with tempfile.TemporaryDirectory() as tree:
            make_tree(tree, files)
            code, lines = run(checker, tree)
        if code != 1 or len(lines) != 1 or expected not in lines[0]:
            failures.append(f"{rule}: expected one breach with '{expected}', got exit {code}: {lines}")
    for failure in failures:
        print(failure)
    print(f"check_house self-test: {1 + len(BREAKS)} trees, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
