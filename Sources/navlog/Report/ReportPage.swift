import Foundation

/// The report's page: one self-contained HTML file — inline CSS, JavaScript and SVG, no network —
/// that renders the data `ReportQuery` gathers. The page computes nothing about navigation: a
/// replay's steps are the changes the library's fold found, which the page applies in turn (a
/// route removed from a stack's top, a sheet presented), and every visible screen it shows was
/// found by the library.
enum ReportPage {
    /// The HTML page around `data` (the report's JSON).
    static func html(title: String, data: [UInt8]) -> [UInt8] {
        // Inside <script>, markup such as "</script>" or "<!--" would change how the page is parsed:
        // write every <, > and & as a JSON \u escape (they only occur inside JSON strings).
        var safe: [UInt8] = []
        safe.reserveCapacity(data.count + 64)
        for byte in data {
            switch byte {
            case UInt8(ascii: "<"): safe += Array("\\u003c".utf8)
            case UInt8(ascii: ">"): safe += Array("\\u003e".utf8)
            case UInt8(ascii: "&"): safe += Array("\\u0026".utf8)
            default: safe.append(byte)
            }
        }
        return Array(head(title).utf8) + safe + Array(tail.utf8)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    private static func head(_ title: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>navlog report — \(escaped(title))</title>
        <style>
        :root { --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0969da; --accent-soft: #ddf4ff; --bad: #cf222e; --bar: #54aeff; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --accent: #58a6ff; --accent-soft: #12263f; --bad: #ff7b72; --bar: #388bfd; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 1rem 1.5rem 3rem; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
        h1 { font-size: 1.6rem; margin: 0 0 .25rem; } h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); }
        .muted { color: var(--muted); }
        .cards { display: flex; flex-wrap: wrap; gap: .75rem; padding: 0; margin: .5rem 0; list-style: none; }
        .cards li { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .9rem; min-width: 8rem; }
        .cards strong { display: block; font-size: 1.4rem; }
        svg { max-width: 100%; height: auto; }
        .scroll { overflow-x: auto; } .scroll svg { max-width: none; }   /* zoomed in, scroll rather than shrink text */
        svg text { fill: var(--fg); font-size: 12px; }
        .bar { fill: var(--bar); } .link { fill: none; stroke: var(--bar); stroke-opacity: .35; } .link:hover { stroke-opacity: .7; }
        .flow-node rect { fill: var(--accent); }
        table { border-collapse: collapse; width: 100%; max-width: 60rem; }
        th, td { padding: .3rem .6rem; border-bottom: 1px solid var(--line); text-align: right; }
        th:first-child, td:first-child { text-align: left; }
        th button { font: inherit; font-weight: 600; background: none; border: 0; color: var(--accent); cursor: pointer; padding: 0; }
        th button:focus-visible, button:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
        .funnel-step { display: grid; grid-template-columns: 10rem 1fr 12rem; gap: .5rem; align-items: center; max-width: 60rem; margin: .2rem 0; }
        .funnel-bar { background: var(--bar); height: 1.2rem; border-radius: .2rem; min-width: 2px; }
        .controls { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; margin: .5rem 0; }
        .controls button { font: inherit; padding: .2rem .8rem; border: 1px solid var(--line); border-radius: .4rem; background: var(--accent-soft); color: var(--fg); cursor: pointer; }
        input[type=range] { width: min(40rem, 90vw); }
        .scenes { display: flex; flex-wrap: wrap; gap: 1rem; }
        .scene { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .9rem; min-width: 16rem; }
        .scene h3 { margin: .2rem 0; font-size: 1.05rem; }
        .stack h4 { margin: .4rem 0 .1rem; font-size: .95rem; }
        .stack ol { margin: 0; padding-left: 1.5rem; }
        .visible { background: var(--accent-soft); border-left: 3px solid var(--accent); padding-left: .3rem; font-weight: 600; }
        #errors:empty { display: none; } #errors { color: var(--bad); }
        .note:empty { display: none; } .note { border-left: 3px solid var(--bad); padding-left: .5rem; }
        </style>
        </head>
        <body>
        <header>
        <h1>Navigation report</h1>
        <p class="muted" id="subtitle"></p>
        </header>
        <main>
        <section aria-labelledby="overview-h"><h2 id="overview-h">Overview</h2><ul class="cards" id="overview"></ul>
        <p class="muted" id="apps"></p><div id="per-day"></div></section>
        <section aria-labelledby="flow-h"><h2 id="flow-h">Flow from session start</h2>
        <p class="muted">The most common screens at each step of a path, the rest as “other”. Hover a link for its count.</p><div id="flow" class="scroll" tabindex="0" role="region" aria-label="Flow diagram, scrollable"></div></section>
        <section aria-labelledby="screens-h"><h2 id="screens-h">Screens</h2><p class="muted">Sort by a column with its button.</p>
        <p class="note" id="clock-went-back"></p><div id="screens" class="scroll" tabindex="0" role="region" aria-label="Screens table, scrollable"></div></section>
        <section aria-labelledby="funnels-h"><h2 id="funnels-h">Funnels</h2><div id="funnels"></div></section>
        <section aria-labelledby="crash-h"><h2 id="crash-h">Before a crash</h2><p class="muted">The last screens of sessions that ended uncleanly: terminated in the foreground. An end in the background is not a crash.</p><ol id="crash-paths"></ol></section>
        <section aria-labelledby="replay-h"><h2 id="replay-h">Session replay</h2>
        <div class="controls">
        <label for="session-select">Session</label><select id="session-select"></select>
        <button type="button" id="prev" aria-label="Previous event">◀ Previous</button>
        <label for="step">Step</label><input type="range" id="step" min="0" value="0">
        <button type="button" id="next" aria-label="Next event">Next ▶</button>
        <output id="step-label" for="step"></output>
        </div>
        <p class="note" id="replay-missing" role="status"></p>
        <p class="note" id="replay-cut"></p>
        <p class="note" id="replay-omitted"></p>
        <p id="event" aria-live="polite"></p>
        <div class="scenes" id="scenes"></div>
        </section>
        <pre id="errors" role="alert"></pre>
        </main>
        <script id="report-data" type="application/json">
        """
    }
}
