/// Redacts events as a set of ``Redaction``s asks: the id and param values of every route — pushed,
/// replaced, set as a path, presented, selected, restored, dropped or held in a snapshot — and the
/// URL of every deep link. Screens, scenes, tabs, stacks, sheet ids, counts, sessions and times are
/// kept, so the fold of redacted events gives the same stacks, views and funnels as the source's,
/// each route's id and params replaced as ``Redactor`` replaces a value, and the deep links grouped
/// by the same patterns (``Redactor/urlKeepingPattern(_:)``).
///
/// A type this version does not know keeps only its `scene` and `stack` and its numbers and
/// booleans: its strings might be anything.
package struct EventRedactor {
    private let redactor: Redactor
    private var ids: Bool { splicedValues.contains(.ids) }
    private var params: Bool { splicedValues.contains(.params) }
    private var urls: Bool { splicedValues.contains(.urls) }
    /// Each value's replacement, computed once: a segment names the same ids again and again, and
    /// a salted hash is a SHA-256 (`NavlogBench redact`).
    private var replacements: [String: String?] = [:]
    /// Each path segment of a deep link redacted: an app's links repeat their words and ids.
    private var segmentReplacements: [String: String] = [:]
    /// Each deep link's URL redacted, for the links an app opens again and again.
    private var urlReplacements: [String: String] = [:]

    /// A redactor of `redactions`, hashing with `salt` or, without one, dropping ids and writing
    /// `*` for param values and URL parts.
    package init(_ redactions: Set<Redaction>, salt: String?) {
        redactor = Redactor(salt: salt)
        // Every choice redacts deep-link URLs: a URL can carry ids and param values.
        splicedValues = redactions.isEmpty ? [] : RedactingSplicer.Values.urls
            .union(redactions.contains(.ids) ? .ids : []).union(redactions.contains(.params) ? .params : [])
    }

    /// `event` with what is redacted replaced, or nil when it holds nothing to redact: no route
    /// and no URL. Such a line can be kept as it is (`NavlogBench redact`).
    package mutating func redact(_ event: NavigationEvent) -> NavigationEvent? {
        guard urls, event.action.holdsRoutesOrURLs else { return nil }
        var event = event
        event.action = redact(event.action)
        return event
    }

    /// The values ``RedactingSplicer`` replaces for this redaction.
    package let splicedValues: RedactingSplicer.Values

    /// What ``RedactingSplicer`` writes in place of `text`, a `value` it found; nil leaves the
    /// line to ``redact(_:)``.
    package mutating func splicedReplacement(_ value: RedactingSplicer.Value, _ text: String) -> String? {
        switch value {
        // Without a salt an id is dropped, a member the splicer does not take out.
        case .id: redactor.salt == nil ? nil : replacement(of: text)
        case .param: replacement(of: text) ?? "*"
        case .url: redactedURL(text)
        }
    }

    private mutating func redact(_ action: NavigationAction) -> NavigationAction {
        switch action {
        case .push(let scene, let stack, let route): .push(scene: scene, stack: stack, route: redact(route))
        case .replace(let scene, let stack, let route): .replace(scene: scene, stack: stack, route: redact(route))
        case .setPath(let scene, let stack, let path, let cause): .setPath(scene: scene, stack: stack, path: redact(path), cause: cause)
        case .deeplink(let scene, let url, let outcome, let tab, let stack, let path):
            .deeplink(scene: scene, url: redactedURL(url), outcome: outcome, tab: tab, stack: stack, path: path.map { redact($0) })
        case .sheetPresent(let scene, let sheet, let route, let style):
            .sheetPresent(scene: scene, sheet: sheet, route: redact(route), style: style)
        case .splitSelect(let scene, let column, let route): .splitSelect(scene: scene, column: column, route: route.map { redact($0) })
        case .snapshot(let state): .snapshot(state: redact(state))
        case .restore(let state, let from, let dropped): .restore(state: redact(state), from: from, dropped: redact(dropped))
        case .unknown(let type, let members):
            // Kept whole by the reader and skipped by every projection: only what names nothing.
            .unknown(type: type, members: members.filter { member in
                switch member.value {
                case .string: member.key == "scene" || member.key == "stack"
                case .array, .object: false
                case .null, .bool, .number: true
                }
            })
        case .sessionStart, .sessionEnd, .sceneOpen, .sceneClose, .sceneActivate, .scenePhase, .tabSelect, .pop, .popToRoot,
             .sheetDismiss, .splitVisibility:
            action
        }
    }

    private mutating func redact(_ state: NavigationState) -> NavigationState {
        guard ids || params else { return state }
        var state = state
        for (name, scene) in state.scenes {
            var scene = scene
            for (stack, routes) in scene.stacks { scene.stacks[stack] = redact(routes) }
            for k in scene.sheets.indices {
                scene.sheets[k].root = redact(scene.sheets[k].root)
                scene.sheets[k].stack = redact(scene.sheets[k].stack)
            }
            if var split = scene.split {
                split.sidebar = split.sidebar.map { redact($0) }
                split.content = split.content.map { redact($0) }
                scene.split = split
            }
            state.scenes[name] = scene
        }
        return state
    }

    private mutating func redact(_ routes: [Route]) -> [Route] { ids || params ? routes.map { redact($0) } : routes }

    private mutating func redact(_ route: Route) -> Route {
        var route = route
        if ids, let id = route.id { route.id = replacement(of: id) }
        if params, let values = route.params { route.params = values.mapValues { replacement(of: $0) ?? "*" } }
        return route
    }

    /// A deep link's URL as ``Redactor/urlKeepingPattern(_:)`` redacts it, each part replaced once.
    private mutating func redactedURL(_ url: String) -> String {
        if let known = urlReplacements[url] { return known }
        let redactor = redactor
        let replaced = redactor.redacted(url, segment: { text in
            if let known = segmentReplacements[String(text)] { return known }
            let replaced = redactor.patternKeepingSegment(text)
            segmentReplacements[String(text)] = replaced
            return replaced
        }, query: { replacement(of: $0) })
        urlReplacements[url] = replaced
        return replaced
    }

    private mutating func replacement(of value: String) -> String? {
        if let known = replacements[value] { return known }
        let replaced = redactor.value(value)
        replacements[value] = replaced
        return replaced
    }
}

extension NavigationAction {
    /// Whether the action holds a route or a URL: what redaction may change.
    fileprivate var holdsRoutesOrURLs: Bool {
        switch self {
        case .push, .replace, .setPath, .deeplink, .sheetPresent, .splitSelect, .snapshot, .restore, .unknown: true
        case .sessionStart, .sessionEnd, .sceneOpen, .sceneClose, .sceneActivate, .scenePhase, .tabSelect, .pop, .popToRoot,
             .sheetDismiss, .splitVisibility:
            false
        }
    }
}
