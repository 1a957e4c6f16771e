#!/usr/bin/env python3
"""Every query of Tools/sql on one export in DuckDB, Spark SQL (local mode, all cores) and
ClickHouse (chdb), and `navlog paths` and `navlog screens` on the log it came from beside their
SQL: when to reach for which, and how far each engine is from DuckDB on the same export.

    sql_engines.py NAVLOG LOG [--repeat K]

Exports LOG's tables once (not timed), then runs each engine in a process of its own, so that
each one's start-up (import and session, with Spark's JVM) and peak memory are its own:
start-up, the load of the export as Tools/sqldialect.py defines it, then every query once
untimed (a JVM compiles its hot code in the first runs, and every engine gets the same warm-up),
then K rounds of every query in turn, so that a burst of load on the machine falls on one run of
many queries rather than on every run of one. Each run fetches all its rows into Python (they are
a few thousand at most). A query's figures are its best and median wall time and the CPU time of
the engine's process tree (threads, JIT and GC included) in its best run: on a loaded machine the
CPU time is the steadier measure of the work. Peak memory is the largest resident size of the
engine's process and its children (Spark's JVM), sampled every 20 ms, navlog's too; navlog's time
is the whole process's. Prints one JSON object per (engine, query), and per engine one for the
start-up and the load.
"""
import argparse
import json
import statistics
import os
import subprocess
import sys
import tempfile
import threading
import time

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOOLS)
import pydeps  # noqa: E402  (Tools/pydeps.py)
import sqldialect  # noqa: E402  (Tools/sqldialect.py)

SQL = os.path.join(TOOLS, "sql")
QUERIES = sorted(name[:-4] for name in os.listdir(SQL) if name.endswith(".sql"))
# The queries navlog answers on the log too, with the arguments their SQL is written for.
NAVLOG = {"paths": ["paths", "--length", "3", "--top", "0"], "screens": ["screens"]}


def tree_sum(pid, field):
    """The sum of `field(pid)` over process `pid` and its descendants (an unreadable one is 0)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except OSError:
                pass
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo += children.get(p, [])
        try:
            total += field(p)
        except OSError:
            pass
    return total


def tree_rss(pid):
    """The resident bytes of process `pid` and its descendants."""
    return tree_sum(pid, lambda p: int(open(f"/proc/{p}/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE"))


def tree_cpu(pid):
    """The CPU seconds (user and system) process `pid` and its descendants have used."""
    def cpu(p):
        fields = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return tree_sum(pid, cpu)


def engine_process(engine, directory, repeat, parquet=False):
    """Runs in the engine's own process: prints its start-up, load and query times as JSON; with
    `parquet`, DIRECTORY holds the Parquet tables of Tools/fleet/pipeline.py."""
    started = time.perf_counter()
    if engine == "duckdb":
        import duckdb
        con = duckdb.connect()
        load = lambda: con.execute(sqldialect.table_statements("duckdb", directory, parquet))  # noqa: E731
        query = lambda sql: con.execute(sql).fetchall()  # noqa: E731
    elif engine == "spark":
        from pyspark.sql import SparkSession
        # One shuffle partition per core and no adaptive re-planning: with Spark's default 200
        # partitions and AQE, each query's stages are hundreds of tiny tasks and one job each, and
        # `paths` took 18 s instead of 4 s here (local[2], 1M events, load 8). Generated code stays
        # on: it changes the tasks' CPU time by less than the noise at 1M events. (Tools/sql-check.py
        # turns it off, for exports of 30,000 events, where compiling costs more than it saves.)
        spark = (SparkSession.builder.master("local[*]").config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false").config("spark.sql.adaptive.enabled", "false")
                 .config("spark.sql.shuffle.partitions", str(os.cpu_count()))
                 # A fleet's cached tables (10M events) outgrow the default 1 GiB heap.
                 .config("spark.driver.memory", "6g" if parquet else "1g").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        spark.sql("SELECT 1").collect()
        load = lambda: [spark.sql(s.rstrip(";")).collect() for s in sqldialect.table_statements("spark", directory, parquet).splitlines()]  # noqa: E731
        query = lambda sql: spark.sql(sql.rstrip().rstrip(";")).collect()  # noqa: E731
    else:
        import chdb.session
        session = chdb.session.Session()
        load = lambda: [session.query(s) for s in sqldialect.table_statements("clickhouse", directory, parquet).splitlines()]  # noqa: E731
        query = lambda sql: session.query(sql, "JSONCompactEachRow").bytes()  # noqa: E731
    print(json.dumps({"engine": engine, "part": "start-up", "seconds": time.perf_counter() - started}), flush=True)
    started = time.perf_counter()
    load()
    print(json.dumps({"engine": engine, "part": "load", "seconds": time.perf_counter() - started}), flush=True)
    sqls = {name: sqldialect.translate(open(os.path.join(SQL, name + ".sql")).read(), engine) for name in QUERIES}
    for sql in sqls.values():
        query(sql)
    runs = {name: [] for name in QUERIES}
    for _ in range(repeat):
        for name, sql in sqls.items():
            cpu, started = tree_cpu(os.getpid()), time.perf_counter()
            query(sql)
            runs[name].append((time.perf_counter() - started, tree_cpu(os.getpid()) - cpu))
    for name, measured in runs.items():
        best = min(measured)
        print(json.dumps({"engine": engine, "part": name, "seconds": best[0], "cpu_seconds": best[1],
                          "median_seconds": statistics.median(t for t, _ in measured)}), flush=True)


def measured(command):
    """Runs `command`, sampling its tree's memory: its standard output and peak bytes."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    peak, done = [0], threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss(process.pid))
            time.sleep(0.02)
    sampler = threading.Thread(target=sample)
    sampler.start()
    out = process.communicate()[0]
    done.set()
    sampler.join()
    if process.returncode != 0:
        sys.exit("%s failed (exit %d)" % (" ".join(command[:4]), process.returncode))
    return out, peak[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("navlog", nargs="?")
    parser.add_argument("log", nargs="?")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engine-process", nargs=2, metavar=("ENGINE", "DIR"), help=argparse.SUPPRESS)
    parser.add_argument("--parquet", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.engine_process:
        engine_process(*args.engine_process, args.repeat, args.parquet)
        return
    for module, package in (("duckdb", "duckdb"), ("pyspark", "pyspark"), ("chdb", "chdb")):
        try:
            __import__(module)
        except ImportError:
            pydeps.install(package)
    with tempfile.TemporaryDirectory(prefix="navlog-sql-bench-") as tmp:
        for table in sqldialect.TABLES:
            os.makedirs(os.path.join(tmp, table), exist_ok=True)
            subprocess.run([args.navlog, "export", args.log, "--table", table, "-o", os.path.join(tmp, table, "device.ndjson")],
                           check=True, capture_output=True)
        # The events as navlog counts them, of a file or of a directory of segments.
        events = json.loads(subprocess.run([args.navlog, "verify", args.log, "--format", "json"], check=True,
                                           capture_output=True, text=True).stdout)["events"]
        for name, navlog_args in NAVLOG.items():
            times, peak = [], 0
            for _ in range(args.repeat):
                started = time.perf_counter()
                peak = max(peak, measured([args.navlog, *navlog_args, args.log, "--format", "json"])[1])
                times.append(time.perf_counter() - started)
            print(json.dumps({"engine": "navlog", "part": name, "seconds": min(times), "peak_bytes": peak, "events": events}), flush=True)
        for engine in ("duckdb", "spark", "clickhouse"):
            out, peak = measured([sys.executable, os.path.abspath(__file__), "--engine-process", engine, tmp, "--repeat", str(args.repeat)])
            for line in out.splitlines():
                print(json.dumps({**json.loads(line), "peak_bytes": peak, "events": events}), flush=True)


if __name__ == "__main__":
    main()
