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

/// The names of each kind that a log holds, read in one pass over it: what a name given in an
/// option is looked up among.
struct KnownNames {
    var names: [UnknownName.Kind: Set<String>] = [:]

    /// The names of `paths` (several logs: all of theirs), screens as `cleaning` names them and
    /// sessions as `idle` splits them (their parts named `ID#2`, ... besides `ID`).
    init(_ paths: [String], mode: RecoveryMode, cleaning: PathCleaning = PathCleaning(), idle: Duration? = nil) throws {
        var screens = Set<String>(), types = Set<String>(), apps = Set<String>(), sessions = Set<String>(), scenes = Set<String>()
        for path in paths {
            _ = try ViewStream.read(path, mode: mode, cleaning: cleaning, idle: idle, events: { event, app, _ in
                types.insert(event.type)
                sessions.insert(event.session)
                if let app { apps.insert(app) }
                if let scene = event.action.scene { scenes.insert(scene) }
            }) { view in
                screens.insert(view.screen)
                sessions.insert(view.session)
            }
        }
        names = [.screen: screens, .type: types, .app: apps, .session: sessions, .scene: scenes]
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
