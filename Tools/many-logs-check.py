#!/usr/bin/env python3
"""Checks that navlog's answers over many logs equal Tools/sql/*.sql in DuckDB over the logs'
exports concatenated: several generated logs (single files and a log directory) and one that
repeats an earlier log's session ids, whose sessions navlog keeps apart by naming them ID@K in
the K-th log; the same names are given to that log's exported rows here, from navlog's
"repeated_sessions", before the exports are concatenated.

    python3 Tools/many-logs-check.py --navlog .build/debug/navlog [--events N] [--large-events L]

Logs of N events each (default 12,000) are read several at once; logs of L events (default
110,000: each over the 16 MiB from which a log is read in chunks) one at a time, in chunks; both
are checked.

Prints one line per check and ends with "N passed, M failed"; exits 1 when a check failed.
"""
import argparse
import importlib.util
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sql_check", os.path.join(HERE, "sql-check.py"))
sql_check = importlib.util.module_from_spec(spec)
sys.path.insert(0, HERE)
spec.loader.exec_module(sql_check)
duckdb = sql_check.duckdb
run = sql_check.run

import sqldialect   # noqa: E402  (Tools/ is on the path from here on)

TABLES = {table: sqldialect.columns(table, "duckdb") for table in sqldialect.TABLES}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--navlog", required=True)
    parser.add_argument("--events", type=int, default=12000)
    parser.add_argument("--large-events", type=int, default=110000)
    args = parser.parse_args()
    passed = failed = 0
    for events in [args.events, args.large_events]:
        p, f = check(args.navlog, events)
        passed, failed = passed + p, failed + f
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def check(navlog, events):
    """Checks every query over four logs of `events` events each; returns (passed, failed)."""
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="navlog-many-") as tmp:
        logs = []
        for name, seed in [("a.jsonl", 1), ("b.navlog", 2), ("c.jsonl", 3), ("again.jsonl", 1)]:
            path = os.path.join(tmp, "logs", name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            run(navlog, "generate", "--events", str(events), "--seed", str(seed), "-o", path)
            logs.append(path)
        first = json.loads(run(navlog, "screens", *logs, "--format", "json"))
        names = {}   # per log: session id -> the name navlog gives it there
        for repeated in first["repeated_sessions"]:
            for log, name in zip(repeated["logs"], repeated["names"]):
                names.setdefault(log, {})[repeated["session"]] = name
        counts = [json.loads(run(navlog, "verify", log, "--format", "json"))["events"] for log in logs]
        listed = [(log["path"], log["events"]) for log in first["logs"]]
        if listed == list(zip(logs, counts)) and len(first["repeated_sessions"]) > 0:
            passed += 1
            print(f"ok    logs read: {len(logs)} of {events:,} events, events each {counts}; {len(first['repeated_sessions'])} repeated session ids kept apart")
        else:
            failed += 1
            print(f"FAIL  logs read: navlog lists {listed}, verify counts {counts}; repeated {len(first['repeated_sessions'])}")
        con = duckdb.connect()
        for table, columns in TABLES.items():
            combined = os.path.join(tmp, f"{table}.ndjson")
            with open(combined, "w") as out:
                for log in logs:
                    exported = os.path.join(tmp, "export.ndjson")
                    run(navlog, "export", log, "--table", table, "-o", exported)
                    rename = names.get(log, {})
                    for line in open(exported):
                        row = json.loads(line)
                        if row.get("session") in rename:
                            row["session"] = rename[row["session"]]
                            line = json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"
                        out.write(line)
            con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_json('{combined}', format='newline_delimited', columns={columns})")
        for name, (sql_file, navlog_args, key, row) in sql_check.CHECKS.items():
            sql = open(os.path.join(HERE, "sql", sql_file)).read()
            expected = sql_check.as_rows(con.execute(sql).fetchall())
            output = json.loads(run(navlog, *navlog_args, *logs, "--format", "json"))
            actual = [row(r) for r in output[key]]
            if output.get("format") == 2 and actual == expected and actual and len(output.get("logs", [])) == len(logs):
                passed += 1
                print(f"ok    {name} over {len(logs)} logs of {events:,} events: {len(actual)} rows equal DuckDB's over the concatenated exports")
            else:
                failed += 1
                sql_check.print_difference(f"{name} over {len(logs)} logs of {events:,} events", actual, expected, "DuckDB")
    return passed, failed


if __name__ == "__main__":
    main()
