import Foundation

/// Files the segments that devices uploaded — inboxes laid out as `navlog ship` writes them,
/// `INBOX/DEVICE/NNNNNNNN.jsonl` — into a fleet directory of per-device logs, `FLEET/DEVICE/`,
/// which every reading command reads (see ``FleetLayout``).
///
/// Inboxes are only read. Each segment is copied into the fleet, every line of the copy checked as
/// a reader checks a store segment, and then filed whole (renamed into the device's directory,
/// which is synced) or not at all; a kill at any point, then another run, gives the same fleet.
/// A segment must follow the device's last filed one (``SegmentChain``), a device's first one
/// beginning at seq 1: one whose predecessor has not come is held, and filed as soon as the chain
/// closes, in this run or a later one; with ``gapAfter``, a hole before a segment held longer than
/// that is declared a gap (``DeclaredGaps``) and the log goes on after it. The same bytes again
/// are a duplicate; other bytes under a name filed or held are a conflict, refused; a file that is
/// not a whole, valid segment of a plainly named device is rejected, copied to `.rejected` with
/// its reason. One run at a time per fleet.
///
/// ```swift
/// let summary = try FleetIngest(fleet: "fleet", gapAfter: .seconds(86_400)).run(inboxes: ["bucket"])
/// print(summary.total.filed, summary.changedDevices)
/// ```
public struct FleetIngest: Sendable {
    /// The fleet directory, created when missing.
    public var fleet: String
    /// How long a hole may wait, measured from when the segment after it was first seen, before
    /// it is declared a gap; nil never declares one.
    public var gapAfter: Duration?
    /// Called after each step that changes the fleet, so tests can stop there as a crash would.
    package var step: (@Sendable (IngestStep) throws -> Void)?

    /// An ingest into `fleet`, declaring holes older than `gapAfter` gaps.
    public init(fleet: String, gapAfter: Duration? = nil) {
        self.fleet = fleet
        self.gapAfter = gapAfter
    }

    /// Files every segment of `inboxes` into the fleet, and says what became of each.
    ///
    /// - Throws: ``NavigationHistoryError/Code/locked`` when another ingest has the fleet;
    ///   `noInput` when an inbox is not a directory; `io` when the fleet cannot be written;
    ///   `corruptLog` when a segment the fleet already holds cannot be read.
    public func run(inboxes: [String]) throws -> IngestSummary {
        let layout = FleetLayout(root: fleet)
        try FileSystem.createDirectory(layout.root)
        let lock = try DirectoryLock(directory: layout.root, fileName: FleetLayout.lockName,
                                     rule: "a fleet is filed by one ingest at a time")
        defer { withExtendedLifetime(lock) {} }
        // What a stopped run left in staging was never filed anywhere: it is read again.
        try FileSystem.createDirectory(layout.staging)
        for name in try FileSystem.list(layout.staging) { try FileSystem.remove(layout.staging + "/" + name) }

        var byDevice: [String: [InboxEntry]] = [:]
        var summary = IngestSummary()
        for inbox in inboxes {
            for entry in try Self.entries(of: inbox) {
                if let device = entry.device, entry.refusal == nil {
                    byDevice[device, default: []].append(entry)
                } else {
                    try reject(entry, entry.refusal?.reason ?? "", copying: entry.refusal?.copies ?? false, layout: layout, into: &summary)
                }
            }
        }
        // A device with held segments is looked at though nothing new came: its hole may be old
        // enough now to be declared a gap, or a stopped run may have left a chain to close.
        let heldRoot = layout.root + "/.held"
        let waiting = FileSystem.status(heldRoot) == nil ? [] : try FileSystem.list(heldRoot).filter(FleetLayout.isDeviceName)
        let now = Timestamp.now
        for device in Set(byDevice.keys).union(waiting).sorted() {
            var filing = try DeviceFiling(device: device, layout: layout, ingest: self)
            try filing.fileHeld()
            // In name order, an entry of an earlier inbox first (the sort is stable).
            for entry in (byDevice[device] ?? []).sorted(by: { $0.name < $1.name }) { try filing.take(entry) }
            try filing.declareGaps(now: now)
            if filing.counts != IngestSummary.Counts() || byDevice[device] != nil {
                summary.devices[device, default: IngestSummary.Counts()].add(filing.counts)
            }
            summary.notes += filing.notes
            if filing.changed { summary.changedDevices.append(device) }
        }
        return summary
    }

    /// Rejects an entry refused on sight: its reason beside a copy of its bytes, when `copying`
    /// and they can be read.
    private func reject(_ entry: InboxEntry, _ reason: String, copying: Bool, layout: FleetLayout, into summary: inout IngestSummary) throws {
        let directory = layout.rejected(entry.device)
        let name = FleetLayout.rejectedName(entry.device == nil ? entry.relative : entry.name)
        try FileSystem.createDirectory(directory)
        if copying, let bytes = try? FileSystem.contents(entry.path, atMost: FleetLayout.maximumSegmentBytes) {
            try FileSystem.replace(directory + "/" + name, with: bytes)
            try step?(.rejectedCopied)
        }
        try FileSystem.replace(directory + "/" + name + ".reason", with: Array("\(entry.relative): \(reason)\n".utf8))
        try step?(.reasonWritten)
        if let device = entry.device { summary.devices[device, default: IngestSummary.Counts()].rejected += 1 } else { summary.unnamed.rejected += 1 }
        summary.notes.append(IngestSummary.Note(kind: .rejected, device: entry.device, path: entry.path, message: reason))
    }
}

/// A step of an ingest that changes the fleet, reported once done (``FleetIngest/step``).
package enum IngestStep: String, Sendable, CaseIterable {
    case staged, filedRenamed, filedSynced, heldRenamed, heldSynced, heldFiled, gapDeclared, rejectedCopied, reasonWritten
}
