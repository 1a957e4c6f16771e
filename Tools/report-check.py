#!/usr/bin/env python3
"""Opens navlog's HTML report in headless Chromium and checks what a person would see.

    python3 Tools/report-check.py --navlog .build/debug/navlog

Installs Chromium from the distribution's packages when it is missing (apt-get; needs root).
Checks, on the report of Schemas/examples/valid/sheets.jsonl and of a generated log:
  - the page rendered (body data-ready) with no script error and makes no network request;
  - the flow diagram has nodes;
  - the replayer, opened at #session=s7&step=6, shows the sheet `compose` with `photoPicker` as the
    visible route and the home stack holding recipe(apple-pie);
  - the page was interactive in under 1 s (the time the page itself measured).
Keeps a screenshot in .build/report-check/report.png. Ends with "N passed, M failed".
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".build", "report-check")


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    print("report-check: installing chromium (apt-get)", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env, stdout=subprocess.DEVNULL)
    return shutil.which("chromium")


def browse(browser, url, *extra):
    # --disable-dev-shm-usage: containers often have a small /dev/shm, which crashes Chromium.
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", *extra, url]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--navlog", required=True)
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    browser = chromium()
    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print(f"{'ok  ' if ok else 'FAIL'}  {name}" + (f": {detail}" if detail and not ok else ""))

    example = os.path.join(ROOT, "Schemas", "examples", "valid", "sheets.jsonl")
    report = os.path.join(OUT, "report.html")
    subprocess.run([args.navlog, "report", example, "-o", report, "--session", "s7", "--funnel", "recipe,composeReview"],
                   check=True, stdout=subprocess.DEVNULL)
    html = open(report, encoding="utf-8").read()
    external = re.findall(r'(?:src|href)\s*=\s*"(?:https?:)?//', html) + re.findall(r"@import|url\(\s*['\"]?https?:", html)
    check("the page is self-contained (no external src, href, @import or url())", not external, str(external))

    dom = browse(browser, "file://" + report + "#session=s7&step=6", "--dump-dom", "--virtual-time-budget=5000").stdout
    check("the page rendered", 'data-ready="true"' in dom)
    errors = re.findall(r'<pre id="errors"[^>]*>(.*?)</pre>', dom, re.S)
    check("no script error", errors == [""], str(errors))
    check("the flow diagram has nodes", dom.count('class="flow-node"') > 0)
    compose = re.search(r'<div class="stack sheet" data-stack="compose">(.*?)</div>', dom, re.S)
    visible = re.findall(r'<li class="visible" aria-current="true">(.*?)</li>', compose.group(1)) if compose else []
    check("step 6 of s7 shows photoPicker visible in the compose sheet", visible == ["photoPicker"], str(visible))
    home = re.search(r'<div class="stack" data-stack="home">(.*?)</div>', dom, re.S)
    check("and recipe(apple-pie) on the home stack", bool(home) and "recipe(apple-pie)" in home.group(1))
    event = re.findall(r'<p id="event"[^>]*>(.*?)</p>', dom)
    check("and the event that led there", bool(event) and "push main/compose photoPicker" in event[0], str(event))
    render = re.findall(r'data-render-ms="([0-9.]+)"', dom)
    check("interactive in under 1 s", bool(render) and float(render[0]) < 1000, str(render))

    generated = os.path.join(OUT, "generated.jsonl")
    subprocess.run([args.navlog, "generate", "--events", "20000", "--seed", "4", "-o", generated], check=True, stderr=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL)
    big = os.path.join(OUT, "generated.html")
    subprocess.run([args.navlog, "report", generated, "-o", big, "--funnel", "home,recipe,reviews"], check=True, stdout=subprocess.DEVNULL)
    dom = browse(browser, "file://" + big, "--dump-dom", "--virtual-time-budget=5000").stdout
    errors = re.findall(r'<pre id="errors"[^>]*>(.*?)</pre>', dom, re.S)
    check("a generated log's report renders without errors", 'data-ready="true"' in dom and errors == [""], str(errors))
    check("with a flow of nodes and links", dom.count('class="flow-node"') >= 5 and dom.count('class="link"') >= 5)
    shot = os.path.join(OUT, "report.png")
    browse(browser, "file://" + big, "--window-size=1280,2400", "--screenshot=" + shot)
    check("a screenshot is kept in .build/report-check/report.png", os.path.exists(shot) and os.path.getsize(shot) > 10000)

    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
