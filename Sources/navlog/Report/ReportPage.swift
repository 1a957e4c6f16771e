import Foundation

/// The report's page: one self-contained HTML file — inline CSS, JavaScript and SVG, no network —
/// that renders the data `ReportQuery` gathers. A replay's steps are the changes the library's
/// fold found, which the page applies in turn (a route removed from a stack's top, a sheet
/// presented); the library also finds what a device draws from them — each layer's title and
/// back label, a split view's columns, a scene's tabs, a trail's root name, the spans in the
/// background. The page draws what it is told.
enum ReportPage {
    /// The HTML page around `data` (the report's JSON) and `lines` (its replays' lines, in a
    /// block of their own that the page parses only when the raw panel first opens); over several
    /// logs (`manyLogs`), with the overview listing them (``manyLogsTail``).
    static func html(title: String, data: [UInt8], lines: [UInt8], manyLogs: Bool = false) -> [UInt8] {
        Array(head(title).utf8) + safe(data) + Array(#"</script>\#n<script id="report-lines" type="application/json">"#.utf8)
            + safe(lines) + Array((manyLogs ? manyLogsTail : tail).utf8)
    }

    /// `json` as the text of a <script>: markup such as "</script>" or "<!--" would change how the
    /// page is parsed, so every <, > and & is written as a JSON \u escape (they only occur inside
    /// JSON strings).
    private static func safe(_ json: [UInt8]) -> [UInt8] {
        var safe: [UInt8] = []
        safe.reserveCapacity(json.count + 64)
        for byte in json {
            switch byte {
            case UInt8(ascii: "<"): safe += Array("\\u003c".utf8)
            case UInt8(ascii: ">"): safe += Array("\\u003e".utf8)
            case UInt8(ascii: "&"): safe += Array("\\u0026".utf8)
            default: safe.append(byte)
            }
        }
        return safe
    }

    /// `text` in the page's markup: `&`, `<` and `>` as references, and each character that
    /// ``Terminal/isEscaped(_:)`` names as the marker the page shows for it, `⟨U+202E⟩`.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case _ where Terminal.isEscaped(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "⟨U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "⟩"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
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
        \(style)
        </style>
        </head>
        <body>
        <header>
        <h1>Navigation report</h1>
        <p class="muted" id="subtitle"></p>
        </header>
        <main>
        <section aria-labelledby="overview-h"><h2 id="overview-h">Overview</h2><ul class="cards" id="overview"></ul>
        <p class="note" id="empty-log"></p>
        <p class="note" id="dropped-lines"></p>
        <p class="muted" id="apps"></p>
        <h3 id="per-day-h">Sessions per day</h3><div id="per-day" class="chart"></div></section>
        <section aria-labelledby="flow-h"><h2 id="flow-h">Flow from session start</h2>
        <p class="muted">The most common screens at each step of a path, the rest as “other”. Hover a link for its count.</p><div id="flow" class="scroll" tabindex="0" role="region" aria-label="Flow diagram, scrollable"></div></section>
        <section aria-labelledby="screens-h"><h2 id="screens-h">Screens</h2><p class="muted">Sort by a column with its button.</p>
        <p class="note" id="clock-went-back"></p><div id="screens" class="scroll" tabindex="0" role="region" aria-label="Screens table, scrollable"></div></section>
        <section aria-labelledby="funnels-h"><h2 id="funnels-h">Funnels</h2><div id="funnels"></div></section>
        <section aria-labelledby="crash-h"><h2 id="crash-h">Before a crash</h2><p class="muted">The last screens of sessions that ended uncleanly: terminated in the foreground. An end in the background is not a crash.</p><ol id="crash-paths"></ol></section>
        <section aria-labelledby="replay-h" id="replay" tabindex="-1"><h2 id="replay-h">Session replay</h2>
        <p class="muted" id="replay-embedded"></p>
        <div class="controls" id="session-controls" role="group" aria-label="Find a session">
        <label for="session-select">Session</label><select id="session-select"></select>
        <label for="filter-ending">Ended</label><select id="filter-ending"><option value="">any way</option><option value="unclean">unclean (crash)</option><option value="background">in the background</option><option value="clean">clean</option><option value="open">open</option></select>
        <label for="filter-app">App</label><select id="filter-app"><option value="">any version</option></select>
        <label for="filter-length">Length</label><select id="filter-length"><option value="">any</option><option value="0-49">under 50 events</option><option value="50-499">50 to 499 events</option><option value="500-">500 events or more</option></select>
        <output id="session-count" class="muted"></output>
        </div>
        <p class="note" id="replay-missing" role="status"></p>
        <p class="note" id="replay-cut"></p>
        <p class="note" id="replay-omitted"></p>
        <div class="controls" role="group" aria-label="Playback">
        <button type="button" id="play" aria-keyshortcuts="Space">▶ Play</button>
        <button type="button" id="prev" aria-label="Previous event" aria-keyshortcuts="ArrowLeft">◀ Previous</button>
        <button type="button" id="next" aria-label="Next event" aria-keyshortcuts="ArrowRight">Next ▶</button>
        <label for="speed">Speed</label><select id="speed" aria-keyshortcuts="+ -"><option value="1">1×</option><option value="2">2×</option><option value="4">4×</option><option value="8">8×</option><option value="16">16×</option></select>
        <label><input type="checkbox" id="skip-idle" checked> Skip idle (gaps over 3 s play as 1 s)</label>
        <output id="step-label" for="step"></output><output id="clock-label" class="muted"></output>
        <button type="button" id="copy-link">Copy link to this step</button>
        </div>
        <p class="link-row"><input type="text" id="step-link" readonly hidden aria-label="Link to this step"> <output id="link-status" role="status"></output></p>
        <div class="timeline">
        <div class="scrubber"><div class="axis" id="axis" role="img"></div><input type="range" id="step" min="0" value="0" aria-label="Step" aria-keyshortcuts="Home End"></div>
        <div class="ends" id="axis-ends" aria-hidden="true"></div>
        <ul class="legend" id="legend"></ul>
        </div>
        <p class="muted">Keys, once you click in the replayer or move to one of its controls: Space plays or pauses, ← and → step, Home and End go to the first and last event, + and − change the speed.</p>
        <p id="event" aria-live="polite"></p>
        <div class="replay-grid">
        <div class="devices" id="devices" role="region" aria-label="What the user saw, one device per scene"></div>
        <section class="transcript-box" aria-labelledby="transcript-h"><h3 id="transcript-h">Transcript</h3>
        <div class="controls" role="group" aria-label="Filter the transcript">
        <label for="transcript-type">Type</label><select id="transcript-type"><option value="">all</option></select>
        <label for="transcript-screen">Screen</label><input type="search" id="transcript-screen" placeholder="e.g. recipe">
        <output id="transcript-count" class="muted"></output>
        </div>
        <div class="transcript" id="transcript" role="listbox" tabindex="0" aria-label="Transcript: every event of the session"></div>
        </section>
        <div class="side">
        <section aria-labelledby="changes-h"><h3 id="changes-h">What changed</h3><ul id="changes"></ul></section>
        <section aria-labelledby="stacks-h"><h3 id="stacks-h">Stacks</h3><div class="scenes" id="scenes"></div></section>
        </div>
        <details class="raw" id="raw-json"><summary>The event and the state after it, as JSON</summary>
        <div class="raw-panes"><section aria-labelledby="raw-event-h"><h4 id="raw-event-h">The event, as the log holds it</h4><pre id="raw-event" tabindex="0"></pre></section>
        <section aria-labelledby="raw-state-h"><h4 id="raw-state-h">The state after it</h4><pre id="raw-state" tabindex="0"></pre></section></div>
        </details>
        </div>
        </section>
        <pre id="errors" role="alert"></pre>
        </main>
        <script id="report-data" type="application/json">
        """
    }
}
