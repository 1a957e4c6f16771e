#!/usr/bin/env python3
"""Time DuckDB counting the events of a navlog .jsonl file, in process, with its default threads.

    python3 Tools/bench/duckdb_count.py FILE [--repeat K] [--no-columns] [--navlog-bench BIN]

Installs the `duckdb` package with pip if it is missing. The connection is set up first; only the
query's execution (execute + fetch) is timed, with time.perf_counter, best and median of K runs
(default 3). Prints one JSON object per line:

    {"engine":"duckdb","events":N,"seconds":S,"median_seconds":M,"threads":T,"query":"read_json_auto"}
    {"engine":"duckdb","events":N,"seconds":S,"median_seconds":M,"threads":T,"query":"read_json columns"}

With --navlog-bench, navlog's reader takes turns with DuckDB: after a run of each query untimed,
each round runs `BIN read FILE --repeat 1 --baseline-lines 0` (navlog on 1 core and on all cores, and LogReader.verify,
each once untimed and once timed in its process) and each query once, which goes first
alternating from round to round, so that a neighbour's burst of load falls on both alike; it also
prints navlog's two rows:

    {"engine":"navlog","name":"navlog 1 core","events":N,"seconds":S,"median_seconds":M,"threads":1}

The first runs `SELECT count(*) FROM read_json_auto('FILE')`. The second (skip it with
--no-columns) runs `read_json('FILE', format='newline_delimited', columns={...})` with the common
members declared, and also takes max(seq) so the seq column is parsed. Each count is checked
against the file's line count; a mismatch exits with status 1.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import pydeps  # noqa: E402  (Tools/pydeps.py)


def ensure_duckdb():
    try:
        import duckdb  # noqa: F401
    except ImportError:
        pydeps.install("duckdb")
    import duckdb
    return duckdb


def count_lines(path):
    lines = 0
    with open(path, "rb") as f:
        while True:
            chunk = f.read(4 << 20)
            if not chunk:
                return lines
            lines += chunk.count(b"\n")


def sql_string(s):
    return "'" + s.replace("'", "''") + "'"


def timed(con, sql):
    """One run of `sql`: its first row and its seconds."""
    start = time.perf_counter()
    row = con.execute(sql).fetchone()
    return row, time.perf_counter() - start


def navlog_round(bench, path):
    """One run of `bench read`: navlog's rows, each with its seconds."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([bench, "read", path, "--repeat", "1", "--baseline-lines", "0", "--json", out.name],
                       check=True, stdout=subprocess.DEVNULL)
        return json.load(open(out.name))["results"]


def median(times):
    ordered = sorted(times)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main(argv):
    args = argv[1:]
    repeats, columns = 3, True
    if "--no-columns" in args:
        args.remove("--no-columns")
        columns = False
    if "--repeat" in args:
        i = args.index("--repeat")
        repeats = int(args[i + 1])
        del args[i:i + 2]
    bench = None
    if "--navlog-bench" in args:
        i = args.index("--navlog-bench")
        bench = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    path = args[0]

    duckdb = ensure_duckdb()
    lines = count_lines(path)  # also warms the page cache
    con = duckdb.connect()  # in-memory database, default settings
    threads = int(con.execute("SELECT current_setting('threads')").fetchone()[0])

    queries = [("read_json_auto", f"SELECT count(*) FROM read_json_auto({sql_string(path)})")]
    if columns:
        spec = ("{v: 'INTEGER', seq: 'BIGINT', ts: 'VARCHAR', session: 'VARCHAR', type: 'VARCHAR', "
                "scene: 'VARCHAR', stack: 'VARCHAR', crc: 'VARCHAR'}")
        queries.append(("read_json columns",
                        f"SELECT count(*), max(seq) FROM read_json({sql_string(path)}, "
                        f"format='newline_delimited', columns={spec})"))
    times = {name: [] for name, _ in queries}
    counts = {}
    navlog = {}  # name -> (threads, events, [seconds])

    def run_duckdb():
        for name, sql in queries:
            row, seconds = timed(con, sql)
            counts[name] = int(row[0])
            times[name].append(seconds)

    def run_navlog():
        for result in navlog_round(bench, path):
            navlog.setdefault(result["name"], (result["threads"], result["events"], []))[2].append(result["seconds"])

    if bench is not None:   # the warm-up, untimed: DuckDB's first query sets up its threads and caches
        run_duckdb()
        for name in times:
            times[name].clear()
    for round_ in range(repeats):
        if bench is None:
            run_duckdb()
        else:
            for run in ((run_navlog, run_duckdb) if round_ % 2 == 0 else (run_duckdb, run_navlog)):
                run()
    status = 0
    for name, _ in queries:
        events = counts[name]
        print(json.dumps({"engine": "duckdb", "events": events, "seconds": round(min(times[name]), 6),
                          "median_seconds": round(median(times[name]), 6), "threads": threads, "query": name},
                         separators=(",", ":")), flush=True)
        if events != lines:
            print(f"duckdb_count: {name} counted {events} events but {path} has {lines} lines",
                  file=sys.stderr)
            status = 1
    for name, (threads_, events, seconds) in navlog.items():
        print(json.dumps({"engine": "navlog", "name": name, "events": events, "seconds": round(min(seconds), 6),
                          "median_seconds": round(median(seconds), 6), "threads": threads_}, separators=(",", ":")), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
