extension LogReader {
    /// Reads `file` from `offset` a window at a time, mapped or copied alike (``FileWindows``),
    /// and hands its lines to the merger in order; `isLastFile` when it is the log's last file.
    /// `chores` holds what the reading's workers put away.
    func readFile(_ file: String, from offset: Int, isLastFile: Bool, buffers: ReadBuffers, chores: Chores, caches: DecoderCaches,
                  merger: inout Merger, _ body: PositionedBody) throws {
        let windows = try FileWindows(path: file, from: offset, blockSize: blockSize, maps: mapsFiles,
                                      chores: threads > 1 ? chores : nil, buffers: buffers)
        var next: Int? = offset
        // Where a line longer than a window began, while the windows are skipped to its end.
        var longLineStart: Int?
        while let from = next, !merger.stopped {
            let window = try windows.window(from: from)
            merger.report.bytes += window.freshBytes
            do {
                next = try readWindow(window, isLastFile: isLastFile, longLineStart: &longLineStart, windows: windows,
                                      chores: chores, caches: caches, merger: &merger, body)
            } catch {
                // When the file shrank under the window, that is what went wrong.
                try windows.release()
                throw error
            }
            try windows.release()
        }
    }

    /// Hands the complete lines of `window` to the merger, and what the window's end holds: a torn
    /// last line at the file's end, or a line that goes on into the next window.
    ///
    /// - Returns: Where the next window begins, nil when the file is read or the merger stopped.
    private func readWindow(_ window: Window, isLastFile: Bool, longLineStart: inout Int?, windows: FileWindows,
                            chores: Chores, caches: DecoderCaches, merger: inout Merger, _ body: PositionedBody) throws -> Int? {
        let bytes = window.bytes
        let filled = bytes.count
        let fileOffset = window.fileOffset
        let endsFile = window.endsFile
        var start = window.start
        if let longStart = longLineStart {
            guard let newline = memchrIndex(bytes, 0x0A, from: start, to: filled) else {
                if endsFile {
                    merger.defect(Self.overLongAtEnd(from: longStart, to: fileOffset + filled), offset: longStart, isLastLine: isLastFile)
                    return nil
                }
                return fileOffset + filled
            }
            let length = fileOffset + newline - longStart
            merger.defect(LineError(.lineTooLong, at: 0, "line is \(length) bytes, longer than the 64 KiB limit"),
                          offset: longStart, isLastLine: isLastFile && endsFile && newline + 1 == filled)
            longLineStart = nil
            start = newline + 1
        }
        let completeEnd = lastNewline(bytes, from: start, to: filled).map { $0 + 1 } ?? start
        // The next window begins with the line this one ends inside, unless this one is all one line.
        if !endsFile, completeEnd > window.start { windows.readAhead(from: fileOffset + completeEnd) }
        if completeEnd > start {
            try decodeLines(bytes, start: start, end: completeEnd, fileOffset: fileOffset,
                            finalLine: isLastFile && endsFile && completeEnd == filled, chores: chores, caches: caches,
                            merger: &merger, body)
            if merger.stopped { return nil }
        }
        if endsFile {
            if completeEnd < filled {
                let tail = UnsafeRawBufferPointer(rebasing: bytes[completeEnd..<filled])
                merger.defect(LineError(.tornLine, at: 0, Self.describeTorn(tail)), offset: fileOffset + completeEnd, isLastLine: isLastFile)
            }
            return nil
        }
        if completeEnd == window.start {
            // A whole window without a newline: the line is too long; skip to its end.
            longLineStart = fileOffset + window.start
            return fileOffset + filled
        }
        return fileOffset + completeEnd
    }

    /// The defect of a line longer than the limit that runs from `start` to the file's end at `end`.
    private static func overLongAtEnd(from start: Int, to end: Int) -> LineError {
        LineError(.tornLine, at: 0, "an over-long line of \(end - start) bytes without a newline at end of file")
    }

    private static func describeTorn(_ tail: UnsafeRawBufferPointer) -> String {
        if tail.allSatisfy({ $0 == 0 }) {
            return "no newline at end of file (\(tail.count) zero bytes, as a preallocated or partly written block leaves)"
        }
        return "no newline at end of file (\(tail.count) byte\(tail.count == 1 ? "" : "s"))"
    }
}
