extension ReportPage {
    /// The page after its data: the scripts that render it, and the page's end.
    static let tail = end(scripts: sections + replayState + replayDevice + replayTranscript + replayPlayback)

    /// The page after its data: `scripts`, and the page's end.
    static func end(scripts: String) -> String { "</script>\n<script>\n" + scripts + "</script>\n</body>\n</html>\n" }

    /// The overview, the flow, the screens, the funnels and the paths before a crash.
    static let sections = """
    "use strict";
    window.onerror = (message, source, line) => { document.getElementById("errors").textContent += `${message} (line ${line})\\n`; };
    const data = JSON.parse(document.getElementById("report-data").textContent);
    // Text from the log is shown as text, never as markup, and what would show nothing or reorder
    // the text around it is shown as a marker naming it, ⟨U+202E⟩: controls, format characters
    // (Cf: bidi controls, zero-width ones, the soft hyphen) and the line and paragraph
    // separators. Text beyond printable ASCII is isolated in a <bdi>, its direction its own, so
    // that it leaves the page's words around it in their order.
    const invisible = /[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]/gu;
    const printableASCII = text => !/[^\\x20-\\x7e]/.test(text);
    // A character's marker: its text, and the title that says what it is.
    const marker = c => {
      const code = "U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
      return { text: `⟨${code}⟩`, title: `${code}, a character that shows nothing or reorders the text around it` };
    };
    // `text` where no markup can be (an attribute, an SVG label): each such character as its marker.
    const plain = text => String(text).replace(invisible, c => marker(c).text);
    // A value of the log as a node: printable ASCII as a text node, other text in a <bdi> of text
    // nodes and markers (<span class="invisible">); a node as it is.
    const visibly = value => {
      if (value instanceof Node) return value;
      const text = String(value);
      if (printableASCII(text)) return document.createTextNode(text);
      const bdi = document.createElement("bdi");
      let from = 0;
      for (const found of text.matchAll(invisible)) {
        const { text: shown, title } = marker(found[0]), span = document.createElement("span");
        span.className = "invisible"; span.title = title; span.textContent = shown;
        bdi.append(text.slice(from, found.index), span);
        from = found.index + found[0].length;
      }
      bdi.append(text.slice(from));
      return bdi;
    };
    // The page's words with values of the log between them (a tagged template), each `visibly`.
    const says = (words, ...values) => {
      const fragment = document.createDocumentFragment();
      words.forEach((word, k) => { fragment.append(word); if (k < values.length) fragment.append(visibly(values[k])); });
      return fragment;
    };
    // Values of the log, each `visibly`, with the page's `separator` between them.
    const joined = (values, separator) => {
      const fragment = document.createDocumentFragment();
      values.forEach((value, k) => { if (k > 0) fragment.append(separator); fragment.append(visibly(value)); });
      return fragment;
    };
    // An element; text among its children is shown `visibly`, as a value of the log may need.
    const el = (tag, attrs = {}, ...children) => {
      const node = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) { if (k === "class") node.className = v; else node.setAttribute(k, v); }
      for (const child of children) node.append(visibly(child));
      return node;
    };
    const svgEl = (tag, attrs = {}) => {
      const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      return node;
    };
    const fmt = n => n === null || n === undefined ? "–" : n.toLocaleString("en");
    const seconds = ms => ms === null || ms === undefined ? "–" : (ms / 1000).toFixed(1) + " s";

    document.getElementById("subtitle").replaceChildren(
      says`${data.log} · ${fmt(data.events)} events (seq ${data.firstSeq}…${data.lastSeq}) · ${data.firstTs ?? ""} – ${data.lastTs ?? ""} · ${data.filters}`);

    // Overview
    const overview = document.getElementById("overview");
    for (const [label, value] of [["Events", data.events], ["Sessions", data.sessions.total], ["Clean ends", data.sessions.clean],
                                  ["Ends in the background", data.sessions.background], ["Unclean ends (crashes)", data.sessions.unclean],
                                  ["Open", data.sessions.open]]) {
      overview.append(el("li", {}, el("strong", {}, fmt(value)), label));
    }
    // What the reading dropped, under the figures that leave it out.
    (() => {
      const dropped = data.dropped_lines, first = dropped.first, more = dropped.count - first.length;
      if (dropped.count === 0) return;
      const at = d => `${d.file} at line ${d.line}`;
      const rest = more > 0 ? `, and ${fmt(more)} more` : "";
      let text;
      if (dropped.mode === "salvage") {
        text = `${fmt(dropped.count)} line${dropped.count === 1 ? "" : "s"} skipped as defective (salvage mode: ` +
          first.map(d => `${d.kind} in ${at(d)}`).join(", ") + rest + "): every figure leaves them out.";
      } else if (dropped.mode === "pointInTime") {
        text = "Reading stopped at a defect (pointInTime mode): " +
          first.map(d => d.kind === "unreadTail" ? `${d.file}: ${d.detail}` : `${d.kind} in ${at(d)}`).join("; ") + rest +
          ". Every figure leaves out the rest of the log.";
      } else {
        text = `${fmt(dropped.count)} line${dropped.count === 1 ? "" : "s"} dropped (` + first.map(d => `torn tail of ${at(d)}`).join(", ") +
          rest + `): every figure leaves ${dropped.count === 1 ? "it" : "them"} out.`;
      }
      document.getElementById("dropped-lines").replaceChildren(el("span", {}, text + " navlog verify says what is wrong with each line."));
    })();
    document.getElementById("apps").replaceChildren("App versions: ", joined(data.apps.map(a => says`${a.app} (${fmt(a.sessions)})`), ", "));
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
          const label = svgEl("text", { x: x + nodeWidth + 4, y: y + Math.min(h / 2 + 4, h + 10) }); label.textContent = plain(`${name.replace(/^\\d+_/, "")} (${count})`);
          const title = svgEl("title"); title.textContent = plain(`${name}: ${count}`);
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
        const title = svgEl("title"); title.textContent = plain(`${l.from} → ${l.to}: ${l.count}`);
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
        const box = el("div", { role: "group", "aria-label": plain("Funnel " + funnel.map(s => s.screen).join(" → ")) });
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
      for (const p of data.crashPaths) list.append(el("li", {}, says`${joined(p.path, " → ")} — ${fmt(p.sessions)} sessions`));
    })();

    """
}
