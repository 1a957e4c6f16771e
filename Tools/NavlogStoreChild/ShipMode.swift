// The `ship` mode of NavlogStoreChild (see main.swift): records, seals and ships in rounds, and
// kills itself at a named step when told to.
import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a `ship` child kills itself: the first time `point` is reached in round `round`.
final class KillSwitch {
    /// The steps of the outbox copy, named as `--kill-at` names them.
    static let copySteps: [FileSystem.ReplaceStep: String] = [
        .temporaryWritten: "copyTemporaryWritten", .renamed: "copyRenamed", .directorySynced: "copyDirectorySynced",
    ]

    let point: String?
    let round: Int
    /// The round being run.
    var current = -1

    init(point: String?, round: Int) {
        if let point, EventLog.FaultPoint(rawValue: point) == nil, !Self.copySteps.values.contains(point) {
            fatalError("--kill-at \(point): not a fault point of the store nor a step of the copy")
        }
        (self.point, self.round) = (point, round)
    }

    /// Kills the process with SIGKILL when `name` is the point, in the round.
    func reached(_ name: String) {
        guard name == point, current == round else { return }
        say("dying at \(name)")
        kill(getpid(), SIGKILL)
    }
}

/// The store's steps a `ship` child takes, through an EventLog or a Recorder.
struct ShippingSteps {
    var stateAtOpen: NavigationState
    /// Records the actions and returns the last durable seq once they are durable.
    var record: ([NavigationAction]) async throws -> Int
    var seal: () async throws -> Bool
    var pending: () async throws -> PendingShipments
    var markShipped: (Shipment) async throws -> Void
}

func ship(_ directory: String, _ arguments: [String]) async throws {
    guard let to = option("--to", in: arguments), let device = option("--device", in: arguments) else {
        fatalError("ship needs --to OUT --device ID")
    }
    let rounds = Int(option("--rounds", in: arguments) ?? "") ?? 0
    let events = Int(option("--events", in: arguments) ?? "") ?? 16
    let switcher = KillSwitch(point: option("--kill-at", in: arguments), round: Int(option("--kill-in-round", in: arguments) ?? "") ?? 1)
    let options = EventLog.Options(segmentSize: 1 << 20, durability: .everyEvent,
                                   retention: arguments.contains("--until-shipped") ? .untilShipped() : .keepAll)
    let session = "ship-\(getpid())"
    let steps: ShippingSteps
    if arguments.contains("--recorder") {
        precondition(switcher.point == nil, "--kill-at needs the log's fault hook, which a Recorder keeps to itself")
        let recorder = try await Recorder(directory: directory, options: options, session: session)
        steps = ShippingSteps(stateAtOpen: recorder.stateAtOpen, record: { actions in
            for action in actions { recorder.record(action) }
            return try await recorder.flush()
        }, seal: { try await recorder.seal() }, pending: { try await recorder.pendingShipments() },
        markShipped: { try await recorder.markShipped($0) })
    } else {
        let log = try EventLog(directory: directory, options: options)
        log.faultHook = { switcher.reached($0.rawValue) }
        steps = ShippingSteps(stateAtOpen: log.state, record: { actions in
            try log.append(contentsOf: actions.map { EventDraft(action: $0, session: session) })
            return log.durableSeq
        }, seal: { try log.seal() }, pending: { try log.pendingShipments() }, markShipped: { try log.markShipped($0) })
    }
    let outbox = to + "/" + device
    try FileSystem.createDirectory(outbox)
    var number = nextNumber(after: steps.stateAtOpen)
    var opening: [NavigationAction] = steps.stateAtOpen.scenes["main"] == nil ? [.sceneOpen(scene: "main", kind: nil)] : []
    say("ready \(number)")
    var round = 0
    while rounds == 0 || round < rounds {
        switcher.current = round
        say("round \(round)")
        for start in stride(from: 0, to: events, by: 8) {
            let actions = opening + (start..<min(events, start + 8)).map { numbered(number + $0) }
            opening = []
            say("durable \(try await steps.record(actions))")
        }
        number += events
        if try await steps.seal() { say("sealed") }
        for shipment in try await steps.pending().shipments {
            let alreadyThere = try copy(shipment, to: outbox, switcher)
            say("\(alreadyThere ? "already" : "copied") \(shipment.fileName)")
            try await steps.markShipped(shipment)
            say("acked \(shipment.fileName)")
        }
        round += 1
    }
}

/// Copies a shipment's bytes to `outbox` as `navlog ship` does (FileSystem.replace: temporary
/// file, sync, rename, directory sync); true when a copy with the same bytes was there already.
func copy(_ shipment: Shipment, to outbox: String, _ switcher: KillSwitch) throws -> Bool {
    let bytes = try shipment.contents().bytes
    let target = outbox + "/" + shipment.fileName
    if FileSystem.status(target) != nil {
        guard let there = try FileSystem.contents(target, atMost: bytes.count), there == bytes else {
            throw NavigationHistoryError(code: .corruptLog, message: "it holds other bytes than the segment", path: target)
        }
        return true
    }
    try FileSystem.replace(target, with: bytes) { step in switcher.reached(KillSwitch.copySteps[step] ?? "") }
    return false
}
