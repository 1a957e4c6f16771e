extension LogReader {
    /// Reads `input` from `offset` through windows of its mapping, as ``readFile`` reads it through
    /// copies of its blocks: the same blocks (each window holds `blockSize` bytes from the start
    /// of the line the last one ended inside), the same lines, defects and byte counts, without
    /// the kernel copying every byte into a buffer first.
    ///
    /// - Returns: False, having read nothing, when the file cannot be mapped (a pipe): read it
    ///   through copies then.
    /// - Throws: `io` when the file shrinks while it is read (the guard saw a read past its end)
    ///   or a later window cannot be mapped; and what the merger and `body` throw.
    func readMapped(_ input: InputFile, from offset: Int, isLast: Bool, merger: inout Merger,
                    _ body: PositionedBody) throws -> Bool {
        var next = offset   // where the next window's bytes begin: the first line not yet decoded
        var longLineStart: Int?
        var counted = offset   // the bytes before it are counted in the report
        var mappedAny = false
        while !merger.stopped {
            let size = input.size()
            // Bytes already read are gone: the file shrank. Else nothing from `next` on: the end.
            guard size >= counted || !mappedAny else { throw Self.shrank(input) }
            let end = min(next + blockSize, size)
            guard end > next else {
                if let longStart = longLineStart {
                    merger.defect(Self.overLongAtEnd(from: longStart, to: next), offset: longStart, isLastLine: isLast)
                }
                return true
            }
            let pageStart = next - next % InputFile.pageSize
            let window: MappedBytes
            do {
                window = try input.map(offset: pageStart, length: end - pageStart)
            } catch {
                if !mappedAny { return false }
                throw error
            }
            mappedAny = true
            merger.report.bytes += end - max(next, counted)
            counted = end
            var shrank = false
            let step: WindowStep
            do {
                defer { shrank = window.unmap() }
                step = try readWindow(window, from: next - pageStart, eof: end == size, isLast: isLast,
                                      longLineStart: &longLineStart, merger: &merger, body)
            } catch {
                if shrank { throw Self.shrank(input) }
                throw error
            }
            if shrank { throw Self.shrank(input) }
            switch step {
            case .done: return true
            case .next(let start): next = start
            }
        }
        return true
    }

    /// What follows a window: the end of the reading, or the next window from a file offset.
    private enum WindowStep {
        case done
        case next(Int)
    }

    /// Decodes the complete lines of `window` from `start` on, as ``readFile`` decodes a block.
    private func readWindow(_ window: MappedBytes, from start: Int, eof: Bool, isLast: Bool, longLineStart: inout Int?,
                            merger: inout Merger, _ body: PositionedBody) throws -> WindowStep {
        let base = window.bytes
        let filled = base.count
        let fileOffset = window.fileOffset
        let blockStart = start
        var start = start
        if let longStart = longLineStart {
            guard let newline = memchrIndex(base, 0x0A, from: start, to: filled) else {
                if eof {
                    merger.defect(Self.overLongAtEnd(from: longStart, to: fileOffset + filled), offset: longStart, isLastLine: isLast)
                    return .done
                }
                return .next(fileOffset + filled)
            }
            let length = fileOffset + newline - longStart
            merger.defect(LineError(.lineTooLong, at: 0, "line is \(length) bytes, longer than the 64 KiB limit"),
                          offset: longStart, isLastLine: isLast && eof && newline + 1 == filled)
            longLineStart = nil
            start = newline + 1
        }
        let completeEnd = memrchrIndex(base, 0x0A, from: start, to: filled).map { $0 + 1 } ?? start
        if completeEnd > start {
            try decodeLines(base, start: start, end: completeEnd, fileOffset: fileOffset,
                            finalLine: isLast && eof && completeEnd == filled, merger: &merger, body)
            if merger.stopped { return .done }
        }
        if eof {
            if completeEnd < filled {
                let tail = UnsafeRawBufferPointer(rebasing: base[completeEnd..<filled])
                merger.defect(LineError(.tornLine, at: 0, Self.describeTorn(tail)), offset: fileOffset + completeEnd, isLastLine: isLast)
            }
            return .done
        }
        if completeEnd == blockStart {
            // A whole block without a newline: the line is too long; skip to its end.
            longLineStart = fileOffset + start
            return .next(fileOffset + filled)
        }
        return .next(fileOffset + completeEnd)
    }

    private static func shrank(_ input: InputFile) -> NavigationHistoryError {
        NavigationHistoryError(code: .io, message: "the file shrank while it was read", path: input.path)
    }
}
