import NavigationHistory

/// A defect or warning in JSON output: `{"file", "line", "offset", "kind", "detail"}`, the file as
/// messages name it.
struct DefectOutput: Encodable {
    var file: String
    var line: Int
    var offset: Int
    var kind: String
    var detail: String

    init(_ defect: LogDefect) {
        (file, line, offset, kind, detail) = (LogInput.shown(defect.file), defect.line, defect.offset, defect.kind.rawValue, defect.detail)
    }
}
