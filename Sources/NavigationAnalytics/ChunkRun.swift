import NavigationHistory

/// One chunk of a chunked reading: its stream and its copy of the query.
struct ChunkRun {
    var stream: ViewStreamState
    var sink: QuerySink
    /// The session ids seen before the event that begins the next chunk.
    var seenBeforeEnd = StringSet()

    mutating func consume(_ event: NavigationEvent, at position: EventPosition, endsChunk: Bool) throws {
        if endsChunk { seenBeforeEnd = stream.seen }
        try stream.consume(event, at: position, into: &sink)
    }

    /// Whether the chunks' views are those of a reading in order. Each chunk began with a
    /// `session.start`, where the fold's state is empty and no view is open, as in order. They
    /// differ when a session id a chunk saw was seen by a chunk before: in order, it would be
    /// numbered as a new part. And the queries' merges need each session's views in one chunk,
    /// under names no other chunk's views have: a view that a store snapshot at the log's start
    /// began is of the snapshot's session, which its `session.start` may begin in the next chunk;
    /// and a later part's name (`A#2`) may be another chunk's session id.
    static func standForOneReading(_ chunks: [Self]) -> Bool {
        // A chunk's views are named by the ids it saw before its end (the event it ends with
        // begins no view) or by its unseen sessions: no name is in two chunks when neither is.
        // Each two chunks apart, through the smaller set of the two, rather than each chunk against
        // the union of those before: the union would copy the largest set, and the chunks split
        // off for idle threads are small.
        chunks.indices.allSatisfy { k in
            let later = chunks[k]
            return chunks[..<k].allSatisfy { earlier in
                earlier.seenBeforeEnd.isDisjoint(with: later.stream.seen)
                    && earlier.stream.unseenSessions.isDisjoint(with: later.stream.seen)
                    && earlier.stream.unseenSessions.isDisjoint(with: later.stream.unseenSessions)
                    && earlier.seenBeforeEnd.isDisjoint(with: later.stream.unseenSessions)
            }
        }
    }
}

