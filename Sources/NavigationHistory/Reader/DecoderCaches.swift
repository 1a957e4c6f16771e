/// The decoding caches of one reading, one for each thread that decodes its lines, kept from part
/// to part and window to window: a cache made for each part starts cold, and the part's first lines
/// then make anew the strings and maps a warm one hands out; a seek, which reads a few parts,
/// would pay for making each (`NavlogBench timeline --seek-log`). A timeline keeps its own from
/// seek to seek, for the same reason: a seek reads a few thousand lines, and a cache made for it
/// would make anew most of the strings and maps of the lines it reads.
///
/// Used by one reading at a time: a reading's workers are done with their caches before it returns.
package final class DecoderCaches: @unchecked Sendable {
    /// The calling thread's, which delivers the events.
    let delivering = DecodingCache()
    /// Each worker's, by the worker's number from 0; made when first asked for.
    private var workers: [DecodingCache] = []

    package init() {}

    deinit {
        delivering.deallocate()
        for cache in workers { cache.deallocate() }
    }

    /// Worker `k`'s cache, for its thread alone while it decodes; asked for on the calling thread.
    func worker(_ k: Int) -> DecodingCache {
        while workers.count <= k { workers.append(DecodingCache()) }
        return workers[k]
    }
}
