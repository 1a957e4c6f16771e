#!/usr/bin/env python3
"""Time-travel commands as whole processes: `navlog state LOG --at SEQ` and `navlog diff LOG A B`
at random seqs, each its own process, after the index exists (one run first builds or opens it).

Usage: process_seeks.py NAVLOG LOG --last SEQ [--runs N] [--json OUT]

Prints and writes (with --json) the wall time p50 and max of each command, in milliseconds, and
the peak resident set size over all runs, in MB (from wait4's rusage, as /usr/bin/time -v has it).
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import time


def run(args):
    """Runs a command, its output discarded; returns (milliseconds, peak RSS in KB)."""
    start = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = (time.perf_counter() - start) * 1000
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"process_seeks: failed ({process.returncode}): {' '.join(args)}\n{process.stderr.read().decode()[-800:]}")
    process.stderr.close()
    return elapsed, usage.ru_maxrss  # KB on Linux


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("navlog")
    parser.add_argument("log")
    parser.add_argument("--last", type=int, required=True)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--json")
    options = parser.parse_args()
    rng = random.Random(5)
    run([options.navlog, "state", options.log, "--at", "1"])  # builds the index at the default interval, or opens it
    figures = {}
    commands = {
        "state": lambda: [options.navlog, "state", options.log, "--at", str(rng.randint(1, options.last))],
        "diff": lambda: [options.navlog, "diff", options.log, str(rng.randint(1, options.last)), str(rng.randint(1, options.last))],
    }
    for name, make in commands.items():
        runs = [run(make()) for _ in range(options.runs)]
        ms = sorted(r[0] for r in runs)
        figures[name] = {"p50_ms": statistics.median(ms), "max_ms": ms[-1], "peak_rss_mb": max(r[1] for r in runs) / 1024,
                         "runs": options.runs}
        print(f"navlog {name:<5} x{options.runs}, whole processes: p50 {figures[name]['p50_ms']:.1f} ms, "
              f"max {ms[-1]:.1f} ms, peak RSS {figures[name]['peak_rss_mb']:.1f} MB")
    if options.json:
        with open(options.json, "w") as out:
            json.dump(figures, out)


if __name__ == "__main__":
    main()
