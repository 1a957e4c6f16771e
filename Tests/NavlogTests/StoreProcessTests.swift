import Foundation
import Testing
@testable import NavigationHistory
import NavigationSimulation
import TestSupport

/// A child process of `NavlogStoreChild`, its standard output collected line by line.
final class StoreChild: @unchecked Sendable {
    let process = Process()
    private let lock = NSCondition()
    private var lines: [String] = []
    private var ended = false

    init(_ arguments: [String]) throws {
        process.executableURL = builtProduct("NavlogStoreChild")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = Pipe()
        try process.run()
        let handle = out.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while case let chunk = handle.availableData, !chunk.isEmpty {
                buffer += chunk
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    lock.lock(); lines.append(line); lock.broadcast(); lock.unlock()
                }
            }
            lock.lock(); ended = true; lock.broadcast(); lock.unlock()
        }
    }

    /// Waits until a line starting with `prefix` is printed, or `seconds` pass; returns it.
    func waitFor(_ prefix: String, seconds: Double = 20) -> String? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
            if ended || !lock.wait(until: deadline) { return lines.first(where: { $0.hasPrefix(prefix) }) }
        }
    }

    /// Everything printed, once the process has ended and its output is closed.
    func output() -> [String] {
        process.waitUntilExit()
        lock.lock()
        defer { lock.unlock() }
        while !ended { lock.wait() }
        return lines
    }

    func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// The largest `durable SEQ` the child printed.
    static func acknowledged(_ lines: [String]) -> Int {
        lines.compactMap { $0.hasPrefix("durable ") ? Int($0.dropFirst(8)) : nil }.max() ?? 0
    }
}

/// A class, so that each test's directory is removed when the test ends.
@Suite(.serialized) final class StoreProcessTests {
    /// Kills per durability policy; `Tools/crash-test --rounds N` runs more.
    static let rounds = Int(ProcessInfo.processInfo.environment["NAVLOG_CRASH_ROUNDS"] ?? "") ?? 200

    let scratch: ScratchDirectory
    var dir: String { scratch.path }

    init() throws { scratch = try ScratchDirectory() }

    /// Reads the whole log strictly and checks the children's numbered events: consecutive, none
    /// missing, none repeated. Returns the last seq and the last number.
    func checkNumbered(_ path: String) throws -> (lastSeq: Int, lastNumber: Int?) {
        var previous: Int?
        var lastSeq = 0
        var broken: String?
        let report = try LogReader(path: path, mode: .absolute).read { event in
            lastSeq = event.seq
            guard case .setPath(_, _, let routes, _) = event.action, let number = routes.first?.id.flatMap({ Int($0) }) else { return }
            if let previous, number != previous + 1, broken == nil {
                broken = "seq \(event.seq): number \(number) after \(previous)"
            }
            previous = number
        }
        #expect(report.isClean, "\(report.defects)")
        #expect(broken == nil, "\(broken ?? "")")
        return (lastSeq, previous)
    }

    @Test(arguments: ["every", "batched"])
    func aWriterKilledAtRandomMomentsNeverLosesAnAcknowledgedEvent(policy: String) throws {
        let log = dir + "/" + policy
        var random = SeededRandom(seed: policy == "every" ? 11 : 12)
        var tornTails = 0, acknowledgedTotal = 0, killsWhileWriting = 0
        for round in 0..<Self.rounds {
            let child = try StoreChild(["write", log, "--policy", policy, "--segment-size", "16384", "--retention-bytes", "150000"])
            // Every other child is killed only once it acknowledged an event, however slow the
            // machine: so that kills while writing are the test's and not left to the load.
            if round % 2 == 0, child.waitFor("durable ") != nil {
                killsWhileWriting += 1
            }
            usleep(UInt32(random.next() % 25_000))
            child.kill()
            let lines = child.output()
            let acknowledged = StoreChild.acknowledged(lines)
            acknowledgedTotal += acknowledged > 0 ? 1 : 0
            let reopened = try EventLog(directory: log)
            if reopened.recovery.tornTail != nil { tornTails += 1 }
            #expect(reopened.nextSeq - 1 >= acknowledged, "round \(round): seq \(acknowledged) was acknowledged durable")
            try reopened.close()
            let checked = try checkNumbered(log)
            #expect(checked.lastSeq >= acknowledged, "round \(round)")
            if let ready = lines.first(where: { $0.hasPrefix("ready ") }), let first = Int(ready.dropFirst(6)), let last = checked.lastNumber {
                #expect(first <= last + 1, "round \(round): the child continued after the log's last number")
            }
        }
        #expect(killsWhileWriting >= Self.rounds / 2 - 1)
        #expect(acknowledgedTotal > Self.rounds / 4, "most children got events acknowledged before the kill")
        print("\(policy): \(Self.rounds) kills, \(acknowledgedTotal) with acknowledged events, \(tornTails) torn tails cut on reopen")
    }

    @Test func aFileSizeLimitMidAppendFailsTypedMakesTheLogReadOnlyAndKeepsEveryAcknowledgedEvent() throws {
        let log = dir + "/fill"
        let child = try StoreChild(["fill", log, "--limit", "60000"])
        let lines = child.output()
        #expect(child.process.terminationStatus == 0)
        #expect(lines.contains("failed io \(EFBIG)"), "\(lines.suffix(3))")
        #expect(lines.contains("after io nothing written"), "the log takes no more events after the failure")
        let acknowledged = StoreChild.acknowledged(lines)
        #expect(acknowledged > 100)
        let reopened = try EventLog(directory: log)
        try reopened.close()
        let checked = try checkNumbered(log)
        #expect(checked.lastSeq >= acknowledged)
        #expect(checked.lastNumber.map { $0 + 3 } == checked.lastSeq, "snapshot, scene.open, then numbers from 0")
    }

    @Test func aSecondWriterProcessIsRefusedNamingTheHolder() throws {
        let log = dir + "/held"
        let holder = try StoreChild(["hold", log])
        #expect(holder.waitFor("locked") != nil)
        #expect {
            _ = try EventLog(directory: log)
        } throws: { error in
            let error = error as? NavigationHistoryError
            return error?.code == .locked && error?.message.contains("process \(holder.process.processIdentifier)") == true
        }
        holder.kill()
        _ = holder.output()
        // The lock went with the process; now this process holds it and navlog is refused.
        let mine = try EventLog(directory: log)
        let run = try NavlogRun("append", log, "--session", "s", "--event", #"{"type":"scene.open","scene":"main"}"#)
        #expect(run.status == 75)
        #expect(run.stderr.contains("process \(getpid())"))
        try mine.close()
        #expect(try NavlogRun("append", log, "--session", "s", "--event", #"{"type":"scene.open","scene":"main"}"#).status == 0)
    }

    @Test func restoringAfterAKill9MidSessionGivesTheStateAtTheLastDurableEvent() throws {
        let log = dir + "/navigate"
        var random = SeededRandom(seed: 21)
        for round in 0..<20 {
            let child = try StoreChild(["navigate", log])
            #expect(child.waitFor("ready") != nil)
            usleep(UInt32(2_000 + random.next() % 30_000))
            child.kill()
            let acknowledged = StoreChild.acknowledged(child.output())
            var full = NavigationState()
            var last = 0
            let reopened = try EventLog(directory: log)   // as the next launch's recorder would
            try reopened.close()
            try LogReader(path: log, mode: .absolute).read { event in
                Projection.fold(&full, event)
                last = event.seq
            }
            #expect(last >= acknowledged, "round \(round)")
            let restored = try Restorer(options: .init(crashLoopSessions: 1000)).restore(from: log, now: .now)
            // A kill before the first event was durable (the child says it is ready before it
            // records) leaves a log with nothing to restore.
            #expect(restored.guardFired == (last == 0 ? .nothingToRestore : nil), "round \(round)")
            #expect(restored.from == last)
            #expect(restored.state == full, "round \(round): the state at the log's last event")
        }
    }
}
