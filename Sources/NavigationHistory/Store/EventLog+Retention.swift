import Foundation

/// Retention: the old segments a log deletes as it rotates.
extension EventLog {
    /// Deletes old segments, oldest first, as ``Options/retention`` says; never the current one.
    func applyRetention() throws {
        let retention = options.retention
        if let cap = retention.maxUnshippedBytes { return try applyShippingRetention(cap: cap) }
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

    /// Deletes the oldest sealed segments while they are shipped, or while the unshipped ones
    /// take more than `cap` bytes; each deletion of an unshipped one is recorded in `SHIPPED`
    /// before it is made, so a crash never loses the count (and never counts one twice).
    func applyShippingRetention(cap: Int) throws {
        // An unreadable cursor ships everything again, so nothing counts as shipped here.
        var cursor = (try? ShippingCursor.read(directory: directory)) ?? ShippingCursor()
        var sealed = try Opening.segmentNumbers(directory).filter { $0 < segmentNumber }.map { number in
            (number: number, size: FileSystem.status(segmentPath(number))?.size ?? 0)
        }
        var unshipped = sealed.filter { !cursor.isShipped($0.number) }.reduce(0) { $0 + $1.size }
        while let oldest = sealed.first {
            let shipped = cursor.isShipped(oldest.number)
            guard shipped || unshipped > cap else { break }
            let path = segmentPath(oldest.number)
            try guarded {
                if !shipped {
                    let bounds = try SegmentBounds.read(path, size: oldest.size)
                    cursor.markDropped(oldest.number, seqs: bounds.seqs, bytes: oldest.size)
                    try cursor.write(directory: directory, faultHook: faultHook)
                    unshipped -= oldest.size
                }
                try FileSystem.remove(path)
                try faultHook?(.segmentDeleted)
                try FileSystem.syncDirectory(directory)
            }
            sealed.removeFirst()
        }
    }
}
