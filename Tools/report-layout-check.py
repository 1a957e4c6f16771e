#!/usr/bin/env python3
"""Lays navlog's HTML report out in headless Chromium at 1400 and 390 px wide and measures it.

    python3 Tools/report-layout-check.py --navlog .build/debug/navlog

Installs Chromium when it is missing (as Tools/report-check.py does). On a generated log and on a
hand-written one whose first session crashes with two scenes open, at each width:
  - nothing is wider than the window: every section fits, the tables and the flow scroll inside
    their box, the session picker and the replayer's controls wrap;
  - the funnel's bars keep their length: step 1's track is most of the section's width, and each
    bar is its step's share of it;
  - sessions per day is a chart with labels on both axes, drawn at its box's width; the flow
    names each of its steps, and its nodes by their screen alone;
  - the replayer embeds the crashed session first and opens it at the first step that shows a
    screen; the marks sit on the slider's track where the slider is at their step; the speeds
    are 1x to 16x; the raw panel, opened, shows the event and the state after it as JSON; "Copy link to
    this step" gives the page's address with #session=ID&step=N; the devices and the transcript
    do not move when the second scene opens;
  - each "Before a crash" path links to the replay's step, which the link opens;
  - an empty report (no session passes the filters) says so in each section.
Screenshots are kept in .build/report-layout-check/ and must hold a page's worth of drawing.
Ends with "N passed, M failed".
"""
import argparse
import html as htmllib
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".build", "report-layout-check")
sys.path.insert(0, os.path.join(ROOT, "Tools"))
report_check = __import__("report-check")
WIDTHS = (1400, 390)

# Measures the page once it has rendered; the results go in a <pre> the check reads from the DOM.
PROBE = """<script>
setTimeout(async () => {
  const results = {}, W = window.innerWidth, box = e => e.getBoundingClientRect();
  // Within a box that scrolls or clips (a table's, a transcript row's), what is wider is not shown.
  const clipped = e => { for (let p = e.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== "visible") return true; return false; };
  try {
    results.width = W;
    results.pageWidth = document.documentElement.scrollWidth;
    results.wide = [...document.querySelectorAll("main > section, main > section *")]
      .filter(e => e.getClientRects().length && box(e).right > W + 0.5 && !clipped(e))
      .slice(0, 5).map(e => `${e.tagName}#${e.id}.${e.className?.baseVal ?? e.className}: ${box(e).right}`);
    results.scrollBoxes = [...document.querySelectorAll(".scroll")].map(e => [e.id, box(e).right <= W + 0.5]);
    const funnel = document.querySelector("#funnels .funnel");
    if (funnel) {
      const steps = [...funnel.querySelectorAll(".funnel-step")];
      const track = box(steps[0].querySelector(".funnel-track")).width;
      results.funnel = { track, row: box(steps[0]).width, shares: steps.map(s => box(s.querySelector(".funnel-bar")).width / track),
                         sessions: data.funnels[0].map(s => s.sessions) };
    }
    const chart = document.querySelector("#per-day svg.per-day");
    results.perDay = chart ? { labels: [...chart.querySelectorAll("text.axis-label")].map(t => t.textContent), width: box(chart).width,
                               box: box(document.getElementById("per-day")).width } : null;
    results.flow = { steps: [...document.querySelectorAll("#flow text.step-name")].map(t => t.textContent),
                     columns: new Set(data.flow.flatMap(l => [l.step, l.step + 1])).size,
                     numbered: [...document.querySelectorAll("#flow .flow-node text")].filter(t => /^\\d+_/.test(t.textContent)).length };
    results.controls = [...document.querySelectorAll("#replay .controls")].flatMap(g => [...g.children]).filter(e => box(e).right > W + 0.5).map(e => e.id || e.tagName);
    results.speeds = [...document.getElementById("speed").options].map(o => o.value);
    results.firstOption = data.replays[Number(document.getElementById("session-select").options[0]?.value)]?.reason ?? null;
    results.label = document.getElementById("step-label").textContent;
    results.devices = document.querySelectorAll("#devices .device:not(.slot)").length;
    const range = document.getElementById("step"), r = box(range), n = Number(range.max) + 1;
    results.marks = [...document.querySelectorAll("#axis .tick")].map(t => {
      const b = box(t), x = b.left + b.width / 2, y = b.top + b.height / 2, i = Number(t.dataset.index);
      const expected = r.left + 8 + (n > 1 ? i / (n - 1) : 0) * (r.width - 16);   // the thumb is 1rem wide
      return [Math.round(Math.abs(x - expected) * 10) / 10, y > r.top && y < r.bottom];
    });
    document.getElementById("raw-json").open = true;
    await new Promise(done => setTimeout(done, 50));
    const step = Number(range.value), replay = data.replays[Number(document.getElementById("session-select").value)];
    results.raw = { event: JSON.parse(document.getElementById("raw-event").textContent), state: JSON.parse(document.getElementById("raw-state").textContent),
                    seq: replay.steps[step].seq, session: replay.id };
    document.getElementById("copy-link").click();
    await new Promise(done => setTimeout(done, 50));
    results.link = [document.getElementById("step-link").value, location.href.split("#")[0], replay.id, step + 1,
                    document.getElementById("link-status").textContent];
    results.crashLinks = [...document.querySelectorAll("#crash-paths a.moment")].map(a => a.getAttribute("href"));
    if (JUMP) {
      const place = () => ["devices", "transcript"].map(id => { const b = box(document.getElementById(id)); return [b.top, b.left, b.height]; });
      const opens = replay.steps.findIndex((s, i) => i > 0 && (s.changes ?? []).some(c => c.change === "sceneOpened") &&
                                           Object.keys(navlogReplay.stateAt(Number(document.getElementById("session-select").value), i - 1).state.scenes).length > 0);
      navlogReplay.go(opens - 1); const before = place();
      navlogReplay.go(opens); const after = place();
      results.jump = { opens, before, after, devices: document.querySelectorAll("#devices .device:not(.slot)").length };
    }
    results.empty = [...document.querySelectorAll(".empty")].map(e => e.textContent);
    results.emptyLog = document.getElementById("empty-log").textContent;
  } catch (e) { results.exception = String(e.stack || e); }
  results.errors = document.getElementById("errors").textContent;
  parent.postMessage(JSON.stringify(results), "*");
}, 100);
</script>"""


def framed(page, width, fragment=""):
    """A page showing `page` in a frame `width` px wide: a headless window is at least 500 px wide.
    What the frame posts, the page writes in a <pre id="layout-results">."""
    frame = page.replace(".html", f"-frame-{width}.html")
    with open(frame, "w", encoding="utf-8") as f:
        f.write(f"""<!doctype html><html><body style="margin:0">
<iframe src="{os.path.basename(page)}{fragment}" style="width:{width}px;height:2400px;border:0"></iframe>
<script>addEventListener("message", e => document.body.append(Object.assign(document.createElement("pre"), {{ id: "layout-results", textContent: e.data }})));</script>
</body></html>""")
    return frame


def measure(browser, page, width, fragment="", jump=False):
    source = open(page, encoding="utf-8").read()
    probed = page.replace(".html", f"-probe-{width}.html")
    with open(probed, "w", encoding="utf-8") as f:
        f.write(source.replace("</body>", PROBE.replace("JUMP", "true" if jump else "false") + "</body>"))
    dom = report_check.browse(browser, "file://" + framed(probed, width, fragment), f"--window-size={max(width, 500)},1200", "--dump-dom",
                              "--virtual-time-budget=3000").stdout
    found = re.search(r'<pre id="layout-results">(.*?)</pre>', dom, re.S)
    return json.loads(htmllib.unescape(found.group(1))) if found else {"exception": "no results: " + dom[-300:]}


def two_scenes_log(path):
    """Session k crashes with two scenes open (side opens at its 6th event); session z follows."""
    events = [("k", {"type": "session.start", "launch": "cold"}), ("k", {"type": "scene.open", "scene": "main"}),
              ("k", {"type": "tab.select", "scene": "main", "tab": "home"}),
              ("k", {"type": "push", "scene": "main", "stack": "home", "route": {"screen": "recipe", "id": "pie"}}),
              ("k", {"type": "push", "scene": "main", "stack": "home", "route": {"screen": "reviews", "id": "pie"}}),
              ("k", {"type": "scene.open", "scene": "side"}),
              ("k", {"type": "push", "scene": "side", "stack": "main", "route": {"screen": "recipe", "id": "tart"}}),
              ("k", {"type": "deeplink", "scene": "main", "url": "app://recipe/cake", "outcome": "resolved", "tab": "home",
                     "path": [{"screen": "recipe", "id": "cake"}]}),
              ("z", {"type": "session.start", "launch": "cold"}), ("z", {"type": "scene.open", "scene": "main"}),
              ("z", {"type": "push", "scene": "main", "stack": "main", "route": {"screen": "recipe", "id": "pie"}}), ("z", {"type": "session.end"})]
    with open(path, "w") as f:
        for seq, (session, event) in enumerate(events, 1):
            f.write(json.dumps({"v": 1, "seq": seq, "ts": f"2027-02-0{1 + seq // 9}T10:00:{seq:02d}.000Z", "session": session, **event}) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--navlog", required=True)
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    browser = report_check.chromium()
    results = []

    def check(name, ok, detail=""):
        results.append(bool(ok))
        print(f"{'ok  ' if ok else 'FAIL'}  {name}" + (f": {detail}" if detail and not ok else ""))

    generated, big = os.path.join(OUT, "generated.jsonl"), os.path.join(OUT, "generated.html")
    subprocess.run([args.navlog, "generate", "--events", "3000", "--seed", "3", "-o", generated, "--force"], check=True, capture_output=True)
    subprocess.run([args.navlog, "report", generated, "-o", big, "--funnel", "home,recipe,reviews"], check=True, capture_output=True)
    hand, small = os.path.join(OUT, "two-scenes.jsonl"), os.path.join(OUT, "two-scenes.html")
    two_scenes_log(hand)
    subprocess.run([args.navlog, "report", hand, "-o", small], check=True, capture_output=True)

    for width in WIDTHS:
        got = measure(browser, big, width)
        at = f"{width} px"
        check(f"{at}: the generated log's page rendered without error", "exception" not in got and got.get("errors") == "",
              got.get("exception") or got.get("errors"))
        check(f"{at}: nothing is wider than the window", got.get("width") == width and got.get("pageWidth") == width and not got.get("wide"), f"{got.get('pageWidth')} {got.get('wide')}")
        check(f"{at}: the tables and the flow scroll inside their box", got.get("scrollBoxes") and all(ok for _, ok in got["scrollBoxes"]),
              got.get("scrollBoxes"))
        check(f"{at}: the session picker and the replayer's controls wrap within the window", got.get("controls") == [], got.get("controls"))
        funnel = got.get("funnel") or {}
        shares = [s / funnel["sessions"][0] for s in funnel.get("sessions", [])]
        check(f"{at}: the funnel's track is most of its row, each bar its step's share of it",
              funnel and funnel["track"] >= 0.55 * funnel["row"] and all(abs(a - b) < 0.02 for a, b in zip(funnel["shares"], shares)),
              funnel)
        chart = got.get("perDay") or {}
        labels = chart.get("labels", [])
        check(f"{at}: sessions per day is a chart with counts and dates on its axes, at its box's width",
              "0" in labels and any(re.fullmatch(r"\d{4}-\d\d-\d\d", l) for l in labels) and len(labels) >= 4
              and abs(chart["width"] - chart["box"]) <= 1, chart)
        flow = got.get("flow") or {}
        check(f"{at}: the flow names each of its steps, and its nodes by their screen alone",
              flow.get("steps") == [f"Step {k}" for k in range(1, flow.get("columns", 0) + 1)] and flow.get("columns", 0) >= 2
              and flow.get("numbered") == 0, flow)
        check(f"{at}: the speeds are 1x, 2x, 4x, 8x and 16x", got.get("speeds") == ["1", "2", "4", "8", "16"], got.get("speeds"))
        check(f"{at}: the crashed session is embedded and listed first", got.get("firstOption") == "crashed", got.get("firstOption"))

        got = measure(browser, small, width, jump=True)
        check(f"{at}: the two-scene log's page rendered without error", "exception" not in got and got.get("errors") == "",
              got.get("exception") or got.get("errors"))
        check(f"{at}: nothing of it is wider than the window", got.get("pageWidth") == width and not got.get("wide"), f"{got.get('pageWidth')} {got.get('wide')}")
        check(f"{at}: the replayer opens the crashed session at its first step that shows a screen",
              got.get("label") == "2 / 8" and got.get("devices") == 1, f"{got.get('label')} {got.get('devices')}")
        marks = got.get("marks") or []
        check(f"{at}: the marks (deep link, crash) sit on the slider's track where the slider is at their step",
              len(marks) == 2 and all(dx <= 2 and on for dx, on in marks), marks)
        raw = got.get("raw") or {}
        event, state = raw.get("event") or {}, raw.get("state") or {}
        check(f"{at}: the raw panel shows the event as its line and the state after it",
              event.get("seq") == raw.get("seq") and event.get("session") == "k" and event.get("type") == "scene.open"
              and list(event)[:5] == ["v", "seq", "ts", "session", "type"] and "crc" in event and list(state.get("scenes", {})) == ["main"], raw)
        link = got.get("link") or ["", "", "", 0, ""]
        check(f"{at}: copy link to this step gives the page's address with #session=k&step=2",
              link[0] == f"{link[1]}#session=k&step=2" and link[4] != "", link)
        jump = got.get("jump") or {}
        check(f"{at}: the devices and the transcript do not move when the second scene opens",
              jump.get("opens") == 5 and jump.get("devices") == 2 and jump.get("before") == jump.get("after"), jump)
        check(f"{at}: the path before the crash links to the replay's step", got.get("crashLinks") == ["#session=k&step=6"], got.get("crashLinks"))

    # Its last three screens: side's root (from step 6), recipe(tart), and recipe(cake) of the deep link.
    opened = measure(browser, small, 390, "#session=k&step=6")
    check("the crash path's link opens the replay at that step", opened.get("label") == "6 / 8", opened.get("label"))

    empty = os.path.join(OUT, "empty.html")
    subprocess.run([args.navlog, "report", hand, "-o", empty, "--since", "2030-01-01T00:00:00.000Z"], check=True, capture_output=True)
    got = measure(browser, empty, 390)
    said = got.get("empty") or []
    check("an empty report says so in the chart, the flow and the screens, and in the overview",
          len(said) >= 3 and all(said) and "no session" in (got.get("emptyLog") or "").lower(), f"{said} {got.get('emptyLog')}")

    for width in WIDTHS:
        shot = os.path.join(OUT, f"report-{width}.png")
        report_check.browse(browser, "file://" + framed(big, width), f"--window-size={width},2400", "--screenshot=" + shot)
        size = os.path.getsize(shot) if os.path.exists(shot) else 0
        check(f"a screenshot at {width} px holds a page's worth of drawing ({size >> 10} KiB)", size > 60_000, size)

    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
