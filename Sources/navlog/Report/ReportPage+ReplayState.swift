extension ReportPage {
    /// The replayer's data: the sessions and how to find them, the state after each step (the
    /// changes the library's fold found, applied in turn), and when each step plays.
    static let replayState = #"""
    // Session replayer. Each step holds its event (seq, time since the session's first, mark,
    // summary, which begins with its type), what it changed as the library's fold found it (or,
    // when the event replaced the state, the state after it), a scene's stacks when it made one
    // (empty ones too) and its tabs when they changed, and what the scenes it changed show: their
    // visible route, the route a back button names, the stack shown under the sheets, the title
    // and back label of each layer drawn under the visible one, a split view's columns, and
    // (when it changes) the root's name. Each session holds the
    // spans its scenes spent in the background. A state is the session's first state with the
    // steps up to it applied in turn, from the nearest state kept on the way (one every 256
    // steps). The page draws these; what a device shows comes from the library.
    const select = document.getElementById("session-select"), range = document.getElementById("step");
    const sessions = data.replays;
    const fmtEvents = n => `${fmt(n)} event${n === 1 ? "" : "s"}`;
    const endingWords = { unclean: "crashed (unclean end)", background: "ended in the background", clean: "ended cleanly", open: "still open" };
    const sessionMs = session => session.steps.length ? Math.max(0, session.steps[session.steps.length - 1].t) : 0;
    const stepTs = (session, step) => new Date(Date.parse(session.ts) + step.t).toISOString();
    // A route as the library's Route.text writes it, as the routes the library names for the page
    // read: screen, screen(id), screen(id){key=value,...} with the keys sorted (ids and keys are
    // compared by code unit here, by Unicode scalar there: the same for ASCII keys).
    const routeText = r => r.screen + (r.id != null ? `(${r.id})` : "") + (r.params && Object.keys(r.params).length
      ? `{${Object.keys(r.params).sort().map(k => `${k}=${r.params[k]}`).join(",")}}` : "");
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
    // The time since the session's start as a transcript shows it: 0:12.6, 3:05.0, 1:02:03.
    const fmtClock = ms => {
      const sign = ms < 0 ? "−" : "", t = Math.abs(ms), s = Math.floor(t / 1000) % 60, m = Math.floor(t / 60000), h = Math.floor(m / 60);
      const tenths = Math.floor(t / 100) % 10;
      return sign + (h > 0 ? `${h}:${String(m % 60).padStart(2, "0")}:${String(s).padStart(2, "0")}` : `${m}:${String(s).padStart(2, "0")}.${tenths}`);
    };

    // Finding sessions: crashed ones first, then as embedded (those named, the latest that
    // crashed, the latest);
    // filtered by how they ended, the app's version and their length.
    const rank = { unclean: 0, open: 1, background: 2, clean: 3 };
    const order = sessions.map((s, i) => i).sort((a, b) => (rank[sessions[a].ending] ?? 4) - (rank[sessions[b].ending] ?? 4) || a - b);
    const filterEnding = document.getElementById("filter-ending"), filterApp = document.getElementById("filter-app");
    const filterLength = document.getElementById("filter-length");
    for (const app of [...new Set(sessions.map(s => s.app ?? "unknown"))].sort()) filterApp.append(el("option", { value: app }, app));
    const admitted = i => {
      const s = sessions[i], [low, high] = filterLength.value.split("-");
      return (!filterEnding.value || s.ending === filterEnding.value) && (!filterApp.value || (s.app ?? "unknown") === filterApp.value)
        && (!low || s.events >= Number(low)) && (!high || s.events <= Number(high));
    };
    const listSessions = current => {
      const shown = order.filter(admitted);
      select.replaceChildren(...shown.map(i => {
        const s = sessions[i];
        const length = s.steps.length < s.events ? `${fmt(s.steps.length)} of ${fmtEvents(s.events)}` : fmtEvents(s.events);
        return el("option", { value: i }, s.ending === "unclean" ? "✕ " : "", says`${s.id} — ${endingWords[s.ending] ?? s.ending}, ${length}, ${fmtDuration(sessionMs(s))}`,
                  s.app ? says`, app ${s.app}` : "", s.log ? says`, from ${s.log}` : "");
      }));
      document.getElementById("session-count").textContent = `${shown.length} of ${sessions.length} shown`;
      if (shown.includes(current)) select.value = String(current);
      return shown;
    };
    (() => {
      const by = reason => sessions.filter(s => s.reason === reason);
      const named = by("named").map(s => s.id), crashed = by("crashed").length, recent = by("recent").length;
      const parts = [named.length ? says`${joined(named, ", ")} named with --session` : null,
                     crashed ? `the ${crashed === 1 ? "latest session" : fmt(crashed) + " latest sessions"} that crashed (--crashed ${fmt(data.crashed)})` : null,
                     recent ? `the ${recent === 1 ? "latest" : fmt(recent) + " latest"} ${crashed ? "others " : ""}(--recent ${fmt(data.recent)})` : null].filter(Boolean);
      const all = sessions.filter(s => s.ending === "unclean").length;
      document.getElementById("replay-embedded").replaceChildren(...(sessions.length === 0
        ? [says`This page embeds no session. To embed one: navlog report ${data.log} -o FILE --session ID.`]
        : [`This page embeds ${sessions.length === 1 ? "one session" : fmt(sessions.length) + " sessions"}, crashed ones first: `,
           ...parts.flatMap((part, k) => (k === 0 ? [part] : [k === parts.length - 1 ? " and " : ", ", part])),
           `; ${fmt(all)} crashed. `,
           says`To embed another: navlog report ${data.log} -o FILE --session ID (repeatable; --crashed 0 --recent 0 embeds only those).`]));
    })();
    if (data.omitted.length > 0) {
      document.getElementById("replay-omitted").replaceChildren(
        `Left out to keep the page under ${fmt(data.maximum_replay_bytes / 1048576)} MiB of replays: `,
        joined(data.omitted.map(s => says`${s.id} (${fmtEvents(s.events)})`), ", "),
        says`. To replay one here: navlog report ${data.log} -o FILE --session ID --crashed 0 --recent 0.`);
    }

    // The state after a step: the changes applied as given.
    const clone = value => structuredClone(value);
    const apply = (at, step) => {
      if (step.state) {
        at.state = clone(step.state);
        at.visible = { ...step.visible };
        at.tabs = { ...step.tabs };
        at.roots = {};
        for (const [name, visible] of Object.entries(step.visible)) if (visible) at.roots[name] = visible.root;
        return;
      }
      Object.assign(at.tabs, step.tabs);
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
      for (const [name, ids] of Object.entries(step.stacks ?? {})) for (const id of ids) scenes[name].stacks[id] ??= [];
      for (const [name, visible] of Object.entries(step.visible)) {
        if (visible === null) delete at.visible[name]; else at.visible[name] = visible;
        if (visible?.root !== undefined) at.roots[name] = visible.root;
      }
    };
    const every = 256, folded = new Map();
    // The state, visible screens, tabs and root names after step `index` of session `s`.
    const stateAt = (s, index) => {
      const session = sessions[s];
      let memo = folded.get(s);
      if (!memo) {
        memo = { kept: [{ state: clone(session.start.state), visible: { ...session.start.visible }, tabs: { ...session.start.tabs },
                           roots: Object.fromEntries(Object.entries(session.start.visible).map(([name, v]) => [name, v?.root])) }], at: null, index: -1 };
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
    // What a session's steps come to over its length, found once a session: the spans each scene
    // spent in the background, as the library found them (from the step it went there to the
    // step it came back, closed or was restated; null while it never did), and when each step
    // plays, as recorded and with idle gaps over 3 s shortened to 1 s. A clock that went back
    // plays as no time passing; how many scenes it has open at once at most, and the first step
    // after which one is open (0 when none ever is), where a replay opens. Each step gets its
    // type, the first word of its summary.
    const outlines = new Map();
    const outline = s => {
      if (outlines.has(s)) return outlines.get(s);
      const session = sessions[s], spans = session.away;
      for (const step of session.steps) { const space = step.event.indexOf(" "); step.type = space < 0 ? step.event : step.event.slice(0, space); }
      const recorded = [0], skipping = [0];
      for (let i = 1; i < session.steps.length; i++) {
        const gap = Math.max(0, session.steps[i].t - session.steps[i - 1].t);
        recorded.push(recorded[i - 1] + gap);
        skipping.push(skipping[i - 1] + (gap > 3000 ? 1000 : gap));
      }
      let open = Object.keys(session.start.state.scenes).length, scenes = open, shown = -1;
      session.steps.forEach((step, i) => {
        if (step.state) open = Object.keys(step.state.scenes).length;
        else for (const c of step.changes) open += c.change === "sceneOpened" ? 1 : c.change === "sceneClosed" ? -1 : 0;
        scenes = Math.max(scenes, open);
        if (shown < 0 && open > 0) shown = i;
      });
      const result = { spans, recorded, skipping, scenes, firstShown: Math.max(0, shown) };
      outlines.set(s, result);
      return result;
    };

    """#
}
