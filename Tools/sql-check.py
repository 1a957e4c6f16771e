#!/usr/bin/env python3
"""Runs Tools/sql/*.sql in DuckDB, Spark SQL (local[2]) and ClickHouse (chdb, in process) over
navlog's exported tables and checks that every result, in every engine, equals navlog's own JSON
output exactly: on generated logs of several seeds (the first also with --alias and --idle), on
redacted exports (with the deep-link patterns navlog reports redacted here, independently, as
`navlog help export` says), on the first seed with its clock set back now and then (views that
end before they begin count, with dwell_ms 0), and on the first seed with scene phases added
(background gaps and terminations): the exported sessions table is checked against the views, and
exits join it. Each engine runs the dialect Tools/sqldialect.py makes of each query, over the
tables it loads as that file says, from a directory of several files per table, as a fleet's
exports are.

    python3 Tools/sql-check.py --navlog .build/debug/navlog [--seeds 1,2,3] [--events N]
                               [--engines duckdb,spark,clickhouse]

Installs the duckdb, pyspark and chdb Python packages when missing, and Java 17 from Debian
(apt-get) when Spark needs it and no Java 17 or later is found. One Spark session runs every
query. Prints one line per check and engine, each engine's time, and ends with "N passed, M
failed"; exits 1 when a check failed.
"""
import argparse
import collections
import datetime
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

import pydeps
import sqldialect

try:
    import duckdb
except ImportError:
    pydeps.install("duckdb")
    import duckdb

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINES = {"duckdb": "DuckDB", "spark": "Spark SQL", "clickhouse": "ClickHouse"}
# check -> (SQL file, navlog arguments, the JSON array compared, how one of its rows becomes a tuple)
CHECKS = {
    "screens": ("screens.sql", ["screens"], "rows", lambda r: (r["screen"], r["views"], r["sessions"], r["dwell_median_ms"],
                                                              r["dwell_p90_ms"], r["dwell_total_ms"])),
    "transitions": ("transitions.sql", ["transitions"], "rows", lambda r: (r["from"], r["to"], r["count"])),
    "paths": ("paths.sql", ["paths", "--length", "3", "--top", "0"], "rows", lambda r: (r["path"], r["occurrences"], r["sessions"])),
    "exits": ("exits.sql", ["exits"], "rows", lambda r: (r["screen"], r["exits"], r["clean"], r["background"], r["unclean"], r["open"])),
    "crash paths": ("crash_paths.sql", ["exits", "--crash-paths", "3"], "crash_paths", lambda r: (r["path"], r["sessions"])),
    "bounces": ("bounces.sql", ["bounces", "--within", "5s"], "rows", lambda r: (r["screen"], r["pushes"], r["bounces"], r["rate_pct"])),
    "tabs": ("tabs.sql", ["tabs"], "rows", lambda r: (r["tab"], r["views"], r["dwell_ms"], r["share_pct"])),
    "tab switches": ("tab_switches.sql", ["tabs"], "switches", lambda r: (r["from"], r["to"], r["count"])),
    "deeplinks": ("deeplinks.sql", ["deeplinks"], "rows", lambda r: (r["outcome"], r["pattern"], r["links"], r["backed_out"])),
    "depth": ("depth.sql", ["depth"], "rows", lambda r: (r["depth"], r["stack_views"], r["sheet_views"])),
    "flow": ("flow.sql", ["transitions", "--steps", "5", "--top", "3"], "rows", lambda r: (r["step"], r["from"], r["to"], r["count"])),
    "funnel, strict": ("funnel_strict.sql", ["funnel", "--steps", "home,recipe,reviews", "--mode", "strict", "--entry", "first", "--window", "1h"],
                       "rows", lambda r: (r["step"], r["screen"], r["sessions"], r["drop_off"], r["conversion_from_previous_pct"],
                                          r["conversion_from_first_pct"], r["median_ms"], r["p90_ms"])),
    "funnel, entry any": ("funnel_any_entry.sql", ["funnel", "--steps", "home,recipe,reviews", "--mode", "ordered", "--entry", "any", "--window", "1h"],
                          "rows", lambda r: (r["step"], r["screen"], r["sessions"], r["drop_off"], r["conversion_from_previous_pct"],
                                             r["conversion_from_first_pct"], r["median_ms"], r["p90_ms"])),
    "funnel, any order": ("funnel_any_order.sql", ["funnel", "--steps", "home,recipe,reviews", "--mode", "any", "--entry", "first", "--window", "1h"],
                          "rows", lambda r: (r["step"], r["screen"], r["sessions"], r["drop_off"], r["conversion_from_previous_pct"],
                                             r["conversion_from_first_pct"], r["median_ms"], r["p90_ms"])),
    "funnel": ("funnel.sql", ["funnel", "--steps", "home,recipe,reviews", "--mode", "ordered", "--entry", "first", "--window", "1h"], "rows",
               lambda r: (r["step"], r["screen"], r["sessions"], r["drop_off"], r["conversion_from_previous_pct"],
                          r["conversion_from_first_pct"], r["median_ms"], r["p90_ms"])),
}

SALT = "sql-check salt"


def redacted(value):
    """The salted hash `navlog export --redact` puts in place of a value."""
    return "h:" + hashlib.sha256((SALT + "\0" + value).encode()).hexdigest()[:16]


def redacted_pattern(pattern):
    """A deep-link pattern redacted: the scheme kept, and the host for http and https; userinfo
    dropped; another scheme's host and each path segment but :id hashed (see
    Sources/NavigationAnalytics/Redaction.swift)."""
    def segments(parts):
        return "/".join(s if s == ":id" or not s else redacted(s) for s in parts)
    head, sep, rest = pattern.partition("://")
    scheme_ok = sep and head[:1].isascii() and head[:1].isalpha() and all(c.isascii() and (c.isalnum() or c in "+-.") for c in head)
    if not scheme_ok:
        return segments(pattern.split("/"))
    authority, slash, path = rest.partition("/")
    host = authority.rpartition("@")[2]
    if head.lower() not in ("http", "https"):
        return head + "://" + segments([host] + (path.split("/") if slash else []))
    if not slash:
        return head + "://" + host
    return head + "://" + host + "/" + segments(path.split("/"))


def redact_deeplink_rows(rows):
    """navlog's deeplinks rows as DuckDB groups them in a redacted export."""
    links, backed = collections.Counter(), collections.Counter()
    for outcome, pattern, n, b in rows:
        key = (outcome, redacted_pattern(pattern))
        links[key] += n
        backed[key] += b
    merged = [(o, p, links[(o, p)], backed[(o, p)]) for (o, p) in links]
    return sorted(merged, key=lambda r: (-r[2], r[0].encode(), r[1].encode()))



def as_rows(rows):
    """An engine's rows as navlog's are compared with them: tuples, lists for lists."""
    return [tuple(list(v) if isinstance(v, (list, tuple)) else v for v in r) for r in rows]


def print_difference(what, actual, expected, engine_label):
    """Says that navlog's rows for `what` are not the engine's, and where they first differ."""
    first = next((i for i, (a, e) in enumerate(zip(actual, expected)) if a != e), min(len(actual), len(expected)))
    print(f"FAIL  {what}: navlog {len(actual)} rows, {engine_label} {len(expected)}; first difference at row {first}:")
    print(f"        navlog {actual[first] if first < len(actual) else None}")
    print(f"        {engine_label} {expected[first] if first < len(expected) else None}")

def run(navlog, *args):
    return subprocess.run([navlog, *args], check=True, capture_output=True, text=True).stdout


def java_major():
    """The major version of the `java` on PATH, or 0 when there is none."""
    if shutil.which("java") is None:
        return 0
    out = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
    match = re.search(r'version "(\d+)', out)
    return int(match.group(1)) if match else 0


def ensure_java():
    """Spark runs on Java 17 or later: installs Debian's when there is none."""
    if java_major() >= 17:
        return
    if shutil.which("apt-get") is None:
        sys.exit("Spark needs Java 17 or later, and there is no apt-get to install it")
    print("installing openjdk-17-jre-headless with apt-get", file=sys.stderr)
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", "openjdk-17-jre-headless"], check=True)


class DuckDB:
    """DuckDB in process: a new database per export."""

    def __init__(self):
        self.con = None

    def load(self, directory, parquet=False):
        self.con = duckdb.connect()
        for statement in sqldialect.table_statements("duckdb", directory, parquet).splitlines():
            self.con.execute(statement)

    def query(self, sql):
        return [tuple(r) for r in self.con.execute(sql).fetchall()]


class Spark:
    """Spark SQL in local mode on two cores: one session for every query, its tables replaced
    for each export. The exports are small, so planning and compiling, not data, take the time:
    one shuffle partition, no adaptive re-planning and no generated code make its queries about
    1.6 times faster here (local[2], 30,000 events), and change no result. The bench
    (Tools/bench/sql_engines.py, 1M events) keeps generated code on (at 1M events the tasks'
    CPU time is the same either way, within the noise) and has one partition per core."""

    def __init__(self):
        ensure_java()
        try:
            import pyspark
        except ImportError:
            pydeps.install("pyspark")
        from pyspark.sql import SparkSession
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        self.spark = (SparkSession.builder.master("local[2]").appName("sql-check")
                      .config("spark.sql.shuffle.partitions", "1").config("spark.sql.adaptive.enabled", "false")
                      .config("spark.sql.codegen.wholeStage", "false")
                      .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                      .config("spark.sql.session.timeZone", "UTC").getOrCreate())
        self.spark.sparkContext.setLogLevel("ERROR")

    def load(self, directory, parquet=False):
        self.spark.catalog.clearCache()
        for statement in sqldialect.table_statements("spark", directory, parquet).splitlines():
            self.spark.sql(statement.rstrip(";"))

    def query(self, sql):
        return [tuple(r) for r in self.spark.sql(sql.rstrip().rstrip(";")).collect()]

    def close(self):
        self.spark.stop()


class ClickHouse:
    """ClickHouse in process (chdb): one session, its tables replaced for each export. Results
    come as JSON rows with 64-bit integers as numbers."""

    def __init__(self):
        try:
            import chdb.session
        except ImportError:
            pydeps.install("chdb")
            import chdb.session
        self.session = chdb.session.Session()
        self.session.query("SET output_format_json_quote_64bit_integers = 0")

    def load(self, directory, parquet=False):
        for table in sqldialect.TABLES:
            self.session.query(f"DROP TABLE IF EXISTS {table}")
        for statement in sqldialect.table_statements("clickhouse", directory, parquet).splitlines():
            self.session.query(statement)

    def query(self, sql):
        out = self.session.query(sql, "JSONCompactEachRow").bytes().decode()
        return [tuple(json.loads(line)) for line in out.splitlines()]

    def close(self):
        self.session.close()


def split_export(source, directory, parts=2):
    """Writes the NDJSON export `source` as `parts` files in `directory`, each session's rows in
    one of them, as the exports of several devices are."""
    os.makedirs(directory, exist_ok=True)
    outs = [open(os.path.join(directory, f"device{i}.ndjson"), "w") for i in range(parts)]
    for line in open(source):
        outs[zlib.crc32(json.loads(line)["session"].encode()) % parts].write(line)
    for out in outs:
        out.close()


def set_clock_back(source, target, every=97, by_ms=7000):
    """Copies the log at `source` to `target` with every `every`-th event's time set `by_ms` before
    the event's before it, as a device whose clock went back and then forward again. The lines lose
    their crc, which the times no longer match (a file whose first line has none needs none)."""
    previous = None
    with open(source) as lines, open(target, "w") as out:
        for k, line in enumerate(lines, 1):
            line = re.sub(r',"crc":"[0-9a-f]{8}"', "", line)
            ts = json.loads(line)["ts"]
            if k % every == 0 and previous:
                back = datetime.datetime.strptime(previous, "%Y-%m-%dT%H:%M:%S.%fZ") - datetime.timedelta(milliseconds=by_ms)
                line = line.replace(f'"ts":"{ts}"', '"ts":"' + back.strftime("%Y-%m-%dT%H:%M:%S.") + f"{back.microsecond // 1000:03d}Z" + '"', 1)
            previous = ts
            out.write(line)


def add_phases(source, target, seed):
    """Copies the log at `source` to `target` with `scene.phase` events added, as an iPhone app
    records them: now and then a scene goes to the background after an event and comes back
    before the next; most sessions without a `session.end` are left in the background (every
    open scene), some with one scene still active (a foreground crash). Snapshots are left out
    (their states would lack the phases), crcs dropped, seqs renumbered."""
    rng = random.Random(seed)
    events = [json.loads(re.sub(r',"crc":"[0-9a-f]{8}"', "", line)) for line in open(source)]
    events = [e for e in events if e["type"] != "snapshot"]
    out, scenes = [], set()

    def phase(like, scene, value):
        out.append({"v": 1, "seq": 0, "ts": like["ts"], "session": like["session"], "type": "scene.phase", "scene": scene, "phase": value})

    for k, event in enumerate(events):
        if event["type"] == "session.start":
            scenes = set()
        out.append(event)
        kind = event["type"]
        if kind == "scene.open":
            scenes.add(event["scene"])
        elif kind == "scene.close":
            scenes.discard(event["scene"])
        elif kind == "restore":
            scenes = set(event["state"]["scenes"])
        following = events[k + 1] if k + 1 < len(events) else None
        ends = following is None or following["session"] != event["session"] or following["type"] == "session.start"
        if ends and kind != "session.end" and scenes:
            fate = rng.random()
            if fate < 0.7:   # terminated in the background
                for scene in sorted(scenes):
                    phase(event, scene, "background")
            elif fate < 0.8:   # one scene still in the foreground: unclean
                for scene in sorted(scenes)[1:]:
                    phase(event, scene, "background")
                if len(scenes) == 1:
                    phase(event, sorted(scenes)[0], "inactive")
        elif not ends and scenes and rng.random() < 0.04:
            scene = rng.choice(sorted(scenes))
            if rng.random() < 0.5:
                phase(event, scene, "inactive")
            phase(event, scene, "background")
            phase(following, scene, "active")
    with open(target, "w") as lines:
        for seq, event in enumerate(out, 1):
            event["seq"] = seq
            lines.write(json.dumps(event, separators=(",", ":"), ensure_ascii=False) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--navlog", required=True)
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--events", type=int, default=30000)
    parser.add_argument("--engines", default="duckdb,spark,clickhouse",
                        help="the engines to run, duckdb always among them (it also checks the exports)")
    args = parser.parse_args()
    names = ["duckdb"] + [e for e in args.engines.split(",") if e != "duckdb"]
    unknown = [e for e in names if e not in ENGINES]
    if unknown:
        parser.error("unknown engine %s: one of %s" % (", ".join(unknown), ", ".join(ENGINES)))
    engines, seconds = {}, collections.Counter()
    for name in names:
        started = time.monotonic()
        engines[name] = {"duckdb": DuckDB, "spark": Spark, "clickhouse": ClickHouse}[name]()
        seconds[name, "start"] += time.monotonic() - started
    passed = failed = 0
    # Each seed plain, and the first one also with path cleaning and idle splitting, exported and
    # queried with the same options.
    # The first seed once more from redacted exports: ids hashed, deep-link URLs redacted; and once
    # more with its clock set back now and then.
    # And the first seed with scene phases added (background gaps, background and foreground
    # terminations), plain and with idle splitting.
    runs = [(seed, [], False, False) for seed in args.seeds.split(",")]
    runs.append((runs[0][0], ["--alias", "^(recipe|reviews)$=content", "--idle", "30s"], False, False))
    runs.append((runs[0][0], [], True, False))
    runs.append((runs[0][0], [], False, True))
    runs.append((runs[0][0], [], False, "phases"))
    runs.append((runs[0][0], ["--idle", "30s"], False, "phases"))
    # And the first seed filtered by time: every admitted view's session keeps its row.
    runs.append((runs[0][0], ["--since", "2026-11-20T00:00:00.000Z", "--until", "2027-01-10T00:00:00.000Z"], False, False))
    with tempfile.TemporaryDirectory(prefix="navlog-sql-") as tmp:
        for k, (seed, options, redact, clock_back) in enumerate(runs):
            log = os.path.join(tmp, f"log{seed}.jsonl")
            if not os.path.exists(log):
                run(args.navlog, "generate", "--events", str(args.events), "--seed", seed, "-o", log)
            phases = clock_back == "phases"
            if phases:
                generated, log = log, os.path.join(tmp, f"log{seed}-phases.jsonl")
                add_phases(generated, log, int(seed))
                clock_back = False
            if clock_back:
                generated, log = log, os.path.join(tmp, f"log{seed}-clock-back.jsonl")
                set_clock_back(generated, log)
            views, transitions = os.path.join(tmp, f"views{k}.ndjson"), os.path.join(tmp, f"transitions{k}.ndjson")
            fleet = os.path.join(tmp, f"fleet{k}")
            redaction = ["--redact", "ids", "--salt", SALT] if redact else []
            run(args.navlog, "export", log, "--table", "screen_views", "-o", views, *options, *redaction)
            run(args.navlog, "export", log, "--table", "transitions", "-o", transitions, *options, *redaction)
            sessions = os.path.join(tmp, f"sessions{k}.ndjson")
            run(args.navlog, "export", log, "--table", "sessions", "-o", sessions, *options, *redaction)
            links = os.path.join(tmp, f"deeplinks{k}.ndjson")
            run(args.navlog, "export", log, "--table", "deeplinks", "-o", links, *(["--redact", "urls", "--salt", SALT] if redact else []))
            label = f"seed {seed}" + (" " + " ".join(options) if options else "") + (", redacted" if redact else "") \
                + (", clock set back" if clock_back else "") + (", with phases" if phases else "")
            if clock_back:
                went_back = json.loads(run(args.navlog, "screens", log, "--format", "json"))["clock_went_back"]
                dwell_zero = sum(1 for line in open(views) if '"dwell_ms":0,' in line)
                if went_back > 0 and dwell_zero >= went_back:
                    passed += 1
                    print(f"ok    views that end before they begin ({label}): {went_back}, exported with dwell_ms 0")
                else:
                    failed += 1
                    print(f"FAIL  views that end before they begin ({label}): navlog counts {went_back}, {dwell_zero} exported with dwell_ms 0")
            for table, export in (("screen_views", views), ("transitions", transitions), ("deeplinks", links), ("sessions", sessions)):
                split_export(export, os.path.join(fleet, table))
            for name, engine in engines.items():
                started = time.monotonic()
                engine.load(fleet)
                seconds[name, "load"] += time.monotonic() - started
            con = engines["duckdb"].con
            # Every view's session has a row; a session of one scene was in the foreground for the
            # dwell of its views (clipped at 0 when the clock went back: not compared then).
            orphans, = con.execute("SELECT count(DISTINCT session) FROM screen_views WHERE session NOT IN (SELECT session FROM sessions)").fetchone()
            unequal, one_scene = con.execute("""
                SELECT count(*) FILTER (WHERE s.foreground_ms <> coalesce(v.dwell, 0)), count(*)
                FROM sessions AS s LEFT JOIN (SELECT session, sum(dwell_ms) AS dwell FROM screen_views GROUP BY session) AS v USING (session)
                WHERE s.scenes = 1""").fetchone()
            endings = dict(con.execute("SELECT ended, count(*) FROM sessions GROUP BY ended").fetchall())
            # A view's time is its dwell and its time in the background.
            split, = con.execute("""SELECT count(*) FROM screen_views WHERE epoch_ms(CAST(end_ts AS TIMESTAMP))
                - epoch_ms(CAST(start_ts AS TIMESTAMP)) <> dwell_ms + background_ms""").fetchone()
            orphans += 0 if clock_back else split
            # Time in the background is never negative, whatever the clock did.
            negative, = con.execute("SELECT count(*) FROM screen_views WHERE background_ms < 0").fetchone()
            orphans += negative
            # Filtered by time, a session's views may be cut at the window's edges: not compared then.
            filtered = "--since" in options
            if orphans == 0 and (clock_back or filtered or (unequal == 0 and one_scene > 0)) and (not phases or endings.get("background", 0) > 0):
                passed += 1
                print(f"ok    sessions ({label}): {sum(endings.values())} rows {dict(sorted(endings.items()))}; "
                      f"{one_scene} of one scene, foreground_ms = their views' dwell_ms" + (" (not compared)" if clock_back else ""))
            else:
                failed += 1
                print(f"FAIL  sessions ({label}): {orphans} sessions of views without a row or views whose end - start is not "
                      f"dwell_ms + background_ms; {unequal} of {one_scene} of one scene "
                      f"with foreground_ms unequal to their views' dwell_ms; endings {endings}")
            # How each session ended, as the views' stream tells it (the export), equals what
            # `navlog sessions` says through the snapshot index's tracker: two readings, one rule.
            if not options and not redact:
                told = dict(con.execute("SELECT session, ended FROM sessions").fetchall())
                listed = {s["id"]: s["ending"] for s in json.loads(run(args.navlog, "sessions", log, "--format", "json", "--no-index"))["sessions"]}
                if told == listed and told:
                    passed += 1
                    print(f"ok    endings ({label}): the export's {len(told)} equal navlog sessions'")
                else:
                    failed += 1
                    differ = sorted(k for k in set(told) | set(listed) if told.get(k) != listed.get(k))
                    print(f"FAIL  endings ({label}): {len(differ)} sessions differ, first {differ[:3]}: "
                          f"export {[told.get(k) for k in differ[:3]]}, sessions {[listed.get(k) for k in differ[:3]]}")
            for name, (sql_file, navlog_args, key, row) in CHECKS.items():
                source = open(os.path.join(ROOT, "Tools", "sql", sql_file)).read()
                # Deep links are events: --alias and --idle do not apply to them (navlog refuses them).
                output = json.loads(run(args.navlog, *navlog_args, log, "--format", "json", *(options if name != "deeplinks" else [])))
                actual = [row(r) for r in output[key]]
                if redact and name == "deeplinks":
                    actual = redact_deeplink_rows(actual)
                for engine_name, engine in engines.items():
                    started = time.monotonic()
                    expected = engine.query(sqldialect.translate(source, engine_name))
                    seconds[engine_name, name] += time.monotonic() - started
                    expected = as_rows(expected)
                    engine_label = ENGINES[engine_name]
                    if output.get("format") == 2 and actual == expected and actual:
                        passed += 1
                        print(f"ok    {name} ({label}): {len(actual)} rows equal {engine_label}'s")
                    else:
                        failed += 1
                        print_difference(f"{name} ({label})", actual, expected, engine_label)
    for name, engine in engines.items():
        if hasattr(engine, "close"):
            engine.close()
        queries = sum(t for (e, part), t in seconds.items() if e == name and part not in ("start", "load"))
        slowest = max(((t, part) for (e, part), t in seconds.items() if e == name and part not in ("start", "load")), default=(0, "-"))
        print(f"time  {ENGINES[name]}: {seconds[name, 'start'] + seconds[name, 'load'] + queries:.1f} s "
              f"(start {seconds[name, 'start']:.1f} s, loading {seconds[name, 'load']:.1f} s, queries {queries:.1f} s, "
              f"slowest {slowest[1]} {slowest[0]:.1f} s over {len(runs)} exports)")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
