/// What a reading of a log left out of the events it delivered, so that every tool can say it:
/// in ``RecoveryMode/tolerateTornTail``, the torn tail; in ``RecoveryMode/salvage``, each line
/// skipped; in ``RecoveryMode/pointInTime``, the line reading stopped at and a
/// ``DefectKind/unreadTail`` entry saying how much of the log followed unread. An unknown type is
/// not here, as its event is kept; ``RecoveryMode/absolute`` drops nothing, as any defect is an
/// error.
///
/// ```swift
/// let report = try LogReader(path: "app.jsonl").read { _ in }
/// for entry in report.dropped.entries { print(entry) }   // app.jsonl:2041: tornLine: torn tail dropped: ...
/// ```
public struct DroppedLines: Sendable, Hashable {
    /// The entries, in log order (at most ``ReadReport/maximumKept``).
    public var entries: [LogDefect]
    /// How many entries there are in all, those not kept too.
    public var count: Int
    /// The mode of the reading, which says what the entries are.
    public var mode: RecoveryMode

    /// How many entries of a log's a tool lists: it counts the rest.
    public static let listed = 10

    /// What a reading in `mode` dropped: `entries`, of `count` in all (by default, as many as
    /// are given).
    public init(entries: [LogDefect] = [], count: Int? = nil, mode: RecoveryMode = .tolerateTornTail) {
        (self.entries, self.count, self.mode) = (entries, count ?? entries.count, mode)
    }

    /// What a reading that tolerates a torn tail dropped when its torn tail is `torn` (nothing
    /// when it is nil): what a restore, which judges a log's end as the store does, leaves out.
    public init(tornTail torn: LogDefect?) {
        self.init(entries: torn.map { [Self.dropped(torn: $0)] } ?? [])
    }

    /// Whether nothing was dropped.
    public var isEmpty: Bool { count == 0 }

    /// The torn tail `torn` as a tolerating reading reports it: its place and kind, its detail
    /// saying that it was dropped.
    static func dropped(torn: LogDefect) -> LogDefect {
        LogDefect(file: torn.file, line: torn.line, offset: torn.offset, kind: torn.kind, detail: "torn tail dropped: \(torn.detail)")
    }
}

extension ReadReport {
    /// What the reading left out of the events it delivered: its defects (lines `salvage`
    /// skipped; the line `pointInTime` stopped at, and what followed it unread), and the torn tail
    /// `tolerateTornTail` dropped; and each gap between segments crossed as declared
    /// (``DefectKind/declaredGap``), in file and line order.
    public var dropped: DroppedLines {
        var entries = defects, count = defectCount
        // A declared gap is events the log lacks: every tool says it, as it says a skipped line.
        let gaps = warnings.filter { $0.kind == .declaredGap }
        entries = (entries + gaps).sorted { ($0.file, $0.line) < ($1.file, $1.line) }
        count += gaps.count
        if mode == .tolerateTornTail, let tornTail {
            entries.append(DroppedLines.dropped(torn: tornTail))
            count += 1
        }
        return DroppedLines(entries: entries, count: count, mode: mode)
    }
}

extension JSONWriter {
    /// What the readings of one or several logs dropped, as every tool's JSON has it:
    /// `{"mode", "count", "first": [{"file", "line", "offset", "kind", "detail"}]}` — the mode of
    /// the readings (they share one), how many entries all the logs have, and the first
    /// ``DroppedLines/listed`` of each log's, in the order of the logs, each file as `name` names it.
    package mutating func dropped(_ logs: [DroppedLines], naming name: (String) -> String) {
        raw("{")
        key("mode", first: true); string((logs.first?.mode ?? .tolerateTornTail).rawValue)
        key("count"); integer(logs.reduce(0) { $0 + $1.count })
        key("first")
        array(logs.flatMap { $0.entries.prefix(DroppedLines.listed) }) { w, entry in
            w.raw("{"); w.key("file", first: true); w.string(name(entry.file))
            w.key("line"); w.integer(entry.line)
            w.key("offset"); w.integer(entry.offset)
            w.key("kind"); w.string(entry.kind.rawValue)
            w.key("detail"); w.string(entry.detail)
            w.raw("}")
        }
        raw("}")
    }
}
