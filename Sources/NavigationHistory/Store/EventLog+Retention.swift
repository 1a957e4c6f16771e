import Foundation

/// Retention: the old segments a log deletes as it rotates.
extension EventLog {
    /// Deletes old segments, oldest first, as ``Options/retention`` says; never the current one.
    func applyRetention() throws {
        let retention = options.retention
        guard retention.maxBytes != nil || retention.maxAge != nil else { return }
        var segments = try Opening.segmentNumbers(directory).map { number in
            (number: number, status: FileSystem.status(segmentPath(number)))
        }
        var total = segments.reduce(0) { $0 + ($1.status?.size ?? 0) }
        let now = Timestamp.now.millisecondsSince1970
        while segments.count > 1, let oldest = segments.first, oldest.number < segmentNumber {
            let tooBig = retention.maxBytes.map { total > $0 } ?? false
            let tooOld = retention.maxAge.map { age in
                oldest.status.map { now - $0.modified.millisecondsSince1970 > age.milliseconds } ?? true
            } ?? false
            guard tooBig || tooOld else { break }
            // Oldest first, each deletion durable before the next, so no power loss leaves a gap.
            try guarded {
                try FileSystem.remove(segmentPath(oldest.number))
                try faultHook?(.segmentDeleted)
                try FileSystem.syncDirectory(directory)
            }
            total -= oldest.status?.size ?? 0
            segments.removeFirst()
        }
    }
}
