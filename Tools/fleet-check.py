#!/usr/bin/env python3
"""Checks the fleet pipeline end to end: a generated fleet of devices ships its segments to an inbox,
they are filed into FLEET/DEVICE/, Tools/fleet/pipeline.py derives the Parquet tables on Spark
local[2], and every query of Tools/sql over those tables, in DuckDB, Spark SQL and ClickHouse,
equals navlog's own answer over FLEET/* (one PATH per device). Then 10 devices record more and
ship new segments, which are filed; the pipeline derives those devices again (from the filing's
list of changed devices), and the tables equal, row for row and day for day, a full rebuild's;
that rebuild also meets a device whose log is damaged, which it must report (exit 65, the device
and each table named) while writing the rest.

    python3 Tools/fleet-check.py --navlog .build/debug/navlog [--devices N] [--events E]

Prints one line per check and ends with "N passed, M failed"; exits 1 when a check failed.
"""
import argparse
import concurrent.futures
import contextlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("sql_check", os.path.join(HERE, "sql-check.py"))
sql_check = importlib.util.module_from_spec(spec)
sys.path.insert(0, HERE)
spec.loader.exec_module(sql_check)
run = sql_check.run

import sqldialect   # noqa: E402  (Tools/ is on the path from here on)

spec = importlib.util.spec_from_file_location("pipeline", os.path.join(HERE, "fleet", "pipeline.py"))
pipeline_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pipeline_module)
CHANGED = 10
DAMAGED = "zz-damaged"


def record(navlog, source, device, seed, events):
    """A device's log: `events` generated events in small segments, so that it ships several."""
    run(navlog, "generate", "--events", str(events), "--seed", str(seed), "--segment-size", "16384", "-o", os.path.join(source, device))


def record_more(navlog, source, device, seed, events):
    """The device records `events` more events (another generated session history appended)."""
    extra = os.path.join(source, device + ".more.jsonl")
    run(navlog, "generate", "--events", str(events), "--seed", str(seed), "-o", extra)
    subprocess.run([navlog, "append", os.path.join(source, device), "--stdin"], input=run(navlog, "dump", extra),
                   check=True, capture_output=True, text=True)


def ship(navlog, source, inbox, device):
    """What the device's app uploads: its sealed segments not shipped yet, to INBOX/DEVICE/."""
    run(navlog, "ship", os.path.join(source, device), "--to", inbox, "--device", device, "--seal")


def ingest(navlog, inboxes, fleet, summary, status=0):
    """Files the uploads of `inboxes` into FLEET/DEVICE/ with `navlog ingest --format json`, whose
    summary (written to `summary`: its "changed_devices" is what the pipeline re-derives) it
    returns, after checking ingest's exit status is `status` (65 when something was rejected)."""
    done = subprocess.run([navlog, "ingest", *inboxes, "--into", fleet, "--format", "json"], capture_output=True, text=True)
    if done.returncode != status:
        sys.exit(f"navlog ingest exited {done.returncode}, not {status}: {done.stderr}")
    with open(summary, "w") as out:
        out.write(done.stdout)
    return json.loads(done.stdout)


def messy_uploads(inbox, early, dups, bad, devices):
    """What a bucket holds besides the uploads in order: for a few devices, their later segments
    in `early` (ingested first, so held until the first ones come), the same bytes again in `dups`,
    and in `bad` uploads ingest must reject: a bad crc, a file that is not JSON, a symbolic link,
    and a device id that is not a plain name. Returns how many of each were made."""
    few = devices[:5]
    for device in few:
        names = sorted(os.listdir(os.path.join(inbox, device)))
        os.makedirs(os.path.join(early, device))
        for name in names[1:]:
            shutil.copyfile(os.path.join(inbox, device, name), os.path.join(early, device, name))
        os.makedirs(os.path.join(dups, device))
        shutil.copyfile(os.path.join(inbox, device, names[0]), os.path.join(dups, device, names[0]))
    victim = devices[5]
    first = sorted(os.listdir(os.path.join(inbox, victim)))[0]
    data = open(os.path.join(inbox, victim, first), "rb").read()
    os.makedirs(os.path.join(bad, "phone-tampered"))
    # The same segment with one byte of its first line changed: its crc no longer holds.
    k = data.index(b'"session":"') + len(b'"session":"')
    open(os.path.join(bad, "phone-tampered", "00000001.jsonl"), "wb").write(data[:k] + bytes([data[k] ^ 1]) + data[k + 1:])
    os.makedirs(os.path.join(bad, "phone-garbage"))
    open(os.path.join(bad, "phone-garbage", "00000001.jsonl"), "w").write("not json\n")
    os.makedirs(os.path.join(bad, "phone-link"))
    os.symlink(os.path.join(inbox, victim, first), os.path.join(bad, "phone-link", "00000001.jsonl"))
    os.makedirs(os.path.join(bad, "bad id"))
    shutil.copyfile(os.path.join(inbox, victim, first), os.path.join(bad, "bad id", "00000001.jsonl"))
    held = sum(len(os.listdir(os.path.join(early, d))) for d in few)
    return {"held": held, "duplicates": len(few) + held, "rejected": 4}


def pipeline(spark, navlog, fleet, tables, *options):
    """Runs the pipeline in `spark` (the Spark SQL engine's session, local[2]); its exit status
    and what it said on standard error."""
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        status = pipeline_module.run([fleet, "--out", tables, "--navlog", navlog, *options], spark)
    print("      " + "\n      ".join(said.getvalue().splitlines()))
    return status, said.getvalue()


def table_difference(con, a, b):
    """Per table, the rows (with their device and day) in one of the table directories and not the
    other, counted with multiplicity; and the rows in all."""
    differences = {}
    for table in sqldialect.TABLES:
        def read(d):
            return f"read_parquet('{d}/{table}/*/*.parquet', hive_partitioning = true)"
        extra, = con.execute(f"SELECT count(*) FROM (SELECT * FROM {read(a)} EXCEPT ALL SELECT * FROM {read(b)})").fetchone()
        missing, = con.execute(f"SELECT count(*) FROM (SELECT * FROM {read(b)} EXCEPT ALL SELECT * FROM {read(a)})").fetchone()
        rows, = con.execute(f"SELECT count(*) FROM {read(a)}").fetchone()
        differences[table] = (extra, missing, rows)
    return differences


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--navlog", required=True)
    parser.add_argument("--devices", type=int, default=200)
    parser.add_argument("--events", type=int, default=300, help="events of the first device; the others have 1x to 3x as many")
    args = parser.parse_args()
    navlog = os.path.abspath(args.navlog)
    passed = failed = 0

    def check(ok, text):
        nonlocal passed, failed
        passed, failed = passed + bool(ok), failed + (not ok)
        print(("ok    " if ok else "FAIL  ") + text)

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="navlog-fleet-") as tmp:
        source, fleet = os.path.join(tmp, "phones"), os.path.join(tmp, "fleet")
        inbox, later = os.path.join(tmp, "inbox1"), os.path.join(tmp, "inbox2")
        os.makedirs(fleet)
        devices = [f"phone-{k:04d}" for k in range(args.devices)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(lambda k: record(navlog, source, devices[k], 100 + k, args.events * (1 + k % 3)), range(len(devices))))
            list(pool.map(lambda d: ship(navlog, source, inbox, d), devices))
        early, dups, bad = (os.path.join(tmp, name) for name in ("early", "dups", "bad"))
        made = messy_uploads(inbox, early, dups, bad, devices)
        first = ingest(navlog, [early], fleet, os.path.join(tmp, "summary0.json"))
        check(first["totals"]["held"] == made["held"] and first["totals"]["filed"] == 0 and not first["changed_devices"],
              f"later segments before their first ones are held: {first['totals']}")
        summary = ingest(navlog, [inbox, dups, bad], fleet, os.path.join(tmp, "summary1.json"), status=65)
        totals, changed = summary["totals"], sorted(summary["changed_devices"])
        check(changed == devices and totals["rejected"] == made["rejected"] and totals["duplicates"] == made["duplicates"]
              and totals["held"] == 0 and not totals["conflicts"],
              f"{len(changed)} devices filed into FLEET, the held ones closed, duplicates and rejects counted: {totals}"
              f" (in {time.monotonic() - started:.0f} s)")
        check(sorted(n for n in os.listdir(fleet) if not n.startswith(".")) == devices, "FLEET/* is the devices: ingest's own state is hidden, nothing rejected filed")
        filed = json.loads(run(navlog, "paths", *[os.path.join(fleet, d) for d in devices], "--format", "json"))
        recorded = json.loads(run(navlog, "paths", *[os.path.join(source, d) for d in devices], "--format", "json"))
        check(filed["rows"] == recorded["rows"] and filed["rows"], f"navlog paths over FLEET/* = over the devices' own logs")

        # One Spark session (local[2]) runs the pipeline and Spark SQL's queries.
        engines = {name: {"duckdb": sql_check.DuckDB, "spark": sql_check.Spark, "clickhouse": sql_check.ClickHouse}[name]()
                   for name in ("duckdb", "spark", "clickhouse")}
        spark = engines["spark"].spark
        tables = os.path.join(tmp, "tables")
        status, _ = pipeline(spark, navlog, fleet, tables)
        report = json.load(open(os.path.join(tables, "_pipeline.json")))
        check(status == 0 and report["devices"] == devices and not report["failed"],
              f"pipeline over {len(devices)} devices: exit {status}, {len(report['failed'])} failed")

        paths = [os.path.join(fleet, d) for d in devices]
        con = sql_check.duckdb.connect()
        for table in sqldialect.TABLES:
            # A device's rows are its export's, with its id beside them.
            device = devices[len(devices) // 2]
            exported = [json.loads(line) for line in run(navlog, "export", paths[len(devices) // 2], "--table", table).splitlines()]
            names = [name for name, _ in sqldialect.TABLES[table]]
            stored = con.execute(f"SELECT {', '.join(names)} FROM read_parquet('{tables}/{table}/*/*.parquet', hive_partitioning = true) "
                                 f"WHERE device = ? ORDER BY {', '.join(names)}", [device]).fetchall()
            expected = sorted((tuple(row[n] for n in names) for row in exported), key=lambda r: tuple((v is not None, v) for v in r))
            stored = sorted(stored, key=lambda r: tuple((v is not None, v) for v in r))
            check(stored == expected and stored, f"{table} rows of {device}: {len(stored)} in the Parquet table, as navlog exports them")

        for engine in engines.values():
            engine.load(tables, parquet=True)
        for name, (sql_file, navlog_args, key, row) in sql_check.CHECKS.items():
            output = json.loads(run(navlog, *navlog_args, *paths, "--format", "json"))
            actual = [row(r) for r in output[key]]
            many = len(output.get("logs", [])) == len(paths) and not output.get("repeated_sessions")
            source_sql = open(os.path.join(HERE, "sql", sql_file)).read()
            for engine_name, engine in engines.items():
                expected = sql_check.as_rows(engine.query(sqldialect.translate(source_sql, engine_name)))
                label = sql_check.ENGINES[engine_name]
                if output.get("format") == 2 and many and actual == expected and actual:
                    check(True, f"{name} over {len(paths)} devices: {len(actual)} rows equal {label}'s over the Parquet tables")
                else:
                    check(False, f"{name} over {len(paths)} devices ({len(output.get('logs', []))} logs read, "
                                 f"{len(output.get('repeated_sessions', []))} repeated session ids): see below")
                    sql_check.print_difference(name, actual, expected, label)

        # Ten devices record more and ship it; the filing says which changed.
        moved = devices[::len(devices) // CHANGED][:CHANGED]
        for k, device in enumerate(moved):
            record_more(navlog, source, device, 5000 + k, 120)
            ship(navlog, source, later, device)
        summary = os.path.join(tmp, "summary2.json")
        changed = sorted(ingest(navlog, [later], fleet, summary)["changed_devices"])
        check(changed == moved, f"new segments of {len(changed)} devices filed: {', '.join(changed)}")
        # A device whose log is damaged (a line that is not JSON): the rebuild must say so.
        os.makedirs(os.path.join(fleet, DAMAGED))
        with open(os.path.join(fleet, DAMAGED, "00000001.jsonl"), "w") as out:
            out.write('not json\n{"v":1}\n')
        spark.catalog.clearCache()   # the engine's cached tables, which the pipeline now replaces
        status, _ = pipeline(spark, navlog, fleet, tables, "--changed-from", summary)
        report = json.load(open(os.path.join(tables, "_pipeline.json")))
        check(status == 0 and report["incremental"] and report["devices"] == moved,
              f"incremental run: exit {status}, derived again {len(report['devices'])} devices")
        rebuilt = os.path.join(tmp, "rebuilt")
        status, stderr = pipeline(spark, navlog, fleet, rebuilt)
        report = json.load(open(os.path.join(rebuilt, "_pipeline.json")))
        named = sorted(f["table"] for f in report["failed"] if f["device"] == DAMAGED and f["exit_status"] == 65
                       and "00000001.jsonl:1:" in f["stderr"])
        check(status == 65 and named == sorted(sqldialect.TABLES) and len(report["failed"]) == len(sqldialect.TABLES)
              and f"{DAMAGED} (sessions): exit 65" in stderr and len(report["devices"]) == len(devices) + 1,
              f"full rebuild with a damaged device: exit {status}, failures {[(f['device'], f['table']) for f in report['failed']]}")
        differences = table_difference(con, tables, rebuilt)
        for table, (extra, missing, rows) in differences.items():
            check(extra == 0 and missing == 0 and rows > 0,
                  f"{table} after the incremental run equals the full rebuild: {rows:,} rows, {extra} only there, {missing} only in the rebuild")
        changed_rows, = con.execute(f"SELECT count(*) FROM read_parquet('{tables}/screen_views/*/*.parquet') WHERE device IN "
                                    f"({', '.join('?' * len(moved))})", moved).fetchone()
        before = sum(1 for d in moved for _ in run(navlog, "export", os.path.join(fleet, d), "--table", "screen_views").splitlines())
        check(changed_rows == before, f"the changed devices' {changed_rows:,} screen views are their logs' now ({before:,})")
        for engine in engines.values():
            if hasattr(engine, "close"):
                engine.close()
    print(f"time  {time.monotonic() - started:.0f} s")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
