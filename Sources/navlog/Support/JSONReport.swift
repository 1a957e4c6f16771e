import NavigationHistory

extension JSONWriter {
    /// `{"file":..., "line":..., "offset":..., "kind":..., "detail":...}`
    mutating func defect(_ defect: LogDefect) {
        raw("{")
        key("file", first: true); string(LogInput.shown(defect.file))
        key("line"); integer(defect.line)
        key("offset"); integer(defect.offset)
        key("kind"); string(defect.kind.rawValue)
        key("detail"); string(defect.detail)
        raw("}")
    }

    mutating func defects(_ defects: [LogDefect]) {
        array(defects) { $0.defect($1) }
    }
}
