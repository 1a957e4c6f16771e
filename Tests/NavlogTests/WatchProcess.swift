import Foundation

/// A running `navlog watch`: its standard output and standard error read line by line as they
/// come, each on a thread of its own, so a test waits for the lines it expects (never for a time)
/// and then stops it as Ctrl-C does.
final class WatchProcess: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    /// The lines of standard output (0) and standard error (1) so far.
    private var streams: [[String]] = [[], []]
    /// How many of the two streams have not ended.
    private var open = 2

    init(_ arguments: [String]) throws {
        process.executableURL = NavlogRun.binary
        process.arguments = ["watch"] + arguments
        let out = Pipe(), errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        _ = ignoreBrokenPipes
        try process.run()
        collect(out.fileHandleForReading.fileDescriptor, into: 0)
        collect(errors.fileHandleForReading.fileDescriptor, into: 1)
    }

    /// The lines printed so far, once `done` holds for them or the output ended, or after
    /// `seconds` (a generous bound, for a machine under load).
    func lines(until done: ([String]) -> Bool, seconds: Double = 120) -> [String] {
        wait(for: 0, until: done, seconds: seconds)
    }

    /// The lines of standard error so far, as ``lines(until:seconds:)`` waits for them.
    func errorLines(until done: ([String]) -> Bool, seconds: Double = 120) -> [String] {
        wait(for: 1, until: done, seconds: seconds)
    }

    /// Sends SIGINT, as Ctrl-C does, and returns the exit status and standard error.
    func interrupt() -> (status: Int32, stderr: String) {
        kill(process.processIdentifier, SIGINT)
        return finish()
    }

    /// Waits for the process to end by itself, within `seconds`, else kills it (a watch that
    /// never ends then shows as its status, SIGKILL's 9); returns its exit status and standard error.
    func finish(seconds: Double = 120) -> (status: Int32, stderr: String) {
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: seconds)
        while open > 0, condition.wait(until: deadline) {}
        let ended = open == 0
        condition.unlock()
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        _ = errorLines(until: { _ in false }, seconds: 30)
        condition.lock()
        defer { condition.unlock() }
        return (process.terminationStatus, streams[1].map { $0 + "\n" }.joined())
    }

    private func wait(for stream: Int, until done: ([String]) -> Bool, seconds: Double) -> [String] {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !done(streams[stream]) && open > 0 {
            if !condition.wait(until: deadline) { break }
        }
        return streams[stream]
    }

    /// Reads `fd` to its end on a thread of its own, each line into `streams[stream]` as it comes.
    private func collect(_ fd: Int32, into stream: Int) {
        Thread { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                pending += buffer[..<n]
                condition.lock()
                while let newline = pending.firstIndex(of: 0x0A) {
                    streams[stream].append(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            if !pending.isEmpty { streams[stream].append(String(decoding: pending, as: UTF8.self)) }
            open -= 1
            condition.broadcast()
            condition.unlock()
        }.start()
    }
}
