/// The filing of one device's segments in a run of ``FleetIngest``: what its log and its held
/// segments hold, and what became of each file.
struct DeviceFiling {
    let device: String
    let layout: FleetLayout
    let ingest: FleetIngest
    private(set) var counts = IngestSummary.Counts()
    private(set) var notes: [IngestSummary.Note] = []
    /// Whether the device's log gained segments or gaps.
    private(set) var changed = false

    private var directory: String { layout.device(device) }
    private var heldDirectory: String { layout.held(device) }
    /// The names of the segments filed.
    private var filed: Set<String> = []
    /// The last segment filed: its name and last seq.
    private var last: (name: String, seq: Int)?
    /// The held segments' seqs, by name, and those held in this run.
    private var held: [String: ClosedRange<Int>] = [:]
    private var heldNow: Set<String> = []

    /// What becomes of a checked segment.
    private enum Placing { case filed, held, rejected }

    init(device: String, layout: FleetLayout, ingest: FleetIngest) throws {
        (self.device, self.layout, self.ingest) = (device, layout, ingest)
        if FileSystem.status(directory) != nil {
            filed = Set(try FileSystem.list(directory).filter(LogFiles.isSegmentName))
            if let name = filed.max() { last = (name, try Self.seqs(directory + "/" + name).upperBound) }
        }
        if FileSystem.status(heldDirectory) != nil {
            for name in try FileSystem.list(heldDirectory) where LogFiles.isSegmentName(name) {
                held[name] = try Self.seqs(heldDirectory + "/" + name)
            }
        }
    }

    /// The seqs of a segment the fleet holds, checked whole when it came.
    private static func seqs(_ path: String) throws -> ClosedRange<Int> {
        try SegmentBounds.read(path, size: FileSystem.status(path)?.size ?? 0).seqs
    }

    /// Takes a segment of an inbox: a duplicate or a conflict when its name is filed or held;
    /// otherwise copied, checked, and filed, held or rejected; then what it lets follow is filed.
    mutating func take(_ entry: InboxEntry) throws {
        if filed.contains(entry.name) { return try compare(entry, with: directory + "/" + entry.name, "filed") }
        if held[entry.name] != nil { return try compare(entry, with: heldDirectory + "/" + entry.name, "held") }
        let bytes: [UInt8]
        do {
            guard let read = try FileSystem.contents(entry.path, atMost: FleetLayout.maximumSegmentBytes) else {
                try reject(nil, entry.name, "more than a segment's cap of \(FleetLayout.maximumSegmentBytes) bytes: not read", entry.path)
                return
            }
            bytes = read
        } catch let error as NavigationHistoryError where error.code == .noInput {
            try reject(nil, entry.name, error.message, entry.path)
            return
        }
        let staged = layout.staging + "/" + device + "-" + entry.name
        try FileSystem.writeNewFile(staged, bytes)
        try ingest.step?(.staged)
        var first: NavigationEvent?
        let report = try LogReader(path: staged, mode: .absolute).scan(files: [staged], segmented: true) { event in
            if first == nil { first = event }
        }
        if let defect = report.stoppedAt ?? report.defects.first {
            try reject(staged, entry.name, "line \(defect.line): \(defect.kind): \(defect.detail)", entry.path)
            return
        }
        guard let first, let lastSeq = report.lastSeq else { try reject(staged, entry.name, "it holds no event", entry.path); return }
        _ = try place(staged, entry.name, seqs: first.seq...lastSeq, from: entry.path)
        try fileHeld()
    }

    /// Files, holds or rejects the checked segment at `path`, named `name`: filed when it follows
    /// the last filed segment (``SegmentChain``), or begins at seq 1, or after a declared gap.
    private mutating func place(_ path: String, _ name: String, seqs: ClosedRange<Int>, from source: String, isHeld: Bool = false) throws -> Placing {
        guard let last else {
            if seqs.lowerBound == 1 || declared(1...seqs.lowerBound - 1) { return try file(path, name, seqs, isHeld: isHeld) }
            return try hold(path, name, seqs, isHeld: isHeld)
        }
        guard name > last.name else {
            return try reject(path, name, "its name sorts before \(last.name), the last segment filed, though it is not filed:"
                              + " a log's segments are read in name order", source, isHeld: isHeld)
        }
        do {
            try SegmentChain.check([directory + "/" + last.name, path])
        } catch let error as NavigationHistoryError where error.defect?.kind == .seqGap {
            if declared(last.seq + 1...seqs.lowerBound - 1) { return try file(path, name, seqs, isHeld: isHeld) }
            return try hold(path, name, seqs, isHeld: isHeld)
        } catch let error as NavigationHistoryError where error.defect != nil {
            return try reject(path, name, "seq going back: \(error.defect!.detail)", source, isHeld: isHeld)
        }
        return try file(path, name, seqs, isHeld: isHeld)
    }

    /// Whether the device's log declares the seqs `missing` a gap.
    private func declared(_ missing: ClosedRange<Int>) -> Bool {
        DeclaredGaps.read(directory: directory).declares(missing)
    }

    private mutating func file(_ path: String, _ name: String, _ seqs: ClosedRange<Int>, isHeld: Bool) throws -> Placing {
        try FileSystem.createDirectory(directory)
        try FileSystem.rename(path, directory + "/" + name)
        try ingest.step?(isHeld ? .heldFiled : .filedRenamed)
        try FileSystem.syncDirectory(directory)
        try ingest.step?(.filedSynced)
        if isHeld { unhold(name) }
        filed.insert(name)
        last = (name, seqs.upperBound)
        counts.filed += 1
        changed = true
        return .filed
    }

    private mutating func hold(_ path: String, _ name: String, _ seqs: ClosedRange<Int>, isHeld: Bool) throws -> Placing {
        guard !isHeld else { return .held }
        try FileSystem.createDirectory(heldDirectory)
        try FileSystem.rename(path, heldDirectory + "/" + name)
        try ingest.step?(.heldRenamed)
        try FileSystem.syncDirectory(heldDirectory)
        try ingest.step?(.heldSynced)
        held[name] = seqs
        heldNow.insert(name)
        counts.held += 1
        return .held
    }

    /// A segment held and then filed or rejected in the same run is counted as that alone.
    private mutating func unhold(_ name: String) {
        held[name] = nil
        if heldNow.remove(name) != nil { counts.held -= 1 }
    }

    /// Moves the copy at `path` (none when nil) to `.rejected/DEVICE/NAME`, beside its reason.
    @discardableResult
    private mutating func reject(_ path: String?, _ name: String, _ reason: String, _ source: String, isHeld: Bool = false) throws -> Placing {
        let rejected = layout.rejected(device)
        try FileSystem.createDirectory(rejected)
        if let path {
            try FileSystem.rename(path, rejected + "/" + name)
            try ingest.step?(.rejectedCopied)
        }
        try FileSystem.replace(rejected + "/" + name + ".reason", with: Array("\(device)/\(name): \(reason)\n".utf8))
        try ingest.step?(.reasonWritten)
        if isHeld { unhold(name) }
        counts.rejected += 1
        notes.append(IngestSummary.Note(kind: .rejected, device: device, path: source, message: reason))
        return .rejected
    }

    /// A file under a name filed or held: a duplicate with the same bytes, else a conflict.
    private mutating func compare(_ entry: InboxEntry, with existing: String, _ how: String) throws {
        let size = FileSystem.status(entry.path)?.size
        if size == FileSystem.status(existing)?.size,
           let mine = try? FileSystem.contents(entry.path, atMost: FleetLayout.maximumSegmentBytes),
           mine == (try FileSystem.contents(existing, atMost: FleetLayout.maximumSegmentBytes)) {
            counts.duplicates += 1
            return
        }
        counts.conflicts += 1
        notes.append(IngestSummary.Note(kind: .conflict, device: device, path: entry.path,
                                        message: "it holds other bytes than \(existing), \(how) under its name: refused"))
    }

    /// Files the held segments that now follow the log, in seq order; rejects those that repeat
    /// seqs it holds. Called first too, for what a run stopped between two filings left held.
    mutating func fileHeld() throws {
        while let (name, seqs) = held.min(by: { $0.value.lowerBound < $1.value.lowerBound }) {
            let path = heldDirectory + "/" + name
            guard try place(path, name, seqs: seqs, from: path, isHeld: true) != .held else { return }
        }
    }

    /// Declares the hole before the first held segment a gap while that segment was first seen
    /// longer than ``FleetIngest/gapAfter`` before `now`, and files what follows it.
    mutating func declareGaps(now: Timestamp) throws {
        guard let gapAfter = ingest.gapAfter else { return }
        while let (name, seqs) = held.min(by: { $0.value.lowerBound < $1.value.lowerBound }) {
            let path = heldDirectory + "/" + name
            let start = (last?.seq ?? 0) + 1
            guard seqs.lowerBound > start, name > last?.name ?? "",
                  let seen = FileSystem.status(path)?.modified,
                  now.millisecondsSince1970 - seen.millisecondsSince1970 > gapAfter.milliseconds,
                  Self.beginsWithWholeState(path) else { return }
            let missing = start...seqs.lowerBound - 1
            var gaps = DeclaredGaps.read(directory: directory)
            if !gaps.declares(missing) {
                gaps.ranges.append(missing)
                try FileSystem.createDirectory(directory)
                try FileSystem.replace(directory + "/" + DeclaredGaps.fileName, with: gaps.bytes)
                try ingest.step?(.gapDeclared)
                counts.gaps += 1
                changed = true
                let seqs = missing.count == 1 ? "seq \(missing.lowerBound)" : "seqs \(missing.lowerBound)–\(missing.upperBound)"
                notes.append(IngestSummary.Note(kind: .gap, device: device, path: directory + "/" + DeclaredGaps.fileName,
                                                message: "\(seqs) never came: declared a gap; the log goes on at \(name)"))
            }
            try fileHeld()
        }
    }

    /// Whether the segment's first line sets the whole state, as a reader crossing a gap needs.
    private static func beginsWithWholeState(_ path: String) -> Bool {
        guard let head = try? FileSystem.read(path, from: 0, count: LineDecoder.maximumLineLength + 1),
              let newline = head.firstIndex(of: 0x0A) else { return false }
        return LineDecoder.decoded(head[..<newline])?.event.setsWholeState == true
    }
}
