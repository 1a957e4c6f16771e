import Foundation
import NavigationHistory

/// `navlog ingest INBOX... --into FLEET [--gap-after DURATION] [--format text|json]`
enum IngestCommand: Subcommand {
    static let name = "ingest"
    static let summary = "File uploaded segments (INBOX/DEVICE/NNNNNNNN.jsonl) into per-device logs."
    static let help = """
        Usage: navlog ingest INBOX... --into FLEET [--gap-after DURATION] [--format text|json]

        Files the segments that devices uploaded, laid out as `navlog ship` writes them
        (INBOX/DEVICE/NNNNNNNN.jsonl), into FLEET/DEVICE/: a log directory every command reads, as
        in `navlog paths FLEET/*`. The inboxes are only read, never changed. Every line of a
        segment is checked as a reader checks it, and a segment is filed whole or not at all
        (temporary file, sync, rename, directory sync): after a kill at any point, a run again
        gives the same FLEET. Run it again and again over a bucket: it files only what is new.

        - The same bytes again under a name filed or held are a duplicate: nothing is written.
          Other bytes under such a name are a conflict, refused, naming both files.
        - A device's first segment begins at seq 1, and each one must follow the last filed
          (the store's chain rule). One whose predecessor has not come is held in FLEET/.held/
          and filed once the chain closes, in this run or a later one.
        - A file that is not a whole, valid segment of a plainly named device is rejected: a
          copy goes to FLEET/.rejected/DEVICE/NAME (files of no plain device to .unnamed/) with
          NAME.reason, one line saying why, and nothing of it reaches a log. So is a damaged
          line (crc, JSON, seq going back, torn last line), a symbolic link, FIFO or device, a
          name that is not NNNNNNNN.jsonl, a file over 64 MiB, a directory whose name is not a
          device id (1 to 64 of A-Z a-z 0-9 . _ -, not beginning with '.').
        - FLEET/.ingest is the lock: one ingest at a time. Ingest's own files are hidden, so
          FLEET/* is exactly the devices.

        Options:
          --into FLEET            The fleet directory, created when missing.
          --gap-after DURATION    Declare a hole a gap once the segment after it was first seen
                                  longer ago than DURATION: the seq range is written to
                                  FLEET/DEVICE/GAPS and the held segments after it are filed;
                                  readers then read past it with a warning naming it. Without it,
                                  a hole waits for its segments for ever.
          --format FORMAT         text (default), or json: {"format": 2, "fleet", "totals":
                                  {"filed", "duplicates", "held", "gaps", "rejected",
                                  "conflicts"}, "devices": [{"device", ...the same}],
                                  "changed_devices", "notes": [{"kind", "device", "file",
                                  "message"}]}. "held" counts the segments this run held that still
                                  wait; "changed_devices" the devices whose log gained segments
                                  or gaps.

        \(DurationArgument.help)

        Exit status: 0 when every segment was filed, a duplicate or held; 65 when a file was
        rejected or in conflict (the rest is filed); 64 on a usage error; 66 when an INBOX is not a
        directory; 74 on an I/O error; 75 when another ingest has FLEET.

        Examples:
          navlog ingest bucket --into fleet
          navlog ingest bucket-eu bucket-us --into fleet --gap-after 7d --format json
          navlog ingest bucket --into fleet && navlog paths fleet/*
        """

    static let options: [CommandOption] = [.directory("--into", "FLEET"), .option("--gap-after", "DURATION"), .textOrJSON]
    static let operands = Operands.paths

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try parse(arguments) else { return }
        let inboxes = parsed.positional
        guard !inboxes.isEmpty else { throw UsageError("missing INBOX") }
        guard let fleet = parsed.value("--into") else { throw UsageError("ingest needs --into FLEET") }
        let gapAfter = try parsed.duration("--gap-after")
        let format: OutputFormat = try parsed.choice("--format", default: .text)
        let summary = try FleetIngest(fleet: fleet, gapAfter: gapAfter).run(inboxes: inboxes)
        for note in summary.notes {
            switch note.kind {
            case .rejected: Diagnostics.error("rejected: \(note.message)", at: note.path)
            case .conflict: Diagnostics.error("conflict: \(note.message)", at: note.path)
            case .gap: Diagnostics.warning("\(note.device ?? ""): \(note.message)", at: note.path)
            }
        }
        var out = StandardOutput()
        switch format {
        case .text:
            for device in summary.devices.keys.sorted() {
                out.line("\(fleet)/\(device): \(described(summary.devices[device]!))")
            }
            if summary.unnamed != IngestSummary.Counts() { out.line("(no device): \(described(summary.unnamed))") }
            out.line("\(fleet): \(described(summary.total)) from \(TextFormat.count(inboxes.count)) inbox\(inboxes.count == 1 ? "" : "es")"
                     + (summary.changedDevices.isEmpty ? "; no log changed" : "; \(counted(summary.changedDevices.count, "log")) changed"))
        case .json:
            try JSONOutput.write(Output(fleet: fleet, summary), to: &out)
        }
        try out.flush()
        guard summary.isClean else {
            let total = summary.total
            let what = [total.rejected > 0 ? counted(total.rejected, "file") + " rejected" : nil,
                        total.conflicts > 0 ? counted(total.conflicts, "conflict") : nil].compactMap { $0 }.joined(separator: " and ")
            throw Failure(status: ExitCode.dataError, diagnostics: [.error("\(what); everything else is filed", at: fleet)])
        }
    }

    /// The counts in words, those that are not 0: `3 segments filed, 1 duplicate, 2 held`.
    static func described(_ counts: IngestSummary.Counts) -> String {
        let parts = [(counts.filed, counted(counts.filed, "segment") + " filed"), (counts.duplicates, counted(counts.duplicates, "duplicate")),
                     (counts.held, "\(TextFormat.count(counts.held)) held"), (counts.gaps, counted(counts.gaps, "gap") + " declared"),
                     (counts.rejected, "\(TextFormat.count(counts.rejected)) rejected"), (counts.conflicts, counted(counts.conflicts, "conflict"))]
        let said = parts.filter { $0.0 > 0 }.map(\.1)
        return said.isEmpty ? "nothing new" : said.joined(separator: ", ")
    }

    struct Counts: Encodable {
        var filed, duplicates, held, gaps, rejected, conflicts: Int

        init(_ counts: IngestSummary.Counts) {
            (filed, duplicates, held, gaps) = (counts.filed, counts.duplicates, counts.held, counts.gaps)
            (rejected, conflicts) = (counts.rejected, counts.conflicts)
        }
    }

    struct Device: Encodable {
        var device: String
        var filed, duplicates, held, gaps, rejected, conflicts: Int
    }

    struct Note: Encodable {
        var kind: String
        var device: String?
        var file: String
        var message: String
    }

    /// The JSON output, members in this order.
    struct Output: Encodable {
        let format = JSONOutput.format
        var fleet: String
        var totals: Counts
        var devices: [Device]
        var changedDevices: [String]
        var notes: [Note]

        init(fleet: String, _ summary: IngestSummary) {
            self.fleet = fleet
            totals = Counts(summary.total)
            devices = summary.devices.keys.sorted().map { name in
                let c = summary.devices[name]!
                return Device(device: name, filed: c.filed, duplicates: c.duplicates, held: c.held, gaps: c.gaps, rejected: c.rejected,
                              conflicts: c.conflicts)
            }
            changedDevices = summary.changedDevices
            notes = summary.notes.map { Note(kind: $0.kind.rawValue, device: $0.device, file: $0.path, message: $0.message) }
        }

        enum CodingKeys: String, CodingKey {
            case format, fleet, totals, devices, changedDevices = "changed_devices", notes
        }
    }
}
