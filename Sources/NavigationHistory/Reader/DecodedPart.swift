/// A part's decoded lines, in order: its events stay where the worker put them, each moved out
/// for its delivery and back in after it, so that the part frees them when it is freed. Not an
/// array of event-or-defect enums, which would copy each event in and out again, retaining and
/// releasing every string: about a third of decoding it.
final class DecodedPart: @unchecked Sendable {
    /// Where a line starts, whether it is the next event or the next defect, and whether the
    /// event's line has a `crc`.
    private struct Line {
        var start: Int
        var isEvent: Bool
        var hasCRC: Bool
    }

    // Only ever used by one thread at a time, handed over through the part board's lock.
    @exclusivity(unchecked) private var lines: [Line] = []
    @exclusivity(unchecked) private var events: UnsafeMutablePointer<NavigationEvent>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var defects: [LineError] = []

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        events = .allocate(capacity: self.capacity)
        lines.reserveCapacity(self.capacity)
    }

    deinit {
        events.deinitialize(count: count)
        events.deallocate()
    }

    func append(_ decoded: consuming DecodedLine, lineStart: Int) {
        if count == capacity {
            let larger = UnsafeMutablePointer<NavigationEvent>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: events, count: count)
            events.deallocate()
            events = larger
            capacity *= 2
        }
        lines.append(Line(start: lineStart, isEvent: true, hasCRC: decoded.hasCRC))
        (events + count).initialize(to: decoded.event)
        count += 1
    }

    func append(_ defect: LineError, lineStart: Int) {
        defects.append(defect)
        lines.append(Line(start: lineStart, isEvent: false, hasCRC: false))
    }

    /// Hands the lines to `merger` in order, until it stops; `finalLine` when the part's last line
    /// is the log's last.
    func deliver(fileOffset: Int, finalLine: Bool, merger: inout Merger, _ body: PositionedBody) throws {
        var defect = 0
        var delivered = 0
        for (k, line) in lines.enumerated() {
            if merger.stopped { return }
            let isLastLine = finalLine && k == lines.count - 1
            if line.isEvent {
                // Moved out into a constant of its own, and back after: handed over from the
                // buffer, or as a member of a moved-out value, it was copied, every string retained
                // and released again.
                let slot = events + delivered
                delivered += 1
                let event = slot.move()
                var failure: (any Error)?
                do {
                    try merger.event(event, hasCRC: line.hasCRC, offset: fileOffset + line.start, isLastLine: isLastLine, body)
                } catch {
                    failure = error
                }
                slot.initialize(to: consume event)
                if let failure { throw failure }
            } else {
                merger.defect(defects[defect], offset: fileOffset + line.start, isLastLine: isLastLine)
                defect += 1
            }
        }
    }
}
