#!/usr/bin/env python3
"""Derives a fleet's tables on Spark: navlog's own `export` runs on the executors, one device's log
at a time, and its rows become Parquet tables that Tools/sql runs on (in Spark, DuckDB and
ClickHouse: `Tools/sqldialect.py ENGINE --tables TABLES --parquet`).

    pipeline.py FLEET --out TABLES --navlog PATH [--master local[2]]
                [--devices a,b | --changed-from SUMMARY.json] [--slices N]

FLEET holds one log directory per device, FLEET/DEVICE/, as `navlog ingest` files them; hidden
entries (ingest's own state) are not devices. The navlog binary is shipped to the executors with
SparkContext.addFile (what `spark-submit --files` does on a cluster; a `--static-swift-stdlib`
build is one file); FLEET must be readable at the same path on every executor (a shared mount).

Each executor runs `navlog export DEVICE_DIR --table TABLE` (NDJSON) for screen_views,
transitions, deeplinks and sessions and hands its standard output to Spark's JSON reader, which
reads it with the columns Tools/sqldialect.py declares (one declaration for every engine) and
fails rather than guess at a line it cannot read; a `device` column is added. A device's rows of a
table are kept only when its export exits 0 with the declared columns: otherwise the device, the
table, the exit status and standard error are reported, its rows of that table left out, and the
pipeline exits 65 once the rest is written. What an export says on standard error with status 0
(a torn last line it dropped) is reported as a warning.

TABLES/<table>/day=YYYY-MM-DD/*.parquet: each table partitioned by the UTC day of its rows' time
(screen_views and sessions: start_ts; deeplinks: ts; transitions: the start_ts of the view it goes
to). TABLES/_pipeline.json says what was derived: devices, rows per table, failures, warnings.

Without --devices, every table is built anew beside the old one and put in its place. With
--devices a,b (or --changed-from, the JSON summary of `navlog ingest`, its "changed_devices"), only
those devices are derived again, and exactly their rows are replaced: each day partition that held
or now holds a row of theirs is rewritten with the other devices' rows as they were, so the
tables then equal a full rebuild's. A named device that is no longer in FLEET loses its rows.
Partitions are swapped one rename at a time: a run stopped half way is repaired by running again.

Exit status: 0; 64 on a usage error; 65 when a device's export failed (the rest written); 66 when
FLEET is not a directory.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import uuid

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOOLS)
import pydeps  # noqa: E402  (Tools/pydeps.py)
import sqldialect  # noqa: E402  (Tools/sqldialect.py)

# The column whose UTC day partitions each table. Transitions have no time of their own: they take
# the start of the view they go to, so a table's day is when its rows happened.
DAY_OF = {"screen_views": "start_ts", "deeplinks": "ts", "sessions": "start_ts", "transitions": None}
TABLES = list(sqldialect.TABLES)   # screen_views first: transitions take their days from it


def schema(table):
    """The DDL of a table's rows as the executors hand them over: the declared columns and device."""
    return sqldialect.columns(table, "spark") + ", device STRING"


def is_device_name(name):
    """Whether `name` is a device id as `navlog ship --device` takes it (and so a plain file name)."""
    return (0 < len(name.encode()) <= 64 and name not in (".", "..")
            and all(c.isascii() and (c.isalnum() or c in "._-") for c in name))


def list_fleet(fleet):
    """The devices of FLEET (its non-hidden entries), and a problem for each entry that is not a log
    directory: an entry FLEET/* names is never passed over in silence."""
    devices, problems = [], []
    for name in sorted(os.listdir(fleet)):
        if name.startswith("."):
            continue
        path = os.path.join(fleet, name)
        if not is_device_name(name):
            problems.append({"device": name, "table": None, "exit_status": None, "stderr": "not a device id"})
        elif os.path.islink(path) or not os.path.isdir(path):
            problems.append({"device": name, "table": None, "exit_status": None, "stderr": "not a log directory"})
        else:
            devices.append(name)
    return devices, problems


class ListParam:
    """An accumulator of lists (failures and warnings the executors report)."""

    def zero(self, value):
        return []

    def addInPlace(self, a, b):
        a.extend(b)
        return a


def exporter(table, fleet, binary, failures, warnings):
    """The function each executor runs over its devices for `table`: yields the export's lines,
    each with the device spliced in as its first member, for Spark's JSON reader."""
    declared = [name for name, _ in sqldialect.TABLES[table]]

    def export(devices):
        from pyspark import SparkFiles
        navlog = SparkFiles.get(binary)
        if not os.access(navlog, os.X_OK):
            os.chmod(navlog, 0o755)
        for device in devices:
            command = [navlog, "export", os.path.join(fleet, device), "--table", table]
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            stderr = done.stderr.decode(errors="replace")
            out = done.stdout.decode()
            lines = out.splitlines()
            if done.returncode == 0 and lines and list(json.loads(lines[0])) != declared:
                failures.add([{"device": device, "table": table, "exit_status": 0,
                               "stderr": "the export's columns %s are not the declared %s" % (list(json.loads(lines[0])), declared)}])
                continue
            if done.returncode != 0:
                failures.add([{"device": device, "table": table, "exit_status": done.returncode, "stderr": stderr}])
                continue
            if stderr:
                warnings.add([{"device": device, "table": table, "stderr": stderr}])
            prefix = '{"device":%s,' % json.dumps(device)
            for line in lines:
                yield prefix + line[1:]
    return export


def derive(spark, table, devices, fleet, binary, failures, warnings, slices, views):
    """The DataFrame of `table` for `devices`, with its day column; `views` are the screen views of
    the same devices (for the days of transitions)."""
    from pyspark.sql import functions as F
    rdd = spark.sparkContext.parallelize(devices, max(1, min(len(devices), slices)))
    lines = rdd.mapPartitions(exporter(table, fleet, binary, failures, warnings))
    rows = spark.read.schema(schema(table)).option("mode", "FAILFAST").json(lines)
    if DAY_OF[table]:
        return rows.withColumn("day", F.to_date(F.substring(DAY_OF[table], 1, 10)))
    days = views.select("device", "session", "scene", F.col("start_seq").alias("to_seq"), "day")
    return rows.join(days, ["device", "session", "scene", "to_seq"], "left").select(*rows.columns, "day")


def read_table(spark, path, table):
    """A table as written here: its columns, device and day (an empty table reads as empty)."""
    return spark.read.schema(schema(table) + ", day DATE").parquet(path)


def partitions(path):
    """The day partitions (directory names day=...) under `path`."""
    return {name for name in os.listdir(path) if name.startswith("day=")} if os.path.isdir(path) else set()


def replace(staged, target):
    """Puts the directory `staged` in the place of `target` (which may not exist)."""
    if os.path.exists(target):
        old = target + ".old-" + uuid.uuid4().hex
        os.rename(target, old)
        os.rename(staged, target)
        shutil.rmtree(old)
    else:
        os.rename(staged, target)


def run(argv, spark=None):
    """Runs the pipeline with the command line `argv` (without the program's name) and returns its
    exit status; in `spark`'s session when one is given (Tools/fleet-check.py runs the pipeline
    and its queries in one), else in its own, on --master, stopped at the end."""
    parser = argparse.ArgumentParser(prog="pipeline.py", description=__doc__.splitlines()[0])
    parser.add_argument("fleet")
    parser.add_argument("--out", required=True, help="the tables' directory")
    parser.add_argument("--navlog", required=True, help="the navlog binary shipped to the executors")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--slices", type=int, default=0, help="tasks per table (default: 4 per core of the master)")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--devices", help="comma-separated devices to derive again")
    chosen.add_argument("--changed-from", help="`navlog ingest --format json` summary naming the changed devices")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.fleet):
        print(f"pipeline.py: error: {args.fleet}: not a directory", file=sys.stderr)
        return 66
    if not (os.path.isfile(args.navlog) and os.access(args.navlog, os.X_OK)):
        parser.error(f"--navlog {args.navlog}: not an executable file")
    if args.slices < 0:
        parser.error("--slices takes a positive number")
    fleet, out = os.path.abspath(args.fleet), os.path.abspath(args.out)
    present, problems = list_fleet(fleet)
    named = None
    if args.devices is not None:
        named = [d for d in args.devices.split(",") if d]
    elif args.changed_from:
        named = json.load(open(args.changed_from))["changed_devices"]
    if named is not None:
        bad = [d for d in named if not is_device_name(d)]
        if bad:
            parser.error("not a device id: " + ", ".join(bad))
    incremental = named is not None and all(os.path.isdir(os.path.join(out, t)) for t in TABLES)
    targets = sorted(set(named) & set(present)) if incremental else present
    problems = [p for p in problems if not incremental or p["device"] in named]

    try:
        import pyspark  # noqa: F401
    except ImportError:
        pydeps.install("pyspark")
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    started = time.monotonic()
    own = spark is None
    if own:
        spark = (SparkSession.builder.master(args.master).appName("navlog-fleet-pipeline")
                 .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false").config("spark.sql.adaptive.enabled", "false")
                 .config("spark.sql.shuffle.partitions", str(max(1, os.cpu_count() or 1))).getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
    elif spark.conf.get("spark.sql.session.timeZone") != "UTC":
        raise ValueError("the pipeline's Spark session must have spark.sql.session.timeZone UTC")
    sc = spark.sparkContext
    start_up = time.monotonic() - started
    sc.addFile(os.path.abspath(args.navlog))
    binary = os.path.basename(args.navlog)
    slices = args.slices or 4 * sc.defaultParallelism
    failures, warnings = sc.accumulator([], ListParam()), sc.accumulator([], ListParam())

    os.makedirs(out, exist_ok=True)
    staging = os.path.join(out, ".staging-" + uuid.uuid4().hex)
    rows, affected = {}, {}
    for table in TABLES:
        staged = os.path.join(staging, table)
        views = None if DAY_OF[table] else read_table(spark, os.path.join(staging, "screen_views"), "screen_views") \
            .where(F.col("device").isin(targets))
        fresh = derive(spark, table, targets, fleet, binary, failures, warnings, slices, views)
        fresh.write.partitionBy("day").parquet(staged)
        rows[table] = read_table(spark, staged, table).count()
        if incremental:
            current = os.path.join(out, table)
            old = read_table(spark, current, table)
            days = partitions(staged) | {"day=" + r[0].isoformat() for r in
                                         old.where(F.col("device").isin(named)).select("day").distinct().collect()}
            affected[table] = days
            kept = old.where(F.col("day").isin([d[4:] for d in days]) & ~F.col("device").isin(named))
            kept.write.mode("append").partitionBy("day").parquet(staged)
    for table in TABLES:
        staged, current = os.path.join(staging, table), os.path.join(out, table)
        if not incremental:
            replace(staged, current)
            continue
        for day in sorted(affected[table]):
            if os.path.isdir(os.path.join(staged, day)):
                replace(os.path.join(staged, day), os.path.join(current, day))
            else:
                shutil.rmtree(os.path.join(current, day))
    shutil.rmtree(staging, ignore_errors=True)
    if own:
        spark.stop()

    failed = problems + sorted(failures.value, key=lambda f: (f["device"], f["table"]))
    report = {"fleet": fleet, "incremental": incremental, "devices": targets, "rows_derived": rows,
              "failed": failed, "warnings": sorted(warnings.value, key=lambda w: (w["device"], w["table"])),
              "start_up_seconds": round(start_up, 3), "seconds": round(time.monotonic() - started, 3)}
    with open(os.path.join(out, "_pipeline.json.tmp"), "w") as f:
        json.dump(report, f, indent=1)
    os.replace(os.path.join(out, "_pipeline.json.tmp"), os.path.join(out, "_pipeline.json"))
    for f in failed:
        where = f" ({f['table']})" if f["table"] else ""
        print(f"pipeline.py: error: {os.path.join(fleet, f['device'])}{where}: exit {f['exit_status']}: "
              f"{f['stderr'].strip()}", file=sys.stderr)
    for w in report["warnings"]:
        print(f"pipeline.py: warning: {os.path.join(fleet, w['device'])} ({w['table']}): {w['stderr'].strip()}", file=sys.stderr)
    print(f"pipeline.py: {len(targets)} devices derived{' again' if incremental else ''}, "
          + ", ".join(f"{t} {n:,} rows" for t, n in rows.items())
          + f"; {len(failed)} failed; start-up {start_up:.1f} s, {report['seconds']:.1f} s in all", file=sys.stderr)
    return 65 if failed else 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
