import Foundation
@testable import NavigationHistory
import NavigationSimulation

/// `count` generated events, numbered from 1, as the writer would number them.
func generatedEvents(_ count: Int, seed: UInt64 = 1, crashRate: Double = 0.1) -> [NavigationEvent] {
    var generator = LogGenerator(seed: seed, crashRate: crashRate)
    return (1...count).map { seq in
        let draft = generator.next()
        return NavigationEvent(seq: seq, timestamp: draft.timestamp, session: draft.session, action: draft.action)
    }
}

/// The bytes of a log of `events`, one encoded line each.
func logBytes(_ events: [NavigationEvent]) -> [UInt8] {
    events.flatMap { LineEncoder.encode($0) }
}

/// Reads `path` with `mode`, returning the delivered events, the report and the error thrown, if any;
/// `mapsFiles` reads through memory mappings instead of copies of the file's windows.
func readAll(_ path: String, mode: RecoveryMode = .tolerateTornTail, threads: Int = 1, blockSize: Int = 4 << 20,
             mapsFiles: Bool = false) -> (events: [NavigationEvent], report: ReadReport?, error: NavigationHistoryError?) {
    var events = [NavigationEvent]()
    var reader = LogReader(path: path, mode: mode, threads: threads, blockSize: blockSize)
    reader.mapsFiles = mapsFiles
    do {
        let report = try reader.read { events.append($0) }
        return (events, report, nil)
    } catch let error as NavigationHistoryError {
        return (events, nil, error)
    } catch {
        fatalError("unexpected error \(error)")
    }
}

/// Decodes one line given as text.
func decode(_ text: String) throws(LineError) -> NavigationEvent {
    try decodeLine(Array(text.utf8)).event
}

/// Decodes one line given as bytes.
func decodeLine(_ bytes: [UInt8]) throws(LineError) -> DecodedLine {
    let result = bytes.withUnsafeBytes { buffer in Result { () throws(LineError) in try LineDecoder.decode(buffer) } }
    return try result.get()
}

/// The defect kind a line is rejected with, or nil when it decodes.
func rejection(_ text: String) -> DefectKind? {
    do { _ = try decode(text); return nil } catch { return error.kind }
}
