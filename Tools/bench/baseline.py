#!/usr/bin/env python3
"""The figures of a Tools/bench/run beside the checked-in baseline (Tools/bench/baseline.json).

Each part of `run` adds its figures with `figure(name, value, unit, better)` to the file named by
NAVLOG_BENCH_FIGURES. At the end `run` calls

    baseline.py compare FIGURES BASELINE --settings JSON [--record --commit C --note TEXT]

which prints every figure beside its baseline value and their ratio, and with --record rewrites the
baseline with this run's figures (figures of parts that did not run are kept as they were).
`baseline.py commit ROOT` prints the commit checked out at ROOT, `+changes` when files differ from
it: `run` takes it before building, since what it builds is what it measures.

A figure's ratio is now / baseline; `change` is the gain in the figure's good direction (a time
that falls or a rate that rises is a gain), so +3.0% means 3% better whatever the unit.
"""
import datetime
import json
import os
import platform
import subprocess
import sys

SAME = 0.03  # within ±3% a figure is reported as unchanged: the bar a micro-optimisation must clear


def figure(name, value, unit, better):
    """Adds a figure of this run. `better` is "higher" or "lower"."""
    assert better in ("higher", "lower")
    path = os.environ.get("NAVLOG_BENCH_FIGURES")
    if not path or value is None:
        return
    with open(path, "a") as f:
        f.write(json.dumps({"name": name, "value": value, "unit": unit, "better": better}) + "\n")


def gain(now, base, better):
    """How much better `now` is than `base`, as a fraction (negative when worse)."""
    if base == 0 or now == 0:
        return 0.0
    return now / base - 1 if better == "higher" else base / now - 1


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = os.cpu_count() or 0
    try:
        load = open("/proc/loadavg").read().split()[0]
    except OSError:
        load = "?"
    return f"{platform.system()} {platform.release()}, {cpu}, {cores} cores, load average {load} at the end"


def commit(root):
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return head + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def number(value):
    if value == 0:
        return "0"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def compare(figures_path, baseline_path, settings, record, at, note):
    figures = []
    if os.path.exists(figures_path):
        figures = [json.loads(line) for line in open(figures_path) if line.strip()]
    baseline = {"figures": {}}
    if os.path.exists(baseline_path):
        baseline = json.load(open(baseline_path))
    base = baseline.get("figures", {})
    recorded = baseline.get("recorded", {})

    print()
    print(f"figures beside the baseline ({os.path.relpath(baseline_path)}"
          + (f", recorded at {recorded.get('commit', '?')} on {recorded.get('date', '?')}" if recorded else ", none yet")
          + ")")
    if recorded.get("settings") and recorded["settings"] != settings:
        print(f"note: the baseline was measured with {recorded['settings']}, this run with {settings}: "
              "figures that depend on the log's size are not comparable")
    head = f"{'figure':<58} {'baseline':>12} {'now':>12} {'unit':<9} {'now/base':>9} {'change':>8}"
    print(head)
    print("-" * len(head))
    for f in figures:
        b = base.get(f["name"])
        if b is None:
            print(f"{f['name']:<58} {'-':>12} {number(f['value']):>12} {f['unit']:<9} {'-':>9} {'new':>8}")
            continue
        ratio = f["value"] / b["value"] if b["value"] else float("inf")
        g = gain(f["value"], b["value"], f["better"])
        mark = "" if abs(g) < SAME else (" better" if g > 0 else " WORSE")
        print(f"{f['name']:<58} {number(b['value']):>12} {number(f['value']):>12} {f['unit']:<9} {ratio:>8.3f}x {g:>+7.1%}{mark}")
    print(f"change = the gain in each figure's good direction (less time, more events/s); within ±{SAME:.0%} is noise "
          "on a quiet machine, and a micro-optimisation is kept only for a gain of at least that on a named figure")

    if record:
        when = datetime.date.today().isoformat()
        kept = {name: b for name, b in base.items() if name not in {f["name"] for f in figures}}
        new = {f["name"]: {"value": f["value"], "unit": f["unit"], "better": f["better"], "commit": at, "date": when}
               for f in figures}
        merged = dict(sorted({**kept, **new}.items()))
        out = {
            "about": "Tools/bench/run's figures, recorded with Tools/bench/run --record; each run prints its figures "
                     "beside these. Figures of parts a recording did not run keep their own commit and date.",
            "recorded": {"commit": at, "date": when, "machine": machine(), "note": note, "settings": settings},
            "figures": merged,
        }
        with open(baseline_path, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
        print(f"recorded {len(new)} figure{'s' if len(new) != 1 else ''} in {os.path.relpath(baseline_path)}"
              + (f" (kept {len(kept)} of parts not run)" if kept else ""))


def main(argv):
    if len(argv) == 2 and argv[0] == "commit":
        print(commit(argv[1]))
        return 0
    if len(argv) < 3 or argv[0] != "compare":
        print(__doc__.strip(), file=sys.stderr)
        return 2
    figures_path, baseline_path = argv[1], argv[2]
    settings, record, at, note = {}, False, "unknown", ""
    rest = argv[3:]
    while rest:
        arg = rest.pop(0)
        if arg == "--settings":
            settings = json.loads(rest.pop(0))
        elif arg == "--record":
            record = True
        elif arg == "--commit":
            at = rest.pop(0)
        elif arg == "--note":
            note = rest.pop(0)
        else:
            print(f"baseline.py: unknown argument {arg}", file=sys.stderr)
            return 2
    compare(figures_path, baseline_path, settings, record, at, note)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
