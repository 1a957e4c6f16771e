extension EventLog {
    /// Cuts a torn tail off a log — a directory of segments or a single `.jsonl` file — keeping
    /// the bytes removed beside the file as `<file>.torn`, and reports what it did.
    ///
    /// The whole log is read first: damage anywhere but at the tail is refused, because cutting
    /// there would lose good events after it. For a directory this takes the writer's lock, and
    /// also removes what a crash left of a segment being created.
    ///
    /// ```swift
    /// let done = try EventLog.repair("app.navlog")
    /// if let torn = done.tornTail { print("cut \(done.removedBytes) bytes at", torn) }
    /// ```
    ///
    /// - Throws: ``NavigationHistoryError`` with code `corruptLog` when the damage is not at the
    ///   tail (`navlog verify --mode salvage` lists it), `locked` when a writer has the log open,
    ///   `noInput`, `io`.
    /// - Complexity: O(size of the log).
    public static func repair(_ path: String) throws -> Recovery {
        let (files, segmented) = try LogFiles.resolve(path)
        // The lock is held until the repair is done.
        return try withExtendedLifetime(segmented ? try DirectoryLock(directory: path) : nil) {
            // Everything but the last file must be whole: damage there is never a crash's tail.
            let report = try LogReader(path: path, mode: .absolute).scan(files: Array(files.dropLast()), segmented: segmented) { _ in }
            if let stop = report.stoppedAt {
                var error = NavigationHistoryError(defect: stop)
                error.message += "; the damage is not at the tail, so cutting it would lose the good events after it"
                    + " (`navlog verify --mode salvage \(path)` lists every defect and reads around them)"
                throw error
            }
            if segmented { return try Opening.open(path).recovery }
            var recovery = Recovery()
            if let last = files.last, let damage = try LogEnd.damage(of: [last], crcRequired: nil, { _, _ in }) {
                let cut = try Opening.cutTail(of: last, at: damage.offset)
                recovery.tornTail = damage
                recovery.savedTo = cut.savedTo
                recovery.removedBytes = cut.removedBytes
                recovery.keptBytes = cut.keptBytes
            }
            return recovery
        }
    }
}
