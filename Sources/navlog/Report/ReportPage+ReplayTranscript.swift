extension ReportPage {
    /// The replayer's transcript of a session's events, and its time axis.
    static let replayTranscript = #"""
    // The transcript: every event of the session, filtered by type or screen. Only the rows in
    // view and a few around them are in the document, each a line of the same height at its
    // place, so that a session of thousands of events lists at once and a row is scrolled to
    // without laying the page out. Places are in rem, as the style sheet sizes the rows and the
    // list; a rem's pixels are read only when scrolling, once the page is laid out.
    const transcript = document.getElementById("transcript"), axis = document.getElementById("axis");
    const typeFilter = document.getElementById("transcript-type"), screenFilter = document.getElementById("transcript-screen");
    const rowHeight = 1.75, viewHeight = 30;
    let remPixels = 0;
    const pixels = () => (remPixels ||= parseFloat(getComputedStyle(document.documentElement).fontSize));
    const rowsBox = el("div", { class: "rows", role: "none" });
    transcript.append(rowsBox);
    let shownSession = -1, listed = [], place = new Map(), current = -1, scrolledTo = 0, drawn = false;
    // A crash is the session's last event, marked only when the replay holds every event: a cut
    // replay's last step is where the page stopped, not where the session did.
    const complete = session => session.steps.length === session.events;
    const crashedAt = (session, i) => session.ending === "unclean" && complete(session) && i === session.steps.length - 1;
    const badges = (session, i) => {
      const step = session.steps[i], list = [];
      if (step.mark === "deeplink") list.push(["deeplink", "deep link"]);
      if (step.mark === "restore") list.push(["restore", "restore"]);
      if (step.anomaly) list.push(["anomaly", "anomaly: " + step.anomaly]);
      if (crashedAt(session, i)) list.push(["crash", "crash: the session ended here"]);
      return list;
    };
    // The rows are markup, made here alone: `escape` for an attribute, `textHTML` for text, which
    // shows a value of the log as `visibly` does (a marker's text and title are the page's own).
    const escapeHTML = text => text.replace(/[&<>"]/g, c => `&#${c.charCodeAt(0)};`);
    const escape = text => escapeHTML(plain(text));
    const textHTML = text => {
      if (printableASCII(text)) return escapeHTML(text);
      const span = c => { const { text: shown, title } = marker(c); return `<span class="invisible" title="${title}">${shown}</span>`; };
      return `<bdi>${escapeHTML(text).replace(invisible, span)}</bdi>`;
    };
    const drawRows = () => {
      const session = sessions[shownSession];
      const first = Math.max(0, Math.floor(scrolledTo / rowHeight) - 8), last = Math.min(listed.length, Math.ceil((scrolledTo + viewHeight) / rowHeight) + 8);
      rowsBox.style.height = `${listed.length * rowHeight}rem`;
      let markup = "";
      for (let k = first; k < last; k++) {
        const i = listed[k], step = session.steps[i];
        const rest = step.event.startsWith(step.type) ? step.event.slice(step.type.length) : " " + step.event;
        markup += `<div role="option" id="event-${i}" data-index="${i}" aria-selected="${i === current}" aria-posinset="${k + 1}" ` +
          `aria-setsize="${listed.length}" style="top:${k * rowHeight}rem" title="${escape(fmtClock(step.t) + " " + step.event)}">` +
          `<span class="time">${fmtClock(step.t)}</span>` +
          badges(session, i).map(([kind, text]) => `<span class="badge ${kind}">${textHTML(text)}</span>`).join("") +
          `<span class="type">${textHTML(step.type)}</span>${textHTML(rest)}</div>`;
      }
      rowsBox.innerHTML = markup;
      if (place.has(current) && place.get(current) >= first && place.get(current) < last) transcript.setAttribute("aria-activedescendant", `event-${current}`);
      else transcript.removeAttribute("aria-activedescendant");
    };
    // Step `index` highlighted and in view: scrolled to before the next frame, its rows drawn now.
    let scrolling = false;
    const keepInView = index => {
      current = index;
      const k = place.get(index);
      if (k !== undefined) {
        if (k * rowHeight < scrolledTo) scrolledTo = k * rowHeight;
        else if ((k + 1) * rowHeight > scrolledTo + viewHeight) scrolledTo = (k + 1) * rowHeight - viewHeight;
      }
      drawRows();
      if (!scrolling) { scrolling = true; requestAnimationFrame(() => { scrolling = false; transcript.scrollTop = scrolledTo * pixels(); }); }
    };
    transcript.addEventListener("scroll", () => {
      if (scrolling || drawn) return;
      drawn = true;
      requestAnimationFrame(() => { drawn = false; scrolledTo = transcript.scrollTop / pixels(); drawRows(); });
    });
    const buildTranscript = s => {
      const session = sessions[s];
      outline(s);
      const types = [...new Set(session.steps.map(step => step.type))].sort();
      const chosen = typeFilter.value;
      typeFilter.replaceChildren(el("option", { value: "" }, "all"), ...types.map(t => el("option", { value: t }, t)));
      typeFilter.value = types.includes(chosen) ? chosen : "";
      scrolledTo = 0; current = -1;
      filterTranscript();
    };
    // The listed step after (`by` 1) or before (-1) step `index`, which need not be listed; `index`
    // itself when there is none.
    const listedStep = (index, by) => {
      let low = 0, high = listed.length;   // the first place whose step is after `index`
      while (low < high) { const mid = (low + high) >> 1; if (listed[mid] <= index) low = mid + 1; else high = mid; }
      const k = by > 0 ? low : (listed[low - 1] === index ? low - 2 : low - 1);
      return listed[k] ?? index;
    };
    // The screens a step's event brought: the routes its changes added, a sheet's root, a split
    // view's selections, each state it set whole; what the Screen filter matches.
    const screensOf = step => {
      if (step.screens) return step.screens;
      const names = new Set(), add = r => r && names.add(r.screen.toLowerCase());
      const addState = state => { for (const scene of Object.values(state.scenes)) {
        for (const routes of Object.values(scene.stacks)) routes.forEach(add);
        for (const sheet of scene.sheets) { add(sheet.root); sheet.stack.forEach(add); }
        add(scene.split?.sidebar); add(scene.split?.content);
      } };
      if (step.state) addState(step.state);
      for (const c of step.changes ?? []) {
        if (c.change === "stack") c.added.forEach(add);
        else if (c.change === "sheetPresented") add(c.root);
        else if (c.change === "split") { add(c.sidebar); add(c.content); }
      }
      return (step.screens = [...names]);
    };
    const filterTranscript = () => {
      const session = sessions[shownSession], type = typeFilter.value, screen = screenFilter.value.trim().toLowerCase();
      listed = [];
      session.steps.forEach((step, i) => {
        if ((!type || step.type === type) && (!screen || screensOf(step).some(name => name.includes(screen)))) listed.push(i);
      });
      place = new Map(listed.map((i, k) => [i, k]));
      document.getElementById("transcript-count").textContent = `${fmt(listed.length)} of ${fmtEvents(session.steps.length)}`;
      scrolledTo = Math.min(scrolledTo, Math.max(0, listed.length * rowHeight - viewHeight));
      keepInView(current);
    };

    // The marks on the slider's track, each where the slider is at its step: deep links,
    // restores, anomalies and the unclean end, and the spans scenes spent in the background; its
    // ends labelled with the session's times. The legend's buttons go to the next mark of their
    // kind, for the keyboard.
    const axisAt = (s, i) => {
      const n = sessions[s].steps.length;
      return n > 1 ? i / (n - 1) * 100 : 0;
    };
    const drawAxis = s => {
      const session = sessions[s], n = session.steps.length, at = i => axisAt(s, i);
      const { spans, recorded } = outline(s);
      const places = { deeplink: [], restore: [], anomaly: [], background: spans.map(span => span.from), unclean: [] };
      const parts = [];
      for (const span of spans) {
        const to = span.to ?? n - 1;
        parts.push(el("span", { class: "span", style: `left:${at(span.from)}%;width:${at(to) - at(span.from)}%`, "data-index": span.from,
          title: plain(`${span.scene} in the background from step ${span.from + 1}` + (span.to === null ? " to the end" : ` to ${span.to + 1}`)) }));
      }
      session.steps.forEach((step, i) => {
        for (const [kind] of badges(session, i)) {
          const cls = kind === "crash" ? "unclean" : kind;
          places[cls].push(i);
          parts.push(el("span", { class: `tick ${cls}`, style: `left:${at(i)}%`, "data-index": i, title: plain(`${badges(session, i).map(b => b[1]).join(", ")} at step ${i + 1}`) }));
        }
      });
      axis.replaceChildren(...parts);
      document.getElementById("axis-ends").replaceChildren(el("span", {}, "0:00.0"), el("span", {}, fmtClock(recorded[n - 1])));
      const words = [["deeplink", "deep link", "deep links"], ["restore", "restore", "restores"], ["anomaly", "anomaly", "anomalies"],
                     ["background", "background gap", "background gaps"], ["unclean", "unclean end", "unclean ends"]];
      const count = k => places[k].length;
      axis.setAttribute("aria-label", "Time axis: " + words.map(([k, one, many]) => `${count(k)} ${count(k) === 1 ? one : many}`).join(", "));
      document.getElementById("legend").replaceChildren(...words.map(([k, one, many]) => {
        const label = [el("span", { class: k === "background" ? "span" : `tick ${k}`, "aria-hidden": "true" }), `${count(k) === 1 ? one : many} (${count(k)})`];
        if (count(k) === 0) return el("li", {}, ...label);
        const button = el("button", { type: "button", "data-kind": k, title: `Go to the next ${one}` }, ...label);
        button.addEventListener("click", () => go(places[k].find(i => i > Number(range.value)) ?? places[k][0]));
        return el("li", {}, button);
      }));
    };
    """#
}
