#!/usr/bin/env python3
"""Runs every `sh` block of README.md as a new user would copy it, in order, from a scratch copy of
the repository's folder (links to build/, configs/ and ../shared), and fails on the first command
that fails, naming the block and its line. Blocks of the suite's own commands (tools/demo,
tools/test, tools/ci-sanitizers, tools/fuzz) are not run here: they are the suite and its steps.

Usage: readme_commands.py --repo DIR --build DIR --scratch DIR
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

SUITE_COMMANDS = ("tools/demo", "tools/test", "tools/ci-sanitizers", "tools/fuzz")


def sh_blocks(readme):
    """(line number, text) of every ```sh block."""
    blocks, lines = [], readme.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            start, body = i + 1, []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            blocks.append((start + 1, "\n".join(body)))
        i += 1
    return blocks


def scratch_repo(repo, build, scratch):
    shutil.rmtree(scratch, ignore_errors=True)
    work = os.path.join(scratch, "repo")
    os.makedirs(work)
    os.makedirs(os.path.join(work, "build"))
    os.symlink(os.path.abspath(build), os.path.join(work, "build", "release"))
    for name in ("configs", "tools"):
        os.symlink(os.path.join(repo, name), os.path.join(work, name))
    os.symlink(os.path.abspath(os.path.join(repo, "..", "shared")), os.path.join(scratch, "shared"))
    return work


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--scratch", required=True)
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)
    readme = open(os.path.join(repo, "README.md"), encoding="utf-8").read()
    work = scratch_repo(repo, args.build, os.path.abspath(args.scratch))
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    # What a block puts under ~ (an install into ~/.local) stays in the scratch folder.
    env["HOME"] = os.path.join(os.path.dirname(work), "home")
    os.makedirs(env["HOME"], exist_ok=True)
    ran = 0
    for line, text in sh_blocks(readme):
        if any(re.search(r"(^|\s)" + re.escape(c) + r"\b", text) for c in SUITE_COMMANDS):
            print(f"README.md:{line}: the suite's own commands, not run here")
            continue
        started = time.monotonic()
        # -x names each command as it runs, so that a failure points at it.
        proc = subprocess.run(["bash", "-e", "-u", "-o", "pipefail", "-x", "-c", text], cwd=work, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        if proc.returncode != 0:
            print(proc.stdout[-6000:])
            print(f"FAIL: README.md:{line}: the block's command above exited {proc.returncode}")
            return 1
        ran += 1
        print(f"README.md:{line}: ran ({time.monotonic() - started:.1f} s)")
    if ran == 0:
        print("FAIL: no sh block ran")
        return 1
    print(f"ok: {ran} blocks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
