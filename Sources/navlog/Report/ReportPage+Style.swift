extension ReportPage {
    /// The page's style sheet: the report's sections, then the replayer's device, transcript and
    /// time axis. Colours are variables, set again for a dark colour scheme; sizes are in rem, so
    /// that the page reflows rather than clips when zoomed; motion is dropped when the reader asks
    /// for less.
    static let style = #"""
    :root { --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0969da; --accent-soft: #ddf4ff; --bad: #cf222e; --bar: #54aeff;
            --good: #1a7f37; --good-soft: #dafbe1; --bad-soft: #ffebe9; --warn: #9a6700; --warn-soft: #fff8c5;
            --bezel: #1f2328; --screen: #f6f8fa; --surface: #fff; --shade: rgba(31, 35, 40, .18); }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --accent: #58a6ff; --accent-soft: #12263f; --bad: #ff7b72; --bar: #388bfd;
              --good: #3fb950; --good-soft: #12261e; --bad-soft: #2d1214; --warn: #d29922; --warn-soft: #272115;
              --bezel: #000; --screen: #161b22; --surface: #21262d; --shade: rgba(0, 0, 0, .5); }
    }
    * { box-sizing: border-box; }
    body { margin: 0; padding: 1rem 1.5rem 3rem; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
    h1 { font-size: 1.6rem; margin: 0 0 .25rem; } h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); }
    .muted { color: var(--muted); }
    .invisible { font: .75em ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--bad); border: 1px dashed currentColor; border-radius: .2rem; padding: 0 .1rem; }
    .cards { display: flex; flex-wrap: wrap; gap: .75rem; padding: 0; margin: .5rem 0; list-style: none; }
    .cards li { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .9rem; min-width: 8rem; }
    .cards strong { display: block; font-size: 1.4rem; }
    svg { max-width: 100%; height: auto; }
    .scroll { overflow-x: auto; max-width: 100%; } .scroll svg { max-width: none; }   /* narrow or zoomed in, scroll rather than shrink text */
    .scroll table th, .scroll table td { white-space: nowrap; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    .empty { font-style: italic; }
    h3 { font-size: 1.05rem; margin: 1rem 0 .3rem; }
    .chart { max-width: 60rem; }
    .per-day .grid { stroke: var(--line); } .per-day .axis-line, .per-day .tick-mark { stroke: var(--muted); }
    svg text.axis-label { fill: var(--muted); } svg text.step-name { font-weight: 600; fill: var(--muted); }
    svg text { fill: var(--fg); font-size: 12px; }
    .bar { fill: var(--bar); } .link { fill: none; stroke: var(--bar); stroke-opacity: .35; } .link:hover { stroke-opacity: .7; }
    .flow-node rect { fill: var(--accent); }
    table { border-collapse: collapse; width: 100%; max-width: 60rem; }
    th, td { padding: .3rem .6rem; border-bottom: 1px solid var(--line); text-align: right; }
    th:first-child, td:first-child, th.text, td.text { text-align: left; } th.number, td.number { text-align: right; }
    th button { font: inherit; font-weight: 600; background: none; border: 0; color: var(--accent); cursor: pointer; padding: 0; }
    :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
    #replay:focus-visible { outline: none; }   /* focused only so that its keys stay within it */
    /* A funnel step: its screen, its bar in a track as long as step 1's, its count; the replays
       that reach it below. Narrow, the track takes a row of its own, so that bars keep their length. */
    .funnel { margin: .5rem 0 1rem; }
    .funnel-step { display: grid; grid-template-columns: 10rem minmax(8rem, 1fr) 12rem; gap: .1rem .5rem; align-items: center; max-width: 60rem; margin: .3rem 0; }
    .funnel-screen { overflow-wrap: anywhere; }
    .funnel-track { background: var(--accent-soft); border-radius: .2rem; }
    .funnel-bar { background: var(--bar); height: 1.2rem; border-radius: .2rem; min-width: 2px; }
    .funnel-step .moments { grid-column: 2 / -1; font-size: .85rem; }
    .moments a { overflow-wrap: anywhere; }
    #crash-paths li { margin: .2rem 0; } #crash-paths .moments { display: block; font-size: .85rem; }
    @media (max-width: 40rem) {
      body { padding: .75rem .75rem 2rem; }
      .funnel-step { grid-template-columns: minmax(0, 1fr) auto; }
      .funnel-track, .funnel-step .moments { grid-column: 1 / -1; }
    }
    .controls { display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: center; margin: .5rem 0; }
    .controls button, .controls select { font: inherit; padding: .2rem .7rem; border: 1px solid var(--line); border-radius: .4rem; background: var(--accent-soft); color: var(--fg); cursor: pointer; }
    .controls select { background: var(--bg); max-width: 100%; }
    #session-select { min-width: 0; flex: 0 1 auto; text-overflow: ellipsis; }
    .link-row { margin: 0; min-height: 0; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
    .link-row input { font: .85rem ui-monospace, SFMono-Regular, Menlo, monospace; flex: 1 1 20rem; min-width: 0; max-width: 60rem; }
    #event { min-height: 3em; overflow-wrap: anywhere; }
    #play[data-playing] { background: var(--accent); color: var(--bg); }
    .controls input[type=search] { font: inherit; padding: .15rem .4rem; border: 1px solid var(--line); border-radius: .4rem; background: var(--bg); color: var(--fg); width: 9rem; }
    .scenes { display: flex; flex-wrap: wrap; gap: 1rem; }
    .scene { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .9rem; min-width: 14rem; }
    .scene h3 { margin: .2rem 0; font-size: 1.05rem; }
    .stack h4 { margin: .4rem 0 .1rem; font-size: .95rem; }
    .stack ol { margin: 0; padding-left: 1.5rem; }
    .visible { background: var(--accent-soft); border-left: 3px solid var(--accent); padding-left: .3rem; font-weight: 600; }
    #errors:empty { display: none; } #errors { color: var(--bad); }
    .note:empty { display: none; } .note { border-left: 3px solid var(--bad); padding-left: .5rem; }

    /* Change marks: a word as well as a colour, so that they read without it. */
    [data-mark]::after { font-size: .75rem; font-weight: 600; margin-left: .4rem; padding: 0 .3rem; border-radius: .25rem; }
    [data-mark="added"]::after { content: "added"; color: var(--good); background: var(--good-soft); }
    [data-mark="removed"]::after { content: "removed"; color: var(--bad); background: var(--bad-soft); }
    [data-mark="replaced"]::after { content: "replaced"; color: var(--warn); background: var(--warn-soft); }
    li.removed { color: var(--muted); } li.removed s { text-decoration-thickness: 2px; }
    #changes { margin: .3rem 0; padding-left: 1.2rem; } #changes li.anomaly { color: var(--bad); }
    .kind { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; background: var(--accent-soft); padding: 0 .3rem; border-radius: .25rem; }

    /* The replayer's layout: devices, what changed and the stacks, the transcript. */
    .replay-grid { display: flex; flex-wrap: wrap; gap: 1.25rem; align-items: flex-start; margin-top: .75rem; }
    .devices { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
    .side { flex: 1 1 16rem; min-width: min(100%, 16rem); }
    .side h3, .transcript-box h3 { font-size: 1.05rem; margin: 0 0 .3rem; }
    .transcript-box { flex: 1 1 22rem; min-width: min(100%, 20rem); max-width: 40rem; }
    .raw { flex: 1 1 100%; min-width: 0; }
    .raw summary { cursor: pointer; font-weight: 600; }
    .raw-panes { display: flex; flex-wrap: wrap; gap: 1rem; }
    .raw-panes section { flex: 1 1 20rem; min-width: 0; }
    .raw h4 { margin: .4rem 0 .2rem; font-size: .95rem; }
    .raw pre { margin: 0; max-height: 24rem; overflow: auto; font-size: .8rem; background: var(--surface); border: 1px solid var(--line); border-radius: .4rem; padding: .5rem; }

    /* A device: a phone (a tablet for a split view) drawing what the scene showed. */
    .device { margin: 0; width: 18.5rem; max-width: 100%; }
    .device.split { width: 34rem; }
    .device figcaption { font-size: .9rem; margin-bottom: .3rem; }
    .bezel { position: relative; background: var(--bezel); border-radius: 2.2rem; padding: .7rem; box-shadow: 0 .4rem 1.2rem var(--shade); }
    .device.split .bezel { border-radius: 1.4rem; }
    .device.slot .bezel { background: none; box-shadow: none; outline: 2px dashed var(--line); outline-offset: -2px; }
    .device.slot .screen { background: none; }
    .device.acted .bezel { box-shadow: 0 0 0 3px var(--accent), 0 .4rem 1.2rem var(--shade); }
    .screen { position: relative; height: 30rem; border-radius: 1.6rem; overflow: hidden; background: var(--screen); display: flex; flex-direction: column; }
    .device.split .screen { border-radius: .8rem; height: 24rem; }
    .statusbar { display: flex; justify-content: space-between; font-size: .75rem; padding: .35rem 1.1rem .1rem; color: var(--muted); }
    .columns { flex: 1; display: flex; min-height: 0; }
    .column { flex: 1; display: flex; flex-direction: column; min-width: 0; border-right: 1px solid var(--line); }
    .column:last-child { border-right: 0; }
    .column.sidebar { flex: .8; background: var(--surface); }
    .layer { flex: 1; display: flex; flex-direction: column; min-height: 0; }
    .navbar { display: flex; flex-direction: column; gap: .05rem; padding: .35rem .7rem .45rem; border-bottom: 1px solid var(--line); background: var(--surface); }
    .navrow { display: flex; justify-content: space-between; gap: .5rem; min-height: 1.2rem; font-size: .8rem; color: var(--accent); }
    .navbar .back { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .navbar .title { font-weight: 700; font-size: 1.1rem; overflow-wrap: anywhere; line-height: 1.25; }
    .body { flex: 1; padding: .8rem; overflow: hidden; display: flex; flex-direction: column; gap: .5rem; }
    .body .big { font-size: 1.3rem; font-weight: 650; overflow-wrap: anywhere; }
    .body .params { font-size: .8rem; color: var(--muted); overflow-wrap: anywhere; }
    .body .trail { margin-top: auto; font-size: .75rem; color: var(--muted); overflow-wrap: anywhere; }
    .body .placeholder { height: .6rem; border-radius: .3rem; background: var(--line); opacity: .6; }
    .tabbar { display: flex; margin: 0; padding: 0; list-style: none; border-top: 1px solid var(--line); background: var(--surface); }
    .tabbar li { flex: 1; text-align: center; font-size: .75rem; padding: .35rem .1rem .5rem; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .tabbar li::before { content: "○"; display: block; font-size: 1rem; line-height: 1.1; }
    .tabbar [aria-current=true] { color: var(--accent); font-weight: 700; }
    .tabbar [aria-current=true]::before { content: "●"; }
    .sheet-card { position: absolute; left: 0; right: 0; bottom: 0; display: flex; flex-direction: column; background: var(--screen);
                  border-radius: 1rem 1rem 0 0; box-shadow: 0 -.3rem 1rem var(--shade); border-top: 1px solid var(--line); }
    .sheet-card.fullScreenCover { border-radius: 0; }
    .sheet-card .navbar { border-radius: 1rem 1rem 0 0; }
    .sheet-card .grabber { width: 2.2rem; height: .25rem; border-radius: .2rem; background: var(--line); margin: .3rem auto 0; }
    .dimmer { position: absolute; inset: 0; background: var(--shade); }
    .device.background .screen { filter: grayscale(.8); }
    .away { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; padding: 1rem; background: color-mix(in srgb, var(--screen) 72%, transparent); }
    .away span { text-align: center; background: var(--surface); border: 1px solid var(--line); border-radius: .6rem; padding: .5rem .8rem; font-size: .9rem; font-weight: 600; }
    .device [data-mark]::after { font-size: .65rem; }
    .layer[aria-current=true] > .navbar .title { text-decoration: underline 2px var(--accent); text-underline-offset: .25rem; }
    .device.split .layer[aria-current=true] { box-shadow: inset 0 0 0 2px var(--accent); }

    /* Playback, the time axis and the transcript. */
    .timeline { max-width: 60rem; }
    /* The slider, drawn here so that its thumb is 1rem wide: the marks lie on its track, inset by
       half the thumb, so that at a step the thumb rings its mark. */
    .scrubber { position: relative; }
    .scrubber input[type=range] { -webkit-appearance: none; appearance: none; display: block; width: 100%; height: 1.8rem; margin: 0; background: transparent; cursor: pointer; }
    .scrubber input[type=range]::-webkit-slider-runnable-track { height: .4rem; border-radius: .2rem; background: var(--line); }
    .scrubber input[type=range]::-moz-range-track { height: .4rem; border-radius: .2rem; background: var(--line); }
    .scrubber input[type=range]::-webkit-slider-thumb { -webkit-appearance: none; appearance: none; width: 1rem; height: 1rem; margin-top: -.3rem; border-radius: 50%;
                                                        background: var(--accent); border: 2px solid var(--bg); position: relative; z-index: 1; }
    .scrubber input[type=range]::-moz-range-thumb { width: 1rem; height: 1rem; border-radius: 50%; background: var(--accent); border: 2px solid var(--bg); }
    .axis { position: absolute; top: 0; bottom: 0; left: .5rem; right: .5rem; pointer-events: none; }
    .axis .span, .legend .span { position: absolute; top: calc(50% - .25rem); height: .5rem; background: var(--muted); opacity: .55; border-radius: .2rem; min-width: 2px; }
    .axis .tick, .legend .tick { position: absolute; top: calc(50% - .35rem); width: .7rem; height: .7rem; margin-left: -.35rem; border-radius: 50%; }
    .timeline .ends { display: flex; justify-content: space-between; font-size: .7rem; color: var(--muted); margin: 0 .5rem; }
    .tick.deeplink { background: var(--accent); } .tick.restore { background: var(--good); border-radius: .1rem; }
    .tick.anomaly { background: var(--warn); clip-path: polygon(50% 0, 100% 100%, 0 100%); border-radius: 0; }
    .tick.unclean { background: var(--bad); clip-path: polygon(20% 0, 50% 30%, 80% 0, 100% 20%, 70% 50%, 100% 80%, 80% 100%, 50% 70%, 20% 100%, 0 80%, 30% 50%, 0 20%); border-radius: 0; }
    .legend { display: flex; flex-wrap: wrap; gap: .2rem 1rem; font-size: .8rem; color: var(--muted); margin: .1rem 0 .4rem; padding: 0; list-style: none; }
    .legend .tick, .legend .span { position: static; display: inline-block; margin: 0 .3rem 0 0; vertical-align: -.05rem; }
    .legend .span { width: 1rem; }
    .legend button { font: inherit; color: var(--accent); background: none; border: 0; padding: 0; cursor: pointer; text-decoration: underline dotted; }
    .transcript { height: 30rem; overflow-y: auto; position: relative; border: 1px solid var(--line); border-radius: .5rem; font-size: .85rem; }
    .transcript .rows { position: relative; }
    .transcript [role=option] { position: absolute; left: 0; right: 0; height: 1.75rem; line-height: 1.75rem; padding: 0 .5rem; border-bottom: 1px solid var(--line);
                                white-space: nowrap; overflow: hidden; text-overflow: ellipsis; cursor: pointer; }
    .transcript [role=option]:hover { background: var(--accent-soft); }
    .transcript [aria-selected=true] { background: var(--accent-soft); box-shadow: inset 3px 0 0 var(--accent); font-weight: 600; }
    .transcript .time { display: inline-block; width: 4rem; margin-right: .5rem; text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
    .transcript .type { font-weight: 650; }
    .transcript .badge { margin-right: .4rem; font-size: .7rem; font-weight: 600; padding: .05rem .3rem; border-radius: .25rem; }
    .badge.deeplink { color: var(--accent); background: var(--accent-soft); } .badge.restore { color: var(--good); background: var(--good-soft); }
    .badge.anomaly { color: var(--warn); background: var(--warn-soft); } .badge.crash { color: var(--bad); background: var(--bad-soft); }
    @media (prefers-reduced-motion: reduce) { *, *::before, *::after { transition: none !important; animation: none !important; scroll-behavior: auto !important; } }
    """#
}
