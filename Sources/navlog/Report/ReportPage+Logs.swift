import Foundation

extension ReportPage {
    /// The page after its data over several logs: ``tail``'s scripts, the overview also listing
    /// the logs read — each one's events and seqs — and the session ids several use, and a long
    /// replay naming `navlog replay` of its own log. A page of one log stays as it was.
    static let manyLogsTail: String = {
        let oneLog = "navlog replay ${data.log} --session ${session.id}"
        precondition(replayPlayback.contains(oneLog), "the replayer names navlog replay of the log")
        let playback = replayPlayback.replacingOccurrences(of: oneLog, with: "navlog replay ${session.log} --session ${session.session_in_log}")
        return end(scripts: sections + manyLogs + charts + links + replayState + replayDevice + replayTranscript + replayPanels + playback)
    }()

    /// The overview's list of the logs read (open when there are at most 10), and the session ids
    /// several of them use.
    static let manyLogs = """

    // Several logs: which were read and the events each gave, and the session ids several use.
    (() => {
      const logs = data.logs, repeated = data.repeated_sessions;
      document.getElementById("subtitle").replaceChildren(
        says`${fmt(logs.length)} logs · ${fmt(data.events)} events · ${data.first_ts ?? ""} – ${data.last_ts ?? ""} · ${data.filters}`);
      const head = el("tr", {}, ...[["Log", "text"], ["Events", "number"], ["Seq", "number"]].map(([label, align]) => el("th", { scope: "col", class: align }, label)));
      const rows = logs.map(log => el("tr", {}, el("td", { class: "text" }, log.path), el("td", { class: "number" }, fmt(log.events)),
                                      el("td", { class: "number" }, log.first_seq === null ? "no events" : `${log.first_seq}…${log.last_seq}`)));
      const table = el("table", {}, el("caption", { class: "muted" }, "Logs read, in the order given"), el("thead", {}, head), el("tbody", {}, ...rows));
      const box = el("details", { id: "logs" }, el("summary", {}, `${fmt(logs.length)} logs read, ${fmt(data.events)} events`),
                     el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "Logs table, scrollable" }, table));
      box.open = logs.length <= 10;
      box.append(el("p", { class: "muted" }, `Every figure is over the ${fmt(logs.length)} logs, each read on its own. The latest ` +
        "sessions replayed are those that began last across them; each replay is read from its own log."));
      if (repeated.length > 0) {
        const named = repeated.slice(0, 5).map(r => says`${r.session} as ${joined(r.names.map((name, k) => says`${name} in ${r.logs[k]}`), ", ")}`);
        box.append(el("p", { class: "muted", id: "repeated-sessions" },
          `${fmt(repeated.length)} session id${repeated.length === 1 ? " is" : "s are"} in several logs, the sessions kept apart: `,
          joined(named, "; "), (repeated.length > 5 ? `; and ${fmt(repeated.length - 5)} more` : "") + "."));
      }
      document.getElementById("overview").after(box);
    })();

    """
}
