#!/usr/bin/env python3
"""SQLite beside navlog's store: the same lines inserted as rows, durably.

    sqlite_store.py LINES.jsonl DIR [--synced S] [--batched N] [--repeat K]

Inserts rows (seq INTEGER PRIMARY KEY, line TEXT) into a WAL database with synchronous=FULL:
  - "SQLite WAL, 1 txn/event": the first S lines (default 2000), one transaction per event;
  - "SQLite WAL, 1 txn/1000 events": N rows (default 500000, cycling through the lines), one
    transaction per 1,000 events.
Prints one JSON object per measurement: name, events, seconds (best of K runs, default 3).
Python's sqlite3 is in the standard library: nothing to install.
"""
import argparse
import json
import os
import shutil
import sqlite3
import time


def connect(directory):
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    db = sqlite3.connect(os.path.join(directory, "events.sqlite"), isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, line TEXT NOT NULL)")
    return db


def per_event(lines, directory):
    db = connect(directory)
    start = time.perf_counter()
    for seq, line in enumerate(lines, 1):
        db.execute("BEGIN")
        db.execute("INSERT INTO events VALUES (?, ?)", (seq, line))
        db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    db.close()
    return elapsed


def batched(lines, count, directory, size=1000):
    db = connect(directory)
    start = time.perf_counter()
    seq = 0
    while seq < count:
        db.execute("BEGIN")
        db.executemany("INSERT INTO events VALUES (?, ?)",
                       ((s + 1, lines[s % len(lines)]) for s in range(seq, min(seq + size, count))))
        db.execute("COMMIT")
        seq += size
    elapsed = time.perf_counter() - start
    db.close()
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lines")
    parser.add_argument("directory")
    parser.add_argument("--synced", type=int, default=2000)
    parser.add_argument("--batched", type=int, default=500000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with open(args.lines, encoding="utf-8") as handle:
        lines = [line.rstrip("\n") for line in handle if line.strip()]
    synced = lines[:args.synced]
    results = [
        ("SQLite WAL, 1 txn/event", len(synced), min(per_event(synced, args.directory) for _ in range(args.repeat))),
        ("SQLite WAL, 1 txn/1000 events", args.batched,
         min(batched(lines, args.batched, args.directory) for _ in range(args.repeat))),
    ]
    shutil.rmtree(args.directory, ignore_errors=True)
    for name, events, seconds in results:
        print(json.dumps({"name": name, "events": events, "seconds": seconds,
                          "sqlite": sqlite3.sqlite_version}))


if __name__ == "__main__":
    main()
