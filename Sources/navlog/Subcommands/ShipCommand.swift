import Foundation
import NavigationHistory

/// `navlog ship PATH --to DIR --device ID [--seal] [--redact ids|params|urls ... --salt S] [--format text|json]`
enum ShipCommand: Subcommand {
    static let name = "ship"
    static let summary = "Copy a log's sealed segments not shipped yet to DIR/DEVICE/, as an app uploads them."
    static let help = """
        Usage: navlog ship PATH --to DIR --device ID [--seal] [--redact WHAT ...] [--salt SALT]
                          [--format text|json]

        Copies each sealed segment of the log directory PATH that is not shipped yet (every segment
        but the current one, oldest first) to DIR/ID/NNNNNNNN.jsonl, under its own name, as the
        bucket an app uploads to is laid out, and acknowledges each once its copy is durable
        (temporary file, sync, rename, directory sync), in the log's SHIPPED file. Run again, it
        ships only what is new; a copy already there with the same bytes (a run stopped before its
        acknowledgement) is acknowledged, one with other bytes is refused. What a device on a cable
        or a simulator uses; the library's EventLog.pendingShipments() and markShipped(_:) are the
        same for an app.

        Options:
          --to DIR        Where to ship: DIR/ID/ is created when missing.
          --device ID     The device's id: letters, digits, '.', '_' and '-', at most 64, not '.'
                          or '..'.
          --seal          Seal the current segment first, so that every event so far ships.
          --redact WHAT   Ship a redacted copy of each segment instead (repeatable): ids (route
                          ids), params (route param values), urls (deep links' userinfo, path,
                          query and fragment; every choice redacts them), as `navlog export
                          --redact` does, in every event, snapshots and restores too. The copy is
                          a valid segment under the same name; its links keep their patterns.
          --salt SALT     The salt of the hashes (with --redact only, not empty); the same across a
                          fleet, so that its paths join. Without it, ids are dropped and param
                          values and URL parts become *.
          --format FORMAT text (default), or json: {"format": 2, "device", "redactions",
                          "shipped": [{"file", "first_seq", "last_seq", "bytes", "sha256",
                          "already_there"}], "dropped_unshipped": {"segments", "bytes", "seqs"}}.
                          "bytes" and "sha256" are those of the copy shipped.

        Retention that follows shipping deletes unshipped segments past its cap; those are said on
        standard error, and in "dropped_unshipped", and the fleet sees them as a gap in the seqs.

        Exit status: 0, 64 on a usage error, 65 when a copy already in DIR holds other bytes or a
        segment is damaged, 66 when PATH is not a log directory, 74 on an I/O error, 75 when a
        writer has the log open (an app ships its own log through the library).

        Examples:
          navlog ship app.navlog --to outbox --device test-iphone --seal
          navlog ship app.navlog --to outbox --device test-iphone --format json
          navlog ship app.navlog --to outbox --device test-iphone --redact ids --salt "$SALT"
        """

    static let options: [CommandOption] = [.directory("--to"), .option("--device", "ID"), .flag("--seal")] + RedactionOptions.options + [.textOrJSON]

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let path = try parsed.path()
        guard let to = parsed.value("--to") else { throw UsageError("ship needs --to DIR") }
        guard let device = parsed.value("--device") else { throw UsageError("ship needs --device ID") }
        guard isPlainName(device) else {
            throw UsageError("--device '\(device)': give letters, digits, '.', '_' and '-' only, at most 64, not '.' or '..'")
        }
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        let (redactions, salt) = try RedactionOptions.parse(parsed)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
              (try? LogFiles.resolve(path))?.segmented == true else {
            throw NavigationHistoryError(code: .noInput, message: "not a log directory: only the segments of a log directory are shipped", path: path)
        }
        let log = try EventLog(directory: path, options: .init(durability: .none))
        defer { try? log.close() }
        if parsed.has("--seal") { try log.seal() }
        let pending = try log.pendingShipments()
        if let problem = pending.cursorProblem { Diagnostics.warning(problem) }
        if !pending.droppedUnshipped.isEmpty { Diagnostics.warning(described(pending.droppedUnshipped), at: path) }
        let destination = to + "/" + device
        try FileSystem.createDirectory(destination)
        var shipped: [Shipped] = []
        for shipment in pending.shipments {
            let contents = redactions.isEmpty ? try shipment.contents() : try shipment.redacted(redactions, salt: salt)
            let alreadyThere = try copy(contents.bytes, to: destination + "/" + shipment.fileName, from: shipment.path)
            try log.markShipped(shipment)
            shipped.append(Shipped(file: shipment.fileName, firstSeq: shipment.seqs.lowerBound, lastSeq: shipment.seqs.upperBound,
                                   bytes: contents.bytes.count, sha256: contents.sha256, alreadyThere: alreadyThere))
        }
        let redacted = Redaction.allCases.filter(redactions.contains).map(\.rawValue)
        var out = StandardOutput()
        switch format {
        case .text:
            for item in shipped {
                out.line("\(destination)/\(item.file): seq \(item.firstSeq)–\(item.lastSeq), \(counted(item.bytes, "byte")), sha256 \(item.sha256)"
                         + (item.alreadyThere ? " (already there)" : ""))
            }
            out.line(shipped.isEmpty ? "\(path): nothing new to ship" + (parsed.has("--seal") ? "" : " (--seal ships the current segment too)")
                                     : "\(path): shipped \(counted(shipped.count, "segment")) to \(destination)"
                                       + (redacted.isEmpty ? "" : ", redacted (" + redacted.joined(separator: ", ") + ")"))
        case .json:
            try JSONOutput.write(Output(device: device, redactions: redacted, shipped: shipped, droppedUnshipped: Loss(pending.droppedUnshipped)),
                                 to: &out)
        }
        try out.flush()
    }

    /// Whether `name` can be a directory name of its own under DIR, on every file system.
    static func isPlainName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name != "." && name != ".."
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-_".unicodeScalars.contains($0)) }
    }

    /// Copies `bytes` durably to `target`; true when a file with the same bytes was there already.
    ///
    /// - Throws: `corruptLog` when `target` holds other bytes.
    private static func copy(_ bytes: [UInt8], to target: String, from source: String) throws -> Bool {
        if FileSystem.status(target) != nil {
            guard let there = try FileSystem.contents(target, atMost: bytes.count), there == bytes else {
                throw NavigationHistoryError(code: .corruptLog, message: "it holds other bytes than \(source), which ships under its name", path: target)
            }
            return true
        }
        try FileSystem.replace(target, with: bytes)
        return false
    }

    /// What retention deleted unshipped, in words.
    static func described(_ loss: UnshippedLoss) -> String {
        let seqs = loss.seqs.map { "\($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ")
        return "retention deleted \(counted(loss.segments, "segment")) (\(counted(loss.bytes, "byte")), seq \(seqs)) before they were shipped"
    }

    struct Shipped: Encodable {
        var file: String
        var firstSeq: Int
        var lastSeq: Int
        var bytes: Int
        var sha256: String
        var alreadyThere: Bool

        enum CodingKeys: String, CodingKey {
            case file, firstSeq = "first_seq", lastSeq = "last_seq", bytes, sha256, alreadyThere = "already_there"
        }
    }

    struct Loss: Encodable {
        var segments: Int
        var bytes: Int
        var seqs: [[Int]]

        init(_ loss: UnshippedLoss) {
            (segments, bytes, seqs) = (loss.segments, loss.bytes, loss.seqs.map { [$0.lowerBound, $0.upperBound] })
        }
    }

    /// The JSON output, members in this order.
    struct Output: Encodable {
        let format = JSONOutput.format
        var device: String
        var redactions: [String]
        var shipped: [Shipped]
        var droppedUnshipped: Loss

        enum CodingKeys: String, CodingKey {
            case format, device, redactions, shipped, droppedUnshipped = "dropped_unshipped"
        }
    }
}
