import NavigationAnalytics
import NavigationHistory

/// A name given in an option — a screen, an event type, an app version, a session, a scene —
/// that the log never holds, with the closest names it does hold: an answer filtered by it is
/// empty because of a typo, not because nothing happened, and navlog says so (on standard error,
/// and in JSON as `unknown_names`).
struct UnknownName: Encodable, Hashable {
    /// What a name names.
    enum Kind: String, Encodable {
        case screen, type, app, session, scene

        /// The words a message names it with.
        var words: String {
            switch self {
            case .screen: "screen"
            case .type: "event type"
            case .app: "app version"
            case .session: "session"
            case .scene: "scene"
            }
        }
    }

    /// The option that gave it: `--steps`, `--app`.
    var option: String
    var kind: Kind
    var name: String
    /// The closest names of that kind the log holds (``Suggestions``), the closest first.
    var suggestions: [String]

    /// `no screen 'categroy' in this log; did you mean 'category'?`; `in these logs` of `several`.
    func message(several: Bool = false) -> String {
        "no \(kind.words) '\(name)' in \(several ? "these logs" : "this log")" + Suggestions.phrase(suggestions)
    }

    /// Warns of each of `names` on standard error, about the log `path` (or the `several` it names).
    static func warn(_ names: [UnknownName], path: String, several: Bool = false) {
        for name in names { Diagnostics.warning(name.message(several: several), at: path) }
    }
}

/// The names of each kind that a log holds, read in one pass over it (on every core, as a query
/// runs): what a name given in an option is looked up among.
struct KnownNames {
    var names: [UnknownName.Kind: Set<String>] = [:]

    /// The names of `paths` (several logs: all of theirs), screens as `cleaning` names them and
    /// sessions as `idle` splits them (their parts named `ID#2`, ... besides `ID`).
    init(_ paths: [String], mode: RecoveryMode, cleaning: PathCleaning = PathCleaning(), idle: Duration? = nil) throws {
        names = try ViewStream.run(NamesQuery(), over: paths, mode: mode, cleaning: cleaning, idle: idle).result
    }

    /// Gathers every view's screen, app version, session and scene, and every event's type,
    /// session, scene and (of a `session.start`) app version.
    struct NamesQuery: ViewQuery {
        var names: [UnknownName.Kind: Set<String>] = [.screen: [], .type: [], .app: [], .session: [], .scene: []]

        static var seesEvents: Bool { true }

        mutating func add(_ view: AnalyticsView) {
            names[.screen]!.insert(view.screen)
            names[.session]!.insert(view.session)
            names[.scene]!.insert(view.scene)
            if let app = view.app { names[.app]!.insert(app) }
        }

        mutating func see(_ event: NavigationEvent) {
            names[.type]!.insert(event.type)
            names[.session]!.insert(event.session)
            if let scene = event.action.scene { names[.scene]!.insert(scene) }
            if case .sessionStart(let app?, _, _) = event.action { names[.app]!.insert(app) }
        }

        mutating func merge(_ later: consuming Self) {
            for (kind, more) in later.names { names[kind]!.formUnion(more) }
        }

        mutating func merge(nextLog later: consuming Self) { merge(later) }

        consuming func finalize() -> [UnknownName.Kind: Set<String>] { names }
    }

    /// Of the names `given` (option, kind, name), each once, those this log does not hold, each
    /// with its suggestions: the closest names of its kind, or, when none is close and the log
    /// holds at most 3, those.
    func unknown(_ given: [(option: String, kind: UnknownName.Kind, name: String)]) -> [UnknownName] {
        var seen = Set<String>()
        return given.compactMap { option, kind, name in
            let known = names[kind] ?? []
            guard !known.contains(name), seen.insert("\(kind)\u{0}\(name)").inserted else { return nil }
            let sorted = known.sorted()
            let closest = Suggestions.closest(to: name, among: sorted)
            // Of a few names (an app's versions, its scenes), all are worth naming when none is close.
            return UnknownName(option: option, kind: kind, name: name, suggestions: closest.isEmpty && sorted.count <= 3 ? sorted : closest)
        }
    }

    /// The unknown names of `given`, reading `paths` only when a name is given at all: a
    /// command that names nothing pays nothing.
    static func unknown(_ given: [(option: String, kind: UnknownName.Kind, name: String)], in paths: [String], mode: RecoveryMode,
                        cleaning: PathCleaning = PathCleaning(), idle: Duration? = nil) throws -> [UnknownName] {
        guard !given.isEmpty else { return [] }
        return try KnownNames(paths, mode: mode, cleaning: cleaning, idle: idle).unknown(given)
    }

    /// The names the filters `--app`, `--session` and `--scene` of `parsed` give, in that order.
    static func filtered(_ parsed: Arguments) -> [(option: String, kind: UnknownName.Kind, name: String)] {
        parsed.all("--app").map { ("--app", .app, $0) } + parsed.all("--session").map { ("--session", .session, $0) }
            + parsed.all("--scene").map { ("--scene", .scene, $0) }
    }
}
