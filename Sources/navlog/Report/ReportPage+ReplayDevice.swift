extension ReportPage {
    /// The replayer's drawing of one step: a device per scene (navigation bar, tab bar, sheets as
    /// cards, a split view as columns, a scene in the background dimmed), what the step changed,
    /// and every scene's stacks with the routes it added, removed or replaced marked.
    static let replayDevice = #"""
    // What a step changed, by where: a stack's routes removed and added (a sheet's stack by the
    // sheet's place), sheets presented and dismissed, tabs changed.
    const changesOf = step => {
      const stacks = new Map(), presented = new Set(), dismissed = [], tabs = new Set();
      for (const c of step.changes ?? []) {
        if (c.change === "stack") stacks.set(`${c.scene}\u0000${c.sheet ?? ""}\u0000${c.stack}`, c);
        if (c.change === "sheetPresented") presented.add(`${c.scene}\u0000${c.sheet}`);
        if (c.change === "sheetDismissed") dismissed.push(c);
        if (c.change === "tab") tabs.add(c.scene);
      }
      return { stacks, presented, dismissed, tabs, stackOf: (scene, stack, sheet) => stacks.get(`${scene}\u0000${sheet ?? ""}\u0000${stack}`) };
    };
    // The mark of the route at `i` of `routes` after change `c`: its last routes are those it added.
    const markAt = (c, routes, i) => !c || i < routes.length - c.added.length ? null : c.removed.length ? "replaced" : "added";
    const marked = (attrs, mark) => mark ? { ...attrs, "data-mark": mark } : attrs;

    // One screen of a device: its navigation bar (a back button naming the screen below, the title,
    // an action) and a body drawing the route, with the stack's trail at its foot.
    const layer = ({ title, back, action, route, trail, visible, mark, label }) => {
      const bar = el("div", { class: "navbar" },
        el("div", { class: "navrow" },
          el("span", { class: "back" }, ...(back ? [el("span", { "aria-hidden": "true" }, "‹ "), el("span", { class: "back-label" }, back)] : [])),
          el("span", { class: "action" }, action ?? "")),
        el("div", marked({ class: "title" }, mark), title));
      const body = el("div", { class: "body" });
      if (route) {
        body.append(el("div", { class: "big" }, route.screen));
        if (route.id) body.append(el("div", { class: "params" }, says`id ${route.id}`));
        if (route.params) body.append(el("div", { class: "params" }, joined(Object.entries(route.params).map(([k, v]) => says`${k}: ${v}`), " · ")));
      } else {
        body.append(el("div", { class: "big muted" }, title));
      }
      for (const w of [90, 70, 80]) body.append(el("div", { class: "placeholder", style: `width:${w}%`, "aria-hidden": "true" }));
      if (trail) body.append(el("div", { class: "trail" }, trail));
      return el("div", { class: "layer", ...(visible ? { "aria-current": "true", "data-visible": "true" } : {}), role: "group", "aria-label": plain(label) }, bar, body);
    };
    // A stack's trail at a screen's foot: its root and routes, the middle of a deep one elided.
    const trailOf = names => joined(names.length > 5 ? [names[0], says`… ${fmt(names.length - 4)} more`, ...names.slice(-3)] : names, " › ");

    // A device for scene `name` after a step: `shown` is what the library found it shows (the
    // visible layer's title and back label, those of the layers under it, bottom first, and a
    // split view's columns), `tabs` the tabs and `rootName` the root's name it found the scene has.
    const drawDevice = (s, index, name, scene, shown, tabs, rootName, active, changes) => {
      const session = sessions[s], step = session.steps[index], under = shown.under ?? [];
      const current = shown.current ?? shown.stack ?? "main";
      const split = scene.split ?? null, sheets = scene.sheets;
      const routes = scene.stacks[current] ?? [];
      const top = routes[routes.length - 1];
      const stackChange = changes.stackOf(name, current, undefined);
      const baseVisible = sheets.length === 0 && (shown.source === "stack" || shown.source === "root");
      const base = layer({
        title: baseVisible ? shown.route : under[0]?.title, back: baseVisible ? shown.back : under[0]?.back,
        route: top ?? null, visible: baseVisible, mark: markAt(stackChange, routes, routes.length - 1),
        trail: routes.length ? trailOf([rootName, ...routes.map(routeText)]) : null,
        label: `Stack ${current}`,
      });
      const screen = el("div", { class: "screen" },
        el("div", { class: "statusbar", "aria-hidden": "true" }, el("span", {}, name), el("span", {}, scene.phase ?? "active")));
      if (split) {
        const columns = el("div", { class: "columns" });
        const sources = { sidebar: "splitSidebar", content: "splitContent" };
        for (const { column: kind, title } of shown.columns ?? []) columns.append(el("div", { class: `column ${kind}` }, layer({
          title, route: split[kind] ?? null, visible: sheets.length === 0 && shown.source === sources[kind], label: `Column ${kind}`,
        })));
        columns.append(el("div", { class: "column detail" }, base));
        screen.append(columns);
      } else {
        screen.append(base);
      }
      if (scene.tab !== null) {
        screen.append(el("ul", { class: "tabbar", "aria-label": "Tab bar" }, ...tabs.map(tab => el("li",
          tab === scene.tab ? marked({ "data-tab": tab, "aria-current": "true" }, changes.tabs.has(name) ? "replaced" : null) : { "data-tab": tab }, tab))));
      }
      sheets.forEach((sheet, k) => {
        const last = k === sheets.length - 1, c = changes.stackOf(name, sheet.id, k);
        const topRoute = sheet.stack[sheet.stack.length - 1] ?? sheet.root;
        if (k === 0) screen.append(el("div", { class: "dimmer", "aria-hidden": "true" }));
        const card = el("div", { class: `sheet-card ${sheet.style}`, "data-sheet": sheet.id, style: `top:${2.6 + k * 1.6}rem`, role: "group", "aria-label": plain(`Sheet ${sheet.id}`) },
          sheet.style === "fullScreenCover" ? "" : el("div", { class: "grabber", "aria-hidden": "true" }),
          layer({
            title: last ? shown.route : under[k + 1]?.title, back: last ? shown.back : under[k + 1]?.back,
            action: sheet.stack.length === 0 ? "Done" : null, route: topRoute, visible: last,
            mark: changes.presented.has(`${name}\u0000${sheet.id}`) && last ? "added" : c ? markAt(c, sheet.stack, sheet.stack.length - 1) : null,
            trail: sheet.stack.length ? trailOf([sheet.root, ...sheet.stack].map(routeText)) : null, label: `Sheet ${sheet.id}`,
          }));
        screen.append(card);
      });
      const awayFor = scene.phase === "background" ? outline(s).spans.find(span => span.scene === name && span.from <= index && (span.to === null || span.to > index)) : null;
      let away = "";
      if (awayFor) {
        const until = awayFor.to === null ? session.steps[session.steps.length - 1] : session.steps[awayFor.to];
        const stayed = fmtDuration(Math.max(0, until.t - session.steps[awayFor.from].t));
        away = awayFor.to === null ? `In the background for ${stayed}, until the session's last event` : `In the background for ${stayed}`;
        screen.append(el("div", { class: "away" }, el("span", {}, away)));
      }
      const label = [`Scene ${name}${active ? " (active)" : ""}: shows ${shown.route}`, shown.back ? `back button: ${shown.back}` : "no back button",
                     scene.tab !== null ? `tab ${scene.tab} selected` : null, sheets.length ? `${sheets.length} sheet${sheets.length > 1 ? "s" : ""}` : null,
                     split ? `split view (${split.visibility})` : null, away || (scene.phase ? `phase ${scene.phase}` : null)].filter(Boolean).join("; ");
      const acted = !step.state && name in step.visible;   // the scenes a step changed are those it says what they show
      return el("figure", { class: `device${split ? " split" : ""}${scene.phase === "background" ? " background" : ""}${acted ? " acted" : ""}`, "data-scene": name,
                            role: "group", "aria-label": plain(label + (acted ? "; the event happened here" : "")) },
        el("figcaption", {}, el("strong", {}, says`Scene ${name}`), active ? " · active scene" : "", scene.phase ? ` · ${scene.phase}` : "", acted ? " · this event" : ""),
        el("div", { class: "bezel" }, screen));
    };

    // What changed, in words, each with its mark; an anomaly says the event changed nothing.
    const describeChanges = (s, index) => {
      const session = sessions[s], step = session.steps[index], items = [];
      const item = (text, mark, cls) => items.push(el("li", marked(cls ? { class: cls } : {}, mark), text));
      if (step.anomaly) item(says`Anomaly: ${step.anomaly} — the event changed nothing.`, null, "anomaly");
      if (step.state) item(`The state was set whole: ${Object.keys(step.state.scenes).length} scene${Object.keys(step.state.scenes).length === 1 ? "" : "s"} open.`, "replaced");
      for (const c of step.changes ?? []) {
        const where = () => c.sheet !== undefined ? says`${c.scene}, sheet ${c.stack}` : says`${c.scene}/${c.stack}`;
        const routes = list => joined(list.map(routeText), ", ");
        switch (c.change) {
          case "sceneOpened": item(says`Scene ${c.scene} opened`, "added"); break;
          case "sceneClosed": item(says`Scene ${c.scene} closed`, "removed"); break;
          case "activeScene": item(says`Active scene: ${c.from ?? "none"} → ${c.to ?? "none"}`, "replaced"); break;
          case "tab": item(says`${c.scene}: tab ${c.from ?? "none"} → ${c.to ?? "none"}`, "replaced"); break;
          case "stack":
            if (c.removed.length && c.added.length) item(says`${where()}: ${routes(c.removed)} → ${routes(c.added)}`, "replaced");
            else if (c.added.length) item(says`${where()}: ${routes(c.added)}`, "added");
            else item(says`${where()}: ${routes(c.removed)}`, "removed");
            break;
          case "sheetPresented": item(says`${c.scene}: sheet ${c.sheet} (${c.style}) over it, ${routeText(c.root)}`, "added"); break;
          case "sheetDismissed": item(says`${c.scene}: sheet ${c.sheet} dismissed`, "removed"); break;
          case "split": {
            const selected = r => (r ? routeText(r) : "none");
            item(c.visibility === null ? says`${c.scene}: split view gone`
              : says`${c.scene}: split view sidebar ${selected(c.sidebar)}, content ${selected(c.content)}, ${c.visibility}`, "replaced");
            break;
          }
          case "phase": {
            const span = c.from === "background" ? outline(s).spans.find(x => x.scene === c.scene && x.to === index) : null;
            item(says`${c.scene}: ${c.from} → ${c.to}${span ? ` after ${fmtDuration(Math.max(0, step.t - session.steps[span.from].t))} in the background` : ""}`, "replaced");
            break;
          }
        }
      }
      if (items.length === 0) item("Nothing changed.", null, "muted");
      return items;
    };

    // Every scene's stacks, the visible route highlighted, this step's routes marked.
    const drawStacks = (state, shown, changes) => {
      const boxes = [];
      for (const name of Object.keys(state.scenes).sort()) {
        const scene = state.scenes[name], visible = shown[name] ?? {};
        let found = false;
        const mark = isVisible => { found ||= isVisible; return isVisible ? { class: "visible", "aria-current": "true" } : {}; };
        const ghosts = (c, list) => { for (const r of c?.removed ?? []) if (!c.added.length) list.append(el("li", { class: "removed", "data-mark": "removed" }, el("s", {}, routeText(r)))); };
        const box = el("section", { class: "scene", "aria-label": plain("Scene " + name), "data-scene": name },
          el("h3", {}, says`Scene ${name}${state.active === name ? " (active)" : ""}${scene.phase ? " — " + scene.phase : ""}`));
        // A stack is shown once it holds a route, and the selected tab's always.
        const stacks = Object.keys(scene.stacks).filter(id => scene.stacks[id].length > 0 || id === scene.tab || changes.stackOf(name, id, undefined));
        if (scene.tab !== null && !stacks.includes(scene.tab)) stacks.push(scene.tab);
        for (const stack of stacks.sort()) {
          const routes = scene.stacks[stack] ?? [], c = changes.stackOf(name, stack, undefined);
          const list = el("ol");
          routes.forEach((r, i) => list.append(el("li", marked(mark(visible.source === "stack" && visible.stack === stack && i === routes.length - 1), markAt(c, routes, i)), routeText(r))));
          if (routes.length === 0) list.append(el("li", mark(visible.source === "root" && visible.stack === stack), "(root)"));
          ghosts(c, list);
          box.append(el("div", { class: "stack", "data-stack": stack }, el("h4", {}, says`${stack}${scene.tab === stack ? " — selected tab" : ""}`), list));
        }
        scene.sheets.forEach((sheet, k) => {
          const list = el("ol"), top = k === scene.sheets.length - 1, c = changes.stackOf(name, sheet.id, k);
          list.append(el("li", mark(top && sheet.stack.length === 0), says`${routeText(sheet.root)} [root]`));
          sheet.stack.forEach((r, i) => list.append(el("li", marked(mark(top && i === sheet.stack.length - 1), markAt(c, sheet.stack, i)), routeText(r))));
          ghosts(c, list);
          box.append(el("div", { class: "stack sheet", "data-stack": sheet.id },
            el("h4", marked({}, changes.presented.has(`${name}\u0000${sheet.id}`) ? "added" : null), says`Sheet ${sheet.id} (${sheet.style})`), list));
        });
        for (const c of changes.dismissed.filter(d => d.scene === name)) {
          box.append(el("div", { class: "stack sheet removed", "data-stack": c.sheet }, el("h4", { "data-mark": "removed" }, el("s", {}, says`Sheet ${c.sheet}`))));
        }
        if (scene.split) box.append(el("p", {}, says`Split view: sidebar ${scene.split.sidebar?.screen ?? "none"}, content ${scene.split.content?.screen ?? "none"}`));
        if (!found && visible.route) box.append(el("p", { class: "visible", "aria-current": "true" }, says`Visible: ${visible.route}`));
        boxes.push(box);
      }
      if (boxes.length === 0) boxes.push(el("p", { class: "muted" }, "No open scene."));
      return boxes;
    };

    """#
}
