import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Signals a ``Wakeup`` whenever something may have changed in the watched directories or files:
/// inotify on Linux, a dispatch source (kqueue) on Apple platforms, and a timed poll every
/// ``pollInterval`` only where neither can watch a path. The kernel wakes it: while nothing
/// changes it takes no CPU.
///
/// A change is only a hint to look again; the files say what changed.
package final class FileChangeWatcher: @unchecked Sendable {
    /// How often a path that cannot be watched is looked at.
    package static let pollInterval: DispatchTimeInterval = .milliseconds(100)

    private let wakeup: Wakeup
    private let queue = DispatchQueue(label: "NavigationHistory.FileChangeWatcher")
    private let lock = NSLock()
    private var sources: [any DispatchSourceProtocol] = []
    private var watched: Set<String> = []
    private var timer: (any DispatchSourceTimer)?
    #if canImport(Glibc) || canImport(Musl)
    private var inotify: Int32 = -1
    #elseif canImport(Darwin)
    private var fileSource: (path: String, source: any DispatchSourceFileSystemObject)?
    #endif

    package init(wakeup: Wakeup) {
        self.wakeup = wakeup
    }

    deinit { cancel() }

    /// Whether a timed poll stands in for a path that could not be watched.
    package var isPolling: Bool {
        lock.lock()
        defer { lock.unlock() }
        return timer != nil
    }

    /// Whether `directory` is watched (or polled for).
    package func isWatching(_ directory: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return watched.contains(directory) || timer != nil
    }

    /// Watches the entries of `directory` (files created, renamed, deleted) and, on Linux, the
    /// contents of its files. Returns false, and polls instead, when it cannot be watched.
    @discardableResult
    package func watchDirectory(_ directory: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if watched.contains(directory) { return true }
        if addDirectoryWatch(directory) {
            watched.insert(directory)
            return true
        }
        startPolling()
        return false
    }

    /// Watches the contents of `file`, in a directory already watched: needed on Apple platforms,
    /// where a directory's watch does not see its files grow; only the last file given is watched.
    package func watchFile(_ file: String) {
        #if canImport(Darwin)
        lock.lock()
        defer { lock.unlock() }
        if fileSource?.path == file { return }
        fileSource?.source.cancel()
        fileSource = nil
        let fd = open(file, O_EVTONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: [.write, .extend, .delete, .rename, .attrib],
                                                               queue: queue)
        source.setEventHandler { [wakeup] in wakeup.signal() }
        source.setCancelHandler { close(fd) }
        source.resume()
        fileSource = (file, source)
        #endif
    }

    /// Stops watching. A signal already on its way may still come.
    package func cancel() {
        lock.lock()
        let all = sources
        sources = []
        timer?.cancel()
        timer = nil
        #if canImport(Darwin)
        fileSource?.source.cancel()
        fileSource = nil
        #endif
        lock.unlock()
        for source in all { source.cancel() }
    }

    /// With the lock held.
    private func startPolling() {
        guard timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.pollInterval, repeating: Self.pollInterval)
        timer.setEventHandler { [wakeup] in wakeup.signal() }
        timer.resume()
        self.timer = timer
    }

    #if canImport(Glibc) || canImport(Musl)
    /// With the lock held. One inotify descriptor for every watched directory; each watch reports
    /// its entries' creation, renames and deletion, and their contents' changes.
    private func addDirectoryWatch(_ directory: String) -> Bool {
        if inotify < 0 {
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { return false }
            inotify = fd
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [wakeup] in
                // Drained whole: the events only say "look again", and the files say what changed.
                var buffer = [UInt8](repeating: 0, count: 4096)
                while read(fd, &buffer, buffer.count) > 0 {}
                wakeup.signal()
            }
            source.setCancelHandler { close(fd) }
            source.resume()
            sources.append(source)
        }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | IN_CLOSE_WRITE
                          | IN_DELETE_SELF | IN_MOVE_SELF)
        return inotify_add_watch(inotify, directory, mask) >= 0
    }
    #elseif canImport(Darwin)
    /// With the lock held. A dispatch source (kqueue) on the directory sees entries come and go;
    /// ``watchFile(_:)`` sees a file grow.
    private func addDirectoryWatch(_ directory: String) -> Bool {
        let fd = open(directory, O_EVTONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: [.write, .delete, .rename, .link],
                                                               queue: queue)
        source.setEventHandler { [wakeup] in wakeup.signal() }
        source.setCancelHandler { close(fd) }
        source.resume()
        sources.append(source)
        return true
    }
    #else
    private func addDirectoryWatch(_ directory: String) -> Bool { false }
    #endif
}
