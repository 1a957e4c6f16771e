/// Something wrong in a log: where it is, what kind, and what exactly.
///
/// Defects carry the byte offset where the line starts and its 1-based line number, so a message
/// reads `log/00000001.jsonl:1042: torn line: no newline at end of file (37 bytes)`.
public struct LogDefect: Sendable, Hashable, CustomStringConvertible {
    /// The file the defect is in.
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// The byte offset of the start of the line in the file.
    public var offset: Int
    /// What kind of defect it is.
    public var kind: DefectKind
    /// A sentence saying exactly what is wrong.
    public var detail: String

    /// Creates a defect.
    public init(file: String, line: Int, offset: Int, kind: DefectKind, detail: String) {
        self.file = file
        self.line = line
        self.offset = offset
        self.kind = kind
        self.detail = detail
    }

    /// `file:line: kind: detail`.
    public var description: String { "\(file):\(line): \(kind): \(detail)" }
}

/// The kind of a defect; new kinds may be added in later versions.
public struct DefectKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The kind's stable name, as printed by `navlog verify`.
    public var rawValue: String

    /// Creates a kind from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The last line of a file has no newline: the writer stopped mid-line.
    public static let tornLine = DefectKind(rawValue: "tornLine")
    /// The line's `crc` does not match its bytes.
    public static let crcMismatch = DefectKind(rawValue: "crcMismatch")
    /// A line without `crc` in a file whose lines carry one.
    public static let missingCRC = DefectKind(rawValue: "missingCRC")
    /// The line is not valid UTF-8.
    public static let invalidUTF8 = DefectKind(rawValue: "invalidUTF8")
    /// The line is not one valid JSON object.
    public static let invalidJSON = DefectKind(rawValue: "invalidJSON")
    /// The line is longer than 64 KiB.
    public static let lineTooLong = DefectKind(rawValue: "lineTooLong")
    /// An empty line.
    public static let blankLine = DefectKind(rawValue: "blankLine")
    /// A required member is absent.
    public static let missingMember = DefectKind(rawValue: "missingMember")
    /// A member has the wrong type or value.
    public static let invalidMember = DefectKind(rawValue: "invalidMember")
    /// `v` is greater than the version this reader knows.
    public static let unsupportedVersion = DefectKind(rawValue: "unsupportedVersion")
    /// `seq` skips numbers: events are missing.
    public static let seqGap = DefectKind(rawValue: "seqGap")
    /// `seq` does not increase: events are repeated or out of order.
    public static let seqNotIncreasing = DefectKind(rawValue: "seqNotIncreasing")
    /// Seqs missing between two segments of a log directory that its `GAPS` file declares missing
    /// for good (a warning: the reading goes on from the next segment's first line).
    public static let declaredGap = DefectKind(rawValue: "declaredGap")
    /// Lines that were not read because reading stopped at an earlier defect (`pointInTime`).
    public static let unreadTail = DefectKind(rawValue: "unreadTail")
    /// The event's `type` is unknown to this version (a warning: the event is kept).
    public static let unknownType = DefectKind(rawValue: "unknownType")
    /// A `restore` event whose state gives a scene a phase other than `active` (a warning: the
    /// fold starts a restored scene `active`, as a restore begins a new launch). Found by
    /// ``LogReader/verify()`` and readings that check snapshots.
    public static let restoredPhase = DefectKind(rawValue: "restoredPhase")
    /// A `snapshot` event whose state differs from the state the log's events fold to.
    public static let snapshotMismatch = DefectKind(rawValue: "snapshotMismatch")
}
