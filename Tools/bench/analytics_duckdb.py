#!/usr/bin/env python3
"""navlog's analytics beside DuckDB on the same NDJSON log: `navlog paths --length 3` and a
3-step `navlog funnel`, against DuckDB computing a 3-screen n-gram and an ordered 3-step funnel
with window functions over the log's route screens (push, replace) — the closest SQL can get
without the fold.

    analytics_duckdb.py NAVLOG LOG [LOG ...] [--repeat K]

navlog is timed as a process and its peak memory is the child's ru_maxrss; DuckDB is timed inside
its process with its default threads, its peak memory the growth of this process's ru_maxrss over
the run. The two take turns, K rounds of one run each, so that a neighbour's burst of load falls on
both alike rather than on one engine's block of runs; which goes first alternates from round to
round. Each engine runs once untimed before the rounds: a log that sat idle is paged back in by
whichever engine reads it first (several seconds at 10M events here), which is the machine's cost,
not the engine's. Prints one JSON object per (log, query, engine), with the best and the median of
its K times.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import pydeps  # noqa: E402  (Tools/pydeps.py)

try:
    import duckdb
except ImportError:
    pydeps.install("duckdb")
    import duckdb

SCREENS = """
    SELECT session, scene, seq, route.screen AS screen, ts
    FROM read_json('{log}', format='newline_delimited',
                   columns={{seq: 'BIGINT', ts: 'VARCHAR', session: 'VARCHAR', type: 'VARCHAR', scene: 'VARCHAR',
                             route: 'STRUCT(screen VARCHAR, id VARCHAR)'}})
    WHERE type IN ('push', 'replace')
"""
PATHS = """
    WITH s AS ({screens}),
    w AS (SELECT session, screen, lead(screen, 1) OVER o AS s2, lead(screen, 2) OVER o AS s3
          FROM s WINDOW o AS (PARTITION BY session, scene ORDER BY seq))
    SELECT screen, s2, s3, count(*) AS n, count(DISTINCT session) AS sessions
    FROM w WHERE s3 IS NOT NULL GROUP BY ALL ORDER BY n DESC
"""
FUNNEL = """
    WITH s AS ({screens}),
    a AS (SELECT session, min(seq) AS q1 FROM s WHERE screen = 'category' GROUP BY session),
    b AS (SELECT a.session, a.q1, min(s.seq) AS q2 FROM a JOIN s ON s.session = a.session AND s.seq > a.q1 AND s.screen = 'recipe' GROUP BY ALL),
    c AS (SELECT b.session, min(s.seq) AS q3 FROM b JOIN s ON s.session = b.session AND s.seq > b.q2 AND s.screen = 'reviews' GROUP BY ALL)
    SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), (SELECT count(*) FROM c)
"""


def navlog_run(navlog, args):
    """One run of navlog: its seconds and its peak memory in bytes."""
    code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
            "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, navlog, *args], check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), int(out[1]) * 1024


def summary(times):
    """The best and the median of `times`."""
    ordered = sorted(times)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return {"seconds": ordered[0], "median_seconds": median}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("navlog")
    parser.add_argument("logs", nargs="+")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for log in args.logs:
        # A log directory is read by DuckDB as the glob of its segments.
        files = sorted(os.path.join(log, n) for n in os.listdir(log) if n.endswith(".jsonl")) if os.path.isdir(log) else [log]
        events = sum(sum(1 for _ in open(f, "rb")) for f in files)
        source = os.path.join(log, "*.jsonl") if os.path.isdir(log) else log
        queries = {
            "paths --length 3": (["paths", log, "--length", "3", "--top", "0", "--format", "json"], PATHS),
            "funnel, 3 steps": (["funnel", log, "--steps", "category,recipe,reviews", "--format", "json"], FUNNEL),
        }
        for name, (navlog_args, sql) in queries.items():
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            con = duckdb.connect()
            text = sql.format(screens=SCREENS.format(log=source))
            navlog_times, duckdb_times, peak = [], [], 0

            def run_navlog():
                nonlocal peak
                seconds, bytes_ = navlog_run(args.navlog, navlog_args)
                navlog_times.append(seconds)
                peak = max(peak, bytes_)

            def run_duckdb():
                start = time.perf_counter()
                con.execute(text).fetchall()
                duckdb_times.append(time.perf_counter() - start)

            run_navlog(), run_duckdb()   # the warm-up, untimed
            navlog_times.clear(), duckdb_times.clear()
            for round_ in range(args.repeat):
                for run in ((run_navlog, run_duckdb) if round_ % 2 == 0 else (run_duckdb, run_navlog)):
                    run()
            threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
            con.close()
            grown = max(0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
            print(json.dumps({"log": log, "events": events, "query": name, "engine": "navlog", **summary(navlog_times), "peak_bytes": peak}),
                  flush=True)
            print(json.dumps({"log": log, "events": events, "query": name, "engine": f"duckdb ({threads} threads)", **summary(duckdb_times),
                              "peak_bytes": grown}), flush=True)


if __name__ == "__main__":
    main()
