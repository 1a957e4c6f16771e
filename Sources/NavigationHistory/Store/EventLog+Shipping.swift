/// Shipping: the sealed segments not yet delivered off the device, and their acknowledgement.
extension EventLog {
    /// The sealed segments not acknowledged yet, oldest first — every segment but the current one
    /// is sealed (``seal()``) — each with the bounds recorded as it was sealed (a derived file;
    /// one it lacks is read from the segment's first and last lines), and what retention deleted
    /// unshipped. Works on a log made read-only by a failure too.
    ///
    /// - Throws: `corruptLog` when a sealed segment's first or last line is not an event; `io`.
    public func pendingShipments() throws -> PendingShipments {
        var cursor = ShippingCursor(), problem: String?
        do { cursor = try ShippingCursor.read(directory: directory) } catch let error as NavigationHistoryError where error.code != .io {
            problem = "\(error.path ?? ShippingCursor.fileName): \(error.message); every sealed segment is listed again"
        }
        var manifest = SealedManifest.read(directory: directory), stale = false
        var shipments: [Shipment] = []
        let sealed = try Opening.segmentNumbers(directory).filter { $0 < segmentNumber }
        for number in sealed where !cursor.isShipped(number) {
            let path = segmentPath(number)
            var entry = manifest[number]
            if entry == nil {
                guard let size = FileSystem.status(path)?.size else { continue }   // deleted since the listing
                entry = SealedManifest.Entry(segment: number, bytes: size, bounds: try SegmentBounds.read(path, size: size))
                manifest[number] = entry
                stale = true
            }
            guard let entry else { continue }
            shipments.append(Shipment(fileName: Opening.segmentName(number), path: path, segment: number, byteSize: entry.bytes,
                                      seqs: entry.bounds.seqs, firstTimestamp: entry.bounds.firstTimestamp,
                                      lastTimestamp: entry.bounds.lastTimestamp))
        }
        if stale || manifest.count > sealed.count { SealedManifest.rewrite(sealed.compactMap { manifest[$0] }, directory: directory) }
        return PendingShipments(shipments: shipments, droppedUnshipped: cursor.loss, cursorProblem: problem)
    }

    /// Adds the bounds of segment `number`, just sealed at `bytes`, to the manifest the listing
    /// reads; nothing when they cannot be read, as the listing then reads them itself.
    func recordSealed(_ number: Int, bytes: Int) {
        let path = segmentPath(number)
        guard let bounds = try? SegmentBounds.read(path, size: bytes) else { return }
        SealedManifest.append(SealedManifest.Entry(segment: number, bytes: bytes, bounds: bounds), directory: directory)
    }

    /// Records, durably, that `shipment` was delivered: call it only once the other side has
    /// acknowledged it (an HTTP 2xx). A crash before this call ships the segment again — delivery
    /// is at least once, and the fleet side removes the duplicate. With a retention that follows
    /// shipping, the segments it may now delete are deleted (unless a failure made the log
    /// read-only).
    ///
    /// - Throws: `invalidEvent` when `shipment` is not a sealed segment of this log; `noInput`
    ///   when `SHIPPED` is a symbolic link, hard-linked or not a regular file; `io`.
    public func markShipped(_ shipment: Shipment) throws {
        guard shipment.path == segmentPath(shipment.segment), shipment.segment < segmentNumber else {
            throw NavigationHistoryError(code: .invalidEvent, message: "\(shipment.fileName) is not a sealed segment of this log", path: directory)
        }
        var cursor = ShippingCursor()
        do { cursor = try ShippingCursor.read(directory: directory) } catch let error as NavigationHistoryError where error.code == .corruptLog {
            // Written anew: what it said is lost, so the other segments ship again.
        }
        cursor.markShipped(shipment.segment)
        try cursor.write(directory: directory)
        if let cap = options.retention.maxUnshippedBytes, (try? checkWritable()) != nil { try applyShippingRetention(cap: cap) }
    }

    /// What retention deleted unshipped in the log directory `directory`, read from its `SHIPPED`
    /// file without opening the log (nothing when it has none), and what was wrong with the file
    /// when it could not be read.
    package static func unshippedLoss(in directory: String) -> (loss: UnshippedLoss, problem: String?) {
        do { return (try ShippingCursor.read(directory: directory).loss, nil) } catch let error as NavigationHistoryError {
            return (.none, "\(error.path ?? ShippingCursor.fileName): \(error.message)")
        } catch {
            return (.none, "\(ShippingCursor.fileName): \(error)")
        }
    }
}
