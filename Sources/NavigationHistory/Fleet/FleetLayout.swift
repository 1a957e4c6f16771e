/// Where a fleet's files are: `FLEET/DEVICE/` is each device's log directory, which every reading
/// command reads (`navlog paths FLEET/*`); ingest's own state is in hidden entries, so that the
/// shell's `FLEET/*` is exactly the devices.
///
/// - `FLEET/.ingest`: the lock, one ingest at a time (``DirectoryLock``).
/// - `FLEET/.staging/`: a segment copied from an inbox while it is checked; emptied by each run.
/// - `FLEET/.held/DEVICE/NNNNNNNN.jsonl`: checked segments waiting for their predecessor.
/// - `FLEET/.rejected/DEVICE/NAME` and `NAME.reason`: a copy of a rejected file, when it is a
///   regular file, and one line saying why; files of no plain device are under `.rejected/.unnamed/`.
/// - `FLEET/DEVICE/GAPS`: the gaps declared in the device's log (``DeclaredGaps``).
package struct FleetLayout: Sendable {
    /// The fleet directory.
    package let root: String

    package init(root: String) {
        var root = root
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        self.root = root
    }

    /// The lock file's name in the fleet directory.
    package static let lockName = ".ingest"
    /// The largest file taken as a segment: never read whole beyond it. The store rotates segments
    /// at 8 MiB by default (``EventLog/Options/segmentSize``).
    package static let maximumSegmentBytes = 64 << 20
    /// Where the files of no plain device name are rejected to: not a plain name itself.
    package static let unnamed = ".unnamed"

    package var staging: String { root + "/.staging" }
    package func device(_ device: String) -> String { root + "/" + device }
    package func held(_ device: String) -> String { root + "/.held/" + device }
    package func rejected(_ device: String?) -> String { root + "/.rejected/" + (device ?? Self.unnamed) }

    /// Whether `name` is a plain device id: 1 to 64 of `A-Z a-z 0-9 . _ -`, not beginning with
    /// `.` (which keeps it out of ingest's own hidden entries, and `.` and `..` out).
    package static func isDeviceName(_ name: String) -> Bool {
        let utf8 = name.utf8
        return (1...64).contains(utf8.count) && utf8.first != UInt8(ascii: ".")
            && utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
                default: false
                }
            }
    }

    /// A name for a rejected file's copy that is safe in one directory and never another entry's:
    /// a segment's name as it is; any other, every byte but `A-Z a-z 0-9 _ -` as `%XX` (so no such
    /// name ends in `.reason` or is a segment's), a `/` between the parts of a path too.
    package static func rejectedName(_ path: String) -> String {
        if LogFiles.isSegmentName(path) { return path }
        var name = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return String(name.prefix(200))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
