extension ReportPage {
    /// The page after its data: the scripts that render it, and the page's end.
    static let tail = end(scripts: sections + charts + links + replayState + replayDevice + replayTranscript + replayPanels + replayPlayback)

    /// The page after its data: `scripts`, and the page's end.
    static func end(scripts: String) -> String { "</script>\n<script>\n" + scripts + "</script>\n</body>\n</html>\n" }

    /// The page's helpers for showing values of the log, the overview and the screens.
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
    const percent = pct => pct === null || pct === undefined ? "–" : pct.toFixed(1) + " %";
    // Where a section has nothing to show, it says so.
    const nothing = (root, text) => root.replaceChildren(el("p", { class: "muted empty" }, text));
    // A link to a moment of a replay the page holds (`step` 0-based), named by its session.
    const momentLink = m => el("a", { href: `#session=${encodeURIComponent(m.session)}&step=${m.step + 1}`, class: "moment" },
      says`${m.session} (step ${m.step + 1})`);

    document.getElementById("subtitle").replaceChildren(
      says`${data.log} · ${fmt(data.events)} events (seq ${data.first_seq}…${data.last_seq}) · ${data.first_ts ?? ""} – ${data.last_ts ?? ""} · ${data.filters}`);

    // Overview
    const overview = document.getElementById("overview");
    for (const [label, value] of [["Events", data.events], ["Sessions", data.sessions.total], ["Clean ends", data.sessions.clean],
                                  ["Ends in the background", data.sessions.background], ["Unclean ends (crashes)", data.sessions.unclean],
                                  ["Open", data.sessions.open]]) {
      overview.append(el("li", {}, el("strong", {}, fmt(value)), label));
    }
    if (data.sessions.total === 0) document.getElementById("empty-log").textContent = data.events === 0
      ? "The log holds no event, so no session: there is nothing to show."
      : "No session in this log passes the filters: there is nothing to show.";
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
    document.getElementById("apps").replaceChildren("App versions: ",
      data.apps.length ? joined(data.apps.map(a => says`${a.app} (${fmt(a.sessions)})`), ", ") : "none (no session)");
    // Screens table, sortable; its text column left-aligned, its numbers right-aligned.
    (() => {
      const columns = [["screen", "Screen"], ["views", "Views"], ["sessions", "Sessions"], ["median_ms", "Dwell median"], ["p90_ms", "Dwell p90"],
                       ["bounce_pct", "Bounce rate"], ["exits", "Exits"], ["unclean", "Unclean exits"]];
      const cell = (row, key) => key.endsWith("_ms") ? seconds(row[key]) : key === "bounce_pct" ? percent(row[key]) : fmt(row[key]);
      const align = key => (key === "screen" ? "text" : "number");
      if (data.screens.length === 0) return nothing(document.getElementById("screens"), "No screen was viewed: the log holds no screen view.");
      let sortKey = "views", descending = true;
      const table = el("table"), thead = el("thead"), tbody = el("tbody");
      const headRow = el("tr");
      for (const [key, label] of columns) {
        const button = el("button", { type: "button" }, label);
        button.addEventListener("click", () => { descending = sortKey === key ? !descending : key !== "screen"; sortKey = key; render(); });
        headRow.append(el("th", { scope: "col", "data-key": key, class: align(key) }, button));
      }
      thead.append(headRow); table.append(el("caption", { class: "muted" }, "Per screen"), thead, tbody);
      const render = () => {
        const rows = [...data.screens].sort((a, b) => {
          const x = a[sortKey] ?? -1, y = b[sortKey] ?? -1;
          return (x < y ? -1 : x > y ? 1 : 0) * (descending ? -1 : 1) || (a.screen < b.screen ? -1 : 1);
        });
        tbody.replaceChildren(...rows.map(row => el("tr", {}, ...columns.map(([key]) => el("td", { class: align(key) }, cell(row, key))))));
        for (const th of headRow.children) th.setAttribute("aria-sort", th.dataset.key === sortKey ? (descending ? "descending" : "ascending") : "none");
      };
      render();
      document.getElementById("screens").append(table);
    })();
    if (data.clock_went_back > 0) {
      const count = data.clock_went_back, one = count === 1;
      document.getElementById("clock-went-back").textContent = `${fmt(count)} view${one ? "" : "s"} ended before ` +
        `${one ? "it" : "they"} began: the device's clock went back while ${one ? "it was" : "they were"} visible. ` +
        `${one ? "It counts as a view" : "They count as views"}, with a dwell of 0.`;
    }

    """
}
