/// Where an event's line is in a log: which of its files, the byte offset, the 1-based line.
package struct EventPosition: Sendable, Hashable {
    /// The index of the file in the log's files, in order.
    package var file: Int
    /// The byte offset of the line's first byte in that file.
    package var offset: Int
    /// The 1-based line number in that file.
    package var line: Int

    package init(file: Int, offset: Int, line: Int) {
        self.file = file
        self.offset = offset
        self.line = line
    }
}

/// What the reader hands each event to, with its position; returning false stops the reading.
package typealias PositionedBody = (NavigationEvent, EventPosition) throws -> Bool

/// The in-order half of reading: applies the checks that span lines (seq, crc presence, sessions)
/// and the recovery mode, and delivers events.
struct Merger {
    var report: ReadReport
    private(set) var stopped = false
    private var file = ""
    private var fileIndex = 0
    private var line = 0
    private var lineOffset = 0
    private var crcRequired: Bool?
    private var lastSeq: Int?
    /// The file of the last event delivered, and its index: named when the next file's first seq
    /// does not follow it. Set at a file's first event, not at every event.
    private var lastSeqFile = ""
    private var lastSeqFileIndex = -1
    private var skippedSinceLastEvent = false
    /// The distinct sessions of the delivered events.
    private(set) var sessions = StringSet()
    private var lastSession: String?
    /// The directory of the current file when the log is a directory of segments, whose `GAPS`
    /// file may declare holes between them; nil for a single file.
    private var gapsDirectory: String?
    /// The gaps declared in ``gapsDirectory``, read at the first hole met there.
    private var declaredGaps: (directory: String, gaps: DeclaredGaps)?

    /// The folded state, when snapshots are checked; nil when they are not.
    private var folded: StateFolding?
    /// Whether the folded state is the log's whole state: known from the start or from an event
    /// that replaces it, and no line skipped since.
    private var foldIsWhole = false

    init(mode: RecoveryMode, checksSnapshots: Bool = false) {
        report = ReadReport(mode: mode)
        if checksSnapshots { folded = StateFolding() }
    }

    /// Starts a file; `crcRequired` says whether its lines must carry a `crc`, nil when its first
    /// line read decides.
    /// `gapsIn` is the log directory of a segment, whose declared gaps the reading may cross.
    mutating func beginFile(_ path: String, index: Int, crcRequired: Bool?, firstLine: Int = 1, gapsIn directory: String? = nil) {
        file = path
        gapsDirectory = directory
        fileIndex = index
        line = firstLine - 1
        self.crcRequired = crcRequired
    }

    mutating func event(_ event: NavigationEvent, hasCRC: Bool, offset: Int, isLastLine: Bool,
                        _ body: PositionedBody) throws {
        line += 1
        lineOffset = offset
        if let required = crcRequired {
            if required && !hasCRC {
                // A flipped bit in the `crc` key itself leaves a line without one.
                return handle(LogDefect(file: file, line: line, offset: offset, kind: .missingCRC,
                                        detail: "line has no 'crc', but every line of this file carries one"), isLastLine: isLastLine)
            }
        } else {
            crcRequired = hasCRC
        }
        if let last = lastSeq {
            if event.seq <= last {
                return fail(.seqNotIncreasing, "seq \(event.seq) after \(describe(last)): events repeated or out of order")
            }
            if event.seq != last + 1 && !skippedSinceLastEvent && !crossesDeclaredGap(last + 1...event.seq - 1, at: event, offset: offset) {
                return fail(.seqGap, "seq \(event.seq) after \(describe(last)): \(event.seq - last - 1) events missing")
            }
        } else if event.seq > 1 && fileIndex == 0 {
            _ = crossesDeclaredGap(1...event.seq - 1, at: event, offset: offset)
        }
        if case .unknown(let type, _) = event.action {
            report.addWarning(LogDefect(file: file, line: line, offset: offset, kind: .unknownType,
                                        detail: "type '\(type)' is unknown to this version; the event is kept and skipped by projections"))
        }
        if folded != nil, checkSnapshot(event) { return }
        skippedSinceLastEvent = false
        lastSeq = event.seq
        if lastSeqFileIndex != fileIndex {
            lastSeqFileIndex = fileIndex
            lastSeqFile = file
        }
        if report.firstSeq == nil { report.firstSeq = event.seq }
        report.lastSeq = event.seq
        report.events += 1
        if event.session != lastSession {
            lastSession = event.session
            if sessions.insert(event.session) { report.sessions += 1 }
        }
        if try !body(event, EventPosition(file: fileIndex, offset: offset, line: line)) { stopped = true }
    }

    /// Whether the seqs `missing` before `event` are a gap the log directory declares (see
    /// ``DeclaredGaps``), crossed here with a warning: only at a segment's first line, whose event
    /// sets the whole state, so that the fold goes on from a state it knows.
    private mutating func crossesDeclaredGap(_ missing: ClosedRange<Int>, at event: NavigationEvent, offset: Int) -> Bool {
        guard let directory = gapsDirectory, offset == 0, event.setsWholeState else { return false }
        if declaredGaps?.directory != directory { declaredGaps = (directory, DeclaredGaps.read(directory: directory)) }
        guard declaredGaps!.gaps.declares(missing) else { return false }
        let seqs = missing.count == 1 ? "seq \(missing.lowerBound) is" : "seqs \(missing.lowerBound)–\(missing.upperBound) are"
        report.addWarning(LogDefect(file: file, line: line, offset: offset, kind: .declaredGap,
                                    detail: "\(seqs) missing from \(directory), a gap declared in its \(DeclaredGaps.fileName) file;"
                                        + " the log goes on from this segment's \(event.type)"))
        foldIsWhole = false
        return true
    }

    /// The last seq delivered, with its file when that is not the current one.
    private func describe(_ last: Int) -> String {
        lastSeqFileIndex == fileIndex ? "seq \(last)" : "seq \(last), the last of \(lastSeqFile)"
    }

    /// Folds `event`; returns true when it is a snapshot that differs from the folded state (a
    /// defect, recorded).
    private mutating func checkSnapshot(_ event: NavigationEvent) -> Bool {
        if case .snapshot(let snapshot) = event.action {
            if foldIsWhole, snapshot != folded!.state {
                fail(.snapshotMismatch, "the snapshot's state differs from the state the events before it fold to"
                     + " (\(StateDiff(from: folded!.state, to: snapshot).changes.prefix(3).map(\.description).joined(separator: "; ")))")
                folded!.reset(to: snapshot)
                return true
            }
        }
        if case .restore(let restored, _, _) = event.action, let (scene, phase) = restored.firstSceneNotActive {
            report.addWarning(LogDefect(file: file, line: line, offset: lineOffset, kind: .restoredPhase,
                                        detail: "the restore restates scene '\(scene)' as '\(phase.rawValue)'; a restore begins a new"
                                            + " launch, so its scenes are read as active"))
        }
        if let anomaly = folded!.fold(event) {
            report.anomalies += 1
            if report.firstAnomaly == nil { report.firstAnomaly = anomaly }
        }
        // The state is known from the log's first event, and after any event that replaces it.
        if event.setsWholeState || event.seq == 1 {
            foldIsWhole = true
        } else if case .unknown = event.action {
            foldIsWhole = false   // a newer writer's type may change the state in ways this fold cannot
        }
        return false
    }

    /// A defective line. `isLastLine` is true for the log's very last line, where a crash mid-write
    /// leaves its mark.
    mutating func defect(_ error: LineError, offset: Int, isLastLine: Bool) {
        line += 1
        handle(LogDefect(file: file, line: line, offset: offset, kind: error.kind,
                         detail: error.offset > 0 && error.kind == .invalidJSON ? "\(error.detail) (byte \(error.offset + 1))" : error.detail),
               isLastLine: isLastLine)
    }

    /// Damage that a crash or a torn write can leave on the last line; anything else is a real defect.
    private static let tearable: Set<DefectKind> = [.tornLine, .crcMismatch, .invalidJSON, .invalidUTF8, .lineTooLong, .missingCRC]

    private mutating func handle(_ found: LogDefect, isLastLine: Bool) {
        if isLastLine && Self.tearable.contains(found.kind) {
            report.tornTail = found
            if report.mode == .tolerateTornTail {
                report.addWarning(DroppedLines.dropped(torn: found))
                return
            }
        }
        record(found)
    }

    private mutating func fail(_ kind: DefectKind, _ detail: String) {
        record(LogDefect(file: file, line: line, offset: lineOffset, kind: kind, detail: detail))
    }

    private mutating func record(_ defect: LogDefect) {
        report.addDefect(defect)
        skippedSinceLastEvent = true
        foldIsWhole = false   // a skipped line may have changed the state: trust the next snapshot
        if report.mode != .salvage {
            report.stoppedAt = defect
            stopped = true
        }
    }

    /// For `pointInTime`: says how much of the log was left unread after the defect.
    mutating func reportUnread(after stop: LogDefect, laterFiles: [String], in path: String) {
        let rest = (try? InputFile(path: path).size()).map { max(0, $0 - max(stop.offset, 0)) } ?? 0
        let later = laterFiles.reduce(0) { $0 + ((try? InputFile(path: $1).size()) ?? 0) }
        var detail = "reading stopped here: \(rest) byte\(rest == 1 ? "" : "s") of this file from this line on were not read"
        if !laterFiles.isEmpty { detail += ", nor \(laterFiles.count) later segment\(laterFiles.count == 1 ? "" : "s") (\(later) byte\(later == 1 ? "" : "s"))" }
        report.addDefect(LogDefect(file: stop.file, line: stop.line, offset: stop.offset, kind: .unreadTail, detail: detail))
    }
}
