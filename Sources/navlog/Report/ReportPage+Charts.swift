extension ReportPage {
    /// The overview's chart of sessions per day, and the flow diagram.
    static let charts = #"""
    // Sessions per day: a bar a day, from the first day with a session to the last (days without
    // one at 0), drawn at the width of its box — its text at its own size, never scaled down —
    // with the counts on the left axis and the days on the bottom one. Drawn again when the box's
    // width changes.
    (() => {
      const box = document.getElementById("per-day"), given = data.per_day;
      if (given.length === 0) return nothing(box, "No session: there is no day to chart.");
      const dayMs = 86400000, at = day => Date.parse(day + "T00:00:00Z");
      const span = Math.round((at(given[given.length - 1].day) - at(given[0].day)) / dayMs) + 1;
      // Every day of the span, unless it is over ten years long: then the days that have sessions.
      const counts = new Map(given.map(d => [d.day, d.sessions]));
      const days = span <= 3660
        ? Array.from({ length: span }, (_, k) => { const day = new Date(at(given[0].day) + k * dayMs).toISOString().slice(0, 10); return { day, sessions: counts.get(day) ?? 0 }; })
        : given;
      const max = Math.max(1, ...days.map(d => d.sessions));
      const draw = () => {
        const width = Math.max(240, Math.floor(box.clientWidth || 640)), height = 170;
        const left = 8 + 7 * String(max).length + 8, right = 12, top = 10, bottom = 28, plot = height - top - bottom;
        const slot = (width - left - right) / days.length, bar = Math.max(1, slot * 0.8);
        const svg = svgEl("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", class: "per-day",
          "aria-label": plain(`Sessions per day from ${days[0].day} to ${days[days.length - 1].day}: at most ${max} a day, ${fmt(data.sessions.total)} in all`) });
        const ticks = max >= 2 ? [0, Math.round(max / 2), max] : [0, max];
        for (const value of [...new Set(ticks)]) {
          const y = top + plot - value / max * plot;
          svg.append(svgEl("line", { class: "grid", x1: left, x2: width - right, y1: y, y2: y }));
          const label = svgEl("text", { class: "axis-label", x: left - 6, y: y + 4, "text-anchor": "end" }); label.textContent = fmt(value);
          svg.append(label);
        }
        days.forEach((d, i) => {
          const h = d.sessions / max * plot;
          const rect = svgEl("rect", { class: "bar", x: left + i * slot + (slot - bar) / 2, y: top + plot - h, width: bar, height: h });
          const title = svgEl("title"); title.textContent = `${d.day}: ${fmt(d.sessions)} session${d.sessions === 1 ? "" : "s"}`;
          rect.append(title); svg.append(rect);
        });
        // The days on the axis: the first and the last, and as many between as fit 90 px apart.
        const labels = Math.max(2, Math.min(days.length, Math.floor((width - left - right) / 90)));
        const shown = [...new Set(Array.from({ length: labels }, (_, k) => Math.round(k * (days.length - 1) / Math.max(1, labels - 1))))];
        shown.forEach((i, k) => {
          const x = left + i * slot + slot / 2;
          const anchor = shown.length > 1 && k === 0 ? "start" : k === shown.length - 1 && shown.length > 1 ? "end" : "middle";
          const label = svgEl("text", { class: "axis-label", x: anchor === "start" ? left : anchor === "end" ? width - right : x, y: height - 8, "text-anchor": anchor });
          label.textContent = days[i].day;
          svg.append(label, svgEl("line", { class: "tick-mark", x1: x, x2: x, y1: top + plot, y2: top + plot + 4 }));
        });
        svg.append(svgEl("line", { class: "axis-line", x1: left, x2: width - right, y1: top + plot, y2: top + plot }));
        box.replaceChildren(svg);
      };
      draw();
      let drawnAt = box.clientWidth;
      if (window.ResizeObserver) new ResizeObserver(() => { if (box.clientWidth !== drawnAt) { drawnAt = box.clientWidth; draw(); } }).observe(box);
    })();

    // Flow (Sankey-style): a column per step, named above it; each node a screen (or "other") at
    // that step; links sized by count.
    (() => {
      const links = data.flow, root = document.getElementById("flow");
      if (links.length === 0) return nothing(root, "No path of two screens or more: there is no flow to draw.");
      const key = (step, name) => `${step}\u0000${name}`;
      const columns = new Map();
      // A node's size is the larger of what flows in and what flows out.
      const inflow = new Map(), outflow = new Map();
      for (const l of links) {
        outflow.set(key(l.step, l.from), (outflow.get(key(l.step, l.from)) ?? 0) + l.count);
        inflow.set(key(l.step + 1, l.to), (inflow.get(key(l.step + 1, l.to)) ?? 0) + l.count);
      }
      for (const [step, name] of links.flatMap(l => [[l.step, l.from], [l.step + 1, l.to]])) {
        if (!columns.has(step)) columns.set(step, new Map());
        columns.get(step).set(name, Math.max(inflow.get(key(step, name)) ?? 0, outflow.get(key(step, name)) ?? 0));
      }
      const lastStep = Math.max(...columns.keys());
      const colWidth = 190, nodeWidth = 12, head = 24, height = 420, gap = 8;
      const svg = svgEl("svg", { viewBox: `0 0 ${(lastStep - 1) * colWidth + 150} ${head + height + 10}`, width: (lastStep - 1) * colWidth + 150,
                                 height: head + height + 10, role: "img", "aria-label": `Flow of screens over ${lastStep} steps` });
      const positions = new Map();
      for (const [step, col] of [...columns.entries()].sort((a, b) => a[0] - b[0])) {
        const x = (step - 1) * colWidth;
        const heading = svgEl("text", { class: "step-name", x, y: 14 }); heading.textContent = `Step ${step}`;
        svg.append(heading);
        const total = [...col.values()].reduce((a, b) => a + b, 0) || 1;
        let y = head;
        const scale = (height - gap * col.size) / total;
        for (const [name, count] of [...col.entries()].sort((a, b) => b[1] - a[1])) {
          const h = Math.max(2, count * scale);
          positions.set(key(step, name), { x, y, h, out: 0, in: 0, scale });
          const g = svgEl("g", { class: "flow-node", "data-step": step });
          g.append(svgEl("rect", { x, y, width: nodeWidth, height: h }));
          const label = svgEl("text", { x: x + nodeWidth + 4, y: y + Math.min(h / 2 + 4, h + 10) }); label.textContent = plain(`${name} (${fmt(count)})`);
          const title = svgEl("title"); title.textContent = plain(`Step ${step}: ${name}, ${fmt(count)}`);
          g.append(label, title); svg.append(g);
          y += h + gap;
        }
      }
      for (const l of links) {
        const a = positions.get(key(l.step, l.from)), b = positions.get(key(l.step + 1, l.to));
        if (!a || !b) continue;
        const w = Math.max(1, l.count * Math.min(a.scale, b.scale));
        const y1 = a.y + a.out + w / 2, y2 = b.y + b.in + w / 2; a.out += w; b.in += w;
        const x1 = a.x + nodeWidth, x2 = b.x, mid = (x1 + x2) / 2;
        const path = svgEl("path", { class: "link", d: `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`, "stroke-width": w });
        const title = svgEl("title"); title.textContent = plain(`${l.from} → ${l.to} (steps ${l.step} to ${l.step + 1}): ${fmt(l.count)}`);
        path.append(title); svg.prepend(path);
      }
      root.append(svg);
    })();

    """#
}
