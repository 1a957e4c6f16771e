import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file found in an inbox: a segment to check and file, or something rejected on sight.
struct InboxEntry {
    /// The file's path, as the inbox was named.
    var path: String
    /// Its path inside the inbox (`DEVICE/NAME`), which names its rejection.
    var relative: String
    /// Its device, when the directory it is in has a plain device name.
    var device: String?
    /// Its name in the device directory.
    var name: String
    /// Why it is rejected before it is read, if it is; `copies` says whether its bytes are kept.
    var refusal: (reason: String, copies: Bool)?
}

extension FleetIngest {
    /// The entries of `inbox`, laid out as `navlog ship` writes them (`INBOX/DEVICE/NNNNNNNN.jsonl`),
    /// in name order: every entry is looked at without following a link, and only a regular file
    /// under a plain device name with a segment's name, of at most the segment cap, is a candidate.
    ///
    /// - Throws: `noInput` when `inbox` is not a directory; `io` when one cannot be listed.
    static func entries(of inbox: String) throws -> [InboxEntry] {
        var info = stat()
        guard stat(inbox, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw NavigationHistoryError(code: .noInput, message: "not an inbox: give a directory of DEVICE/NNNNNNNN.jsonl files", path: inbox)
        }
        let root = inbox.hasSuffix("/") ? String(inbox.dropLast()) : inbox
        var entries: [InboxEntry] = []
        for top in try FileSystem.list(root).sorted() {
            let path = root + "/" + top
            let device = FleetLayout.isDeviceName(top) ? top : nil
            let kind = lstatKind(path)
            guard kind == S_IFDIR else {
                let what = kind == S_IFLNK ? "a symbolic link, which would lead out of the inbox"
                    : kind == S_IFREG ? "a file outside any device directory" : describe(kind)
                entries.append(InboxEntry(path: path, relative: top, device: nil, name: top,
                                          refusal: ("\(what): an inbox holds DEVICE/NNNNNNNN.jsonl", kind == S_IFREG)))
                continue
            }
            guard let device else {
                entries.append(InboxEntry(path: path, relative: top, device: nil, name: top,
                                          refusal: ("'\(top)' is not a device id (1 to 64 of A-Z a-z 0-9 . _ -, not beginning with '.'):"
                                                    + " none of its files is read", false)))
                continue
            }
            for name in try FileSystem.list(path).sorted() {
                entries.append(entry(path + "/" + name, device: device, name: name))
            }
        }
        return entries
    }

    /// The entry of the file `path`, `name` in the directory of `device`.
    private static func entry(_ path: String, device: String, name: String) -> InboxEntry {
        var entry = InboxEntry(path: path, relative: device + "/" + name, device: device, name: name)
        var info = stat()
        guard lstat(path, &info) == 0 else {
            entry.refusal = ("cannot look at it: \(String(cString: strerror(errno)))", false)
            return entry
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFLNK {
            entry.refusal = ("a symbolic link: an inbox's files are never read through one, which could lead out of it", false)
        } else if kind != S_IFREG {
            entry.refusal = ("\(describe(kind)), not a regular file", false)
        } else if !LogFiles.isSegmentName(name) {
            entry.refusal = ("not a segment's name (NNNNNNNN.jsonl)", true)
        } else if Int(info.st_size) > FleetLayout.maximumSegmentBytes {
            entry.refusal = ("\(info.st_size) bytes, more than a segment's cap of \(FleetLayout.maximumSegmentBytes) bytes: not read", false)
        }
        return entry
    }

    private static func lstatKind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    private static func describe(_ kind: mode_t) -> String {
        FileSystem.kind(of: kind) ?? "a file that cannot be looked at"
    }
}
