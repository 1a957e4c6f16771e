extension ReportPage {
    /// The replayer's controls: the transcript, the time axis, playback at 1×, 4× and 16× with
    /// idle gaps skipped, the keyboard, and the URL fragment that follows the position.
    static let replayPlayback = #"""
    // Playback reads time from `window.navlogClock` when the page is given one before its scripts
    // run (a test's virtual clock: now() in ms, later(fn, ms) → id, cancel(id)), else the browser's.
    const clock = window.navlogClock ?? { now: () => performance.now(), later: (fn, ms) => setTimeout(fn, ms), cancel: id => clearTimeout(id) };
    const transcript = document.getElementById("transcript"), axis = document.getElementById("axis");
    const playButton = document.getElementById("play"), speedSelect = document.getElementById("speed"), skipIdle = document.getElementById("skip-idle");
    const typeFilter = document.getElementById("transcript-type"), screenFilter = document.getElementById("transcript-screen");
    const player = { playing: false, timer: null, wall: 0, from: 0 };
    let shownSession = -1, rows = [], selectedRow = null;
    const crashedAt = (session, i) => session.ending === "unclean" && i === session.steps.length - 1;
    const badges = (session, i) => {
      const step = session.steps[i], list = [];
      if (step.mark === "deeplink") list.push(["deeplink", "deep link"]);
      if (step.mark === "restore") list.push(["restore", "restore"]);
      if (step.anomaly) list.push(["anomaly", "anomaly: " + step.anomaly]);
      if (crashedAt(session, i)) list.push(["crash", "crash: the session ended here, in the foreground"]);
      return list;
    };

    // The transcript: every event of the session, filtered by type or screen.
    const buildTranscript = s => {
      const session = sessions[s];
      outline(s);
      const types = [...new Set(session.steps.map(step => step.type))].sort();
      const chosen = typeFilter.value;
      typeFilter.replaceChildren(el("option", { value: "" }, "all"), ...types.map(t => el("option", { value: t }, t)));
      typeFilter.value = types.includes(chosen) ? chosen : "";
      // Written as one piece of markup, which the browser builds faster than node by node.
      const escape = text => text.replace(/[&<>"]/g, c => `&#${c.charCodeAt(0)};`);
      transcript.innerHTML = session.steps.map((step, i) => {
        const rest = step.event.startsWith(step.type) ? step.event.slice(step.type.length) : " " + step.event;
        return `<div role="option" id="event-${i}" data-index="${i}" aria-selected="false"><span class="time">${fmtClock(step.t)}</span>` +
          `<span class="what"><span class="type">${escape(step.type)}</span>${escape(rest)}</span>` +
          badges(session, i).map(([kind, text]) => `<span class="badge ${kind}">${escape(text)}</span>`).join("") + "</div>";
      }).join("");
      rows = [...transcript.children];
      selectedRow = null;
      filterTranscript();
    };
    const filterTranscript = () => {
      const session = sessions[shownSession], type = typeFilter.value, screen = screenFilter.value.trim().toLowerCase();
      let shown = 0;
      rows.forEach((row, i) => {
        const step = session.steps[i];
        row.hidden = !((!type || step.type === type) && (!screen || step.event.toLowerCase().includes(screen)));
        if (!row.hidden) shown++;
      });
      document.getElementById("transcript-count").textContent = `${fmt(shown)} of ${fmtEvents(rows.length)}`;
    };
    // Scrolled before the next frame, not at once: reading a row's place lays the page out, which
    // is better done once, by the browser, than in the middle of drawing a step.
    let inView = null;
    const keepInView = row => {
      if (inView === null) requestAnimationFrame(() => {
        const row = inView;
        inView = null;
        if (row.hidden) return;
        const top = row.offsetTop, bottom = top + row.offsetHeight;
        if (top < transcript.scrollTop) transcript.scrollTop = top;
        else if (bottom > transcript.scrollTop + transcript.clientHeight) transcript.scrollTop = bottom - transcript.clientHeight;
      });
      inView = row;
    };

    // The time axis: deep links, restores, anomalies and the unclean end at their steps, and the
    // spans scenes spent in the background, placed as the slider places steps.
    const drawAxis = s => {
      const session = sessions[s], n = session.steps.length, at = i => (n > 1 ? i / (n - 1) * 100 : 0);
      const { spans } = outline(s), counts = { deeplink: 0, restore: 0, anomaly: 0, background: spans.length, unclean: 0 };
      const parts = [];
      for (const span of spans) {
        const to = span.to ?? n - 1;
        parts.push(el("span", { class: "span", style: `left:${at(span.from)}%;width:${at(to) - at(span.from)}%`, "data-index": span.from,
          title: `${span.scene} in the background from step ${span.from + 1}` + (span.to === null ? " to the end" : ` to ${span.to + 1}`) }));
      }
      session.steps.forEach((step, i) => {
        for (const [kind] of badges(session, i)) {
          const cls = kind === "crash" ? "unclean" : kind;
          counts[cls]++;
          parts.push(el("span", { class: `tick ${cls}`, style: `left:${at(i)}%`, "data-index": i, title: `${badges(session, i).map(b => b[1]).join(", ")} at step ${i + 1}` }));
        }
      });
      parts.push(el("span", { class: "now", id: "axis-now" }));
      parts.push(el("span", { class: "ends", "aria-hidden": "true" }, el("span", {}, "0:00.0"), el("span", {}, fmtClock(sessionMs(session)))));
      axis.replaceChildren(...parts);
      const words = [["deeplink", "deep link", "deep links"], ["restore", "restore", "restores"], ["anomaly", "anomaly", "anomalies"],
                     ["background", "background gap", "background gaps"], ["unclean", "unclean end", "unclean ends"]];
      axis.setAttribute("aria-label", "Time axis: " + words.map(([k, one, many]) => `${counts[k]} ${counts[k] === 1 ? one : many}`).join(", "));
      document.getElementById("legend").replaceChildren(...words.map(([k, one, many]) => el("li", {},
        el("span", { class: k === "background" ? "span" : `tick ${k}`, "aria-hidden": "true" }), `${counts[k] === 1 ? one : many} (${counts[k]})`)));
    };
    axis.addEventListener("click", e => {
      const n = sessions[shownSession]?.steps.length ?? 0, box = axis.getBoundingClientRect();
      const index = e.target.dataset?.index !== undefined ? Number(e.target.dataset.index) : Math.round((e.clientX - box.left) / box.width * (n - 1));
      go(Math.max(0, Math.min(n - 1, index)));
    });

    // The fragment follows the position once the reader moves it: a link the page was opened
    // with stays as it was until then (one naming a session not here, to be read and corrected).
    let follow = false;
    const fragmentFollows = () => {
      const session = sessions[shownSession];
      if (!follow) return;
      if (session) history.replaceState(null, "", `#session=${encodeURIComponent(session.id)}&step=${Number(range.value) + 1}`);
    };
    let chosen = 0;   // the session shown, whether or not the filters list it
    const show = () => {
      const s = chosen, session = sessions[s];
      if (!session || session.steps.length === 0) { document.getElementById("event").textContent = "No session to replay."; return; }
      if (s !== shownSession) { shownSession = s; buildTranscript(s); drawAxis(s); }
      const index = Math.min(Number(range.value), session.steps.length - 1);
      const step = session.steps[index];
      const { state, visible: shown } = stateAt(s, index);
      const changes = changesOf(step);
      document.getElementById("step-label").textContent = `${index + 1} / ${session.steps.length}`;
      range.setAttribute("aria-valuetext", `Step ${index + 1} of ${session.steps.length}, ${fmtClock(step.t)}: ${step.event}`);
      document.getElementById("clock-label").textContent = `${fmtClock(step.t)} of ${fmtClock(sessionMs(session))}`;
      document.getElementById("event").textContent = `seq ${step.seq} · ${stepTs(session, step)} · ${step.event}` + (step.anomaly ? ` (anomaly: ${step.anomaly})` : "")
        + (crashedAt(session, index) ? " · the session ended here uncleanly (a crash)" : "");
      document.getElementById("replay-cut").textContent = session.steps.length < session.events
        ? `This replay shows the first ${fmt(session.steps.length)} of the session's ${fmtEvents(session.events)} (the page replays at most ` +
          `${fmt(data.maximumSteps)} events a session, and ${fmt(data.maximumReplayBytes / 1048576)} MiB in all); ` +
          `navlog replay ${data.log} --session ${session.id} shows them all.`
        : "";
      const devices = Object.keys(state.scenes).sort().map(name => drawDevice(s, index, name, state.scenes[name], shown[name] ?? {}, state.active === name, changes));
      document.getElementById("devices").replaceChildren(...(devices.length ? devices : [el("p", { class: "muted" }, "No open scene.")]));
      document.getElementById("changes").replaceChildren(...describeChanges(s, index));
      document.getElementById("scenes").replaceChildren(...drawStacks(state, shown, changes));
      if (selectedRow) selectedRow.setAttribute("aria-selected", "false");
      selectedRow = rows[index];
      selectedRow.setAttribute("aria-selected", "true");
      transcript.setAttribute("aria-activedescendant", selectedRow.id);
      keepInView(selectedRow);
      const now = document.getElementById("axis-now");
      if (now) now.style.left = `${session.steps.length > 1 ? index / (session.steps.length - 1) * 100 : 0}%`;
      if (!player.playing) fragmentFollows();
    };
    const choose = (session, step) => {
      pause();
      chosen = session;
      select.value = String(session);
      range.max = String(Math.max(0, (sessions[session]?.steps.length ?? 1) - 1));
      range.value = String(step);
      show();
    };
    // Moves to step `index`; playing on from there when playing.
    const go = index => {
      follow = true;
      range.value = String(Math.max(0, Math.min(Number(range.max), index)));
      show();
      if (player.playing) anchor();
    };

    // Playback: the position plays at `speed` times the recorded pace (idle gaps shortened when
    // skipping them), measured from where it last started, so that it neither drifts nor skips.
    const times = () => (skipIdle.checked ? outline(shownSession).skipping : outline(shownSession).recorded);
    const anchor = () => {
      clock.cancel(player.timer);
      player.wall = clock.now(); player.from = times()[Number(range.value)];
      schedule();
    };
    const schedule = () => {
      const t = times(), next = Number(range.value) + 1;
      if (next >= t.length) return pause();
      const speed = Number(speedSelect.value);
      player.timer = clock.later(tick, Math.max(0, (t[next] - player.from) / speed - (clock.now() - player.wall)));
    };
    const tick = () => {
      const t = times(), position = player.from + (clock.now() - player.wall) * Number(speedSelect.value) + 1e-6;
      let index = Number(range.value);
      while (index + 1 < t.length && t[index + 1] <= position) index++;
      range.value = String(index);
      show();
      schedule();
    };
    const play = () => {
      if (player.playing || !sessions[shownSession]) return;
      follow = true;
      if (Number(range.value) >= Number(range.max)) range.value = "0";
      player.playing = true;
      playButton.setAttribute("aria-pressed", "true"); playButton.textContent = "❚❚ Pause";
      document.getElementById("event").setAttribute("aria-live", "off");   // no announcement per step while playing
      show();
      anchor();
    };
    function pause() {
      clock.cancel(player.timer);
      player.timer = null;
      if (!player.playing) return;
      player.playing = false;
      playButton.setAttribute("aria-pressed", "false"); playButton.textContent = "▶ Play";
      document.getElementById("event").setAttribute("aria-live", "polite");
      fragmentFollows();
    }
    const toggle = () => (player.playing ? pause() : play());
    const speeds = [...speedSelect.options].map(o => o.value);
    const changeSpeed = by => {
      speedSelect.value = speeds[Math.max(0, Math.min(speeds.length - 1, speeds.indexOf(speedSelect.value) + by))];
      if (player.playing) anchor();
    };

    playButton.addEventListener("click", toggle);
    speedSelect.addEventListener("change", () => { if (player.playing) anchor(); });
    skipIdle.addEventListener("change", () => { if (player.playing) anchor(); });
    select.addEventListener("change", () => { follow = true; document.getElementById("replay-missing").textContent = ""; choose(Number(select.value), 0); });
    for (const filter of [filterEnding, filterApp, filterLength]) filter.addEventListener("change", () => {
      const shown = listSessions(shownSession);
      if (!shown.includes(shownSession) && shown.length) choose(shown[0], 0);
    });
    typeFilter.addEventListener("change", filterTranscript);
    screenFilter.addEventListener("input", filterTranscript);
    range.addEventListener("input", () => go(Number(range.value)));
    document.getElementById("prev").addEventListener("click", () => go(Number(range.value) - 1));
    document.getElementById("next").addEventListener("click", () => go(Number(range.value) + 1));
    transcript.addEventListener("click", e => {
      const row = e.target.closest?.("[role=option]");
      if (row) { go(Number(row.dataset.index)); transcript.focus(); }
    });
    // The keyboard: Space plays or pauses, the arrows step (up and down too, in the transcript),
    // Home and End go to the ends, + and − change the speed. Controls keep their own keys.
    document.addEventListener("keydown", e => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target;
      if (target === range && e.key === " ") { e.preventDefault(); return toggle(); }   // the slider keeps its arrows, Home and End
      if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
      if (target instanceof HTMLButtonElement && (e.key === " " || e.key === "Enter")) return;
      if (target instanceof Element && target.closest(".scroll")) return;   // arrows scroll those regions
      const inTranscript = target === transcript;
      const index = Number(range.value), actions = {
        " ": toggle, ArrowLeft: () => go(index - 1), ArrowRight: () => go(index + 1), Home: () => go(0), End: () => go(Number(range.max)),
        "+": () => changeSpeed(1), "=": () => changeSpeed(1), "-": () => changeSpeed(-1),
        ...(inTranscript ? { ArrowUp: () => go(index - 1), ArrowDown: () => go(index + 1) } : {}),
      };
      const action = actions[e.key];
      if (!action || !sessions[shownSession]) return;
      e.preventDefault();
      action();
    });

    // #session=ID&step=N (1-based) chooses the replay, so a link can point at a moment; the
    // fragment follows the position. A session the page does not hold is said to be missing,
    // with how to add it.
    const openFragment = () => {
      const fragment = new URLSearchParams(location.hash.slice(1));
      const asked = fragment.get("session");
      const wanted = sessions.findIndex(s => s.id === asked);
      document.getElementById("replay-missing").textContent = "";
      if (asked !== null && wanted < 0) {
        const omitted = data.omitted.some(s => s.id === asked);
        document.getElementById("replay-missing").textContent =
          `Session ${asked} is not in this page: ` +
          (omitted ? "it was left out to keep the page small. "
                   : `the page replays the sessions named with --session and the ${fmt(data.recent)} most recent. `) +
          `To add it: navlog report ${data.log} -o FILE --session ${asked}` + (omitted ? " --recent 0." : ".");
      }
      const first = wanted >= 0 ? wanted : order[0] ?? 0;
      if (!admitted(first)) for (const filter of [filterEnding, filterApp, filterLength]) filter.value = "";   // a link shows its session
      listSessions(first);
      choose(first, wanted >= 0 ? Math.max(0, Number(fragment.get("step") ?? 1) - 1) : 0);
    };
    window.addEventListener("hashchange", openFragment);
    openFragment();
    if (location.hash.includes("session=")) document.getElementById("replay").scrollIntoView();   // a link to a moment opens at it
    window.navlogReplay = { stateAt, go, play, pause, choose, outline };   // for Tools/report-check.py
    document.body.dataset.renderMs = performance.now().toFixed(1);
    document.body.dataset.ready = "true";
    """#
}
