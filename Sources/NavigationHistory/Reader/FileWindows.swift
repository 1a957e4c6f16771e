import Dispatch

/// A run of a file's bytes in memory, mapped or copied, whose lines the reader walks.
struct Window {
    /// The bytes: the file's, from `fileOffset` on.
    let bytes: UnsafeRawBufferPointer
    /// Where in the file `bytes` begin.
    let fileOffset: Int
    /// Where in `bytes` the window's lines begin: a mapping begins at the page they begin on.
    let start: Int
    /// Whether the window ends at the file's end.
    let endsFile: Bool
    /// How many of its bytes no window before held.
    let freshBytes: Int
}

/// A file's bytes brought into memory a window at a time: each window holds up to `blockSize`
/// bytes from where the reading asks (the start of the line the window before ended inside).
///
/// Windows are copied into a buffer with `read`, the next one read into a spare buffer meanwhile
/// when the reading has one; or, when the reader maps files (``LogReader/mapsFiles``), mapped —
/// unless the first mapping fails, and then copied. A mapping is guarded: when the file shrinks
/// under it, reads past the new end see zeros, and ``release()`` throws.
final class FileWindows {
    private let input: InputFile
    private let blockSize: Int
    private let buffers: ReadBuffers
    /// Whether windows are mapped.
    private var maps: Bool
    /// The window mapped now, until ``release()``.
    private var mapped: MappedBytes?
    private var mappedAny = false
    /// The bytes before this file offset were in a mapped window already.
    private var counted: Int
    /// The copied bytes: `filled` bytes of the file from `copiedOffset`, in the current buffer.
    private var copiedOffset: Int
    private var filled = 0
    /// The read of the window that begins at `offset` into the spare buffer.
    private var reading: (offset: Int, read: BlockRead)?
    /// Where a released mapping is left to be unmapped, when the reading has workers: unmapping a
    /// 4 MiB window takes the reading's thread a twentieth of the window's time (`NavlogBench
    /// read`, all cores).
    private let chores: Chores?

    /// Opens `path` to read it from `offset` on; `chores` when the reading has workers to leave the
    /// unmapping of the windows it is done with to.
    ///
    /// - Throws: What ``InputFile/init(path:)`` throws, and `io` when it cannot seek to `offset`.
    init(path: String, from offset: Int, blockSize: Int, maps: Bool, chores: Chores?, buffers: ReadBuffers) throws {
        input = try InputFile(path: path)
        self.blockSize = blockSize
        self.buffers = buffers
        self.maps = maps
        self.chores = chores
        counted = offset
        copiedOffset = offset
        if !maps, offset > 0 { try input.seek(to: offset) }
    }

    // A read ahead writes into the buffers, and a mapping holds a guard's slot, whatever stopped
    // the reading.
    deinit {
        reading?.read.wait()
        if let mapped {
            _ = mapped.unguard()
            mapped.unmap()
        }
    }

    /// The window from `offset`: where the window before ended, or the start of the line it ended
    /// inside. Empty, at the file's end, when nothing is left.
    ///
    /// - Throws: `io` when reading fails, or the file shrank below bytes a mapping held, or a
    ///   mapping fails after the first.
    func window(from offset: Int) throws -> Window {
        if maps {
            do {
                return try mappedWindow(from: offset)
            } catch where !mappedAny {
                // The file cannot be mapped: it is copied.
                maps = false
                try input.seek(to: offset)
            }
        }
        return try copiedWindow(from: offset)
    }

    /// Starts reading the window that begins at `offset` into the spare buffer, for ``window(from:)``
    /// to return, while the current one's lines are decoded; nothing when windows are mapped or
    /// the reading has no spare buffer.
    func readAhead(from offset: Int) {
        guard !maps, let spare = buffers.spare else { return }
        let kept = copiedOffset + filled - offset
        if kept > 0 { spare.baseAddress!.copyMemory(from: buffers.current.baseAddress! + filled - kept, byteCount: kept) }
        reading = (offset, BlockRead(input, into: spare, from: kept))
    }

    /// Gives back the last window's mapping, if it has one.
    ///
    /// - Throws: `io` when the file shrank under the mapping, so that reads past its end saw zeros.
    func release() throws {
        guard let window = mapped else { return }
        mapped = nil
        let shrank = window.unguard()
        if chores?.unmap(window) != true { window.unmap() }
        if shrank { throw self.shrank() }
    }

    private func mappedWindow(from offset: Int) throws -> Window {
        let size = input.size()
        guard size >= counted || !mappedAny else { throw shrank() }
        let end = min(offset + blockSize, size)
        guard end > offset else {
            return Window(bytes: UnsafeRawBufferPointer(start: nil, count: 0), fileOffset: offset, start: 0, endsFile: true, freshBytes: 0)
        }
        let pageStart = offset - offset % InputFile.pageSize
        let window = try input.map(offset: pageStart, length: end - pageStart)
        mapped = window
        mappedAny = true
        defer { counted = end }
        return Window(bytes: window.bytes, fileOffset: pageStart, start: offset - pageStart, endsFile: end == size,
                      freshBytes: end - max(offset, counted))
    }

    private func copiedWindow(from offset: Int) throws -> Window {
        // The bytes from `offset` on that the buffer holds: the line the window before ended inside.
        let kept = copiedOffset + filled - offset
        precondition(kept >= 0 && kept <= filled, "a window begins within the one before or where it ends")
        if let ahead = reading {
            precondition(ahead.offset == offset, "the window read ahead is the one asked for")
            reading = nil
            filled = try ahead.read.result()
            buffers.swap()
        } else {
            let buffer = buffers.current
            if kept > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + filled - kept, byteCount: kept) }
            filled = try input.fill(buffer, from: kept)
        }
        copiedOffset = offset
        // A full buffer may end at the file's end: its last line is then the file's last.
        let endsFile = filled < buffers.size || input.size() == offset + filled
        return Window(bytes: UnsafeRawBufferPointer(rebasing: buffers.current[..<filled]), fileOffset: offset, start: 0,
                      endsFile: endsFile, freshBytes: filled - kept)
    }

    private func shrank() -> NavigationHistoryError {
        NavigationHistoryError(code: .io, message: "the file shrank while it was read", path: input.path)
    }
}

/// The buffers a reading copies windows into, lent to the windows of each of its files in turn:
/// allocated when first used; the spare, that the next window is read into while one is decoded,
/// only for a reading that reads ahead.
final class ReadBuffers {
    /// The bytes each buffer holds.
    let size: Int
    private let hasSpare: Bool
    private var buffers: (current: UnsafeMutableRawBufferPointer, spare: UnsafeMutableRawBufferPointer?)?

    init(size: Int, spare: Bool) {
        self.size = size
        hasSpare = spare
    }

    deinit {
        buffers?.current.deallocate()
        buffers?.spare?.deallocate()
    }

    /// The buffer the current window is in.
    var current: UnsafeMutableRawBufferPointer { allocated().current }

    /// The buffer the next window is read into meanwhile; nil when the reading does not read ahead.
    var spare: UnsafeMutableRawBufferPointer? { allocated().spare }

    /// Makes the spare the current buffer, and the current one the spare.
    func swap() {
        let (current, spare) = allocated()
        buffers = (spare!, current)
    }

    private func allocated() -> (current: UnsafeMutableRawBufferPointer, spare: UnsafeMutableRawBufferPointer?) {
        if let buffers { return buffers }
        let made = (current: UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16),
                    spare: hasSpare ? UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16) : nil)
        buffers = made
        return made
    }
}

/// A window being read on another thread.
private final class BlockRead: @unchecked Sendable {
    private var filled = 0
    private var error: (any Error)?
    private let done = DispatchSemaphore(value: 0)
    private var waited = false

    /// Starts filling `buffer` from `from` on, from `input`'s position.
    init(_ input: InputFile, into buffer: UnsafeMutableRawBufferPointer, from: Int) {
        nonisolated(unsafe) let buffer = buffer
        nonisolated(unsafe) let input = input
        DispatchQueue.global().async {
            do { self.filled = try input.fill(buffer, from: from) } catch { self.error = error }
            self.done.signal()
        }
    }

    /// Waits for the read to end.
    func wait() {
        guard !waited else { return }
        done.wait()
        waited = true
    }

    /// Waits for the read and returns the bytes now in the buffer; rethrows its error.
    func result() throws -> Int {
        wait()
        if let error { throw error }
        return filled
    }
}
