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
        let manifest = SealedManifest.read(directory: directory)
        var known = manifest.startIndex, entries: [SealedManifest.Entry] = [], stale = false
        var shipments: [Shipment] = []
        // The listed names are the shipments' names: nothing is formatted for a segment.
        let sealed = try FileSystem.list(directory).compactMap { name in LogFiles.segmentNumber(name).map { (number: $0, name: name) } }
            .filter { $0.number < segmentNumber }.sorted { $0.number < $1.number }
        entries.reserveCapacity(sealed.count)
        for (number, name) in sealed {
            // Both ascend: the manifest's entry of a segment, if any, is found walking along.
            while known < manifest.endIndex, manifest[known].segment < number { known += 1 }
            var entry = known < manifest.endIndex && manifest[known].segment == number ? manifest[known] : nil
            if entry == nil {
                guard !cursor.isShipped(number), let size = FileSystem.status(directory + "/" + name)?.size else { continue }
                entry = SealedManifest.Entry(segment: number, bytes: size, bounds: try SegmentBounds.read(directory + "/" + name, size: size))
                stale = true
            }
            guard let entry else { continue }
            entries.append(entry)
            guard !cursor.isShipped(number) else { continue }
            shipments.append(Shipment(fileName: name, directory: directory, segment: number, byteSize: entry.bytes,
                                      seqs: entry.bounds.seqs, firstTimestamp: entry.bounds.firstTimestamp,
                                      lastTimestamp: entry.bounds.lastTimestamp))
        }
        if stale || manifest.count > entries.count { SealedManifest.rewrite(entries, directory: directory) }
        return PendingShipments(shipments: shipments, droppedUnshipped: cursor.loss, cursorProblem: problem)
    }

    /// Adds the bounds of segment `number`, just sealed at `bytes`, to the manifest the listing
    /// reads; nothing when they cannot be read, as the listing then reads them itself.
    ///
    /// - Throws: only what the fault hook throws, which makes the log read-only.
    func recordSealed(_ number: Int, bytes: Int) throws {
        let path = segmentPath(number)
        if let bounds = try? SegmentBounds.read(path, size: bytes) {
            SealedManifest.append(SealedManifest.Entry(segment: number, bytes: bytes, bounds: bounds), directory: directory)
        }
        try guarded { try faultHook?(.sealedManifestAppended) }
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
        try cursor.write(directory: directory, faultHook: faultHook)
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
