import Dispatch
import NavigationHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP noted rather than obeyed, while a command finishes a step it must
/// not be cut in (a batch of `append`): the command looks at ``caught`` between steps, stops, and
/// says what it did. A signal navlog was started ignoring (`nohup`) stays ignored; ``end()`` gives
/// each signal back its handler.
final class Interruption {
    private let first = Locked<Int32?>(nil)
    private let watched: [(number: Int32, previous: sighandler_t?, source: any DispatchSourceSignal)]

    /// Begins noting the signals.
    init() {
        var watched: [(Int32, sighandler_t?, any DispatchSourceSignal)] = []
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(number, SIG_IGN)
            if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [first] in first.withLock { if $0 == nil { $0 = number } } }
            source.resume()
            watched.append((number, previous, source))
        }
        self.watched = watched
    }

    /// The first signal received, if one was.
    var caught: Int32? { first.withLock { $0 } }

    /// Stops noting the signals: each is handled again as before.
    func end() {
        for (number, previous, source) in watched {
            source.cancel()
            _ = signal(number, previous)
        }
    }

    /// The name of signal `number`, as `kill -l` gives it.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}
