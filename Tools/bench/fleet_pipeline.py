#!/usr/bin/env python3
"""The fleet pipeline (Tools/fleet/pipeline.py on Spark local[2]) beside the same exports run as two
parallel shell jobs (xargs -P2), then every query of Tools/sql over its Parquet tables in DuckDB
and Spark SQL, and the per-core rates a fleet's sizing is computed from.

    fleet_pipeline.py NAVLOG [--devices 1000] [--events 10000] [--repeat 3]

Generates DEVICES logs of EVENTS events each (not timed) as FLEET/DEVICE/, then:
  - the shell jobs: for each device, `navlog export` of the four tables into files, two devices at
    a time (xargs -P2); wall and CPU time;
  - Spark's fixed cost: the pipeline over a fleet of one small device (JVM, session, Python workers,
    the first job and write), and the session's start-up alone (the pipeline's report);
  - the pipeline over FLEET: wall and CPU time (the JVM and its children included), and its ratio
    to the shell jobs', with and without the fixed cost;
  - each query of Tools/sql over the Parquet tables, in DuckDB and in Spark SQL, each engine in a
    process of its own (Tools/bench/sql_engines.py: one warm-up, best of REPEAT);
  - `navlog verify --threads 1` of a 1M-event log and `navlog export` of a 10-event log, for the
    rates.
Prints one JSON object per figure.
"""
import argparse
import concurrent.futures
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
sys.path.insert(0, TOOLS)
import sql_engines  # noqa: E402  (Tools/bench/sql_engines.py: its engine processes and measurement)
import sqldialect  # noqa: E402

PIPELINE = os.path.join(TOOLS, "fleet", "pipeline.py")


def emit(**figure):
    print(json.dumps(figure), flush=True)


def timed(command, **kwargs):
    """Runs `command` to the end: its wall seconds and the CPU seconds of it and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def shell_exports(navlog, fleet, out):
    """The exports as a shell loop runs them on one machine: two devices at a time."""
    for table in sqldialect.TABLES:
        os.makedirs(os.path.join(out, table), exist_ok=True)
    script = ('for t in %s; do "$0" export "$1/$2" --table "$t" -o "$3/$t/$2.ndjson" || exit 255; done'
              % " ".join(sqldialect.TABLES))
    return timed(f"ls '{fleet}' | xargs -P2 -I{{}} sh -c '{script}' '{navlog}' '{fleet}' {{}} '{out}'", shell=True)


def pipeline(navlog, fleet, tables):
    wall, cpu = timed([sys.executable, PIPELINE, fleet, "--out", tables, "--navlog", navlog, "--master", "local[2]"])
    report = json.load(open(os.path.join(tables, "_pipeline.json")))
    if report["failed"]:
        sys.exit("fleet_pipeline.py: the pipeline failed for %s" % report["failed"][:3])
    return wall, cpu, report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("navlog")
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--events", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    navlog = os.path.abspath(args.navlog)
    with tempfile.TemporaryDirectory(prefix="navlog-fleet-bench-") as tmp:
        fleet = os.path.join(tmp, "fleet")
        os.makedirs(fleet)
        devices = [f"device-{k:05d}" for k in range(args.devices)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(lambda k: subprocess.run([navlog, "generate", "--events", str(args.events), "--seed", str(1000 + k),
                                                    "-o", os.path.join(fleet, devices[k])], check=True, capture_output=True),
                          range(len(devices))))
        events = args.devices * args.events
        emit(part="load", load=os.getloadavg(), cores=os.cpu_count())

        small = os.path.join(tmp, "small")
        subprocess.run([navlog, "generate", "--events", "10", "-o", os.path.join(small, "one")], check=True, capture_output=True)
        fixed, _, report = pipeline(navlog, small, os.path.join(tmp, "small-tables"))
        emit(part="spark fixed cost", seconds=fixed, start_up_seconds=report["start_up_seconds"])

        shell, shell_cpu = shell_exports(navlog, fleet, os.path.join(tmp, "exports"))
        emit(part="shell exports (xargs -P2)", seconds=shell, cpu_seconds=shell_cpu, events=events, devices=args.devices)
        tables = os.path.join(tmp, "tables")
        spark, spark_cpu, report = pipeline(navlog, fleet, tables)
        emit(part="pipeline local[2]", seconds=spark, cpu_seconds=spark_cpu, events=events, devices=args.devices,
             start_up_seconds=report["start_up_seconds"], rows=report["rows_derived"])
        emit(part="pipeline vs shell", ratio=spark / shell, ratio_without_fixed=(spark - fixed) / shell)
        emit(part="load", load=os.getloadavg(), cores=os.cpu_count())

        one = os.path.join(small, "one")
        started = time.perf_counter()
        for _ in range(50):
            subprocess.run([navlog, "export", one, "--table", "screen_views", "-o", "/dev/null"], check=True)
        emit(part="export of a 10-event log", seconds=(time.perf_counter() - started) / 50)
        # The ingest rate is taken to be about verify's (issue 44: ingest at least 0.8x verify's),
        # on one core, on a big log.
        big = os.path.join(tmp, "big.jsonl")
        subprocess.run([navlog, "generate", "--events", "1000000", "-o", big], check=True, capture_output=True)
        verify, verify_cpu = timed([navlog, "verify", big, "--threads", "1"])
        emit(part="verify --threads 1", seconds=verify, cpu_seconds=verify_cpu, events=1000000)
        os.remove(big)

        for engine in ("duckdb", "spark"):
            out, peak = sql_engines.measured([sys.executable, sql_engines.__file__, "--engine-process", engine, tables,
                                              "--repeat", str(args.repeat), "--parquet"])
            for line in out.splitlines():
                emit(**json.loads(line), peak_bytes=peak, events=events)
        emit(part="load", load=os.getloadavg(), cores=os.cpu_count())


if __name__ == "__main__":
    main()
