extension Shipment {
    /// A redacted copy of the segment, to ship instead of its bytes when the app promises that no
    /// raw id leaves the phone: the rules of `navlog export --redact` (see ``Redaction``), applied
    /// to every event — the routes of pushes, paths, sheets, split views, deep links, restores and
    /// snapshots — each line written anew with its own `crc`.
    ///
    /// The copy is a valid segment under the same name: `navlog verify` accepts it, and its stacks,
    /// views and funnels are the raw segment's with each id and param value replaced. With a
    /// `salt`, a value becomes `h:` and 16 hex digits of SHA-256 of the salt, a zero byte and the
    /// value, the same in every segment and in `navlog export --redact` with that salt, so a fleet's
    /// paths still join; without one, ids are dropped and param values and URL parts become `*`.
    ///
    /// ```swift
    /// let copy = try shipment.redacted([.ids, .params], salt: installSalt)
    /// try await upload(copy.bytes, as: shipment.fileName, checksum: copy.sha256)
    /// ```
    ///
    /// - Parameters:
    ///   - redactions: What to leave out; every choice redacts deep-link URLs. None copies the
    ///     segment as it is.
    ///   - salt: The salt of the hashes, kept secret and the same across a fleet; nil drops values.
    /// - Throws: `corruptLog` naming the line when the segment does not read whole, or is no
    ///   longer the one listed; `invalidEvent` when a redacted line would be longer than a line
    ///   may be (a hash is longer than a short id); `noInput`; `io`.
    public func redacted(_ redactions: Set<Redaction>, salt: String?) throws -> ShipmentContents {
        let source = try listedBytes()
        var redactor = EventRedactor(redactions, salt: salt)
        let bytes: [UInt8]
        do throws(SegmentTranscoder.Failure) {
            bytes = try SegmentTranscoder.transcode(source, values: redactor.splicedValues, replace: { redactor.splicedReplacement($0, $1) },
                                                    { redactor.redact($0) })
        } catch {
            if let defect = error.defect {
                throw NavigationHistoryError(code: .corruptLog, message: "\(defect.kind): \(defect.detail)", path: path,
                                             defect: LogDefect(file: path, line: error.line, offset: defect.offset, kind: defect.kind,
                                                               detail: defect.detail))
            }
            throw NavigationHistoryError(code: .invalidEvent, message: "line \(error.line) would be \(error.length ?? 0) bytes redacted,"
                                         + " more than the \(LineDecoder.maximumLineLength) a line may hold: its ids are shorter than"
                                         + " their hashes", path: path)
        }
        return ShipmentContents(bytes: bytes, sha256: SHA256.digest(bytes).hex)
    }
}
