import NavigationAnalytics
import NavigationHistory

extension Percent {
    /// A rate member of a JSON output, written as ``text(basisPoints:)`` says; null when there is none.
    static func json(basisPoints: Int64?) -> JSONFragment {
        JSONFragment { writer in writer.raw(basisPoints.map { text(basisPoints: $0) } ?? "null") }
    }
}
