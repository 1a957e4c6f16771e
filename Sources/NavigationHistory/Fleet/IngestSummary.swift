/// What one `navlog ingest` run did, per device and in total.
public struct IngestSummary: Sendable, Equatable {
    /// How many segments ended how.
    public struct Counts: Sendable, Equatable {
        /// Segments filed into a device's log (also those held before and filed now).
        public var filed = 0
        /// Segments whose bytes were filed or held already: nothing written.
        public var duplicates = 0
        /// Segments held at the end of the run, waiting for their predecessor.
        public var held = 0
        /// Gaps declared in this run.
        public var gaps = 0
        /// Files rejected: copied to `.rejected` with their reason, nothing of theirs filed.
        public var rejected = 0
        /// Files with other bytes than the segment filed or held under their name.
        public var conflicts = 0

        /// No segments at all.
        public init() {}

        mutating func add(_ other: Counts) {
            filed += other.filed; duplicates += other.duplicates; held += other.held
            gaps += other.gaps; rejected += other.rejected; conflicts += other.conflicts
        }
    }

    /// What befell one file, when it is worth saying: a rejection, a conflict, a declared gap.
    public struct Note: Sendable, Equatable {
        /// What kind of note it is.
        public enum Kind: String, Sendable { case rejected, conflict, gap }
        /// The kind.
        public var kind: Kind
        /// The device, when the file had a plain device name.
        public var device: String?
        /// The file it concerns: the inbox's file, or the segment filed after a gap.
        public var path: String
        /// What happened, in words.
        public var message: String
    }

    /// The counts of each device, by name.
    public var devices: [String: Counts] = [:]
    /// The devices whose log gained segments or gaps in this run, in name order.
    public var changedDevices: [String] = []
    /// The rejections, conflicts and gaps, in the order met.
    public var notes: [Note] = []

    /// The counts over every device, and files of no device.
    public var total: Counts {
        var sum = Counts()
        for counts in devices.values { sum.add(counts) }
        sum.add(unnamed)
        return sum
    }

    /// The counts of files that belonged to no plain device (all of them rejected).
    public var unnamed = Counts()

    /// Whether everything was filed, a duplicate or held: nothing rejected or in conflict.
    public var isClean: Bool { total.rejected == 0 && total.conflicts == 0 }

    /// Creates an empty summary.
    public init() {}
}
