import Foundation
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress of long work on a terminal: events read and the rate, on standard error, redrawn at most
/// twice a second; nothing at all when standard error is not a terminal (a pipe, a file, a test).
struct Progress {
    private let path: String
    private var label = ""
    /// Whether the line is drawn at all: only on a terminal.
    let enabled = isatty(STDERR_FILENO) == 1
    private let start = ContinuousClock.now
    private var last = ContinuousClock.now
    private var events = 0
    private var shown = false

    /// Progress of reading `path`, whose size is shown beside the count.
    init(_ path: String) { self.path = path }

    /// Counts one event; now and then redraws the line.
    mutating func tick() {
        events += 1
        guard enabled, events & 0xFFFF == 0 else { return }
        redraw()
    }

    /// Counts `count` events at once; redraws the line if it is time to.
    mutating func add(_ count: Int) {
        events += count
        if enabled { redraw() }
    }

    private mutating func redraw() {
        let now = ContinuousClock.now
        guard now - last >= .milliseconds(500) else { return }
        last = now
        if label.isEmpty { label = "\(LogInput.shown(path)) (\(((try? LogFiles.size(path)) ?? 0) / 1_048_576) MiB)" }   // only when drawn
        let seconds = (now - start).seconds
        Diagnostics.progress("\(label): \(events / 1000)K events, \(Int(Double(events) / max(seconds, 0.001) / 1000))K events/s ")
        shown = true
    }

    /// Clears the line, if one was drawn.
    func finish() {
        guard shown else { return }
        Diagnostics.progress(String(repeating: " ", count: Terminal.escaped(label).count + 48))
        Diagnostics.progress("")
    }
}

/// A progress line that several threads count into.
final class SharedProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var progress: Progress

    init(_ path: String) { progress = Progress(path) }

    var enabled: Bool { progress.enabled }

    /// Counts `count` events.
    func add(_ count: Int) { lock.withLock { progress.add(count) } }

    /// Clears the line, if one was drawn.
    func finish() { lock.withLock { progress.finish() } }
}
