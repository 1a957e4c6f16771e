import NavigationHistory

extension JSONWriter {
    /// `{"file":..., "line":..., "offset":..., "kind":..., "detail":...}`
    mutating func defect(_ defect: LogDefect) {
        raw("{")
        key("file", first: true); string(defect.file)
        key("line"); integer(defect.line)
        key("offset"); integer(defect.offset)
        key("kind"); string(defect.kind.rawValue)
        key("detail"); string(defect.detail)
        raw("}")
    }

    mutating func defects(_ defects: [LogDefect]) {
        raw("[")
        for (i, defect) in defects.enumerated() {
            if i > 0 { raw(",") }
            self.defect(defect)
        }
        raw("]")
    }
}
