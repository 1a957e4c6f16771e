#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files and directories a process removes when it ends before their owner does: by
/// `exit` (an output error), or by a signal that ends it (Ctrl-C, `kill`, a closed pipe in
/// `navlog dump - | head`). The copy of a piped log, the spool of `append --stdin` and the
/// temporary file of an `-o` output all register here, so one set of handlers serves them all.
///
/// A signal handler may only call functions safe in one, so the paths are C strings made
/// beforehand, kept in fixed slots, and only `unlink` and `rmdir` run; then the signal ends navlog
/// as it would have. A signal navlog was started ignoring (`nohup`) stays ignored. Only navlog
/// arms it: the library's own types install no signal handler of this kind.
package enum RemovalOnExit {
    /// The slots: `groups` groups of `perGroup` paths, each nil or a C string.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: groups * perGroup)
        slots.initialize(repeating: nil, count: groups * perGroup)
        return slots
    }()
    nonisolated(unsafe) private static var used = [Bool](repeating: false, count: groups)
    nonisolated(unsafe) private static var installed = false
    private static let groups = 8
    private static let perGroup = 8

    /// A registration, given back to ``disarm(_:)``.
    package struct Token {
        fileprivate let group: Int
    }

    /// Removes `paths`, in order (a directory's files before it), if navlog ends before
    /// ``disarm(_:)``.
    package static func arm(_ paths: [String]) -> Token {
        precondition(paths.count <= perGroup, "at most \(perGroup) paths a registration")
        installHandlers()
        guard let group = used.firstIndex(of: false) else { preconditionFailure("at most \(groups) registrations at once") }
        used[group] = true
        for (k, path) in paths.enumerated() { slots[group * perGroup + k] = strdup(path) }
        return Token(group: group)
    }

    /// Forgets a registration: its owner removed the paths, or kept them.
    ///
    /// The strings are not freed: a handler running on another thread may be reading one. A
    /// process registers a few, so what stays allocated is a few hundred bytes.
    package static func disarm(_ token: Token) {
        for k in 0..<perGroup { slots[token.group * perGroup + k] = nil }
        used[token.group] = false
    }

    private static func installHandlers() {
        guard !installed else { return }
        installed = true
        // The slots exist before any handler can run: a handler must not make them (malloc).
        _ = slots
        atexit { RemovalOnExit.removeAll() }
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] {
            let previous = signal(number) { number in
                RemovalOnExit.removeAll()
                signal(number, SIG_DFL)
                raise(number)
            }
            if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(number, SIG_IGN)
            }
        }
    }

    /// Removes every armed path; only async-signal-safe calls.
    private static func removeAll() {
        for k in 0..<(groups * perGroup) {
            guard let path = slots[k] else { continue }
            if unlink(path) != 0 { rmdir(path) }
        }
    }
}
