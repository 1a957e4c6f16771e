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
    /// would write it with `seq` at most `seqBound`: by default the largest a line may hold, for a
    /// check made before the seq is known. A line is as long as its seq has digits, so a line
    /// within a few bytes of the 64 KiB limit may fit at the seq it gets and not at the bound:
    /// the refusal says by how much and why.
    package static func lineLength(checking draft: EventDraft, seqBound: Int = LineDecoder.maximumSeq) throws(NavigationHistoryError) -> Int {
        let event = NavigationEvent(seq: seqBound, timestamp: draft.timestamp, session: draft.session, action: draft.action)
        let line = LineEncoder.encode(event)
        if var problem = line.withUnsafeBytes({ problem(event, line: $0) }) {
            if line.count - 1 > LineDecoder.maximumLineLength {
                problem += " by \(line.count - 1 - LineDecoder.maximumLineLength) bytes, counted with seq \(seqBound)"
                    + (seqBound == LineDecoder.maximumSeq ? ", the largest a line may hold, as the event's own is not known yet" : ", the largest it may get")
            }
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
        /// The largest seq the next event may get: the store writes at most one snapshot before
        /// each event (a segment's first, or one every so many events), so two more per event.
        private var seqBound: Int

        fileprivate init(_ log: EventLog) {
            state = log.state
            budget = log.budget
            needsFirstSegment = !log.hasSegment
            seqBound = log.nextSeq + 1
        }

        /// Checks `draft` as the next event, and goes on as if it had been appended.
        ///
        /// - Throws: ``NavigationHistoryError/Code/invalidEvent``, as appending it would.
        package mutating func check(_ draft: EventDraft) throws(NavigationHistoryError) {
            let length = try EventLog.lineLength(checking: draft, seqBound: min(seqBound, LineDecoder.maximumSeq))
            seqBound += 2
            if needsFirstSegment {
                var scratch = JSONWriter(capacity: 4096)
                guard EventLog.encodeSnapshot(of: state, seq: 1, session: draft.session, at: draft.timestamp, to: &scratch) else {
                    throw NavigationHistoryError(code: .invalidEvent, message: "a '\(draft.action.type)' event the store cannot write: its"
                                                 + " session id is too long for the snapshot that starts the log's first segment to fit a line")
                }
                needsFirstSegment = false
            }
            let event = NavigationEvent(seq: min(seqBound, LineDecoder.maximumSeq), timestamp: draft.timestamp, session: draft.session, action: draft.action)
            _ = try budget.fold(event, lineLength: length, into: &state)
        }
    }

    /// A dry run of appends after the log's last event.
    package func trial() -> Trial { Trial(self) }
}
