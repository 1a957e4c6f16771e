extension ReportPage {
    /// The replayer's panels beside its devices: the event and the state after it as JSON, the
    /// link to the step shown, and the room kept for every scene a session opens.
    static let replayPanels = #"""
    // The raw event, as navlog writes its line (the members every line begins with put back
    // from the replay), and the state after it, as navlog's JSON has it: drawn while the panel
    // is open, each value of the log `visibly`. The lines, each replay's in a list, are in a
    // block of their own, parsed when the panel first opens: a page that is not asked for them
    // does not pay for them.
    const rawPanel = document.getElementById("raw-json");
    let lines = null;
    const lineOf = (s, index) => (lines ??= JSON.parse(document.getElementById("report-lines").textContent))[s][index];
    const asJSON = value => {
      const fragment = document.createDocumentFragment();
      JSON.stringify(value, null, 2).split("\n").forEach((line, k) => { if (k > 0) fragment.append("\n"); fragment.append(visibly(line)); });
      return fragment;
    };
    const drawRaw = (s, index) => {
      const eventBox = document.getElementById("raw-event"), stateBox = document.getElementById("raw-state");
      const step = sessions[s]?.steps[index];
      if (!step || !rawPanel.open) { eventBox.replaceChildren(); stateBox.replaceChildren(); return; }
      const session = sessions[s];
      const line = { v: 1, seq: step.seq, ts: stepTs(session, step), session: session.session_in_log ?? session.id, ...lineOf(s, index) };
      eventBox.replaceChildren(asJSON(line));
      stateBox.replaceChildren(asJSON(stateAt(s, index).state));
    };
    rawPanel.addEventListener("toggle", () => drawRaw(shownSession, Number(range.value)));

    // Devices for the scenes open at a step, and a slot kept for each other scene the session
    // has open at once at some step: the replayer does not move when a second scene opens.
    const drawDevices = (s, devices) => {
      const slots = Math.max(1, outline(s).scenes) - devices.length;
      const slot = k => el("figure", { class: "device slot", "aria-hidden": "true" },
        el("figcaption", { class: "muted" }, devices.length === 0 && k === 0 ? "No open scene" : "Another scene, not open now"),
        el("div", { class: "bezel" }, el("div", { class: "screen" })));
      const kept = Array.from({ length: Math.max(0, slots) }, (_, k) => slot(k));
      document.getElementById("devices").replaceChildren(...devices, ...kept);
      if (devices.length === 0) document.getElementById("devices").prepend(el("p", { class: "visually-hidden" }, "No open scene."));
    };

    // The link to the step shown: the page's address with the fragment that opens it, copied
    // when the browser lets the page write the clipboard, and shown selected to copy either way.
    const stepLink = () => {
      const session = sessions[shownSession];
      if (!session) return null;
      return `${location.href.split("#")[0]}#session=${encodeURIComponent(session.id)}&step=${Number(range.value) + 1}`;
    };
    document.getElementById("copy-link").addEventListener("click", async () => {
      const link = stepLink(), box = document.getElementById("step-link"), status = document.getElementById("link-status");
      if (!link) { status.textContent = "No step to link to."; return; }
      history.replaceState(null, "", link.slice(link.indexOf("#")));
      box.hidden = false; box.value = link; box.select();
      status.textContent = "Selected: copy it with Ctrl+C (⌘C).";   // until the clipboard takes it, if it does
      try {
        await navigator.clipboard.writeText(link);
        status.textContent = "Copied.";
      } catch {
        // The browser keeps the clipboard from the page: the link stays selected to copy.
      }
    });

    """#
}
