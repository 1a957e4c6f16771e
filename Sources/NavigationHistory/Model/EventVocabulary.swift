/// The types of event format v1, in the order of its table.
///
/// Each type's rules are data, in its ``descriptor``: the encoder, both decoders, the session
/// boundaries and the generator read them there, and a test holds them equal to the JSON Schema.
/// Adding a type is its case here, its descriptor, its two conversions below, its case in the fold,
/// and its schema entry and docs.
public enum EventType: String, Sendable, Hashable, CaseIterable {
    /// A session begins, and one ends cleanly; a scene opens.
    case sessionStart = "session.start", sessionEnd = "session.end", sceneOpen = "scene.open"
    /// A scene closes, becomes the active one, changes its lifecycle phase; a tab is selected.
    case sceneClose = "scene.close", sceneActivate = "scene.activate", scenePhase = "scene.phase", tabSelect = "tab.select"
    /// What happens to one stack, and a deep link.
    case push, pop, popToRoot, replace, setPath, deeplink
    /// A sheet is presented, or dismissed.
    case sheetPresent = "sheet.present", sheetDismiss = "sheet.dismiss"
    /// A split view's selection or visibility changes; the store restates the state; a session
    /// starts from a restored state.
    case splitSelect = "split.select", splitVisibility = "split.visibility", snapshot, restore

    /// What the format says about this type.
    package var descriptor: EventDescriptor { EventDescriptor.table[index] }

    // How a type bears on sessions and on the state: the one place these are said, as constants
    // per case, so that asking an event's action folds into a test of its case; a table read
    // for every event cost `navlog paths` 1.4% of its instructions (callgrind). The descriptor
    // gives them too.

    /// Whether an event of this type begins a new session, whatever its `session` member.
    package var beginsSession: Bool { self == .sessionStart }
    /// Whether an event of this type sets the whole state, whatever came before it: a fold may
    /// begin there.
    package var setsWholeState: Bool { self == .sessionStart || self == .snapshot || self == .restore }
    /// Whether an event of this type only restates the state the events before it made: it never
    /// begins a session, whatever its `session` member (the store stamps a segment's snapshot with
    /// the session of the event after it), and counts as no event of its session.
    package var restatesState: Bool { self == .snapshot }

    /// The type's position in ``allCases``.
    @inline(__always) var index: Int {
        switch self {
        case .sessionStart: 0
        case .sessionEnd: 1
        case .sceneOpen: 2
        case .sceneClose: 3
        case .sceneActivate: 4
        case .scenePhase: 5
        case .tabSelect: 6
        case .push: 7
        case .pop: 8
        case .popToRoot: 9
        case .replace: 10
        case .setPath: 11
        case .deeplink: 12
        case .sheetPresent: 13
        case .sheetDismiss: 14
        case .splitSelect: 15
        case .splitVisibility: 16
        case .snapshot: 17
        case .restore: 18
        }
    }
}

/// What event format v1 says about one type of event: its own members, what it acts on, and how it
/// bears on sessions and on the state.
package struct EventDescriptor: Sendable {
    /// What an event of a type acts on.
    package enum Scope: Sendable {
        /// The session, or the whole state: no `scene` member.
        case session
        /// One scene: a `scene` member.
        case scene
        /// One stack of one scene: `scene` and `stack` members.
        case stack
    }

    /// Whether a member must be there.
    package enum Presence: Sendable {
        /// The member must be there.
        case required
        /// The member may be left out.
        case optional
        /// The member must be there, and may be `null`.
        case nullable
    }

    /// Who writes events of a type.
    package enum Origin: Sendable {
        /// The app, as it navigates (through a ``Recorder`` or a script).
        case app
        /// The store, at the start of every segment.
        case store
        /// The restorer, when a session starts from a restored state.
        case restoration
    }

    /// One of a type's own members, and whether it must be there.
    package struct Member: Sendable {
        package var member: EventMember
        package var presence: Presence
    }

    package var type: EventType
    /// The members beyond the common ones (`v`, `seq`, `ts`, `session`, `type`, `crc`), in the
    /// order the store writes them.
    package var members: [Member]
    package var scope: Scope
    package var origin: Origin
    /// ``EventType/beginsSession``.
    package var beginsSession: Bool { type.beginsSession }
    /// ``EventType/setsWholeState``.
    package var setsWholeState: Bool { type.setsWholeState }
    /// ``EventType/restatesState``.
    package var restatesState: Bool { type.restatesState }

    private init(_ type: EventType, _ scope: Scope, _ members: [(EventMember, Presence)], origin: Origin = .app) {
        self.type = type
        self.scope = scope
        self.origin = origin
        self.members = (scope == .session ? [] : scope == .scene ? [Member(member: .scene, presence: .required)]
                        : [Member(member: .scene, presence: .required), Member(member: .stack, presence: .required)])
            + members.map { Member(member: $0.0, presence: $0.1) }
    }

    /// One descriptor per type, in the order of ``EventType/allCases``.
    static let table: [EventDescriptor] = [
        EventDescriptor(.sessionStart, .session, [(.app, .optional), (.launch, .required), (.meta, .optional)]),
        EventDescriptor(.sessionEnd, .session, [(.reason, .optional)]),
        EventDescriptor(.sceneOpen, .scene, [(.kind, .optional)]),
        EventDescriptor(.sceneClose, .scene, [(.kind, .optional)]),
        EventDescriptor(.sceneActivate, .scene, []),
        EventDescriptor(.scenePhase, .scene, [(.phase, .required)]),
        EventDescriptor(.tabSelect, .scene, [(.tab, .required)]),
        EventDescriptor(.push, .stack, [(.route, .required)]),
        EventDescriptor(.pop, .stack, [(.count, .optional)]),
        EventDescriptor(.popToRoot, .stack, []),
        EventDescriptor(.replace, .stack, [(.route, .required)]),
        EventDescriptor(.setPath, .stack, [(.path, .required), (.cause, .required)]),
        EventDescriptor(.deeplink, .scene, [(.stack, .optional), (.url, .required), (.outcome, .required), (.tab, .optional),
                                            (.path, .optional)]),
        EventDescriptor(.sheetPresent, .scene, [(.sheet, .required), (.route, .required), (.style, .optional)]),
        EventDescriptor(.sheetDismiss, .scene, [(.sheet, .optional)]),
        EventDescriptor(.splitSelect, .scene, [(.column, .required), (.route, .nullable)]),
        EventDescriptor(.splitVisibility, .scene, [(.visibility, .required)]),
        EventDescriptor(.snapshot, .session, [(.state, .required)], origin: .store),
        EventDescriptor(.restore, .session, [(.state, .required), (.from, .required), (.dropped, .required)], origin: .restoration),
    ]
}

extension NavigationAction {
    /// The action's type; nil for a type this version does not know.
    public var eventType: EventType? {
        @inline(__always) get {
            switch self {
            case .sessionStart: .sessionStart
            case .sessionEnd: .sessionEnd
            case .sceneOpen: .sceneOpen
            case .sceneClose: .sceneClose
            case .sceneActivate: .sceneActivate
            case .scenePhase: .scenePhase
            case .tabSelect: .tabSelect
            case .push: .push
            case .pop: .pop
            case .popToRoot: .popToRoot
            case .replace: .replace
            case .setPath: .setPath
            case .deeplink: .deeplink
            case .sheetPresent: .sheetPresent
            case .sheetDismiss: .sheetDismiss
            case .splitSelect: .splitSelect
            case .splitVisibility: .splitVisibility
            case .snapshot: .snapshot
            case .restore: .restore
            case .unknown: nil
            }
        }
    }

    /// The action of type `type` made of the members `reader` gives, asked for in the order of
    /// the type's descriptor (which the encoder writes them in); nil when the reader has no value
    /// for one the type requires.
    ///
    /// Generic, so that each decoder's reading is made into straight-line code for each type: a
    /// loop over the descriptor's members cost the fast decoder a fifth of its time
    /// (`Tools/bench/run --only read`). Tests hold the order here to the descriptors'.
    @inline(__always)
    package init?<Reader: EventMemberReader>(_ type: EventType, reading r: inout Reader) {
        switch type {
        case .sessionStart:
            guard let app = r.optionalString(.app), let launch = r.enumeration(.launch, LaunchKind.self),
                  let meta = r.optionalStringMap(.meta) else { return nil }
            self = .sessionStart(app: app, launch: launch, meta: meta)
        case .sessionEnd:
            guard let reason = r.optionalString(.reason) else { return nil }
            self = .sessionEnd(reason: reason)
        case .sceneOpen, .sceneClose:
            guard let scene = r.string(.scene), let kind = r.optionalString(.kind) else { return nil }
            self = type == .sceneOpen ? .sceneOpen(scene: scene, kind: kind) : .sceneClose(scene: scene, kind: kind)
        case .sceneActivate:
            guard let scene = r.string(.scene) else { return nil }
            self = .sceneActivate(scene: scene)
        case .scenePhase:
            guard let scene = r.string(.scene), let phase = r.enumeration(.phase, ScenePhase.self) else { return nil }
            self = .scenePhase(scene: scene, phase: phase)
        case .tabSelect:
            guard let scene = r.string(.scene), let tab = r.string(.tab) else { return nil }
            self = .tabSelect(scene: scene, tab: tab)
        case .push, .replace:
            guard let scene = r.string(.scene), let stack = r.string(.stack), let route = r.route(.route) else { return nil }
            self = type == .push ? .push(scene: scene, stack: stack, route: route) : .replace(scene: scene, stack: stack, route: route)
        case .pop:
            guard let scene = r.string(.scene), let stack = r.string(.stack), let count = r.optionalInteger(.count) else { return nil }
            self = .pop(scene: scene, stack: stack, count: count ?? 1)
        case .popToRoot:
            guard let scene = r.string(.scene), let stack = r.string(.stack) else { return nil }
            self = .popToRoot(scene: scene, stack: stack)
        case .setPath:
            guard let scene = r.string(.scene), let stack = r.string(.stack), let path = r.routes(.path),
                  let cause = r.enumeration(.cause, PathCause.self) else { return nil }
            self = .setPath(scene: scene, stack: stack, path: path, cause: cause)
        case .deeplink:
            guard let scene = r.string(.scene), let stack = r.optionalString(.stack), let url = r.string(.url),
                  let outcome = r.enumeration(.outcome, DeepLinkOutcome.self), let tab = r.optionalString(.tab),
                  let path = r.optionalRoutes(.path) else { return nil }
            self = .deeplink(scene: scene, url: url, outcome: outcome, tab: tab, stack: stack, path: path)
        case .sheetPresent:
            guard let scene = r.string(.scene), let sheet = r.string(.sheet), let route = r.route(.route),
                  let style = r.optionalEnumeration(.style, SheetStyle.self) else { return nil }
            self = .sheetPresent(scene: scene, sheet: sheet, route: route, style: style)
        case .sheetDismiss:
            guard let scene = r.string(.scene), let sheet = r.optionalString(.sheet) else { return nil }
            self = .sheetDismiss(scene: scene, sheet: sheet)
        case .splitSelect:
            guard let scene = r.string(.scene), let column = r.enumeration(.column, SplitColumn.self),
                  let route = r.nullableRoute(.route) else { return nil }
            self = .splitSelect(scene: scene, column: column, route: route)
        case .splitVisibility:
            guard let scene = r.string(.scene), let visibility = r.enumeration(.visibility, SplitVisibility.self) else { return nil }
            self = .splitVisibility(scene: scene, visibility: visibility)
        case .snapshot:
            guard let state = r.state(.state) else { return nil }
            self = .snapshot(state: state)
        case .restore:
            guard let state = r.state(.state), let from = r.integer(.from), let dropped = r.routes(.dropped) else { return nil }
            self = .restore(state: state, from: from, dropped: dropped)
        }
    }

    /// Hands the action's own members to `writer`, in the order of its type's descriptor, which
    /// ``init(_:reading:)`` reads them in; an unknown type's members are its own to write.
    ///
    /// Generic, like ``init(_:reading:)``: the encoder's writing is then straight-line code for
    /// each type (gathering the values in a struct first cost `navlog generate` a tenth more
    /// instructions, callgrind). Tests hold the order here to the descriptors'.
    @inline(__always)
    package func writeMembers<Writer: EventMemberWriter>(to w: inout Writer) {
        switch self {
        case .sessionStart(let app, let launch, let meta):
            w.optionalString(.app, app); w.enumeration(.launch, launch); w.optionalStringMap(.meta, meta)
        case .sessionEnd(let reason):
            w.optionalString(.reason, reason)
        case .sceneOpen(let scene, let kind), .sceneClose(let scene, let kind):
            w.string(.scene, scene); w.optionalString(.kind, kind)
        case .sceneActivate(let scene):
            w.string(.scene, scene)
        case .scenePhase(let scene, let phase):
            w.string(.scene, scene); w.enumeration(.phase, phase)
        case .tabSelect(let scene, let tab):
            w.string(.scene, scene); w.string(.tab, tab)
        case .push(let scene, let stack, let route), .replace(let scene, let stack, let route):
            w.string(.scene, scene); w.string(.stack, stack); w.route(.route, route)
        case .pop(let scene, let stack, let count):
            w.string(.scene, scene); w.string(.stack, stack); w.integer(.count, count)
        case .popToRoot(let scene, let stack):
            w.string(.scene, scene); w.string(.stack, stack)
        case .setPath(let scene, let stack, let path, let cause):
            w.string(.scene, scene); w.string(.stack, stack); w.routes(.path, path); w.enumeration(.cause, cause)
        case .deeplink(let scene, let url, let outcome, let tab, let stack, let path):
            w.string(.scene, scene); w.optionalString(.stack, stack); w.string(.url, url); w.enumeration(.outcome, outcome)
            w.optionalString(.tab, tab); w.optionalRoutes(.path, path)
        case .sheetPresent(let scene, let sheet, let route, let style):
            w.string(.scene, scene); w.string(.sheet, sheet); w.route(.route, route); w.optionalEnumeration(.style, style)
        case .sheetDismiss(let scene, let sheet):
            w.string(.scene, scene); w.optionalString(.sheet, sheet)
        case .splitSelect(let scene, let column, let route):
            w.string(.scene, scene); w.enumeration(.column, column); w.nullableRoute(.route, route)
        case .splitVisibility(let scene, let visibility):
            w.string(.scene, scene); w.enumeration(.visibility, visibility)
        case .snapshot(let state):
            w.state(.state, state)
        case .restore(let state, let from, let dropped):
            w.state(.state, state); w.integer(.from, from); w.routes(.dropped, dropped)
        case .unknown:
            break
        }
    }
}

/// Takes an action's own members from ``NavigationAction/writeMembers(to:)``, by name, in the
/// order of its type's descriptor; an optional member left out is handed on as nil.
package protocol EventMemberWriter {
    mutating func string(_ member: EventMember, _ value: String)
    mutating func optionalString(_ member: EventMember, _ value: String?)
    mutating func enumeration<E: FormatEnumeration>(_ member: EventMember, _ value: E)
    mutating func optionalEnumeration<E: FormatEnumeration>(_ member: EventMember, _ value: E?)
    mutating func integer(_ member: EventMember, _ value: Int)
    mutating func optionalStringMap(_ member: EventMember, _ value: [String: String]?)
    mutating func route(_ member: EventMember, _ value: Route)
    /// `nil` is written as `null`.
    mutating func nullableRoute(_ member: EventMember, _ value: Route?)
    mutating func routes(_ member: EventMember, _ value: [Route])
    mutating func optionalRoutes(_ member: EventMember, _ value: [Route]?)
    mutating func state(_ member: EventMember, _ value: NavigationState)
}

/// Gives an action's own members, asked for by name in the order of its type's descriptor, to
/// ``NavigationAction/init(_:reading:)``; nil for a member it has no value for. The `optional…`
/// methods give `.some(nil)` for a member that is absent, nil for one that is there but unreadable.
package protocol EventMemberReader {
    mutating func string(_ member: EventMember) -> String?
    mutating func optionalString(_ member: EventMember) -> String??
    mutating func enumeration<E: FormatEnumeration>(_ member: EventMember, _ type: E.Type) -> E?
    mutating func optionalEnumeration<E: FormatEnumeration>(_ member: EventMember, _ type: E.Type) -> E??
    mutating func integer(_ member: EventMember) -> Int?
    mutating func optionalInteger(_ member: EventMember) -> Int??
    mutating func optionalStringMap(_ member: EventMember) -> [String: String]??
    mutating func route(_ member: EventMember) -> Route?
    /// `.some(nil)` for a `null`.
    mutating func nullableRoute(_ member: EventMember) -> Route??
    mutating func routes(_ member: EventMember) -> [Route]?
    mutating func optionalRoutes(_ member: EventMember) -> [Route]??
    mutating func state(_ member: EventMember) -> NavigationState?
}

/// One of the format's enumerations, whose cases a decoder matches by the bytes of their names.
package protocol FormatEnumeration: RawRepresentable<String>, CaseIterable, Sendable {
    /// The cases by their names.
    static var names: NameTable<Self> { get }
}

extension LaunchKind: FormatEnumeration { package static let names = NameTable(allCases.map { ($0.rawValue, $0) }) }
extension PathCause: FormatEnumeration { package static let names = NameTable(allCases.map { ($0.rawValue, $0) }) }
extension DeepLinkOutcome: FormatEnumeration { package static let names = NameTable(allCases.map { ($0.rawValue, $0) }) }
extension SheetStyle: FormatEnumeration { package static let names = NameTable(allCases.map { ($0.rawValue, $0) }) }
extension SplitColumn: FormatEnumeration { package static let names = NameTable(allCases.map { ($0.rawValue, $0) }) }
extension SplitVisibility: FormatEnumeration { package static let names = NameTable(allCases.map { ($0.rawValue, $0) }) }
extension ScenePhase: FormatEnumeration { package static let names = NameTable(allCases.map { ($0.rawValue, $0) }) }

extension EventMemberValues {
    /// Gives the values a line held, taken out one by one: the general decoder's reader, once the
    /// descriptor's checks passed.
    package struct Reader: EventMemberReader {
        package var values: EventMemberValues

        package init(_ values: EventMemberValues) { self.values = values }

        package mutating func string(_ member: EventMember) -> String? { values[string: member] }
        package mutating func optionalString(_ member: EventMember) -> String?? { .some(values[string: member]) }
        package mutating func enumeration<E: FormatEnumeration>(_ member: EventMember, _ type: E.Type) -> E? {
            values[string: member].flatMap(E.init(rawValue:))
        }
        package mutating func optionalEnumeration<E: FormatEnumeration>(_ member: EventMember, _ type: E.Type) -> E?? {
            .some(enumeration(member, type))
        }
        package mutating func integer(_ member: EventMember) -> Int? { values[integer: member] }
        package mutating func optionalInteger(_ member: EventMember) -> Int?? { .some(values[integer: member]) }
        package mutating func optionalStringMap(_ member: EventMember) -> [String: String]?? { .some(values.meta) }
        package mutating func route(_ member: EventMember) -> Route? { values.route }
        package mutating func nullableRoute(_ member: EventMember) -> Route?? {
            values.route != nil || values.routeIsNull ? .some(values.route) : nil
        }
        package mutating func routes(_ member: EventMember) -> [Route]? { values[routes: member] }
        package mutating func optionalRoutes(_ member: EventMember) -> [Route]?? { .some(values[routes: member]) }
        package mutating func state(_ member: EventMember) -> NavigationState? { values.state }
    }
}
