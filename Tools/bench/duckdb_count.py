#!/usr/bin/env python3
"""Time DuckDB counting the events of a navlog .jsonl file, in process, with its default threads.

    python3 Tools/bench/duckdb_count.py FILE [--repeat K] [--no-columns]

Installs the `duckdb` package with pip if it is missing. The connection is set up first; only the
query's execution (execute + fetch) is timed, with time.perf_counter, best of K runs (default 3).
Prints one JSON object per line:

    {"engine":"duckdb","events":N,"seconds":S,"threads":T,"query":"read_json_auto"}
    {"engine":"duckdb","events":N,"seconds":S,"threads":T,"query":"read_json columns"}

The first runs `SELECT count(*) FROM read_json_auto('FILE')`. The second (skip it with
--no-columns) runs `read_json('FILE', format='newline_delimited', columns={...})` with the common
members declared, and also takes max(seq) so the seq column is parsed. Each count is checked
against the file's line count; a mismatch exits with status 1.
"""
import json
import os
import sys
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


def best_of(con, sql, repeats):
    best, row = None, None
    for _ in range(repeats):
        start = time.perf_counter()
        row = con.execute(sql).fetchone()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return row, best


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
    status = 0
    for name, sql in queries:
        row, seconds = best_of(con, sql, repeats)
        events = int(row[0])
        print(json.dumps({"engine": "duckdb", "events": events, "seconds": round(seconds, 6),
                          "threads": threads, "query": name}, separators=(",", ":")), flush=True)
        if events != lines:
            print(f"duckdb_count: {name} counted {events} events but {path} has {lines} lines",
                  file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
