#!/usr/bin/env python3
"""Opens navlog's HTML report in headless Chromium and checks what a person would see.

    python3 Tools/report-check.py --navlog .build/debug/navlog

Installs Chromium from the distribution's packages when it is missing (apt-get; needs root).
Checks, on the report of Schemas/examples/valid/sheets.jsonl and of a generated log:
  - the page rendered (body data-ready) with no script error and makes no network request;
  - the flow diagram has nodes;
  - the replayer, opened at #session=s7&step=6, shows the sheet `compose` with `photoPicker` as the
    visible route and the home stack holding recipe(apple-pie);
  - the page was interactive in under 1 s (the time the page itself measured);
  - the replays, which hold each step as the changes navlog's fold found: the state and visible
    screens the page shows after every step of every session replayed, in the reports of each
    example log (snapshots and restores among them) and of two sessions of a generated log, equal
    those `navlog state --at SEQ` and `navlog replay` give (stacks left empty aside: a change
    does not tell an empty stack from none);
  - #session=ID of a session the page does not hold says so and how to add it;
  - a session longer than the page replays says how much of it is shown, and the report of 10
    sessions of 2,100 pushes each stays small and interactive in under 1 s;
  - a view that ended before it began (the clock went back) is counted, and the page says so;
  - a log whose names, ids, params, tabs and path hold invisible and reordering characters
    (U+202E, zero-width ones, U+2028) and markup: the page holds none of those characters outside
    its data, and shows each as a marker (⟨U+202E⟩) inside a <bdi> — in the screens table, the
    session picker, the replayer's device, stacks, transcript and raw panel (its event's line read
    from a block of its own) — and the markup as text;
  - the overview of a log with a torn tail says the line dropped, its file and line (and stderr
    says it); in salvage mode, how many lines were skipped and where; of a clean log, nothing;
  - a report over three generated logs, one repeating another's session ids, renders, lists the
    logs with the events each gave and says which session ids repeat, counts the sessions of
    `navlog sessions` over them, and every replayed step — of ID@K too — shows the state and
    visible screen navlog gives from that replay's own log.
Keeps a screenshot in .build/report-check/report.png. Ends with "N passed, M failed".
"""
import argparse
import html as htmllib
import json
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


def replayed_states(browser, report):
    """The state and visible screens the page shows after each step of each session it replays."""
    page = open(report, encoding="utf-8").read()
    dump = """<script>
    const states = [];
    data.replays.forEach((session, s) => session.steps.forEach((step, i) => {
      const at = navlogReplay.stateAt(s, i);
      states.push({ session: session.session_in_log ?? session.id, log: session.log ?? null, seq: step.seq, state: structuredClone(at.state),
                    visible: { ...at.visible } });
    }));
    document.body.append(Object.assign(document.createElement("pre"), { id: "check-states", textContent: JSON.stringify(states) }));
    </script>"""
    checked = report.replace(".html", "-states.html")
    with open(checked, "w", encoding="utf-8") as f:
        f.write(page.replace("</body>", dump + "</body>"))
    dom = browse(browser, "file://" + checked, "--dump-dom", "--virtual-time-budget=20000").stdout
    found = re.search(r'<pre id="check-states">(.*?)</pre>', dom, re.S)
    return json.loads(htmllib.unescape(found.group(1))) if found else None


def route_text(route):
    text = route["screen"] + (f"({route['id']})" if route.get("id") is not None else "")
    params = route.get("params") or {}
    return text + ("{" + ",".join(f"{k}={params[k]}" for k in sorted(params)) + "}" if params else "")


def compare_replays(navlog, browser, log, report, extra):
    """Whether every step of every replay of the report of `log` (or of each log of a list) shows
    the state and visible screen navlog gives from the replay's own log."""
    logs = log if isinstance(log, list) else [log]
    subprocess.run([navlog, "report", *logs, "-o", report, *extra], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    states = replayed_states(browser, report)
    if not states:
        return False, "the page gave no states"
    for shown in states:
        shown["log"] = shown["log"] or logs[0]
    visible = {}
    for log, session in sorted({(s["log"], s["session"]) for s in states}):
        replay = json.loads(subprocess.run([navlog, "replay", log, "--session", session, "--format", "json"], check=True,
                                           capture_output=True, text=True).stdout)
        for step in replay["steps"]:
            visible[(log, session, step["seq"])] = (step["scene"], step["visible"])
    for shown in states:
        expected = json.loads(subprocess.run([navlog, "state", shown["log"], "--at", str(shown["seq"]), "--format", "json"], check=True,
                                             capture_output=True, text=True).stdout)
        if shown["state"] != {"active": expected["active"], "scenes": expected["scenes"]}:
            return False, f"session {shown['session']} of {shown['log']} seq {shown['seq']}: page {shown['state']}, navlog {expected}"
        scene, route = visible[(shown["log"], shown["session"], shown["seq"])]
        if scene in expected["scenes"] and (shown["visible"].get(scene) or {}).get("route") != route_text(route):
            return False, f"session {shown['session']} seq {shown['seq']}: page shows {shown['visible'].get(scene)} in {scene}, navlog {route}"
    return True, f"{len(states)} steps"


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
    visible = re.findall(r'<li class="visible" aria-current="true"[^>]*>(.*?)</li>', compose.group(1)) if compose else []
    check("step 6 of s7 shows photoPicker visible in the compose sheet", visible == ["photoPicker"], str(visible))
    home = re.search(r'<div class="stack" data-stack="home">(.*?)</div>', dom, re.S)
    check("and recipe(apple-pie) on the home stack", bool(home) and "recipe(apple-pie)" in home.group(1))
    event = re.findall(r'<p id="event"[^>]*>(.*?)</p>', dom)
    check("and the event that led there", bool(event) and "push main/compose photoPicker" in event[0], str(event))
    check("a log that dropped no line has no note of dropped lines", '<p class="note" id="dropped-lines"></p>' in dom)
    render = re.findall(r'data-render-ms="([0-9.]+)"', dom)
    check("interactive in under 1 s", bool(render) and float(render[0]) < 1000, str(render))

    generated = os.path.join(OUT, "generated.jsonl")
    subprocess.run([args.navlog, "generate", "--events", "20000", "--seed", "4", "-o", generated, "--force"], check=True, stderr=subprocess.DEVNULL,
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

    # The replays: each step's state and visible screen, as navlog folds them.
    for name in sorted(os.listdir(os.path.join(ROOT, "Schemas", "examples", "valid"))):
        log = os.path.join(OUT, "example-" + name)
        shutil.copyfile(os.path.join(ROOT, "Schemas", "examples", "valid", name), log)
        ok, detail = compare_replays(args.navlog, browser, log, log.replace(".jsonl", ".html"), [])
        check(f"every replayed step of {name} shows navlog's state and visible screen ({detail})", ok, detail)
    # Stacks made empty, which no change in a diff names: popToRoot, an empty setPath, a deep
    # link's empty path.
    empty = os.path.join(OUT, "empty-stacks.jsonl")
    with open(empty, "w") as f:
        for seq, event in enumerate([
                {"type": "session.start", "launch": "cold"}, {"type": "scene.open", "scene": "main"},
                {"type": "tab.select", "scene": "main", "tab": "home"}, {"type": "popToRoot", "scene": "main", "stack": "search"},
                {"type": "setPath", "scene": "main", "stack": "profile", "path": [], "cause": "programmatic"},
                {"type": "deeplink", "scene": "main", "url": "app://x", "outcome": "resolved", "stack": "inbox", "path": []},
                {"type": "push", "scene": "main", "stack": "home", "route": {"screen": "x"}}, {"type": "session.end"}], 1):
            f.write(json.dumps({"v": 1, "seq": seq, "ts": f"2026-12-01T10:00:0{seq}.000Z", "session": "a", **event}) + "\n")
    ok, detail = compare_replays(args.navlog, browser, empty, empty.replace(".jsonl", ".html"), [])
    check(f"every replayed step of a session that makes empty stacks shows navlog's state, empty stacks too ({detail})", ok, detail)
    ok, detail = compare_replays(args.navlog, browser, generated, os.path.join(OUT, "generated-replays.html"), ["--recent", "8"])
    check(f"every replayed step of eight generated sessions shows navlog's state and visible screen ({detail})", ok, detail)

    dom = browse(browser, "file://" + report + "#session=nope&step=3", "--dump-dom", "--virtual-time-budget=5000").stdout
    missing = htmllib.unescape(" ".join(re.findall(r'<p class="note" id="replay-missing"[^>]*>(.*?)</p>', dom, re.S)))
    check("#session= of a session not in the page says so and how to add it",
          "Session nope is not in this page" in missing and "--session nope" in missing, missing)

    # Ten sessions of 2,100 pushes each: each replay shows its first 2,000 steps, and says so.
    pushes = os.path.join(OUT, "pushes.jsonl")
    with open(pushes, "w") as f:
        seq = 0
        for s in range(10):
            for k in range(2102):
                seq += 1
                event = {"v": 1, "seq": seq, "ts": f"2026-12-01T{s:02d}:{k // 60 % 60:02d}:{k % 60:02d}.000Z", "session": f"s{s}"}
                event.update({"type": "session.start", "launch": "cold"} if k == 0 else {"type": "scene.open", "scene": "main"} if k == 1
                             else {"type": "push", "scene": "main", "stack": "main", "route": {"screen": "recipe", "id": str(k)}})
                f.write(json.dumps(event) + "\n")
    long_report = os.path.join(OUT, "pushes.html")
    run = subprocess.run([args.navlog, "report", pushes, "-o", long_report], check=True, capture_output=True, text=True)
    size = os.path.getsize(long_report)
    check(f"ten sessions of 2,100 pushes make a page of {size >> 10} KiB (under 8 MiB)", size < 8 << 20)
    check("and navlog says on stderr that their replays are cut", "show their first 2000 events" in run.stderr, run.stderr)
    dom = browse(browser, "file://" + long_report + "#session=s3&step=2000", "--dump-dom", "--virtual-time-budget=5000").stdout
    cut = htmllib.unescape(" ".join(re.findall(r'<p class="note" id="replay-cut"[^>]*>(.*?)</p>', dom, re.S)))
    check("the page says a replay shows the first 2,000 of its 2,102 events", "first 2,000 of the session's 2,102 events" in cut, cut)
    home = re.search(r'<div class="stack" data-stack="main">(.*?)</div>', dom, re.S)
    check("and at its last step the stack holds 1,998 routes, recipe(1999) visible",
          bool(home) and home.group(1).count("<li") == 1998 and '<li class="visible" aria-current="true" data-mark="added">recipe(1999)</li>' in home.group(1))
    render = re.findall(r'data-render-ms="([0-9.]+)"', dom)
    check("interactive in under 1 s", bool(render) and float(render[0]) < 1000, str(render))

    # A view that ended before it began: counted, and the page says so beside the screens.
    clock = os.path.join(OUT, "clock.jsonl")
    with open(clock, "w") as f:
        for k, (ts, rest) in enumerate([("00.000", {"type": "session.start", "launch": "cold"}), ("00.000", {"type": "scene.open", "scene": "main"}),
                                        ("10.000", {"type": "push", "scene": "main", "stack": "main", "route": {"screen": "recipe"}}),
                                        ("04.000", {"type": "push", "scene": "main", "stack": "main", "route": {"screen": "reviews"}}),
                                        ("09.000", {"type": "session.end"})]):
            f.write(json.dumps({"v": 1, "seq": k + 1, "ts": f"2026-11-29T10:00:{ts}Z", "session": "s", **rest}) + "\n")
    clock_report = os.path.join(OUT, "clock.html")
    subprocess.run([args.navlog, "report", clock, "-o", clock_report], check=True, capture_output=True)
    dom = browse(browser, "file://" + clock_report, "--dump-dom", "--virtual-time-budget=5000").stdout
    note = htmllib.unescape(" ".join(re.findall(r'<p class="note" id="clock-went-back"[^>]*>(.*?)</p>', dom, re.S)))
    check("a view that ended before it began is counted and the page says so", "1 view ended before it began" in note, note)

    invisible_characters(args.navlog, browser, check)
    dropped_lines(args.navlog, browser, check, example)
    many_logs(args.navlog, browser, check)

    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


def invisible_characters(navlog, browser, check):
    """The report of a log whose values hold characters that show nothing or reorder the text."""
    log = os.path.join(OUT, "invisible-pay\u202egnp.jsonl")
    session, tab = "s\u200b1", "home\u2066"
    with open(log, "w", encoding="utf-8") as f:
        for seq, event in enumerate([
                {"type": "session.start", "launch": "cold"}, {"type": "scene.open", "scene": "main"},
                {"type": "tab.select", "scene": "main", "tab": tab},
                {"type": "push", "scene": "main", "stack": tab, "route": {"screen": "pay\u202egnp.exe", "id": "x\u2028y", "params": {"q": "a\u200db"}}},
                {"type": "push", "scene": "main", "stack": tab, "route": {"screen": "<img src=x onerror=alert(1)>\ufeff"}},
                {"type": "session.end"}], 1):
            f.write(json.dumps({"v": 1, "seq": seq, "ts": f"2026-12-01T10:00:0{seq}.000Z", "session": session, **event}, ensure_ascii=False) + "\n")
    report = os.path.join(OUT, "invisible.html")
    subprocess.run([navlog, "report", log, "-o", report], check=True, capture_output=True)
    url = "file://" + report + "#session=s%E2%80%8B1&step=4"
    dom = browse(browser, url, "--dump-dom", "--virtual-time-budget=5000").stdout
    browse(browser, url, "--window-size=1280,2400", "--screenshot=" + os.path.join(OUT, "invisible.png"))
    errors = re.findall(r'<pre id="errors"[^>]*>(.*?)</pre>', dom, re.S)
    check("a log of invisible and reordering characters renders without errors", 'data-ready="true"' in dom and errors == [""], str(errors))
    shown = re.sub(r'<script id="report-(?:data|lines)".*?</script>', "", dom, flags=re.S)   # the data, and the lines of the raw panel
    seen = re.sub(r' data-[a-z-]+="[^"]*"', "", shown)   # the page's own keys hold values exactly, and are not shown
    raw = sorted({f"U+{ord(c):04X}" for c in seen if c in "\u202e\u200b\u200d\u2066\u2028\ufeff"})
    check("and holds none of them outside its data and keys, in text or attributes", not raw, str(raw))

    def marked(code):
        return f'<span class="invisible" title="U+{code}, a character that shows nothing or reorders the text around it">⟨U+{code}⟩</span>'
    pay = "<bdi>pay" + marked("202E") + "gnp.exe</bdi>"
    check("the screens table shows U+202E marked, the name isolated", f'<td class="text">{pay}</td>' in shown, re.findall(r"<tbody>.*?</tbody>", shown, re.S)[:1])
    device = re.search(r'<div class="layer"[^>]*data-visible="true"[^>]*>.*?<div class="big">(.*?)</div>((?:<div class="params">.*?</div>)*)', shown, re.S)
    check("the replayer's device shows the screen, its id and its param marked",
          bool(device) and device.group(1) == pay and "id <bdi>x" + marked("2028") + "y</bdi>" in device.group(2)
          and "q: <bdi>a" + marked("200D") + "b</bdi>" in device.group(2), device.group(0) if device else dom[:0])
    stack = re.search(r'<div class="stack" data-stack="home\u2066">.*?<h4>(.*?)</h4>.*?<li class="visible"[^>]*>(.*?)</li>', shown, re.S)
    check("its stacks show the tab and the route marked",
          bool(stack) and stack.group(1).startswith("<bdi>home" + marked("2066") + "</bdi>") and stack.group(2).startswith(pay[:-6]),
          stack.group(0) if stack else "no stack home\u2066")
    row = re.search(r'<div role="option" id="event-3"[^>]*>(.*?)</div>', shown, re.S)
    check("its transcript shows the event marked", bool(row) and "pay" + marked("202E") + "gnp.exe" in row.group(1), row.group(0) if row else "")
    option = re.search(r'<select id="session-select"><option[^>]*>(.*?)</option>', shown, re.S)
    check("the session picker shows the session id marked", bool(option) and option.group(1).startswith("<bdi>s" + marked("200B") + "1</bdi> — "),
          option.group(1) if option else "")
    title = re.search(r"<title>(.*?)</title>", shown)
    check("the page's title marks the path's U+202E", bool(title) and "invisible-pay⟨U+202E⟩gnp.jsonl" in title.group(1), title.group(1) if title else "")
    check("a screen named with markup is shown as text", "<img" not in shown and "&lt;img src=x onerror=alert(1)&gt;" in shown)
    # The raw panel, opened, reads the event's line from its block and marks it as the page does.
    opened = os.path.join(OUT, "invisible-raw.html")
    with open(opened, "w", encoding="utf-8") as f:
        f.write(open(report, encoding="utf-8").read().replace("</body>", '<script>document.getElementById("raw-json").open = true;</script>\n</body>'))
    raw_dom = browse(browser, "file://" + opened + "#session=s%E2%80%8B1&step=4", "--dump-dom", "--virtual-time-budget=5000").stdout
    event = re.search(r'<pre id="raw-event"[^>]*>(.*?)</pre>', re.sub(r'<script id="report-(?:data|lines)".*?</script>', "", raw_dom, flags=re.S), re.S)
    check("the raw panel shows the event's line, crc and all, U+202E marked",
          bool(event) and '"type": "push"' in event.group(1) and '"crc": "' in event.group(1) and "pay" + marked("202E") + "gnp.exe" in event.group(1),
          event.group(0) if event else "no raw event")


def dropped_lines(navlog, browser, check, example):
    """A torn tail, and lines salvage skips: the overview says which lines its figures leave out."""
    lines = open(example, encoding="utf-8").read().splitlines(keepends=True)
    torn = os.path.join(OUT, "torn.jsonl")
    with open(torn, "w", encoding="utf-8") as f:
        f.write("".join(lines) + '{"v":1,"seq":%d,"ts":"2026-' % (len(lines) + 1))
    page = os.path.join(OUT, "torn.html")
    run = subprocess.run([navlog, "report", torn, "-o", page], check=True, capture_output=True, text=True)
    check("the report of a log with a torn tail says on stderr the line it dropped",
          f"navlog report: warning: {torn}:{len(lines) + 1}: tornLine: torn tail dropped:" in run.stderr, run.stderr)
    def note(page):
        dom = browse(browser, "file://" + page, "--dump-dom", "--virtual-time-budget=5000").stdout
        errors = re.findall(r'<pre id="errors"[^>]*>(.*?)</pre>', dom, re.S)
        shown = " ".join(re.findall(r'<p class="note" id="dropped-lines"[^>]*>(.*?)</p>', dom, re.S))
        return 'data-ready="true"' in dom and errors == [""], htmllib.unescape(re.sub(r"<[^>]+>", "", shown))   # the text shown
    rendered, said = note(page)
    check("and its overview says so, naming the file and the line",
          rendered and said.startswith(f"1 line dropped (torn tail of {torn} at line {len(lines) + 1})"), said)
    damaged = os.path.join(OUT, "damaged.jsonl")
    with open(damaged, "w", encoding="utf-8") as f:
        f.write("".join(line.replace('"crc":"', '"crc":"0') if k in (2, 4) else line for k, line in enumerate(lines)))
    page = os.path.join(OUT, "damaged.html")
    subprocess.run([navlog, "report", damaged, "-o", page, "--mode", "salvage"], check=True, capture_output=True)
    rendered, said = note(page)
    check("the overview of a report in salvage mode says how many lines it skipped, and where",
          rendered and said.startswith(f"2 lines skipped as defective (salvage mode: crcMismatch in {damaged} at line 3, "
                                       f"crcMismatch in {damaged} at line 5)"), said)


def many_logs(navlog, browser, check):
    """The report over three generated logs, the third repeating the first's session ids."""
    logs = []
    for name, seed, events in [("a.jsonl", 21, 3000), ("b.navlog", 22, 3000), ("again.jsonl", 21, 2000)]:
        path = os.path.join(OUT, "many", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        subprocess.run([navlog, "generate", "--events", str(events), "--seed", str(seed), "-o", path, "--force"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        logs.append(path)
    report = os.path.join(OUT, "many.html")
    run = subprocess.run([navlog, "report", *logs, "-o", report], check=True, capture_output=True, text=True)
    check("a report over three logs warns of the session ids two of them use", f"is in 2 logs ({logs[0]}, {logs[2]})" in run.stderr, run.stderr)
    dom = browse(browser, "file://" + report, "--dump-dom", "--virtual-time-budget=5000").stdout
    errors = re.findall(r'<pre id="errors"[^>]*>(.*?)</pre>', dom, re.S)
    check("and renders without errors", 'data-ready="true"' in dom and errors == [""], str(errors))
    listed = re.search(r'<details id="logs"[^>]*>(.*?)</details>', dom, re.S)
    rows = re.findall(r'<tr><td class="text">(.*?)</td><td class="number">(.*?)</td>', listed.group(1)) if listed else []
    counts = [(log, f"{json.loads(subprocess.run([navlog, 'verify', log, '--format', 'json'], check=True, capture_output=True, text=True).stdout)['events']:,}")
              for log in logs]
    check("its overview lists each log with the events it gave", rows == counts, f"{rows} against {counts}")
    repeated = htmllib.unescape(" ".join(re.findall(r'<p class="muted" id="repeated-sessions">(.*?)</p>', dom, re.S)))
    check("and says which session ids are in several logs", "session ids are in several logs" in repeated and "@3 in " in repeated, repeated)
    sessions = subprocess.run([navlog, "sessions", *logs], check=True, capture_output=True, text=True).stdout.split(":")[1].strip()
    cards = re.search(r'<ul class="cards" id="overview">(.*?)</ul>', dom, re.S)
    shown = re.findall(r"<strong>([0-9,]+)</strong>Sessions", cards.group(1)) if cards else []
    check("and counts the sessions navlog sessions counts over them", shown == [sessions.split()[0]], f"{shown} against {sessions}")
    picker = re.search(r'<select id="session-select">(.*?)</select>', dom, re.S)
    options = [htmllib.unescape(o) for o in re.findall(r"<option[^>]*>(.*?)</option>", picker.group(1) if picker else "")]
    check("and its session picker says which log each replay is from",
          bool(options) and all(any(o.endswith(", from " + log) for log in logs) for o in options), str(options[:3]))
    def data(page):
        return json.loads(re.search(r'<script id="report-data" type="application/json">(.*?)</script>', open(page, encoding="utf-8").read(),
                                    re.S).group(1))
    named = data(report)["repeated_sessions"][0]["names"][1]
    replays = os.path.join(OUT, "many-replays.html")
    ok, detail = compare_replays(navlog, browser, logs, replays, ["--crashed", "0", "--recent", "5", "--session", named])
    check(f"every replayed step of the 5 latest sessions and {named} shows the state navlog gives from its own log ({detail})", ok, detail)
    chosen = [(replay["log"], replay["ts"]) for replay in data(replays)["replays"][1:]]
    check("the latest sessions are taken across the logs by the time they began, latest first",
          len({log for log, _ in chosen}) > 1 and [ts for _, ts in chosen] == sorted((ts for _, ts in chosen), reverse=True), str(chosen))


if __name__ == "__main__":
    main()
