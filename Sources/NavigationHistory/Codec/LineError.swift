/// Why a line could not be decoded: a defect kind, where in the line, and what exactly.
package struct LineError: Error, Sendable, Hashable {
    package var kind: DefectKind
    /// Byte offset within the line.
    package var offset: Int
    package var detail: String

    package init(_ kind: DefectKind, at offset: Int, _ detail: String) {
        self.kind = kind
        self.offset = offset
        self.detail = detail
    }
}
