extension EventLog {
    /// This log's events from `start` on, then each new one once it is durable (or, under
    /// ``Durability/none``, once it is written), handed over from this log without reading the
    /// disk; see ``LogSubscription``.
    ///
    /// The subscription catches up from the files, then takes new events as this log publishes
    /// them, at each sync. It may be iterated on any task while the log is used on its own thread;
    /// it ends when the log is closed, and throws the log's failure when a write or sync fails.
    ///
    /// ```swift
    /// let log = try EventLog(directory: "app.navlog")
    /// let events = log.events(from: .end)
    /// Task { for try await event in events { print(event.seq, event.type) } }
    /// ```
    ///
    /// - Parameter start: Where to begin; by default the first event the log still holds.
    public func events(from start: SubscriptionStart = .oldest) -> LogSubscription {
        // The end is now: this log knows it without reading.
        LogSubscription(path: directory, start: start == .end ? .seq(nextSeq) : start, feed: feed)
    }

    /// Keeps a `snapshot` event the log just encoded for its subscriptions.
    func collectSnapshot(session: String, at timestamp: Timestamp) {
        guard collects else { return }
        unpublished.append(NavigationEvent(seq: nextSeq, timestamp: timestamp, session: session, action: .snapshot(state: state)))
    }

    /// Publishes the kept events that are as durable as the policy makes them, and how far that is.
    func publishWritten() {
        guard !unpublished.isEmpty || feed.isListened else { return }
        let limit: Int
        if case .none = options.durability { limit = nextSeq - 1 } else { limit = durableSeq }
        let count = unpublished.prefix { $0.seq <= limit }.count
        feed.publish(Array(unpublished[..<count]), through: limit)
        unpublished.removeFirst(count)
    }
}
