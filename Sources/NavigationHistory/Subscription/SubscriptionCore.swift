/// What a subscription's iterator does: catch up from the files, then follow new events — from a
/// ``LiveFeed`` in the writing process, else from the files as the kernel says they change.
///
/// Every event read, from the files or the feed, goes through one gate (``accept(_:)``): its seq
/// must follow the last one seen, or it was seen already and is passed over; from a feed, a seq
/// further on means events came that the feed did not carry, which the files hold (the log
/// publishes only what it wrote), so reading goes back to the files until they are caught up.
///
/// Used by one task at a time, as an async iterator is.
final class SubscriptionCore: @unchecked Sendable {
    private let start: SubscriptionStart
    private let cursor: FollowCursor
    private let feed: LiveFeed?
    private let onWait: (@Sendable (LogWait) -> Void)?
    /// What `onWait` was last told, nil since the cursor found its log.
    private var announced: LogWait?
    private let wakeup = Wakeup()
    private let mailbox: Mailbox
    private var watcher: FileChangeWatcher?
    private var attached = false
    private var live = false
    /// The seq the feed said the log is published through: when the events taken from it end
    /// before, the rest is in the files.
    private var liveThrough = 0
    /// The feed ended (its log was closed): what the files hold is all there is.
    private var feedEnded = false
    /// Events with a smaller seq are read (and folded) but not handed over; nil until known (a
    /// subscription from the end learns it once it has read what the log held).
    private var threshold: Int?
    /// The last seq read from the files or the feed.
    private var lastSeen = 0
    private var folding: StateFolding?
    private var ready: [NavigationEvent] = []
    private var readyIndex = 0
    private var finished = false

    init(path: String, start: SubscriptionStart, feed: LiveFeed?, folds: Bool, onWait: (@Sendable (LogWait) -> Void)? = nil) {
        self.start = start
        self.feed = feed
        self.onWait = onWait
        let beginning: FollowCursor.Beginning = switch start {
        case .oldest: .oldest
        case .seq(let seq): .holding(seq)
        case .end: .last
        }
        cursor = FollowCursor(path: path, beginning: beginning)
        mailbox = Mailbox(wakeup: wakeup)
        folding = folds ? StateFolding() : nil
        switch start {
        case .oldest: threshold = 0
        case .seq(let seq): threshold = seq
        case .end: threshold = nil
        }
    }

    deinit { stop() }

    private func stop() {
        finished = true
        if attached { feed?.detach(mailbox) }
        attached = false
        watcher?.cancel()
        watcher = nil
    }

    /// The next event with the state after it (when folding), nil when the log was closed in this
    /// process or the task was cancelled.
    func next() async throws -> (event: NavigationEvent, state: NavigationState?, anomaly: Projection.Anomaly?)? {
        while !finished {
            if Task.isCancelled {
                stop()
                return nil
            }
            while readyIndex < ready.count {
                let event = ready[readyIndex]
                readyIndex += 1
                switch accept(event) {
                case .pass: continue
                case .gap:
                    live = false
                    ready = []
                    readyIndex = 0
                case .hand(let anomaly): return (event, folding?.state, anomaly)
                }
            }
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            do {
                try await fill()
            } catch {
                stop()
                throw error
            }
        }
        return nil
    }

    private enum Verdict { case pass, gap, hand(Projection.Anomaly?) }

    /// Whether `event` is handed over, passed over (seen, or before the start), or shows a gap.
    private func accept(_ event: NavigationEvent) -> Verdict {
        if event.seq <= lastSeen { return .pass }
        // From the feed, only the very next seq is taken; anything else is read from the files.
        if live, lastSeen == 0 || event.seq != lastSeen + 1 { return .gap }
        lastSeen = event.seq
        let anomaly = folding?.fold(event)
        guard let threshold, event.seq >= threshold else { return .pass }
        return .hand(anomaly)
    }

    /// Reads more events into `ready`, waiting for them when there are none.
    private func fill() async throws {
        if live, lastSeen < liveThrough { live = false }
        if live {
            switch mailbox.take() {
            case .events(let events, let through):
                ready = events
                liveThrough = through
                if events.isEmpty, through <= lastSeen { await wakeup.wait() }
            case .overflowed: live = false
            case .ended(let error):
                if let error {
                    stop()
                    throw error
                }
                live = false
                feedEnded = true
            }
            return
        }
        let events = try cursor.poll()
        if cursor.absence != announced {
            announced = cursor.absence
            if let absence = announced { onWait?(absence) }
        }
        if !events.isEmpty {
            ready = events
            return
        }
        // At the end of what the files hold now.
        if threshold == nil { threshold = lastSeen + 1 }
        if feedEnded {
            stop()
            return
        }
        if let feed {
            if attached {
                live = true
            } else {
                // Attached first, then the files read once more: whatever was published before the
                // attaching was written before it too.
                feed.attach(mailbox)
                attached = true
            }
            return
        }
        if watch() { return }   // a new watch: look again before waiting, as it saw nothing yet
        await wakeup.wait()
    }

    /// Watches what the cursor needs watched; returns whether a watch was added.
    private func watch() -> Bool {
        let watcher = self.watcher ?? FileChangeWatcher(wakeup: wakeup)
        let isNew = self.watcher == nil
        self.watcher = watcher
        let targets = cursor.watchTargets
        var added = isNew
        for directory in targets.directories where !watcher.isWatching(directory) {
            watcher.watchDirectory(directory)
            added = true
        }
        if let file = targets.file { watcher.watchFile(file) }
        return added
    }
}
