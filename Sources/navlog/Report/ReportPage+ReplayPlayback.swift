extension ReportPage {
    /// The replayer's controls: playback at 1× to 16× with idle gaps skipped, the keyboard, and
    /// the URL fragment that follows the position; a session opens at its first step that shows
    /// a screen.
    static let replayPlayback = #"""
    // Playback reads time from `window.navlogClock` when the page is given one before its scripts
    // run (a test's virtual clock: now() in ms, later(fn, ms) → id, cancel(id)), else the browser's.
    const clock = window.navlogClock ?? { now: () => performance.now(), later: (fn, ms) => setTimeout(fn, ms), cancel: id => clearTimeout(id) };
    const playButton = document.getElementById("play"), speedSelect = document.getElementById("speed"), skipIdle = document.getElementById("skip-idle");
    const player = { playing: false, timer: null, wall: 0, from: 0, times: [0], speed: 1 };

    // The fragment follows the position once the reader moves it: a link the page was opened
    // with stays as it was until then (one naming a session not here, to be read and corrected).
    // While playing it is written at most every 500 ms of the clock (browsers limit how often a
    // page may replace its URL), and on pausing.
    let follow = false, fragmentWritten = -Infinity;
    const fragmentFollows = () => {
      const session = sessions[shownSession];
      if (!follow || !session) return;
      if (player.playing && clock.now() - fragmentWritten < 500) return;
      fragmentWritten = clock.now();
      history.replaceState(null, "", `#session=${encodeURIComponent(session.id)}&step=${Number(range.value) + 1}`);
    };
    let chosen = 0;   // the session shown, whether or not the filters list it
    const show = () => {
      const s = chosen, session = sessions[s];
      if (!session || session.steps.length === 0) {   // nothing of another session stays drawn
        shownSession = -1; listed = []; place = new Map(); current = -1;
        rowsBox.replaceChildren(); rowsBox.style.height = "0"; transcript.removeAttribute("aria-activedescendant");
        axis.replaceChildren(); axis.removeAttribute("aria-label"); document.getElementById("legend").replaceChildren();
        document.getElementById("axis-ends").replaceChildren();
        for (const id of ["devices", "changes", "scenes", "raw-event", "raw-state"]) document.getElementById(id).replaceChildren();
        for (const id of ["step-label", "clock-label", "transcript-count", "replay-cut"]) document.getElementById(id).textContent = "";
        range.removeAttribute("aria-valuetext");
        document.getElementById("event").replaceChildren(session ? says`Session ${session.id} has no event in this page's replay.` : "No session to replay.");
        return;
      }
      if (s !== shownSession) { shownSession = s; buildTranscript(s); drawAxis(s); }
      const index = Math.min(Number(range.value), session.steps.length - 1);
      const step = session.steps[index];
      const { state, visible: shown, tabs, roots } = stateAt(s, index);
      const changes = changesOf(step);
      document.getElementById("step-label").textContent = `${index + 1} / ${session.steps.length}`;
      range.setAttribute("aria-valuetext", plain(`Step ${index + 1} of ${session.steps.length}, ${fmtClock(step.t)}: ${step.event}`));
      document.getElementById("clock-label").textContent = `${fmtClock(step.t)} of ${fmtClock(sessionMs(session))}`;
      document.getElementById("event").replaceChildren(says`seq ${step.seq} · ${stepTs(session, step)} · ${step.event}`,
        step.anomaly ? says` (anomaly: ${step.anomaly})` : "",
        crashedAt(session, index) ? " · the session ended here uncleanly (a crash)" : "",
        session.ending === "unclean" && !complete(session) && index === session.steps.length - 1
          ? ` · the replay ends here; the session crashed after its last event, ${fmt(session.events - session.steps.length)} events beyond the replay` : "");
      document.getElementById("replay-cut").replaceChildren(...(session.steps.length < session.events
        ? [`This replay shows the first ${fmt(session.steps.length)} of the session's ${fmtEvents(session.events)} (the page replays at most ` +
           `${fmt(data.maximumSteps)} events a session, and ${fmt(data.maximumReplayBytes / 1048576)} MiB in all); `,
           says`navlog replay ${data.log} --session ${session.id} shows them all.`,
           session.ending === "unclean" ? " The session crashed after its last event, beyond this replay." : ""]
        : []));
      drawDevices(s, Object.keys(state.scenes).sort().map(name =>
        drawDevice(s, index, name, state.scenes[name], shown[name] ?? {}, tabs[name] ?? [], roots[name] ?? "root", state.active === name, changes)));
      document.getElementById("changes").replaceChildren(...describeChanges(s, index));
      document.getElementById("scenes").replaceChildren(...drawStacks(state, shown, changes));
      drawRaw(s, index);
      keepInView(index);
      fragmentFollows();
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
    // A change of speed or of skipping idle carries the position over: the same share of the way
    // from the current step to the next, in the new times.
    const times = () => (skipIdle.checked ? outline(shownSession).skipping : outline(shownSession).recorded);
    const anchor = (share = 0) => {
      clock.cancel(player.timer);
      const t = times(), index = Number(range.value);
      player.wall = clock.now(); player.from = t[index] + share * ((t[index + 1] ?? t[index]) - t[index]);
      player.times = t; player.speed = Number(speedSelect.value);
      schedule();
    };
    // How far playback is from the current step to the next, 0 to 1, in the times it plays by.
    const shareOfStep = () => {
      const t = player.times, index = Number(range.value), gap = (t[index + 1] ?? t[index]) - t[index];
      const position = player.from + (clock.now() - player.wall) * player.speed;
      return gap > 0 ? Math.max(0, Math.min(1, (position - t[index]) / gap)) : 0;
    };
    const replay = () => { if (player.playing) anchor(shareOfStep()); };
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
      playButton.dataset.playing = "true"; playButton.textContent = "❚❚ Pause";   // its name says what it does
      document.getElementById("event").setAttribute("aria-live", "off");   // no announcement per step while playing
      show();
      anchor();
    };
    function pause() {
      clock.cancel(player.timer);
      player.timer = null;
      if (!player.playing) return;
      player.playing = false;
      delete playButton.dataset.playing; playButton.textContent = "▶ Play";
      document.getElementById("event").setAttribute("aria-live", "polite");
      fragmentFollows();
    }
    const toggle = () => (player.playing ? pause() : play());
    const speeds = [...speedSelect.options].map(o => o.value);
    const changeSpeed = by => {
      const share = player.playing ? shareOfStep() : 0;
      speedSelect.value = speeds[Math.max(0, Math.min(speeds.length - 1, speeds.indexOf(speedSelect.value) + by))];
      if (player.playing) anchor(share);
    };

    playButton.addEventListener("click", toggle);
    // A select's or checkbox's "change" comes after its value changed: the share of the step is
    // measured with the times and speed playback last started with, kept in `player`.
    speedSelect.addEventListener("change", replay);
    skipIdle.addEventListener("change", replay);
    select.addEventListener("change", () => { follow = true; document.getElementById("replay-missing").textContent = ""; choose(Number(select.value), outline(Number(select.value)).firstShown); });
    for (const filter of [filterEnding, filterApp, filterLength]) filter.addEventListener("change", () => {
      const shown = listSessions(shownSession);
      if (!shown.includes(shownSession) && shown.length) choose(shown[0], outline(shown[0]).firstShown);
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
    // The keyboard, within the replayer (the section takes focus when clicked; elsewhere the keys
    // scroll the page as ever): Space plays or pauses, the arrows step (in the transcript, up and
    // down too, through the rows it lists), Home and End go to the ends, + and − change the
    // speed. Controls keep their own keys.
    const replaySection = document.getElementById("replay");
    document.addEventListener("keydown", e => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target;
      if (!(target instanceof Element) || !replaySection.contains(target)) return;
      if (target === range && e.key === " ") { e.preventDefault(); return toggle(); }   // the slider keeps its arrows, Home and End
      if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
      if (target instanceof HTMLButtonElement && (e.key === " " || e.key === "Enter")) return;
      if (target instanceof Element && target.closest(".scroll")) return;   // arrows scroll those regions
      const inTranscript = target === transcript;
      const index = Number(range.value), back = () => (inTranscript ? listedStep(index, -1) : index - 1), on = () => (inTranscript ? listedStep(index, 1) : index + 1);
      const actions = {
        " ": toggle, ArrowLeft: () => go(back()), ArrowRight: () => go(on()), Home: () => go(0), End: () => go(Number(range.max)),
        "+": () => changeSpeed(1), "=": () => changeSpeed(1), "-": () => changeSpeed(-1),
        ...(inTranscript ? { ArrowUp: () => go(back()), ArrowDown: () => go(on()), Home: () => go(listed[0] ?? index), End: () => go(listed[listed.length - 1] ?? index) } : {}),
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
        document.getElementById("replay-missing").replaceChildren(says`Session ${asked} is not in this page: `,
          omitted ? "it was left out to keep the page small. "
                  : `the page replays the sessions named with --session, the ${fmt(data.crashed)} most recent that crashed and the ${fmt(data.recent)} most recent. `,
          says`To add it: navlog report ${data.log} -o FILE --session ${asked}`, omitted ? " --crashed 0 --recent 0." : ".");
      }
      if (sessions.length === 0) { listSessions(-1); document.getElementById("event").textContent = "No session to replay."; return; }
      const first = wanted >= 0 ? wanted : order[0];
      if (!admitted(first)) for (const filter of [filterEnding, filterApp, filterLength]) filter.value = "";   // a link shows its session
      listSessions(first);
      // Without a step (or step=abc), the first step that shows a screen.
      const step = fragment.get("step") === null ? NaN : Number(fragment.get("step"));
      choose(first, wanted >= 0 && Number.isFinite(step) ? Math.max(0, step - 1) : outline(first).firstShown);
    };
    window.addEventListener("hashchange", openFragment);
    openFragment();
    // A link to a moment opens at it: scrolled there once the page is laid out, not laid out for it now.
    if (location.hash.includes("session=")) requestAnimationFrame(() => document.getElementById("replay").scrollIntoView());
    window.navlogReplay = { stateAt, go, play, pause, choose, outline };   // for Tools/report-check.py and Tools/replay-check.py
    document.body.dataset.renderMs = performance.now().toFixed(1);
    document.body.dataset.ready = "true";
    """#
}
