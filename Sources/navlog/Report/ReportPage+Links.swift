extension ReportPage {
    /// The funnels and the paths before a crash, each step and path with links to the moments of
    /// the replays that show it.
    static let links = #"""
    // The replays that show a funnel step or a crash path: links to their moments, or, when the
    // page holds none, words saying so and how to embed one.
    const shownBy = (moments, none) => moments.length
      ? el("span", { class: "moments" }, "Replays: ", joined(moments.map(momentLink), ", "))
      : el("span", { class: "moments muted" }, none);

    // Funnels: a row per step, its bar as long as its share of step 1's sessions.
    (() => {
      const root = document.getElementById("funnels");
      if (data.funnels.length === 0) root.append(el("p", { class: "muted" }, "No funnel given (navlog report --funnel a,b,c)."));
      for (const funnel of data.funnels) {
        const box = el("div", { role: "group", class: "funnel", "aria-label": plain("Funnel " + funnel.map(s => s.screen).join(" → ")) });
        const first = funnel[0]?.sessions || 1;
        for (const step of funnel) {
          const share = step.sessions / first * 100;
          box.append(el("div", { class: "funnel-step" }, el("span", { class: "funnel-screen" }, step.screen),
            el("div", { class: "funnel-track" }, el("div", { class: "funnel-bar", style: `width:${share}%`, role: "img", "aria-label": `${share.toFixed(1)} %` })),
            el("span", { class: "funnel-count" }, `${fmt(step.sessions)} (${percent(step.conversion_pct)}), −${fmt(step.drop_off)}`),
            shownBy(step.replays, step.sessions ? "No replay in this page reaches this step." : "No session reaches this step.")));
        }
        root.append(box);
      }
    })();

    // Crash-adjacent paths.
    (() => {
      const list = document.getElementById("crash-paths");
      if (data.crash_paths.length === 0) list.append(el("li", {}, "No unclean ends."));
      for (const p of data.crash_paths) {
        list.append(el("li", {}, says`${joined(p.path, " → ")} — ${fmt(p.sessions)} session${p.sessions === 1 ? "" : "s"}. `,
          shownBy(p.replays, `No replay in this page shows it (the page replays the ${fmt(data.crashed)} latest sessions that crashed: --crashed N embeds more).`)));
      }
    })();
    // A link to a moment opens it in the replayer, scrolled to.
    document.addEventListener("click", e => {
      if (e.target.closest?.("a.moment")) requestAnimationFrame(() => document.getElementById("replay").scrollIntoView());
    });

    """#
}
