/// Where a log's good events end: the one rule that opening a log, `repair` and the restorer
/// share, so that what a restore counts is what the store keeps and what every reader shows.
enum LogEnd {
    /// Damage a crash can leave at the end of a file: an incomplete line, bytes that fail their
    /// crc, garbage or zeros where unsynced data was.
    static let crashDamage: Set<DefectKind> = [.tornLine, .crcMismatch, .invalidJSON, .invalidUTF8, .lineTooLong, .missingCRC, .blankLine]

    /// Reads `files` in order as one log from `start` (the first file's start by default),
    /// delivering each good event with its position, and returns the first defect when it is in
    /// the last file and nothing but crash damage follows it: where the store cuts. Returns nil for
    /// a clean log. `crcRequired` says whether lines must carry a `crc` (nil: the first line read
    /// decides). A `start` whose `line` is 0 is a line whose number is not known: defects then name
    /// lines counted from the file's start all the same.
    ///
    /// - Throws: `corruptLog` (or `unsupportedVersion`) when the damage is not a crash's: another
    ///   kind of defect, a defect before the last file, or a good line after the damaged ones.
    static func damage(of files: [String], crcRequired: Bool?, from start: EventPosition? = nil,
                       _ body: (NavigationEvent, EventPosition) -> Void) throws -> LogDefect? {
        var reader = LogReader(path: files.last ?? "", mode: .pointInTime, threads: 1)
        reader.requiresCRC = crcRequired
        let unnumbered = start.map { $0.line == 0 } ?? false
        var from = start
        if unnumbered { from?.line = 1 }
        let report = try reader.scan(files: files, segmented: crcRequired == true, from: from) { event, position in
            body(event, position)
            return true
        }
        guard var damage = report.stoppedAt else { return nil }
        if let start, unnumbered, damage.file == files[start.file] {
            damage.line += try linesBefore(start.offset, in: damage.file)
        }
        var refusal: String?
        if damage.file != files.last {
            refusal = "it is not in the log's last file"
        } else if !crashDamage.contains(damage.kind) {
            refusal = "the last segment holds a defect a crash does not leave"
        } else if let good = try Opening.firstGoodLine(in: damage.file, after: damage.offset) {
            refusal = "a good line (\(good)) follows it: the damage is not at the tail"
        }
        if let refusal {
            var error = NavigationHistoryError(defect: damage)
            error.message += "; \(refusal), and cutting there would lose the good events after it"
                + " (`navlog verify --mode salvage` lists every defect and reads around them)"
            throw error
        }
        return damage
    }

    /// How many lines of `path` end before `offset`.
    static func linesBefore(_ offset: Int, in path: String) throws -> Int {
        var count = 0
        var position = 0
        while position < offset {
            let block = try FileSystem.read(path, from: position, count: min(1 << 20, offset - position))
            if block.isEmpty { break }
            count += block.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            position += block.count
        }
        return count
    }
}
