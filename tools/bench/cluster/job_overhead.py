#!/usr/bin/env python3
"""Per-job overhead of a parallel-tournament run, from its own files: GNU parallel's job log
(each job's run time on its host, ssh included) against the wall time every match of the job
recorded (its record's wall_s, from the bots' start to the result). What is left is what a job
adds around its matches: the ssh session, the arbiter process's start, reading the jobs,
writing the results. Prints one line: jobs, matches, the two sums and the overhead as a share
of the matches' own time.

Usage: job_overhead.py RUN_DIR   (the recipe's --work folder: logs/parallel-*.joblog, results/)
"""
import glob
import json
import os
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    run = sys.argv[1]
    job_seconds, jobs = 0.0, 0
    for log in glob.glob(os.path.join(run, "logs", "parallel-*.joblog")):
        with open(log, encoding="utf-8") as f:
            next(f, None)  # the header
            for line in f:
                fields = line.split("\t")
                if len(fields) > 6 and fields[6] == "0":  # exit value 0: a job that ran to its end
                    job_seconds += float(fields[3])
                    jobs += 1
    match_seconds, matches = 0.0, 0
    for path in glob.glob(os.path.join(run, "results", "*.result.json")):
        with open(path, encoding="utf-8") as f:
            match_seconds += float(json.load(f)["record"]["wall_s"])
        matches += 1
    if not jobs or not matches:
        sys.exit(f"job_overhead.py: no jobs or no results under {run}")
    print(f"{jobs} jobs, {matches} matches: jobs ran {job_seconds:.1f} s on their hosts, their matches "
          f"{match_seconds:.1f} s: per-job overhead {100 * (job_seconds - match_seconds) / match_seconds:.1f} % "
          f"of the matches' own time ({1000 * (job_seconds - match_seconds) / jobs:.0f} ms a job)")


if __name__ == "__main__":
    main()
