/// An error from the navigation history library: what went wrong, where, and why.
///
/// Messages read `log/00000001.jsonl:1042: crcMismatch: crc 1c2b3a4d does not match ...`.
public struct NavigationHistoryError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; new codes may be added in later versions.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Sendable { case noInput, io, corruptLog, unsupportedVersion, locked, readOnly, invalidEvent, notRetained, rewritten }
        private let kind: Kind

        /// The path does not exist or is not a log.
        public static let noInput = Code(kind: .noInput)
        /// Reading or writing failed at the operating-system level.
        public static let io = Code(kind: .io)
        /// The log holds a defect the chosen recovery mode does not tolerate.
        public static let corruptLog = Code(kind: .corruptLog)
        /// The log was written in a newer format version than this library reads.
        public static let unsupportedVersion = Code(kind: .unsupportedVersion)
        /// Another writer — another process, or another instance in this one — holds the log.
        public static let locked = Code(kind: .locked)
        /// An earlier write or sync failed, so the log takes no more events until it is reopened.
        public static let readOnly = Code(kind: .readOnly)
        /// An event was refused before anything was written: it breaks the event format.
        public static let invalidEvent = Code(kind: .invalidEvent)
        /// A subscription asked for events that retention has deleted: ``NavigationHistoryError/firstRetainedSeq``
        /// names the first one still there.
        public static let notRetained = Code(kind: .notRetained)
        /// A followed log changed underneath its reader: events already read were cut or replaced
        /// (a repair, a log written anew in its place).
        public static let rewritten = Code(kind: .rewritten)

        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence saying what went wrong.
    public var message: String
    /// The file concerned, when there is one.
    public var path: String?
    /// The defect in the log, when the failure is one.
    public var defect: LogDefect?
    /// The operating system's error number, for I/O failures.
    public var errno: Int32?
    /// With ``Code/notRetained``: the first `seq` the log still holds (nil when it holds none).
    public var firstRetainedSeq: Int?

    /// Creates an error.
    public init(code: Code, message: String, path: String? = nil, defect: LogDefect? = nil, errno: Int32? = nil,
                firstRetainedSeq: Int? = nil) {
        self.code = code
        self.firstRetainedSeq = firstRetainedSeq
        self.message = message
        self.path = path
        self.defect = defect
        self.errno = errno
    }

    /// An error for a defect the recovery mode does not tolerate.
    public init(defect: LogDefect) {
        self.init(code: defect.kind == .unsupportedVersion ? .unsupportedVersion : .corruptLog,
                  message: "\(defect.kind): \(defect.detail)", path: defect.file, defect: defect)
    }

    public var description: String {
        if let defect { return defect.description }
        if let path { return "\(path): \(message)" }
        return message
    }
}
