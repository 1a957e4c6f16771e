/// How the reader treats defects, modelled on RocksDB's WAL recovery modes.
public enum RecoveryMode: String, Sendable, Hashable, CaseIterable {
    /// The default: a last line that is incomplete or fails its check (what a crash mid-write
    /// leaves) is dropped and reported; any other defect is an error.
    case tolerateTornTail
    /// Any defect, the torn tail included, is an error.
    case absolute
    /// Reading stops at the first defect; the events before it are the log, and what follows is
    /// reported.
    case pointInTime
    /// Each defective line is skipped and reported; reading goes on.
    case salvage
}

extension RecoveryMode {
    /// Throws the defect `report`'s read stopped at when this mode makes it an error
    /// (`tolerateTornTail` and `absolute`); `pointInTime` keeps the state before it.
    package func throwIfStopped(_ report: ReadReport) throws {
        if let stop = report.stoppedAt, self == .tolerateTornTail || self == .absolute {
            throw NavigationHistoryError(defect: stop)
        }
    }
}
