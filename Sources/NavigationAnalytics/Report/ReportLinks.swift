import NavigationHistory

/// A view as the report keeps it of a session it may replay: enough for the funnels and the
/// crash paths to say where in the replay the session shows them.
struct BegunScreen: Sendable {
    /// The session as views name it (`ID#2` for its second part, see ``ViewStream``).
    var part: String
    /// The seq of the event that began it.
    var seq: Int
    var scene: String, screen: String
    /// When it began, in milliseconds since 1970.
    var start: Int64
}

extension ReportReplay {
    /// Its views, one list per part, in order.
    private var parts: [[BegunScreen]] {
        var parts: [[BegunScreen]] = []
        for view in views {
            if parts.last?.last?.part == view.part { parts[parts.count - 1].append(view) } else { parts.append([view]) }
        }
        return parts
    }

    /// The crash path its last part makes, as `exits` counts it, with the seq of each screen's
    /// view; nil unless it ended uncleanly with every view of that path within the replay.
    func crashPath(_ exits: ExitsQuery) -> (screens: [String], seqs: [Int])? {
        guard end == .unclean, !viewsBeyond, let last = parts.last else { return nil }
        return exits.crashPath(of: last)
    }

    /// The seq of the view by which it reaches each step of `funnel` it reaches within the replay,
    /// in its first part to reach it (each part counts as a session).
    func reachedSeqs(_ funnel: FunnelQuery) -> [Int] {
        var seqs: [Int] = []
        for part in parts {
            let reached = funnel.reachedSeqs(part)
            if reached.count > seqs.count { seqs += reached[seqs.count...] }
        }
        return seqs
    }
}

/// Where the report's replays show each crash path and funnel step: the links the page draws,
/// to a replay's step (0-based), for the sessions the page holds.
struct ReportLinks {
    /// A moment of a replay.
    struct Moment: Equatable {
        var session: String
        var step: Int
    }

    /// For each crash path, by its screens, and for each step of each funnel, the replays that
    /// show it, in the order of the replays.
    private(set) var crashPaths: [[String]: [Moment]] = [:]
    private(set) var funnels: [[[Moment]]]

    /// Links for `funnels` funnels of `steps` steps each.
    init(funnels steps: [Int]) { funnels = steps.map { Array(repeating: [], count: $0) } }

    /// Adds the moments of `replay`, whose steps written are those of the seqs `steps` finds
    /// (0-based): where it shows its crash path, as `exits` finds it, and the steps of `funnels`
    /// it reaches. A moment whose event is not among those steps is left out.
    mutating func add(_ replay: ReportReplay, steps: [Int: Int], exits: ExitsQuery, funnels queries: [FunnelQuery]) {
        if let path = replay.crashPath(exits), let first = path.seqs.first, let step = steps[first] {
            crashPaths[path.screens, default: []].append(Moment(session: replay.id, step: step))
        }
        for (k, funnel) in queries.enumerated() {
            for (index, seq) in replay.reachedSeqs(funnel).enumerated() {
                if let step = steps[seq] { funnels[k][index].append(Moment(session: replay.id, step: step)) }
            }
        }
    }
}

extension JSONWriter {
    /// `moments` as a list of `{"session", "step"}`.
    mutating func moments(_ moments: [ReportLinks.Moment]) {
        array(moments) { w, moment in
            w.raw("{"); w.key("session", first: true); w.string(moment.session); w.key("step"); w.integer(moment.step); w.raw("}")
        }
    }
}
