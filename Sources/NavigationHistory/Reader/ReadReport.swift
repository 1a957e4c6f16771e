/// What a read of a log found: counts, the seq range, defects and warnings.
public struct ReadReport: Sendable {
    /// The events read and delivered.
    public var events = 0
    /// The first delivered event's seq.
    public var firstSeq: Int?
    /// The last delivered event's seq.
    public var lastSeq: Int?
    /// The number of distinct sessions among the delivered events.
    public var sessions = 0
    /// The distinct sessions themselves, in the report of a chunk read apart: what such reports
    /// are merged by. Empty otherwise.
    package var sessionIDs = StringSet()
    /// The files read (segments, or the single file).
    public var segments = 0
    /// The bytes read.
    public var bytes = 0
    /// Every defect found (at most ``maximumKept`` are kept; ``defectCount`` counts them all).
    public var defects: [LogDefect] = []
    /// The number of defects found.
    public var defectCount = 0
    /// Findings that are not defects: unknown types, and a torn tail the mode tolerated.
    public var warnings: [LogDefect] = []
    /// The number of warnings.
    public var warningCount = 0
    /// The torn tail that was dropped, if any.
    public var tornTail: LogDefect?
    /// The defect at which reading stopped, if it stopped early.
    public var stoppedAt: LogDefect?
    /// The mode the log was read in.
    public var mode: RecoveryMode
    /// When the reader checked snapshots: how many events did not fit the state they were folded
    /// into (anomalies), and the first one.
    public var anomalies = 0
    /// The first of those anomalies.
    public var firstAnomaly: Projection.Anomaly?

    /// How many defects and warnings are kept in the lists.
    public static let maximumKept = 10_000

    /// Creates an empty report.
    public init(mode: RecoveryMode) { self.mode = mode }

    /// True when the read found no defects (warnings and a tolerated torn tail do not count).
    public var isClean: Bool { defectCount == 0 }

    mutating func addDefect(_ defect: LogDefect) {
        defectCount += 1
        if defects.count < Self.maximumKept { defects.append(defect) }
    }

    mutating func addWarning(_ warning: LogDefect) {
        warningCount += 1
        if warnings.count < Self.maximumKept { warnings.append(warning) }
    }
}
