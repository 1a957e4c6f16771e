#!/usr/bin/env python3
"""Plays navlog's report replayer in headless Chromium and checks what a person would see and do.

    python3 Tools/replay-check.py --navlog .build/debug/navlog

On a hand-written log whose every value is known (a session that crashes after tabs, pushes, a
replace, stacked sheets, 30 s in the background, an anomaly and a deep link; then one that
restores and opens a split view) and on a generated log:
  - at given steps, each device's title, back-button label, selected tab, sheet cards, the
    background note and the change marks (added, removed, replaced) are the expected ones;
    on the generated log, those navlog's own state gives at each step probed;
  - clicking a transcript row moves the slider and the URL fragment;
  - playing for a set time at 16x, with and without skipping idle gaps, and at 1x, reaches the
    expected step: the page's clock is replaced by a virtual one (window.navlogClock);
  - the keyboard: Space plays and pauses, the arrows step, Home and End, + changes the speed (1x, 2x, 4x, 8x, 16x);
  - the sessions filter by ending, app and length, crashed first; the transcript by type and screen,
    and it marks deep links, the anomaly and the crash, as the slider's track does with the
    background gap, each where the slider is at its step;
  - a session of 1,502 events keeps only the transcript rows near the one shown in the document;
  - a log with no session to replay says so;
  - a dark colour scheme darkens the page; #session=s1&step=abc opens s1 at its first step
    that shows a screen;
  - no script or console error, and interactive in under 1 s.
Keeps screenshots of a few moments in .build/replay-check/ (light, dark, at 200 % zoom).
Ends with "N passed, M failed".
"""
import argparse
import datetime
import html as htmllib
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".build", "replay-check")
sys.path.insert(0, os.path.join(ROOT, "Tools"))
report_check = __import__("report-check")

# A virtual clock for the page's playback, and a record of console errors: given before the page's scripts.
CLOCK = """<script>
window.navlogClock = (() => {
  let now = 0, last = 0;
  const timers = new Map();
  return {
    now: () => now,
    later: (fn, ms) => { timers.set(++last, { at: now + ms, fn }); return last; },
    cancel: id => timers.delete(id),
    advance(ms) {
      const end = now + ms;
      for (;;) {
        let due = null;
        for (const [id, timer] of timers) if (timer.at <= end && (!due || timer.at < due[1].at)) due = [id, timer];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].fn();
      }
      now = end;
    },
  };
})();
window.consoleErrors = [];
for (const level of ["error", "warn"]) { const original = console[level]; console[level] = (...args) => { consoleErrors.push(args.join(" ")); original(...args); }; }
window.addEventListener("error", e => consoleErrors.push(String(e.message)));
</script>"""

# What the page shows after moving to a step: read from its drawing, as a person would.
PROBE = """<script>
const text = node => node ? node.textContent.trim() : null;
const moveTo = (id, index) => { const s = data.replays.findIndex(r => r.id === id); navlogReplay.choose(s, 0); navlogReplay.go(index); };
const seen = () => {
  const devices = {};
  for (const device of document.querySelectorAll("#devices .device:not(.slot)")) {
    const visible = device.querySelector("[data-visible]");
    devices[device.dataset.scene] = {
      title: text(visible?.querySelector(".title")), back: text(visible?.querySelector(".back-label")),
      titleMark: visible?.querySelector(".title")?.dataset.mark ?? null,
      tab: text(device.querySelector(".tabbar [aria-current=true]")), tabs: [...device.querySelectorAll(".tabbar li")].map(li => li.dataset.tab),
      sheets: [...device.querySelectorAll("[data-sheet]")].map(card => card.dataset.sheet),
      columns: [...device.querySelectorAll(".column")].map(c => c.classList[1]),
      away: text(device.querySelector(".away")), background: device.classList.contains("background"),
    };
  }
  const layers = {};
  for (const device of document.querySelectorAll("#devices .device:not(.slot)"))
    layers[device.dataset.scene] = [...device.querySelectorAll(".layer")].map(l => [text(l.querySelector(".title")), text(l.querySelector(".back-label"))]);
  return {
    devices, layers, step: Number(document.getElementById("step").value), hash: location.hash,
    changes: [...document.querySelectorAll("#changes li")].map(li => [li.dataset.mark ?? (li.classList.contains("anomaly") ? "anomaly" : null), text(li)]),
    stackMarks: [...document.querySelectorAll("#scenes [data-mark]")].map(node => [node.dataset.mark, text(node)]),
    event: text(document.getElementById("event")),
    selectedRow: document.querySelector("#transcript [aria-selected=true]")?.dataset.index ?? null,
    rowsInDocument: document.querySelectorAll("#transcript [role=option]").length,
    playing: document.getElementById("play").dataset.playing === "true",
    playName: text(document.getElementById("play")), playPressed: document.getElementById("play").getAttribute("aria-pressed"),
    layersNotGroups: document.querySelectorAll("#devices .layer:not([role=group])").length,
    crashMarks: document.querySelectorAll("#transcript .badge.crash, #axis .tick.unclean").length,
    cutNote: text(document.getElementById("replay-cut")),
  };
};
const results = {};
try {
  const probes = PROBES;
  results.steps = probes.map(([id, index]) => { moveTo(id, index); return { id, index, ...seen() }; });
  if (ACTIONS) {
    const replaySection = document.getElementById("replay");
    const key = (k, target = replaySection) => target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
    const clock = window.navlogClock, speed = document.getElementById("speed"), skip = document.getElementById("skip-idle");
    const play = (index, x, skipping, ms) => {
      moveTo("s1", index); speed.value = String(x); skip.checked = skipping;
      document.getElementById("play").click(); clock.advance(ms);
      const at = seen(); navlogReplay.pause(); return [at.step, at.playing];
    };
    results.play = { skip16: play(0, 16, true, 520), plain16: play(0, 16, false, 520), skip1: play(0, 1, true, 1500), toEnd: play(0, 16, true, 5000) };
    // While playing, the fragment follows (s1 at 16x, skipping idle: step 11 after 0.52 s).
    moveTo("s1", 0); speed.value = "16"; skip.checked = true; document.getElementById("play").click(); clock.advance(520);
    results.playingHash = location.hash; navlogReplay.pause();
    // A change of speed keeps the position: 0.9 s at 1x (skipping idle: 900 ms, between steps 3
    // at 100 ms and 4 at 1000 ms), then 0.1 s at 16x: 2.5 s, step 5 (2000 ms).
    moveTo("s1", 0); speed.value = "1"; document.getElementById("play").click(); clock.advance(900);
    speed.value = "16"; speed.dispatchEvent(new Event("change")); clock.advance(100);
    results.speedKeeps = seen().step; navlogReplay.pause();
    // And so does skipping idle: at 16x skipping, 0.15 s is 2.4 s, 40 % of the way from step 5
    // (2000 ms) to step 6 (3000 skipping, 12000 as recorded), which as recorded is 6000 ms; 0.3 s
    // more at 16x is 10800 ms (step 5), 0.4 s 12400 ms (step 6). From step 5 again, 0.4 s would
    // be 8400 ms, still step 5.
    moveTo("s1", 0); speed.value = "16"; skip.checked = true; document.getElementById("play").click(); clock.advance(150);
    skip.checked = false; skip.dispatchEvent(new Event("change")); clock.advance(300); const before6 = seen().step;
    clock.advance(100); results.skipKeeps = [before6, seen().step]; navlogReplay.pause();
    // Keys outside the replayer are the page's: Space on the body neither plays nor is taken.
    moveTo("s1", 3); document.body.focus();
    const outside = ["End", " ", "ArrowRight", "Home"].map(k => !document.body.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true })));
    results.outsideKeys = { prevented: outside, step: seen().step, playing: seen().playing };
    moveTo("s1", 0);
    document.querySelectorAll("#transcript [role=option]")[7].click();
    results.click = seen();
    const keys = {};
    replaySection.focus();
    key("End"); keys.end = seen().step;
    key("Home"); keys.home = seen().step;
    key("ArrowRight"); key("ArrowRight"); keys.right2 = seen().step;
    key("ArrowLeft"); keys.left = seen().step;
    key(" "); keys.spacePlays = seen().playing;
    key(" "); keys.spacePauses = !seen().playing;
    speed.value = "1"; key("+"); keys.plus = speed.value; key("+"); key("+"); keys.plusMax = speed.value; key("-"); keys.minus = speed.value;
    const transcript = document.getElementById("transcript");
    transcript.focus(); key("ArrowDown", transcript); key("ArrowDown", transcript); key("ArrowUp", transcript); keys.transcriptDown = seen().step;
    results.keys = keys;
    const options = () => [...document.querySelectorAll("#session-select option")].map(o => data.replays[Number(o.value)].id);
    const filter = (id, value) => { const f = document.getElementById(id); f.value = value; f.dispatchEvent(new Event("change")); };
    results.sessions = { all: options() };
    filter("filter-ending", "clean"); results.sessions.clean = options(); filter("filter-ending", "");
    filter("filter-app", "2.1"); results.sessions.app21 = options(); filter("filter-app", "");
    filter("filter-length", "500-"); results.sessions.long = options(); filter("filter-length", "");
    results.embedded = text(document.getElementById("replay-embedded"));
    moveTo("s1", 0);
    const typeFilter = document.getElementById("transcript-type"); typeFilter.value = "push"; typeFilter.dispatchEvent(new Event("change"));
    results.pushRows = document.querySelectorAll("#transcript [role=option]").length;
    // The arrows in a filtered transcript go through the rows it lists: s1's pushes are steps 3, 4 and 7.
    moveTo("s1", 0); transcript.focus();
    const arrows = [];
    for (const k of ["ArrowDown", "ArrowDown", "ArrowDown", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft"]) { key(k, transcript); arrows.push(seen().step); }
    results.filteredArrows = arrows;
    typeFilter.value = ""; typeFilter.dispatchEvent(new Event("change"));
    const screen = document.getElementById("transcript-screen"); screen.value = "Recipe"; screen.dispatchEvent(new Event("input"));
    results.recipeRows = [...document.querySelectorAll("#transcript [role=option]")].map(r => Number(r.dataset.index));
    // The event's screens, not any word of its summary: "share" is the sheet presented, not its dismissal (sheet.dismiss main share).
    screen.value = "share"; screen.dispatchEvent(new Event("input"));
    results.shareRows = [...document.querySelectorAll("#transcript [role=option]")].map(r => Number(r.dataset.index));
    screen.value = ""; screen.dispatchEvent(new Event("input"));
    results.badges = [...document.querySelectorAll("#transcript .badge")].map(b => [Number(b.parentNode.dataset.index), b.classList[1]]);
    moveTo("s1", 0);
    results.legend = ["anomaly", "deeplink", "deeplink", "background", "unclean"].map(k => { document.querySelector(`#legend button[data-kind=${k}]`).click(); return seen().step; });
    moveTo("s2", 9);
    results.layerTitles = [...document.querySelectorAll("#devices [data-scene=main] .layer")].map(l => [text(l.querySelector(".title")), text(l.querySelector(".back-label"))]);
    results.stackRoutes = [...document.querySelectorAll("#scenes [data-scene=main] [data-stack=home] li")].map(text);
    moveTo("s1", 0);
    // A session with no step drawn leaves nothing of the one before.
    moveTo("s1", 8);
    const playing = seen(); results.playControl = [playing.playName, playing.playPressed, playing.layersNotGroups];
    data.replays.push({ ...data.replays[0], id: "none", steps: [], away: [] });
    navlogReplay.choose(data.replays.length - 1, 0);
    results.noSteps = { devices: document.querySelectorAll("#devices > *").length, rows: document.querySelectorAll("#transcript [role=option]").length,
                        ticks: document.querySelectorAll("#axis > *").length, scenes: document.querySelectorAll("#scenes > *").length, event: text(document.getElementById("event")) };
    data.replays.pop();
    moveTo("s1", 0);
    results.axis = [...document.querySelectorAll("#axis .tick, #axis .span")].map(t => [t.classList[0] === "span" ? "background" : t.classList[1], Number(t.dataset.index)]);
    const place = t => [Number(parseFloat(t.style.left).toFixed(1)), Number(parseFloat(t.style.width || "0").toFixed(1))];
    results.axisPlaces = [...document.querySelectorAll("#axis .tick, #axis .span")].map(place);
    results.axisEnds = [...document.querySelectorAll("#axis-ends span")].map(text);
  }
} catch (e) { results.exception = String(e.stack || e); }
results.errors = [...window.consoleErrors, document.getElementById("errors").textContent].filter(Boolean);
results.renderMs = Number(document.body.dataset.renderMs);
document.body.append(Object.assign(document.createElement("pre"), { id: "check-results", textContent: JSON.stringify(results) }));
</script>"""


def run_probes(browser, page, probes, actions, name):
    source = open(page, encoding="utf-8").read()
    probe = PROBE.replace("PROBES", json.dumps(probes)).replace("ACTIONS", "true" if actions else "false")
    checked = os.path.join(OUT, name + "-probe.html")
    with open(checked, "w", encoding="utf-8") as f:
        f.write(source.replace("<head>", "<head>" + CLOCK, 1).replace("</body>", probe + "</body>"))
    dom = report_check.browse(browser, "file://" + checked, "--dump-dom", "--virtual-time-budget=10000").stdout
    found = re.search(r'<pre id="check-results">(.*?)</pre>', dom, re.S)
    return json.loads(htmllib.unescape(found.group(1))) if found else {"exception": "no results: " + dom[-500:]}


def hand_written_log(path):
    """Two sessions: s1 (app 2.1) crashes; s2 (app 2.2) restores, opens a split view, ends cleanly."""
    start = datetime.datetime(2026, 12, 1, 10, 0, tzinfo=datetime.timezone.utc)
    R = lambda screen, id=None: {"screen": screen, **({"id": id} if id else {})}
    events = [
        ("s1", 0, {"type": "session.start", "launch": "cold", "app": "2.1"}),
        ("s1", 0, {"type": "scene.open", "scene": "main"}),
        ("s1", 100, {"type": "tab.select", "scene": "main", "tab": "home"}),
        ("s1", 1000, {"type": "push", "scene": "main", "stack": "home", "route": R("category", "desserts")}),
        ("s1", 2000, {"type": "push", "scene": "main", "stack": "home", "route": R("recipe", "apple-pie")}),
        ("s1", 12000, {"type": "replace", "scene": "main", "stack": "home", "route": R("recipe", "brownies")}),
        ("s1", 13000, {"type": "sheet.present", "scene": "main", "sheet": "compose", "route": R("composeReview", "brownies")}),
        ("s1", 14000, {"type": "push", "scene": "main", "stack": "compose", "route": R("photoPicker")}),
        ("s1", 15000, {"type": "sheet.present", "scene": "main", "sheet": "share", "route": R("shareSheet"), "style": "sheet"}),
        ("s1", 16000, {"type": "sheet.dismiss", "scene": "main", "sheet": "share"}),
        ("s1", 17000, {"type": "scene.phase", "scene": "main", "phase": "background"}),
        ("s1", 47000, {"type": "scene.phase", "scene": "main", "phase": "active"}),
        ("s1", 48000, {"type": "pop", "scene": "main", "stack": "home", "count": 5}),
        ("s1", 49000, {"type": "sheet.dismiss", "scene": "main"}),
        ("s1", 50000, {"type": "tab.select", "scene": "main", "tab": "search"}),
        ("s1", 51000, {"type": "deeplink", "scene": "main", "url": "app://recipe/tiramisu", "outcome": "resolved", "tab": "home",
                       "path": [R("category", "desserts"), R("recipe", "tiramisu")]}),
        ("s1", 52000, {"type": "pop", "scene": "main", "stack": "home"}),
        ("s2", 60000, {"type": "session.start", "launch": "cold", "app": "2.2"}),
        ("s2", 60010, {"type": "restore", "from": 17, "dropped": [],
                       "state": {"active": "main", "scenes": {"main": {"tab": "home", "stacks": {"home": [R("category", "desserts")], "search": []}, "sheets": []}}}}),
        ("s2", 61000, {"type": "scene.open", "scene": "side"}),
        ("s2", 62000, {"type": "split.visibility", "scene": "side", "visibility": "all"}),
        ("s2", 63000, {"type": "split.select", "scene": "side", "column": "sidebar", "route": R("category", "desserts")}),
        ("s2", 64000, {"type": "split.select", "scene": "side", "column": "content", "route": R("recipe", "apple-pie")}),
        ("s2", 65000, {"type": "push", "scene": "side", "stack": "main", "route": R("reviews", "apple-pie")}),
        ("s2", 65200, {"type": "push", "scene": "main", "stack": "compose", "route": R("draft")}),
        ("s2", 65400, {"type": "push", "scene": "main", "stack": "home", "route": {"screen": "recipe", "id": "1", "params": {"from": "search"}}}),
        ("s2", 65600, {"type": "sheet.present", "scene": "main", "sheet": "share", "route": R("shareSheet")}),
        ("s2", 66000, {"type": "session.end"}),
    ]
    with open(path, "w") as f:
        for seq, (session, ms, rest) in enumerate(events, 1):
            ts = (start + datetime.timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
            f.write(json.dumps({"v": 1, "seq": seq, "ts": ts, "session": session, **rest}) + "\n")


def device(title, back=None, tab=None, sheets=(), mark=None, away=None, columns=(), tabs=None):
    tabs = tabs if tabs is not None else [tab] if tab else []
    return {"title": title, "back": back, "titleMark": mark, "tab": tab, "tabs": tabs, "sheets": list(sheets), "columns": list(columns),
            "away": away, "background": away is not None}


# At each (session, 0-based step): the devices, what changed, and the marks beside the stacks.
EXPECTED = [
    (("s1", 2), {"main": device("home", tab="home")}, [["replaced", "main: tab none → home"]], []),
    (("s1", 4), {"main": device("recipe(apple-pie)", "category(desserts)", "home", mark="added")},
     [["added", "main/home: recipe(apple-pie)"]], [["added", "recipe(apple-pie)"]]),
    (("s1", 5), {"main": device("recipe(brownies)", "category(desserts)", "home", mark="replaced")},
     [["replaced", "main/home: recipe(apple-pie) → recipe(brownies)"]], [["replaced", "recipe(brownies)"]]),
    (("s1", 7), {"main": device("photoPicker", "composeReview(brownies)", "home", ["compose"], mark="added")},
     [["added", "main, sheet compose: photoPicker"]], [["added", "photoPicker"]]),
    (("s1", 8), {"main": device("shareSheet", None, "home", ["compose", "share"], mark="added")},
     [["added", "main: sheet share (sheet) over it, shareSheet"]], [["added", "Sheet share (sheet)"]]),
    (("s1", 9), {"main": device("photoPicker", "composeReview(brownies)", "home", ["compose"])},
     [["removed", "main: sheet share dismissed"]], [["removed", "Sheet share"]]),
    (("s1", 10), {"main": device("photoPicker", "composeReview(brownies)", "home", ["compose"], away="In the background for 30.0 s")},
     [["replaced", "main: active → background"]], []),
    (("s1", 11), {"main": device("photoPicker", "composeReview(brownies)", "home", ["compose"])},
     [["replaced", "main: background → active after 30.0 s in the background"]], []),
    (("s1", 12), {"main": device("photoPicker", "composeReview(brownies)", "home", ["compose"])},
     [["anomaly", "Anomaly: popBeyondRoot — the event changed nothing."]], []),
    (("s1", 14), {"main": device("search", None, "search", tabs=["home", "search"])}, [["replaced", "main: tab home → search"]], []),
    (("s1", 15), {"main": device("recipe(tiramisu)", "category(desserts)", "home", mark="replaced", tabs=["home", "search"])},
     [["replaced", "main: tab search → home"], ["replaced", "main/home: recipe(brownies) → recipe(tiramisu)"]], [["replaced", "recipe(tiramisu)"]]),
    (("s1", 16), {"main": device("category(desserts)", "home", "home", tabs=["home", "search"])},
     [["removed", "main/home: recipe(tiramisu)"]], [["removed", "recipe(tiramisu)"]]),
    # A scene's tabs are the stacks it has had selected: the restored state selects home; its
    # search stack was never selected in the replay.
    (("s2", 1), {"main": device("category(desserts)", "home", "home")}, [["replaced", "The state was set whole: 1 scene open."]], []),
    (("s2", 6), {"main": device("category(desserts)", "home", "home"),
                 "side": device("reviews(apple-pie)", "root", mark="added", columns=["sidebar", "content", "detail"])},
     [["added", "side/main: reviews(apple-pie)"]], [["added", "reviews(apple-pie)"]]),
    # A stack named compose, no sheet's, is not a tab.
    (("s2", 7), {"main": device("category(desserts)", "home", "home"),
                 "side": device("reviews(apple-pie)", "root", columns=["sidebar", "content", "detail"])},
     [["added", "main/compose: draft"]], [["added", "draft"]]),
]


def tabs_selected(replay, seq):
    """Each scene's tabs at `seq`, from `navlog replay --format json`: the tabs it has had selected
    (the `to` of its tab changes) since it was last opened."""
    tabs = {}
    for step in replay["steps"]:
        if step["seq"] > seq:
            break
        for change in step["changes"]:
            if change["change"] in ("sceneOpened", "sceneClosed"):
                tabs.pop(change["scene"], None)
            elif change["change"] == "tab" and change["to"] is not None:
                tabs.setdefault(change["scene"], set()).add(change["to"])
    return tabs


def expected_device(state, scene_name, tabs):
    """What a device should show for a scene of `navlog state`: the visible route as the format
    defines it, the route a back button names, the selected tab, the tabs selected so far, the
    sheets."""
    scene = state["scenes"][scene_name]
    text = report_check.route_text
    tab, sheets = scene.get("tab"), scene.get("sheets", [])
    if sheets:
        top = sheets[-1]
        stack = top["stack"]
        title = text(stack[-1] if stack else top["root"])
        back = text(stack[-2]) if len(stack) >= 2 else text(top["root"]) if stack else None
    else:
        routes = scene["stacks"].get(tab or "main", [])
        split = scene.get("split") or {}
        if routes:
            title, back = text(routes[-1]), text(routes[-2]) if len(routes) >= 2 else (tab or "root")
        elif split.get("content") or split.get("sidebar"):
            title, back = text(split.get("content") or split.get("sidebar")), None
        else:
            title, back = tab or "root", None
    return {"title": title, "back": back, "tab": tab, "tabs": sorted(tabs.get(scene_name, ())) if tab else [], "sheets": [s["id"] for s in sheets]}


def expected_layers(state, scene_name):
    """Every layer a device should draw for a scene of `navlog state`, bottom first, as [title,
    back]: a split view's columns (the sidebar with visibility all or automatic, the content
    unless detailOnly), the current stack over its root (the selected tab, or root), each sheet
    over its root."""
    scene, text = state["scenes"][scene_name], report_check.route_text

    def layer(routes, root):
        return [text(routes[-1]), text(routes[-2]) if len(routes) >= 2 else root] if routes else [root, None]
    layers = []
    split = scene.get("split")
    if split:
        if split["visibility"] in ("all", "automatic"):
            layers.append([text(split["sidebar"]) if split.get("sidebar") else "sidebar", None])
        if split["visibility"] != "detailOnly":
            layers.append([text(split["content"]) if split.get("content") else "content", None])
    tab = scene.get("tab")
    layers.append(layer(scene["stacks"].get(tab or "main", []), tab or "root"))
    for sheet in scene.get("sheets", []):
        layers.append(layer(sheet["stack"], text(sheet["root"])))
    return layers


def screenshot(browser, page, fragment, name, *extra, size="1400,1150"):
    shot = os.path.join(OUT, name + ".png")
    source = open(page, encoding="utf-8").read()
    # Only the replayer, so that the moment is in the picture.
    focused = os.path.join(OUT, name + ".html")
    with open(focused, "w", encoding="utf-8") as f:
        f.write(source.replace("</head>", "<style>header, main > section:not(#replay) { display: none; }</style></head>", 1))
    report_check.browse(browser, "file://" + focused + fragment, "--window-size=" + size, "--screenshot=" + shot, *extra)
    return shot


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

    log, page = os.path.join(OUT, "hand.jsonl"), os.path.join(OUT, "hand.html")
    hand_written_log(log)
    subprocess.run([args.navlog, "report", log, "-o", page], check=True, capture_output=True)
    got = run_probes(browser, page, [list(key) for key, *_ in EXPECTED], True, "hand")
    check("the hand-written log's replayer ran its probes", "exception" not in got, got.get("exception", ""))
    for (key, devices, changes, marks), seen in zip(EXPECTED, got.get("steps", [])):
        where = f"{key[0]} step {key[1] + 1}"
        check(f"{where}: each device's title, back button, tab, sheets, columns and background", seen["devices"] == devices,
              f"page {seen['devices']}, expected {devices}")
        check(f"{where}: what changed, marked", seen["changes"] == changes, f"page {seen['changes']}, expected {changes}")
        check(f"{where}: the stacks' change marks", seen["stackMarks"] == marks, f"page {seen['stackMarks']}, expected {marks}")
        check(f"{where}: the transcript's row and the fragment follow", seen["selectedRow"] == str(key[1]) and seen["hash"] == f"#session={key[0]}&step={key[1] + 1}",
              f"{seen['selectedRow']} {seen['hash']}")
    last = next((s for s in got.get("steps", []) if s["id"] == "s1" and s["index"] == 16), {})
    check("the crash: the event line says the session ended there", "ended here uncleanly" in (last.get("event") or ""), last.get("event"))
    play = got.get("play", {})
    # s1 plays, skipping idle, at 0 0 100 1000 2000 3000 ... 14000 ms (10 s and 30 s gaps shortened to 1 s);
    # as recorded, at 0 0 100 1000 2000 12000 ...
    check("16x, skipping idle, for 0.52 s of the clock: step 11 (8.3 s of playback)", play.get("skip16") == [10, True], play.get("skip16"))
    check("16x, not skipping, for 0.52 s: step 5", play.get("plain16") == [4, True], play.get("plain16"))
    check("1x, skipping idle, for 1.5 s: step 4", play.get("skip1") == [3, True], play.get("skip1"))
    check("16x for 5 s plays to the last step and stops", play.get("toEnd") == [16, False], play.get("toEnd"))
    click = got.get("click", {})
    check("clicking the 8th transcript row moves the slider and the fragment to it",
          click.get("step") == 7 and click.get("hash") == "#session=s1&step=8" and click.get("selectedRow") == "7", f"{click.get('step')} {click.get('hash')}")
    keys = got.get("keys", {})
    expected_keys = {"end": 16, "home": 0, "right2": 2, "left": 1, "spacePlays": True, "spacePauses": True, "plus": "2", "plusMax": "8",
                     "minus": "4", "transcriptDown": 2}
    check("the keyboard: End, Home, arrows, Space, + and −, and arrows in the transcript", keys == expected_keys, f"{keys}")
    sessions = got.get("sessions", {})
    check("sessions: the crashed one first; filtered by ending, app and length",
          sessions == {"all": ["s1", "s2"], "clean": ["s2"], "app21": ["s1"], "long": []}, sessions)
    embedded = got.get("embedded") or ""
    check("the page says which sessions it embeds and how to embed another", "embeds 2 sessions" in embedded and "--session ID" in embedded, embedded)
    check("the transcript filters by type (s1's 3 pushes)", got.get("pushRows") == 3, got.get("pushRows"))
    check("in a filtered transcript the arrows go through the listed rows only (pushes at steps 4, 5 and 8)",
          got.get("filteredArrows") == [3, 4, 7, 4, 7, 7, 4], got.get("filteredArrows"))
    check("while playing, the fragment follows the position", got.get("playingHash") == "#session=s1&step=11", got.get("playingHash"))
    check("a change of speed while playing keeps the position (0.9 s at 1x, 0.1 s at 16x: step 5)", got.get("speedKeeps") == 4, got.get("speedKeeps"))
    check("so does a change of skipping idle (step 5 after 0.45 s, step 6 after 0.55 s)", got.get("skipKeeps") == [4, 5], got.get("skipKeeps"))
    outside = got.get("outsideKeys", {})
    check("keys outside the replayer are left to the page: not taken, nothing moves or plays",
          outside == {"prevented": [False] * 4, "step": 3, "playing": False}, outside)
    check("and by screen, whatever the case (recipe: two pushes, a replace, the deep link's path)", got.get("recipeRows") == [4, 5, 15], got.get("recipeRows"))
    check("the transcript marks the anomaly, the deep link and the crash",
          got.get("badges") == [[12, "anomaly"], [15, "deeplink"], [16, "crash"]], got.get("badges"))
    check("the time axis marks the background gap, the anomaly, the deep link and the unclean end",
          got.get("axis") == [["background", 10], ["anomaly", 12], ["deeplink", 15], ["unclean", 16]], got.get("axis"))
    # On the slider's track, where the slider is at each step of 17: the background gap from step 11 to 12.
    check("the marks lie where the slider is at their step: the background gap spans 6.25 % from 62.5 %; the ends say 0:00.0 and 0:52.0",
          got.get("axisPlaces") == [[62.5, 6.3], [75.0, 0], [93.8, 0], [100.0, 0]] and got.get("axisEnds") == ["0:00.0", "0:52.0"],
          f"{got.get('axisPlaces')} {got.get('axisEnds')}")
    check("under a sheet, the stack's layer is titled as navlog writes routes, params too, and the stacks list it so",
          got.get("layerTitles") == [["recipe(1){from=search}", "category(desserts)"], ["shareSheet", None]]
          and got.get("stackRoutes") == ["category(desserts)", "recipe(1){from=search}"], f"{got.get('layerTitles')} {got.get('stackRoutes')}")
    check("the Screen filter matches the event's screens: share is the sheet presented, not its dismissal", got.get("shareRows") == [8], got.get("shareRows"))
    check("the play button names what it does and is no toggle; each device layer is a named group",
          got.get("playControl") == ["▶ Play", None, 0], got.get("playControl"))
    check("a session with no step drawn clears the one before", got.get("noSteps") == {"devices": 0, "rows": 0, "ticks": 0, "scenes": 0,
          "event": "Session none has no event in this page's replay."}, got.get("noSteps"))
    check("the legend's buttons go to the next anomaly, deep link (again: the same, the only one), background gap and unclean end",
          got.get("legend") == [12, 15, 15, 10, 16], got.get("legend"))
    check("no script or console error", got.get("errors") == [], got.get("errors"))
    check("interactive in under 1 s", 0 < (got.get("renderMs") or 0) < 1000, got.get("renderMs"))

    # A generated log: at steps probed, each device shows what navlog's state says.
    generated, big = os.path.join(OUT, "generated.jsonl"), os.path.join(OUT, "generated.html")
    subprocess.run([args.navlog, "generate", "--events", "20000", "--seed", "4", "-o", generated, "--force"], check=True, capture_output=True)
    subprocess.run([args.navlog, "report", generated, "-o", big, "--recent", "3"], check=True, capture_output=True)
    source = open(big, encoding="utf-8").read()
    replays = json.loads(re.search(r'<script id="report-data" type="application/json">\n?(.*?)</script>', source, re.S).group(1))["replays"]
    probes = [[r["id"], i] for r in replays for i in range(0, len(r["steps"]), max(1, len(r["steps"]) // 12))]
    got = run_probes(browser, big, probes, False, "generated")
    check("the generated log's replayer ran its probes", "exception" not in got and got.get("errors") == [], got.get("exception") or got.get("errors"))
    wrong, marks, covered = [], 0, 0
    by_id = {r["id"]: r for r in replays}
    navlog_replays = {r["id"]: json.loads(subprocess.run([args.navlog, "replay", generated, "--session", r["id"], "--format", "json"],
                                                         check=True, capture_output=True, text=True).stdout) for r in replays}
    for seen in got.get("steps", []):
        step = by_id[seen["id"]]["steps"][seen["index"]]
        state = json.loads(subprocess.run([args.navlog, "state", generated, "--at", str(step["seq"]), "--format", "json"], check=True,
                                          capture_output=True, text=True).stdout)
        tabs = tabs_selected(navlog_replays[seen["id"]], step["seq"])
        for name in state["scenes"]:
            shown = {k: seen["devices"].get(name, {}).get(k) for k in ("title", "back", "tab", "tabs", "sheets")}
            if shown != expected_device(state, name, tabs):
                wrong.append(f"{seen['id']} seq {step['seq']} scene {name}: page {shown}, navlog {expected_device(state, name, tabs)}")
            covered += len(expected_layers(state, name)) > 1
            if seen["layers"].get(name) != expected_layers(state, name):
                wrong.append(f"{seen['id']} seq {step['seq']} scene {name}: layers {seen['layers'].get(name)}, navlog {expected_layers(state, name)}")
        if step["event"].startswith("push ") and "anomaly" not in step:
            marks += 1
            if not any(m == "added" for m, _ in seen["changes"]) or not any(m == "added" for m, _ in seen["stackMarks"]):
                wrong.append(f"{seen['id']} seq {step['seq']}: a push not marked added")
    check(f"generated: at {len(got.get('steps', []))} steps, every device's layers (titles, back buttons), tabs and sheets are navlog's ({marks} pushes marked added, {covered} devices with a layer under the visible one)",
          not wrong and got.get("steps"), "; ".join(wrong[:3]))
    check("generated: interactive in under 1 s", 0 < (got.get("renderMs") or 0) < 1000, got.get("renderMs"))

    # A long session: its transcript holds the rows in view, not all 1,502, and the last one is selected.
    long_log, long_page = os.path.join(OUT, "long.jsonl"), os.path.join(OUT, "long.html")
    with open(long_log, "w") as f:
        for k in range(1502):
            event = {"type": "session.start", "launch": "cold"} if k == 0 else {"type": "scene.open", "scene": "main"} if k == 1 \
                else {"type": "push", "scene": "main", "stack": "main", "route": {"screen": "recipe", "id": str(k)}}
            f.write(json.dumps({"v": 1, "seq": k + 1, "ts": f"2026-12-01T10:{k // 60 % 60:02d}:{k % 60:02d}.000Z", "session": "long", **event}) + "\n")
    subprocess.run([args.navlog, "report", long_log, "-o", long_page], check=True, capture_output=True)
    got = run_probes(browser, long_page, [["long", 1501], ["long", 700]], False, "long")
    steps = got.get("steps", [{}, {}])
    check("a session of 1,502 events: the transcript holds only the rows near the one shown, which is selected",
          [(s.get("selectedRow"), 0 < s.get("rowsInDocument", 0) < 60, s["devices"]["main"]["title"]) for s in steps]
          == [("1501", True, "recipe(1501)"), ("700", True, "recipe(700)")] and got.get("errors") == [],
          str([(s.get("selectedRow"), s.get("rowsInDocument")) for s in steps]) + str(got.get("errors")))

    # A crashed session longer than a replay holds: its last step is where the replay stops, not the crash.
    cut_log, cut_page = os.path.join(OUT, "cut.jsonl"), os.path.join(OUT, "cut.html")
    with open(cut_log, "w") as f:
        for k in range(2102):
            event = {"type": "session.start", "launch": "cold"} if k == 0 else {"type": "scene.open", "scene": "main"} if k == 1 \
                else {"type": "push", "scene": "main", "stack": "main", "route": {"screen": "r", "id": str(k)}}
            f.write(json.dumps({"v": 1, "seq": k + 1, "ts": f"2026-12-01T10:{k // 60 % 60:02d}:{k % 60:02d}.000Z", "session": "c", **event}) + "\n")
        f.write(json.dumps({"v": 1, "seq": 2103, "ts": "2026-12-01T11:00:00.000Z", "session": "d", "type": "session.start", "launch": "cold"}) + "\n")
    subprocess.run([args.navlog, "report", cut_log, "-o", cut_page], check=True, capture_output=True)
    got = run_probes(browser, cut_page, [["c", 1999]], False, "cut")
    at = (got.get("steps") or [{}])[0]
    check("a crashed session cut at 2,000 steps: no crash marked at the cut; the event line and the note say it lies beyond",
          at.get("crashMarks") == 0 and "ended here" not in (at.get("event") or "") and "beyond the replay" in (at.get("event") or "")
          and "crashed after its last event, beyond this replay" in (at.get("cutNote") or ""), f"{at.get('crashMarks')} {at.get('event')} {at.get('cutNote')}")

    # The reader's settings: a dark scheme darkens the page. (The page moves nothing: no transition to drop for less motion.)
    def computed(*flags):
        source = open(page, encoding="utf-8").read()
        probe = """<script>const card = document.querySelector(".sheet-card");
        document.body.append(Object.assign(document.createElement("pre"), { id: "computed", textContent:
          JSON.stringify([getComputedStyle(card).transitionDuration, getComputedStyle(document.body).backgroundColor]) }));</script>"""
        styled = os.path.join(OUT, "computed.html")
        with open(styled, "w", encoding="utf-8") as f:
            f.write(source.replace("</body>", probe + "</body>"))
        dom = report_check.browse(browser, "file://" + styled + "#session=s1&step=8", "--dump-dom", "--virtual-time-budget=5000", *flags).stdout
        found = re.search(r'<pre id="computed">(.*?)</pre>', dom, re.S)
        return json.loads(htmllib.unescape(found.group(1))) if found else None
    plain = computed()
    dark = computed("--force-dark-mode", "--blink-settings=preferredColorScheme=0")
    check("prefers-color-scheme: dark gives a dark page", plain and dark and plain[1] == "rgb(255, 255, 255)" and dark[1] == "rgb(13, 17, 23)", f"{plain} {dark}")

    dom = report_check.browse(browser, "file://" + page + "#session=s1&step=abc", "--dump-dom", "--virtual-time-budget=5000").stdout
    label = re.findall(r'<output id="step-label"[^>]*>(.*?)</output>', dom)
    check("#session=s1&step=abc opens s1 at its first step that shows a screen (its scene.open)", label == ["2 / 17"] and re.findall(r'<pre id="errors"[^>]*>(.*?)</pre>', dom, re.S) == [""], label)

    # A log with no session to replay: the page says so, without an error.
    empty_log, empty_page = os.path.join(OUT, "empty.jsonl"), os.path.join(OUT, "empty.html")
    with open(empty_log, "w") as f:
        f.write(json.dumps({"v": 1, "seq": 1, "ts": "2026-12-01T10:00:00.000Z", "session": "x", "type": "snapshot", "state": {"active": None, "scenes": {}}}) + "\n")
    subprocess.run([args.navlog, "report", empty_log, "-o", empty_page], check=True, capture_output=True)
    dom = report_check.browse(browser, "file://" + empty_page, "--dump-dom", "--virtual-time-budget=5000").stdout
    check("a log with no session to replay: the page says so, without an error",
          'data-ready="true"' in dom and "No session to replay." in dom and re.findall(r'<pre id="errors"[^>]*>(.*?)</pre>', dom, re.S) == [""])

    shots = [screenshot(browser, page, "#session=s1&step=8", "sheet-over-tab"),
             screenshot(browser, page, "#session=s1&step=11", "background"),
             screenshot(browser, page, "#session=s1&step=17", "crash"),
             screenshot(browser, page, "#session=s2&step=7", "split-view"),
             screenshot(browser, page, "#session=s1&step=16", "dark", "--force-dark-mode", "--blink-settings=preferredColorScheme=0"),
             screenshot(browser, page, "#session=s1&step=8", "zoom-200", "--force-device-scale-factor=2", size="700,1400"),
             screenshot(browser, big, f"#session={replays[0]['id']}&step={len(replays[0]['steps']) // 2}", "generated")]
    check("screenshots kept in .build/replay-check/", all(os.path.exists(s) and os.path.getsize(s) > 20000 for s in shots),
          ", ".join(f"{os.path.basename(s)} {os.path.getsize(s) if os.path.exists(s) else 0}" for s in shots))

    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
