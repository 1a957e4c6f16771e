/// The members of an event line that event format v1 gives a meaning to.
package enum EventMember: Int, CaseIterable, Sendable {
    case v, seq, ts, session, type, scene, stack, crc
    case app, launch, meta, reason, kind, tab, route, count, path, cause
    case url, outcome, sheet, style, column, visibility, state, from, dropped, phase

    /// The kinds of value a member holds.
    package enum Shape: Sendable {
        /// One of the members every line has, read apart: `v`, `seq`, `ts`, `session`, `type`, `crc`.
        case common
        /// A non-empty string naming a scene, stack, tab or sheet.
        case identifier
        /// Any string.
        case text
        /// The name of a case of one of the format's enumerations (``EventMember/caseNames``).
        case enumeration
        /// An integer from 1 up.
        case count
        /// A seq: an integer from 1 to 2^53 − 1.
        case seq
        /// An object of strings.
        case stringMap
        /// A route.
        case route
        /// An array of routes.
        case routes
        /// A navigation state.
        case state
    }

    /// The member's name in a line.
    package var name: String { String(describing: self) }

    @inline(__always) package var bit: UInt32 { 1 &<< UInt32(rawValue) }

    /// The kind of value the member holds, the same in every type that has it. Inlined: the
    /// general decoder asks it of every string member it reads ("read: other layout 1 core").
    @inline(__always) package var shape: Shape {
        switch self {
        case .v, .seq, .ts, .session, .type, .crc: .common
        case .scene, .stack, .tab, .sheet: .identifier
        case .app, .reason, .kind, .url: .text
        case .launch, .cause, .outcome, .style, .column, .visibility, .phase: .enumeration
        case .count: .count
        case .from: .seq
        case .meta: .stringMap
        case .route: .route
        case .path, .dropped: .routes
        case .state: .state
        }
    }

    /// The names of the cases an ``Shape/enumeration`` member may hold, in their declared order;
    /// empty for members of other shapes.
    package var caseNames: [String] { Self.caseNames[rawValue] }

    private static let caseNames: [[String]] = allCases.map { member in
        switch member {
        case .launch: LaunchKind.allCases.map(\.rawValue)
        case .cause: PathCause.allCases.map(\.rawValue)
        case .outcome: DeepLinkOutcome.allCases.map(\.rawValue)
        case .style: SheetStyle.allCases.map(\.rawValue)
        case .column: SplitColumn.allCases.map(\.rawValue)
        case .visibility: SplitVisibility.allCases.map(\.rawValue)
        case .phase: ScenePhase.allCases.map(\.rawValue)
        default: []
        }
    }
}

/// The values of an event's own members (all but the common ones), as a line gives them or an
/// action holds them: what the decoders fill by the rules of ``EventDescriptor`` and the encoder
/// writes by them.
package struct EventMemberValues: Sendable {
    package var scene, stack, tab, sheet: String?
    package var app, reason, kind, url: String?
    /// The enumeration members, by the names of their cases (checked against
    /// ``EventMember/caseNames`` by the decoder that sets them).
    package var launch, cause, outcome, style, column, visibility, phase: String?
    package var count: Int?
    package var from: Int?
    package var meta: [String: String]?
    package var route: Route?
    /// Whether `route` was there as `null`.
    package var routeIsNull = false
    package var path: [Route]?
    package var dropped: [Route]?
    package var state: NavigationState?

    package init() {}

    /// The string of an ``EventMember/Shape/identifier`` or ``EventMember/Shape/text`` member, or
    /// the case name of an ``EventMember/Shape/enumeration`` member.
    package subscript(string member: EventMember) -> String? {
        get {
            switch member {
            case .scene: scene
            case .stack: stack
            case .tab: tab
            case .sheet: sheet
            case .app: app
            case .reason: reason
            case .kind: kind
            case .url: url
            case .launch: launch
            case .cause: cause
            case .outcome: outcome
            case .style: style
            case .column: column
            case .visibility: visibility
            case .phase: phase
            default: nil
            }
        }
        set {
            switch member {
            case .scene: scene = newValue
            case .stack: stack = newValue
            case .tab: tab = newValue
            case .sheet: sheet = newValue
            case .app: app = newValue
            case .reason: reason = newValue
            case .kind: kind = newValue
            case .url: url = newValue
            case .launch: launch = newValue
            case .cause: cause = newValue
            case .outcome: outcome = newValue
            case .style: style = newValue
            case .column: column = newValue
            case .visibility: visibility = newValue
            case .phase: phase = newValue
            default: break
            }
        }
    }

    /// The integer of a ``EventMember/Shape/count`` or ``EventMember/Shape/seq`` member.
    package subscript(integer member: EventMember) -> Int? {
        get { member == .count ? count : member == .from ? from : nil }
        set {
            if member == .count { count = newValue } else if member == .from { from = newValue }
        }
    }

    /// The routes of a ``EventMember/Shape/routes`` member.
    package subscript(routes member: EventMember) -> [Route]? {
        get { member == .path ? path : member == .dropped ? dropped : nil }
        set {
            if member == .path { path = newValue } else if member == .dropped { dropped = newValue }
        }
    }
}
