/// What the store accepts: the checks an event passes before it is written, and a dry run of them
/// for a batch.
extension EventLog {
    /// Why the store refuses to write `line` (the encoded `event`, newline included), or nil when
    /// it may: the store writes only what its own reader accepts.
    static func problem(_ event: NavigationEvent, line: UnsafeRawBufferPointer) -> String? {
        switch event.action {
        case .unknown(let type, _):
            return "type '\(type)' is unknown to this version: the store writes only known types"
        case .snapshot:
            return "a 'snapshot' event: the store writes its own snapshots, of the state its events fold to"
        case .restore(let state, _, _):
            // The fold starts a restored scene `active`: a line restating another phase would say
            // what no reader makes of it.
            if let (scene, phase) = state.firstSceneNotActive {
                return "a 'restore' event whose scene '\(scene)' is '\(phase.rawValue)': a restore begins a new launch,"
                    + " so its scenes are active (record the launch's phases as 'scene.phase' events after it)"
            }
        default:
            break
        }
        do throws(LineError) {
            _ = try LineDecoder.decode(UnsafeRawBufferPointer(rebasing: line.dropLast()))
            return nil
        } catch {
            return "a '\(event.type)' event the format cannot hold: \(error.detail)"
        }
    }

    /// Checks, without writing anything, that the store would accept `draft`.
    ///
    /// - Throws: ``NavigationHistoryError`` with code `invalidEvent` saying what is wrong.
    public static func check(_ draft: EventDraft) throws {
        _ = try lineLength(checking: draft)
    }

    /// ``check(_:)``, returning the length of the event's line (without its newline) as the store
    /// would write it, with the largest `seq` a line may hold.
    package static func lineLength(checking draft: EventDraft) throws(NavigationHistoryError) -> Int {
        let event = NavigationEvent(seq: LineDecoder.maximumSeq, timestamp: draft.timestamp, session: draft.session, action: draft.action)
        let line = LineEncoder.encode(event)
        if let problem = line.withUnsafeBytes({ problem(event, line: $0) }) {
            throw NavigationHistoryError(code: .invalidEvent, message: problem)
        }
        return line.count - 1
    }
}

extension EventLog {
    /// A dry run of appends: checks events one after another as appending them after the log's
    /// last event would — the format, and the state each leads to — without writing anything, so
    /// that a batch can be refused whole before any of it is written.
    package struct Trial {
        private var state: NavigationState
        private var budget: SnapshotBudget
        private var needsFirstSegment: Bool

        fileprivate init(_ log: EventLog) {
            state = log.state
            budget = log.budget
            needsFirstSegment = !log.hasSegment
        }

        /// Checks `draft` as the next event, and goes on as if it had been appended.
        ///
        /// - Throws: ``NavigationHistoryError/Code/invalidEvent``, as appending it would.
        package mutating func check(_ draft: EventDraft) throws(NavigationHistoryError) {
            let length = try EventLog.lineLength(checking: draft)
            if needsFirstSegment {
                var scratch = JSONWriter(capacity: 4096)
                guard EventLog.encodeSnapshot(of: state, seq: 1, session: draft.session, at: draft.timestamp, to: &scratch) else {
                    throw NavigationHistoryError(code: .invalidEvent, message: "a '\(draft.action.type)' event the store cannot write: its"
                                                 + " session id is too long for the snapshot that starts the log's first segment to fit a line")
                }
                needsFirstSegment = false
            }
            let event = NavigationEvent(seq: LineDecoder.maximumSeq, timestamp: draft.timestamp, session: draft.session, action: draft.action)
            _ = try budget.fold(event, lineLength: length, into: &state)
        }
    }

    /// A dry run of appends after the log's last event.
    package func trial() -> Trial { Trial(self) }
}
