import Foundation

/// The report's page: one self-contained HTML file — inline CSS, JavaScript and SVG, no network —
/// that renders the data `ReportData` gathers. The page computes nothing about navigation: every
/// state and visible screen it shows was folded by the library.
enum ReportPage {
    /// The HTML page around `data` (the report's JSON).
    static func html(title: String, data: [UInt8]) -> [UInt8] {
        // Inside <script>, markup such as "</script>" or "<!--" would change how the page is parsed:
        // write every <, > and & as a JSON \u escape (they only occur inside JSON strings).
        var safe: [UInt8] = []
        safe.reserveCapacity(data.count + 64)
        for byte in data {
            switch byte {
            case UInt8(ascii: "<"): safe += Array("\\u003c".utf8)
            case UInt8(ascii: ">"): safe += Array("\\u003e".utf8)
            case UInt8(ascii: "&"): safe += Array("\\u0026".utf8)
            default: safe.append(byte)
            }
        }
        return Array(head(title).utf8) + safe + Array(tail.utf8)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    private static func head(_ title: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>navlog report — \(escaped(title))</title>
        <style>
        :root { --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0969da; --accent-soft: #ddf4ff; --bad: #cf222e; --bar: #54aeff; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --accent: #58a6ff; --accent-soft: #12263f; --bad: #ff7b72; --bar: #388bfd; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 1rem 1.5rem 3rem; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
        h1 { font-size: 1.6rem; margin: 0 0 .25rem; } h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); }
        .muted { color: var(--muted); }
        .cards { display: flex; flex-wrap: wrap; gap: .75rem; padding: 0; margin: .5rem 0; list-style: none; }
        .cards li { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .9rem; min-width: 8rem; }
        .cards strong { display: block; font-size: 1.4rem; }
        svg { max-width: 100%; height: auto; }
        .scroll { overflow-x: auto; } .scroll svg { max-width: none; }   /* zoomed in, scroll rather than shrink text */
        svg text { fill: var(--fg); font-size: 12px; }
        .bar { fill: var(--bar); } .link { fill: none; stroke: var(--bar); stroke-opacity: .35; } .link:hover { stroke-opacity: .7; }
        .flow-node rect { fill: var(--accent); }
        table { border-collapse: collapse; width: 100%; max-width: 60rem; }
        th, td { padding: .3rem .6rem; border-bottom: 1px solid var(--line); text-align: right; }
        th:first-child, td:first-child { text-align: left; }
        th button { font: inherit; font-weight: 600; background: none; border: 0; color: var(--accent); cursor: pointer; padding: 0; }
        th button:focus-visible, button:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
        .funnel-step { display: grid; grid-template-columns: 10rem 1fr 12rem; gap: .5rem; align-items: center; max-width: 60rem; margin: .2rem 0; }
        .funnel-bar { background: var(--bar); height: 1.2rem; border-radius: .2rem; min-width: 2px; }
        .controls { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; margin: .5rem 0; }
        .controls button { font: inherit; padding: .2rem .8rem; border: 1px solid var(--line); border-radius: .4rem; background: var(--accent-soft); color: var(--fg); cursor: pointer; }
        input[type=range] { width: min(40rem, 90vw); }
        .scenes { display: flex; flex-wrap: wrap; gap: 1rem; }
        .scene { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .9rem; min-width: 16rem; }
        .scene h3 { margin: .2rem 0; font-size: 1.05rem; }
        .stack h4 { margin: .4rem 0 .1rem; font-size: .95rem; }
        .stack ol { margin: 0; padding-left: 1.5rem; }
        .visible { background: var(--accent-soft); border-left: 3px solid var(--accent); padding-left: .3rem; font-weight: 600; }
        #errors:empty { display: none; } #errors { color: var(--bad); }
        </style>
        </head>
        <body>
        <header>
        <h1>Navigation report</h1>
        <p class="muted" id="subtitle"></p>
        </header>
        <main>
        <section aria-labelledby="overview-h"><h2 id="overview-h">Overview</h2><ul class="cards" id="overview"></ul>
        <p class="muted" id="apps"></p><div id="per-day"></div></section>
        <section aria-labelledby="flow-h"><h2 id="flow-h">Flow from session start</h2>
        <p class="muted">The most common screens at each step of a path, the rest as “other”. Hover a link for its count.</p><div id="flow" class="scroll" tabindex="0" role="region" aria-label="Flow diagram, scrollable"></div></section>
        <section aria-labelledby="screens-h"><h2 id="screens-h">Screens</h2><p class="muted">Sort by a column with its button.</p><div id="screens" class="scroll" tabindex="0" role="region" aria-label="Screens table, scrollable"></div></section>
        <section aria-labelledby="funnels-h"><h2 id="funnels-h">Funnels</h2><div id="funnels"></div></section>
        <section aria-labelledby="crash-h"><h2 id="crash-h">Before a crash</h2><p class="muted">The last screens of sessions that ended uncleanly.</p><ol id="crash-paths"></ol></section>
        <section aria-labelledby="replay-h"><h2 id="replay-h">Session replay</h2>
        <div class="controls">
        <label for="session-select">Session</label><select id="session-select"></select>
        <button type="button" id="prev" aria-label="Previous event">◀ Previous</button>
        <label for="step">Step</label><input type="range" id="step" min="0" value="0">
        <button type="button" id="next" aria-label="Next event">Next ▶</button>
        <output id="step-label" for="step"></output>
        </div>
        <p id="event" aria-live="polite"></p>
        <div class="scenes" id="scenes"></div>
        </section>
        <pre id="errors" role="alert"></pre>
        </main>
        <script id="report-data" type="application/json">
        """
    }

    private static let tail = """
    </script>
    <script>
    "use strict";
    window.onerror = (message, source, line) => { document.getElementById("errors").textContent += `${message} (line ${line})\\n`; };
    const data = JSON.parse(document.getElementById("report-data").textContent);
    const el = (tag, attrs = {}, ...children) => {
      const node = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) { if (k === "class") node.className = v; else node.setAttribute(k, v); }
      for (const child of children) node.append(child);
      return node;
    };
    const svgEl = (tag, attrs = {}) => {
      const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      return node;
    };
    const fmt = n => n === null || n === undefined ? "–" : n.toLocaleString("en");
    const seconds = ms => ms === null || ms === undefined ? "–" : (ms / 1000).toFixed(1) + " s";

    document.getElementById("subtitle").textContent =
      `${data.log} · ${fmt(data.events)} events (seq ${data.firstSeq}…${data.lastSeq}) · ${data.firstTs ?? ""} – ${data.lastTs ?? ""} · ${data.filters}`;

    // Overview
    const overview = document.getElementById("overview");
    for (const [label, value] of [["Events", data.events], ["Sessions", data.sessions.total], ["Clean ends", data.sessions.clean],
                                  ["Unclean ends", data.sessions.unclean], ["Open", data.sessions.open]]) {
      overview.append(el("li", {}, el("strong", {}, fmt(value)), label));
    }
    document.getElementById("apps").textContent = "App versions: " + data.apps.map(a => `${a.app} (${fmt(a.sessions)})`).join(", ");
    (() => {
      const days = data.perDay, width = Math.max(320, days.length * 14), height = 120;
      const max = Math.max(1, ...days.map(d => d.sessions));
      const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height + 20}`, width, height: height + 20, role: "img", "aria-label": "Sessions per day" });
      days.forEach((d, i) => {
        const h = d.sessions / max * height;
        const rect = svgEl("rect", { class: "bar", x: i * 14, y: height - h, width: 12, height: h });
        const title = svgEl("title"); title.textContent = `${d.day}: ${d.sessions} sessions`;
        rect.append(title); svg.append(rect);
      });
      const caption = svgEl("text", { x: 0, y: height + 16 }); caption.textContent = `Sessions per day, ${days[0]?.day ?? ""} – ${days[days.length - 1]?.day ?? ""}`;
      svg.append(caption);
      document.getElementById("per-day").append(svg);
    })();

    // Flow (Sankey-style): columns by step, links sized by count.
    (() => {
      const links = data.flow;
      const columns = new Map();
      const add = (name, step, count) => {
        if (!columns.has(step)) columns.set(step, new Map());
        const col = columns.get(step); col.set(name, Math.max(col.get(name) ?? 0, 0) + count);
      };
      // A node's size is the larger of what flows in and what flows out.
      const inflow = new Map(), outflow = new Map();
      for (const l of links) {
        outflow.set(l.from, (outflow.get(l.from) ?? 0) + l.count);
        inflow.set(l.to, (inflow.get(l.to) ?? 0) + l.count);
      }
      for (const l of links) { add(l.from, l.step, 0); add(l.to, l.step + 1, 0); }
      for (const col of columns.values()) for (const name of col.keys()) col.set(name, Math.max(inflow.get(name) ?? 0, outflow.get(name) ?? 0));
      const lastStep = Math.max(0, ...columns.keys());
      const colWidth = 190, nodeWidth = 12, height = 420, gap = 8;
      const svg = svgEl("svg", { viewBox: `0 0 ${lastStep * colWidth + 60} ${height + 20}`, width: lastStep * colWidth + 60, height: height + 20,
                                 role: "img", "aria-label": "Flow of screens by step" });
      const positions = new Map();
      for (const [step, col] of [...columns.entries()].sort((a, b) => a[0] - b[0])) {
        const total = [...col.values()].reduce((a, b) => a + b, 0) || 1;
        let y = 0;
        const scale = (height - gap * col.size) / total;
        for (const [name, count] of [...col.entries()].sort((a, b) => b[1] - a[1])) {
          const h = Math.max(2, count * scale), x = (step - 1) * colWidth;
          positions.set(name, { x, y, h, out: 0, in: 0, scale });
          const g = svgEl("g", { class: "flow-node" });
          g.append(svgEl("rect", { x, y, width: nodeWidth, height: h }));
          const label = svgEl("text", { x: x + nodeWidth + 4, y: y + Math.min(h / 2 + 4, h + 10) }); label.textContent = `${name.replace(/^\\d+_/, "")} (${count})`;
          const title = svgEl("title"); title.textContent = `${name}: ${count}`;
          g.append(label, title); svg.append(g);
          y += h + gap;
        }
      }
      for (const l of links) {
        const a = positions.get(l.from), b = positions.get(l.to);
        if (!a || !b) continue;
        const w = Math.max(1, l.count * Math.min(a.scale, b.scale));
        const y1 = a.y + a.out + w / 2, y2 = b.y + b.in + w / 2; a.out += w; b.in += w;
        const x1 = a.x + nodeWidth, x2 = b.x, mid = (x1 + x2) / 2;
        const path = svgEl("path", { class: "link", d: `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`, "stroke-width": w });
        const title = svgEl("title"); title.textContent = `${l.from} → ${l.to}: ${l.count}`;
        path.append(title); svg.prepend(path);
      }
      document.getElementById("flow").append(svg);
    })();

    // Screens table, sortable.
    (() => {
      const columns = [["screen", "Screen"], ["views", "Views"], ["sessions", "Sessions"], ["medianMs", "Dwell median"], ["p90Ms", "Dwell p90"],
                       ["bounceBp", "Bounce rate"], ["exits", "Exits"], ["unclean", "Unclean exits"]];
      const cell = (row, key) => key.endsWith("Ms") ? seconds(row[key]) : key === "bounceBp" ? (row[key] / 100).toFixed(1) + " %" : fmt(row[key]);
      let sortKey = "views", descending = true;
      const table = el("table"), thead = el("thead"), tbody = el("tbody");
      const headRow = el("tr");
      for (const [key, label] of columns) {
        const button = el("button", { type: "button" }, label);
        button.addEventListener("click", () => { descending = sortKey === key ? !descending : key !== "screen"; sortKey = key; render(); });
        headRow.append(el("th", { scope: "col", "data-key": key }, button));
      }
      thead.append(headRow); table.append(el("caption", { class: "muted" }, "Per screen"), thead, tbody);
      const render = () => {
        const rows = [...data.screens].sort((a, b) => {
          const x = a[sortKey] ?? -1, y = b[sortKey] ?? -1;
          return (x < y ? -1 : x > y ? 1 : 0) * (descending ? -1 : 1) || (a.screen < b.screen ? -1 : 1);
        });
        tbody.replaceChildren(...rows.map(row => el("tr", {}, ...columns.map(([key]) => el("td", {}, cell(row, key))))));
        for (const th of headRow.children) th.setAttribute("aria-sort", th.dataset.key === sortKey ? (descending ? "descending" : "ascending") : "none");
      };
      render();
      document.getElementById("screens").append(table);
    })();

    // Funnels.
    (() => {
      const root = document.getElementById("funnels");
      if (data.funnels.length === 0) root.append(el("p", { class: "muted" }, "No funnel given (navlog report --funnel a,b,c)."));
      for (const funnel of data.funnels) {
        const box = el("div", { role: "group", "aria-label": "Funnel " + funnel.map(s => s.screen).join(" → ") });
        const first = funnel[0]?.sessions || 1;
        for (const step of funnel) {
          const share = step.sessions / first * 100;
          box.append(el("div", { class: "funnel-step" }, el("span", {}, step.screen),
            el("div", { class: "funnel-bar", style: `width:${share}%`, role: "img", "aria-label": `${share.toFixed(1)} %` }),
            el("span", {}, `${fmt(step.sessions)} (${step.conversionBp === null ? "–" : (step.conversionBp / 100).toFixed(1) + " %"}), −${fmt(step.dropOff)}`)));
        }
        root.append(box);
      }
    })();

    // Crash-adjacent paths.
    (() => {
      const list = document.getElementById("crash-paths");
      if (data.crashPaths.length === 0) list.append(el("li", {}, "No unclean ends."));
      for (const p of data.crashPaths) list.append(el("li", {}, `${p.path.join(" → ")} — ${fmt(p.sessions)} sessions`));
    })();

    // Session replayer.
    const select = document.getElementById("session-select"), range = document.getElementById("step");
    const sessions = data.replays;
    for (const [i, s] of sessions.entries()) select.append(el("option", { value: i }, `${s.id} (${s.steps.length} events, ${s.ending}${s.app ? ", app " + s.app : ""})`));
    const show = () => {
      const session = sessions[Number(select.value)];
      if (!session) { document.getElementById("event").textContent = "No session to replay."; return; }
      const index = Math.min(Number(range.value), session.steps.length - 1);
      const step = session.steps[index];
      document.getElementById("step-label").textContent = `${index + 1} / ${session.steps.length}`;
      document.getElementById("event").textContent = `seq ${step.seq} · ${step.ts} · ${step.event}`;
      const scenes = document.getElementById("scenes");
      scenes.replaceChildren();
      for (const [name, scene] of Object.entries(step.state.scenes)) {
        const visible = step.visible[name] ?? {};
        const box = el("section", { class: "scene", "aria-label": "Scene " + name, "data-scene": name },
          el("h3", {}, `Scene ${name}${step.state.active === name ? " (active)" : ""}`));
        for (const [stack, routes] of Object.entries(scene.stacks)) {
          const selected = scene.tab === stack;
          const list = el("ol");
          routes.forEach((r, i) => {
            const text = r.screen + (r.id ? `(${r.id})` : "");
            const isVisible = visible.source === "stack" && visible.stack === stack && i === routes.length - 1;
            list.append(el("li", isVisible ? { class: "visible", "aria-current": "true" } : {}, text));
          });
          if (routes.length === 0) list.append(el("li", visible.source === "root" && visible.stack === stack ? { class: "visible", "aria-current": "true" } : {}, "(root)"));
          box.append(el("div", { class: "stack", "data-stack": stack }, el("h4", {}, `${stack}${selected ? " — selected tab" : ""}`), list));
        }
        scene.sheets.forEach((sheet, k) => {
          const list = el("ol");
          const top = k === scene.sheets.length - 1;
          list.append(el("li", top && sheet.stack.length === 0 ? { class: "visible", "aria-current": "true" } : {}, `${sheet.root.screen}${sheet.root.id ? "(" + sheet.root.id + ")" : ""} [root]`));
          sheet.stack.forEach((r, i) => list.append(el("li", top && i === sheet.stack.length - 1 ? { class: "visible", "aria-current": "true" } : {}, r.screen + (r.id ? `(${r.id})` : ""))));
          box.append(el("div", { class: "stack sheet", "data-stack": sheet.id }, el("h4", {}, `Sheet ${sheet.id} (${sheet.style})`), list));
        });
        if (scene.split) box.append(el("p", {}, `Split view: sidebar ${scene.split.sidebar?.screen ?? "none"}, content ${scene.split.content?.screen ?? "none"}`));
        if (!["stack", "sheet", "root"].includes(visible.source)) box.append(el("p", { class: "visible", "aria-current": "true" }, "Visible: " + visible.route));
        scenes.append(box);
      }
      if (Object.keys(step.state.scenes).length === 0) scenes.append(el("p", { class: "muted" }, "No open scene."));
    };
    const choose = (session, step) => {
      select.value = String(session);
      range.max = String(Math.max(0, (sessions[session]?.steps.length ?? 1) - 1));
      range.value = String(step);
      show();
    };
    select.addEventListener("change", () => choose(Number(select.value), 0));
    range.addEventListener("input", show);
    document.getElementById("prev").addEventListener("click", () => { range.value = String(Math.max(0, Number(range.value) - 1)); show(); });
    document.getElementById("next").addEventListener("click", () => { range.value = String(Math.min(Number(range.max), Number(range.value) + 1)); show(); });
    document.addEventListener("keydown", e => {
      if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
      if (e.target instanceof Element && e.target.closest(".scroll")) return;   // arrows scroll those regions
      if (e.key === "ArrowLeft") document.getElementById("prev").click();
      if (e.key === "ArrowRight") document.getElementById("next").click();
    });
    // #session=ID&step=N (1-based) chooses the replay, so a link can point at a moment.
    const fragment = new URLSearchParams(location.hash.slice(1));
    const wanted = sessions.findIndex(s => s.id === fragment.get("session"));
    choose(wanted >= 0 ? wanted : 0, Math.max(0, Number(fragment.get("step") ?? 1) - 1));
    document.body.dataset.renderMs = performance.now().toFixed(1);
    document.body.dataset.ready = "true";
    </script>
    </body>
    </html>

    """
}
