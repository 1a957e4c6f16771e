// A writer process for the store's crash tests: `NavlogTests/StoreProcessTests` starts it, kills it
// with SIGKILL at random moments or lets it run into a file-size limit, and checks the log after.
//
//   NavlogStoreChild write DIR --policy every|batched [--segment-size N] [--retention-bytes N]
//       Records `setPath` events numbered by their route id (0, 1, 2, ... continuing after the
//       number the log ends with) until killed, printing `durable SEQ` whenever the recorder
//       acknowledges events as durable.
//   NavlogStoreChild fill DIR --limit BYTES
//       The same under RLIMIT_FSIZE = BYTES (SIGXFSZ ignored), every event durable, until the
//       limit makes a write fail; prints `durable SEQ` lines, then `failed CODE ERRNO` and
//       `after CODE nothing written` (a flush after the failure: the same error, no event written).
//   NavlogStoreChild hold DIR
//       Opens the log, prints `locked`, and keeps it open until standard input closes.
//   NavlogStoreChild navigate DIR
//       Drives a Router of the recipe example (every event durable), printing `durable SEQ` after
//       each navigation, until killed.
//   NavlogStoreChild ship DIR --to OUT --device ID [--rounds N] [--events E] [--recorder]
//                         [--until-shipped] [--kill-at POINT [--kill-in-round R]]
//       Rounds (N, default 0: until killed) of: E `setPath` events numbered as `write` numbers
//       them (default 16, every event durable; `durable SEQ` once they are), a seal (`sealed`),
//       and the shipping of each pending segment as `navlog ship` lays it out: its bytes copied to
//       OUT/ID/NNNNNNNN.jsonl with FileSystem.replace, as `navlog ship` copies (`copied NAME`, or
//       `already NAME` when a copy with its bytes is there), then markShipped (`acked NAME`).
//       Prints `round K` as round K (from 0) begins. Through an EventLog, or with --recorder a
//       Recorder; --until-shipped sets Retention.untilShipped. --kill-at POINT (an
//       EventLog.FaultPoint's name, or copyTemporaryWritten, copyRenamed, copyDirectorySynced)
//       kills the process with SIGKILL the first time POINT is reached in round R (default 1),
//       through the log's fault hook (so not with --recorder).
//   NavlogStoreChild ingest INBOX --into FLEET [--gap-after-ms MS] [--kill-at-step K]
//       A FleetIngest run over INBOX (IngestMode.swift), printing `step NAME` after each step
//       that changes the fleet and killed with SIGKILL right after the Kth; `done` at its end.
//   NavlogStoreChild read DIR [--map]
//       As an app does: records 1,000 events through a Recorder, closes it, and reads the log back
//       whole with a LogReader's defaults (with --map, after turning LogReader.mapsFilesByDefault
//       on, as a tool does); prints `events N`, then `sigbus unchanged` when the SIGBUS handler
//       is the one the process started with, else `sigbus replaced`.
import Foundation
import NavigationHistory
import NavigationRouting
import RecipeApp
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func option(_ name: String, in arguments: [String]) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

/// The number the log's last `setPath` carried, so a new writer continues after it.
func nextNumber(after state: NavigationState) -> Int {
    state.scenes["main"]?.stacks["home"]?.last?.id.flatMap { Int($0) }.map { $0 + 1 } ?? 0
}

func numbered(_ number: Int) -> NavigationAction {
    .setPath(scene: "main", stack: "home", path: [Route(screen: "step", id: String(number))], cause: .programmatic)
}

func write(_ directory: String, _ arguments: [String]) async throws {
    let durability: Durability = option("--policy", in: arguments) == "every"
        ? .everyEvent : .batched(maxDelay: .milliseconds(5), maxEvents: 64)
    let options = EventLog.Options(segmentSize: Int(option("--segment-size", in: arguments) ?? "") ?? 64 << 10,
                                   durability: durability,
                                   retention: Retention(maxBytes: Int(option("--retention-bytes", in: arguments) ?? "")))
    let recorder = try await Recorder(directory: directory, options: options, session: "child-\(getpid())")
    if recorder.stateAtOpen.scenes["main"] == nil { recorder.record(.sceneOpen(scene: "main", kind: nil)) }
    var number = nextNumber(after: recorder.stateAtOpen)
    say("ready \(number)")
    var acknowledged = 0
    while true {
        for _ in 0..<8 {
            recorder.record(numbered(number))
            number += 1
        }
        let durable = durability == .everyEvent ? try await recorder.flush() : await recorder.durableSeq
        if durable > acknowledged {
            acknowledged = durable
            say("durable \(durable)")
        }
        if number % 64 == 0 { try await Task.sleep(for: .microseconds(200)) }
    }
}

func fill(_ directory: String, _ arguments: [String]) async throws {
    guard let limit = option("--limit", in: arguments).flatMap({ rlim_t($0) }) else { fatalError("fill needs --limit BYTES") }
    signal(SIGXFSZ, SIG_IGN)
    var rule = rlimit(rlim_cur: limit, rlim_max: limit)
    #if canImport(Glibc)
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &rule) == 0 else { fatalError("setrlimit failed") }
    #else
    guard setrlimit(RLIMIT_FSIZE, &rule) == 0 else { fatalError("setrlimit failed") }
    #endif
    let recorder = try await Recorder(directory: directory, options: .init(segmentSize: 1 << 30, durability: .everyEvent),
                                      session: "fill-\(getpid())")
    recorder.record(.sceneOpen(scene: "main", kind: nil))
    var number = 0
    while true {
        recorder.record(numbered(number))
        number += 1
        do {
            say("durable \(try await recorder.flush())")
        } catch let error as NavigationHistoryError {
            say("failed \(error.code) \(error.errno ?? 0)")
            let durable = await recorder.durableSeq
            recorder.record(numbered(number))
            do { try await recorder.flush() } catch let after as NavigationHistoryError {
                say("after \(after.code) \(await recorder.durableSeq == durable ? "nothing written" : "written")")
            }
            _ = try? await recorder.close()
            return
        }
    }
}

@MainActor
func navigate(_ directory: String) async throws {
    let recorder = try await Recorder(directory: directory, options: .init(durability: .everyEvent), session: "navigate-\(getpid())")
    let router = Router<RecipeApp.Screen>(recorder: recorder, deepLinks: RecipeApp.deepLinks)
    router.start(app: "1.0")
    router.open(scene: "main")
    say("ready")
    var step = 0
    while true {
        let tab = step % 2 == 0 ? "home" : "search"
        switch step % 6 {
        case 0: router.select(tab: tab)
        case 1: router.push(.category("c\(step % 7)"))
        case 2: router.push(.recipe("apple-pie"))
        case 3: router.present(sheet: "settings", .settings)
        case 4: router.dismiss()
        default: router.setPath([.category("top")], for: router.selectedTab() ?? "main")
        }
        step += 1
        say("durable \(try await recorder.flush())")
    }
}

/// The address of SIGBUS's handler now; 0 for the default action.
func sigbusHandler() -> Int {
    var action = sigaction()
    guard sigaction(SIGBUS, nil, &action) == 0 else { fatalError("sigaction failed") }
    #if canImport(Glibc)
    return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
    #else
    return unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self)
    #endif
}

func read(_ directory: String, _ arguments: [String]) async throws {
    // The Swift runtime may have installed one of its own, to print a backtrace.
    let before = sigbusHandler()
    if arguments.contains("--map") { LogReader.mapsFilesByDefault = true }
    let recorder = try await Recorder(directory: directory, session: "read-\(getpid())")
    recorder.record(.sceneOpen(scene: "main", kind: nil))
    for number in 1..<1000 { recorder.record(numbered(number)) }
    try await recorder.close()
    let report = try LogReader(path: directory).read { _ in }
    say("events \(report.events)")
    say("sigbus \(sigbusHandler() == before ? "unchanged" : "replaced")")
}

func hold(_ directory: String) throws {
    let log = try EventLog(directory: directory)
    say("locked")
    while readLine() != nil {}
    try log.close()
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: NavlogStoreChild write|fill|hold|navigate|read|ship|ingest DIR [options]\n".utf8))
    exit(64)
}
do {
    switch arguments[0] {
    case "write": try await write(arguments[1], arguments)
    case "fill": try await fill(arguments[1], arguments)
    case "hold": try hold(arguments[1])
    case "navigate": try await navigate(arguments[1])
    case "read": try await read(arguments[1], arguments)
    case "ship": try await ship(arguments[1], arguments)
    case "ingest": try ingest(arguments[1], arguments)
    default: fatalError("unknown mode \(arguments[0])")
    }
} catch {
    FileHandle.standardError.write(Data("NavlogStoreChild: \(error)\n".utf8))
    exit(1)
}
