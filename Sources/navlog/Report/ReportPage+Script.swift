extension ReportPage {
    /// The page after its data: the script that renders it, and the page's end.
    static let tail = """
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
                                  ["Ends in the background", data.sessions.background], ["Unclean ends (crashes)", data.sessions.unclean],
                                  ["Open", data.sessions.open]]) {
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
      if (data.clockWentBack > 0) {
        const one = data.clockWentBack === 1;
        document.getElementById("clock-went-back").textContent = `${fmt(data.clockWentBack)} view${one ? "" : "s"} ended before ` +
          `${one ? "it" : "they"} began: the device's clock went back while ${one ? "it was" : "they were"} visible. ` +
          `${one ? "It counts as a view" : "They count as views"}, with a dwell of 0.`;
      }
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

    // Session replayer. Each step holds what its event changed, as the library's fold found it
    // (or, when the event replaced the state, the state after it), and what the scenes it changed
    // show. A state is the session's first state with the steps up to it applied in turn, from
    // the nearest state kept on the way (one every 256 steps).
    const select = document.getElementById("session-select"), range = document.getElementById("step");
    const sessions = data.replays;
    const fmtEvents = n => `${fmt(n)} event${n === 1 ? "" : "s"}`;
    for (const [i, s] of sessions.entries()) {
      const shown = s.steps.length < s.events ? `${fmt(s.steps.length)} of ${fmtEvents(s.events)}` : fmtEvents(s.events);
      select.append(el("option", { value: i }, `${s.id} (${shown}, ${s.ending}${s.app ? ", app " + s.app : ""})`));
    }
    if (data.omitted.length > 0) {
      document.getElementById("replay-omitted").textContent =
        `Left out to keep the page under ${fmt(data.maximumReplayBytes / 1048576)} MiB of replays: ` +
        data.omitted.map(s => `${s.id} (${fmtEvents(s.events)})`).join(", ") +
        `. To replay one here: navlog report ${data.log} -o FILE --session ID --recent 0.`;
    }
    const clone = value => structuredClone(value);
    const apply = (at, step) => {
      if (step.state) {
        at.state = clone(step.state);
        at.visible = { ...step.visible };
        return;
      }
      const scenes = at.state.scenes;
      for (const c of step.changes) {
        const scene = scenes[c.scene];
        switch (c.change) {
          case "sceneOpened": scenes[c.scene] = { tab: null, stacks: {}, sheets: [] }; break;
          case "sceneClosed": delete scenes[c.scene]; break;
          case "activeScene": at.state.active = c.to; break;
          case "tab": scene.tab = c.to; break;
          case "stack": {
            const routes = c.sheet === undefined ? (scene.stacks[c.stack] ??= []) : scene.sheets[c.sheet].stack;
            routes.length -= c.removed.length;
            for (const route of c.added) routes.push(route);
            break;
          }
          case "sheetPresented": scene.sheets.push({ id: c.sheet, style: c.style, root: c.root, stack: [] }); break;
          case "sheetDismissed": scene.sheets.pop(); break;
          case "split":
            if (c.visibility === null) delete scene.split;
            else scene.split = { sidebar: c.sidebar, content: c.content, visibility: c.visibility };
            break;
          case "phase":
            if (c.to === "active") delete scene.phase; else scene.phase = c.to;
            break;
        }
      }
      for (const [name, visible] of Object.entries(step.visible)) {
        if (visible === null) delete at.visible[name]; else at.visible[name] = visible;
      }
    };
    const every = 256, folded = new Map();
    // The state and visible screens after step `index` of session `s`.
    const stateAt = (s, index) => {
      const session = sessions[s];
      let memo = folded.get(s);
      if (!memo) {
        memo = { kept: [{ state: clone(session.start.state), visible: { ...session.start.visible } }], at: null, index: -1 };
        folded.set(s, memo);
      }
      let at, next;
      if (memo.at && memo.index <= index) {
        at = memo.at; next = memo.index + 1;
      } else {
        const k = Math.min(Math.floor((index + 1) / every), memo.kept.length - 1);
        at = clone(memo.kept[k]); next = k * every;
      }
      for (let i = next; i <= index; i++) {
        apply(at, session.steps[i]);
        if ((i + 1) % every === 0 && memo.kept.length === (i + 1) / every) memo.kept.push(clone(at));
      }
      memo.at = at; memo.index = index;
      return at;
    };
    window.navlogReplay = { stateAt };   // for Tools/report-check.py, which compares the states with navlog's
    const routeText = r => r.screen + (r.id ? `(${r.id})` : "");
    // A duration as navlog's text shows it: 850 ms, 12.3 s, 5 min 3 s, 2 h 14 min, 3 d 4 h.
    const fmtDuration = ms => {
      const parts = (a, au, b, bu) => b === 0 ? `${fmt(a)} ${au}` : `${fmt(a)} ${au} ${b} ${bu}`;
      if (ms < 1000) return `${ms} ms`;
      const tenths = Math.round(ms / 100);
      if (tenths < 600) return `${Math.floor(tenths / 10)}.${tenths % 10} s`;
      const s = Math.round(ms / 1000);
      if (s < 3600) return parts(Math.floor(s / 60), "min", s % 60, "s");
      const m = Math.round(ms / 60000);
      if (m < 1440) return parts(Math.floor(m / 60), "h", m % 60, "min");
      const h = Math.round(ms / 3600000);
      return parts(Math.floor(h / 24), "d", h % 24, "h");
    };
    // Where a scene comes back from the background at `step`: how long it was there, for each such scene.
    const backgroundGaps = (session, index) => {
      const step = session.steps[index], gaps = [];
      for (const c of step.changes ?? []) {   // a step that restates the state has none
        if (c.change !== "phase" || c.from !== "background" || c.to === "background") continue;
        for (let i = index - 1; i >= 0 && !session.steps[i].state; i--) {   // not past a restated state
          const went = (session.steps[i].changes ?? []).find(d => d.change === "phase" && d.scene === c.scene && d.to === "background");
          if (!went) continue;
          gaps.push(`${c.scene}: ${fmtDuration(Date.parse(step.ts) - Date.parse(session.steps[i].ts))} in the background`);
          break;
        }
      }
      return gaps;
    };
    const show = () => {
      const s = Number(select.value), session = sessions[s];
      if (!session || session.steps.length === 0) { document.getElementById("event").textContent = "No session to replay."; return; }
      const index = Math.min(Number(range.value), session.steps.length - 1);
      const step = session.steps[index];
      const { state, visible: shown } = stateAt(s, index);
      document.getElementById("step-label").textContent = `${index + 1} / ${session.steps.length}`;
      const gaps = backgroundGaps(session, index);
      document.getElementById("event").textContent = `seq ${step.seq} · ${step.ts} · ${step.event}` + (step.anomaly ? ` (anomaly: ${step.anomaly})` : "")
        + (gaps.length ? ` · back after ${gaps.join(", ")}` : "");
      document.getElementById("replay-cut").textContent = session.steps.length < session.events
        ? `This replay shows the first ${fmt(session.steps.length)} of the session's ${fmtEvents(session.events)} (the page replays at most ` +
          `${fmt(data.maximumSteps)} events a session, and ${fmt(data.maximumReplayBytes / 1048576)} MiB in all); ` +
          `navlog replay ${data.log} --session ${session.id} shows them all.`
        : "";
      const scenes = document.getElementById("scenes");
      scenes.replaceChildren();
      for (const name of Object.keys(state.scenes).sort()) {
        const scene = state.scenes[name], visible = shown[name] ?? {};
        let marked = false;
        const mark = isVisible => { marked ||= isVisible; return isVisible ? { class: "visible", "aria-current": "true" } : {}; };
        const box = el("section", { class: "scene", "aria-label": "Scene " + name, "data-scene": name },
          el("h3", {}, `Scene ${name}${state.active === name ? " (active)" : ""}${scene.phase ? " — " + scene.phase : ""}`));
        // A stack is shown once it holds a route, and the selected tab's always.
        const stacks = Object.keys(scene.stacks).filter(id => scene.stacks[id].length > 0 || id === scene.tab);
        if (scene.tab !== null && !stacks.includes(scene.tab)) stacks.push(scene.tab);
        for (const stack of stacks.sort()) {
          const routes = scene.stacks[stack] ?? [];
          const list = el("ol");
          routes.forEach((r, i) => list.append(el("li", mark(visible.source === "stack" && visible.stack === stack && i === routes.length - 1), routeText(r))));
          if (routes.length === 0) list.append(el("li", mark(visible.source === "root" && visible.stack === stack), "(root)"));
          box.append(el("div", { class: "stack", "data-stack": stack }, el("h4", {}, `${stack}${scene.tab === stack ? " — selected tab" : ""}`), list));
        }
        scene.sheets.forEach((sheet, k) => {
          const list = el("ol");
          const top = k === scene.sheets.length - 1;
          list.append(el("li", mark(top && sheet.stack.length === 0), `${routeText(sheet.root)} [root]`));
          sheet.stack.forEach((r, i) => list.append(el("li", mark(top && i === sheet.stack.length - 1), routeText(r))));
          box.append(el("div", { class: "stack sheet", "data-stack": sheet.id }, el("h4", {}, `Sheet ${sheet.id} (${sheet.style})`), list));
        });
        if (scene.split) box.append(el("p", {}, `Split view: sidebar ${scene.split.sidebar?.screen ?? "none"}, content ${scene.split.content?.screen ?? "none"}`));
        if (!marked && visible.route) box.append(el("p", { class: "visible", "aria-current": "true" }, "Visible: " + visible.route));
        scenes.append(box);
      }
      if (Object.keys(state.scenes).length === 0) scenes.append(el("p", { class: "muted" }, "No open scene."));
    };
    const choose = (session, step) => {
      select.value = String(session);
      range.max = String(Math.max(0, (sessions[session]?.steps.length ?? 1) - 1));
      range.value = String(step);
      show();
    };
    select.addEventListener("change", () => { document.getElementById("replay-missing").textContent = ""; choose(Number(select.value), 0); });
    range.addEventListener("input", show);
    document.getElementById("prev").addEventListener("click", () => { range.value = String(Math.max(0, Number(range.value) - 1)); show(); });
    document.getElementById("next").addEventListener("click", () => { range.value = String(Math.min(Number(range.max), Number(range.value) + 1)); show(); });
    document.addEventListener("keydown", e => {
      if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement) return;
      if (e.target instanceof Element && e.target.closest(".scroll")) return;   // arrows scroll those regions
      if (e.key === "ArrowLeft") document.getElementById("prev").click();
      if (e.key === "ArrowRight") document.getElementById("next").click();
    });
    // #session=ID&step=N (1-based) chooses the replay, so a link can point at a moment. A session
    // the page does not hold is said to be missing, with how to add it.
    const fragment = new URLSearchParams(location.hash.slice(1));
    const asked = fragment.get("session");
    const wanted = sessions.findIndex(s => s.id === asked);
    if (asked !== null && wanted < 0) {
      const omitted = data.omitted.some(s => s.id === asked);
      document.getElementById("replay-missing").textContent =
        `Session ${asked} is not in this page: ` +
        (omitted ? "it was left out to keep the page small. "
                 : `the page replays the sessions named with --session and the ${fmt(data.recent)} most recent. `) +
        `To add it: navlog report ${data.log} -o FILE --session ${asked}` + (omitted ? " --recent 0." : ".");
    }
    choose(wanted >= 0 ? wanted : 0, wanted >= 0 ? Math.max(0, Number(fragment.get("step") ?? 1) - 1) : 0);
    document.body.dataset.renderMs = performance.now().toFixed(1);
    document.body.dataset.ready = "true";
    </script>
    </body>
    </html>

    """
}
