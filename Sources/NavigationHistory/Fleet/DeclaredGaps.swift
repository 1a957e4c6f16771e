/// The holes a log directory was told about: seq ranges known to be missing for good, declared by
/// `navlog ingest --gap-after` in the directory's `GAPS` file, one line each, `gap FIRST-LAST`.
///
/// A reader reads past a declared gap with a ``DefectKind/declaredGap`` warning naming it, taking
/// the state from the segment after it, which begins with a line that sets the whole state (the
/// store opens every segment with a snapshot); a hole that was not declared stays a defect.
package struct DeclaredGaps: Sendable, Equatable {
    /// The name of the file in a log directory.
    package static let fileName = "GAPS"

    /// The missing seq ranges, in the order declared.
    package var ranges: [ClosedRange<Int>] = []

    package init(ranges: [ClosedRange<Int>] = []) { self.ranges = ranges }

    /// The gaps declared in `directory`; none when it has no `GAPS` file, or it is not a regular
    /// file of at most 1 MiB. A line that does not parse is passed over: a gap it meant to declare
    /// is then read as the defect it is without the declaration.
    package static func read(directory: String) -> DeclaredGaps {
        guard let bytes = try? FileSystem.contents(directory + "/" + fileName, atMost: 1 << 20) else { return DeclaredGaps() }
        var gaps = DeclaredGaps()
        for line in bytes.split(separator: 0x0A) {
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("gap ") else { continue }
            let bounds = text.dropFirst(4).split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]), first >= 1, first <= last else { continue }
            gaps.ranges.append(first...last)
        }
        return gaps
    }

    /// The file's bytes.
    package var bytes: [UInt8] { Array(ranges.map { "gap \($0.lowerBound)-\($0.upperBound)\n" }.joined().utf8) }

    /// Whether exactly the seqs `missing` are declared missing.
    package func declares(_ missing: ClosedRange<Int>) -> Bool { ranges.contains(missing) }
}
