/// The views the events ended, waiting to be taken in order: each view is moved in once, where the
/// tracker ends it, and moved out once, where the caller takes it.
///
/// Held in storage of its own rather than an array: moving a view in and out of an array takes
/// a move more each way (a swap, an optional's payload), and a 200-byte `ScreenView` is moved
/// with a `memcpy` call, whose wide loads stall on the narrow stores that just wrote the view.
/// In an array, those moves were 8% of `navlog funnel`'s time. No pointer leaves this type.
package final class EndedViews: @unchecked Sendable {
    // Only ever used by the one thread that reads the log.
    @exclusivity(unchecked) private var views: UnsafeMutablePointer<ScreenView>
    @exclusivity(unchecked) private var capacity: Int
    /// Views `[taken, count)` are held; those before `taken` were moved out.
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var taken = 0

    /// Creates an empty buffer.
    package init() {
        capacity = 4
        views = .allocate(capacity: capacity)
    }

    deinit {
        (views + taken).deinitialize(count: count - taken)
        views.deallocate()
    }

    /// How many views are held.
    package var held: Int { count - taken }

    /// Ends the view in `slot` at `end`, moved out, and moves `next` into `slot` in its place; a
    /// view with no time in the foreground is dropped unless it `crashed`.
    func end(replacing slot: inout ScreenView, with next: consuming ScreenView, at end: (seq: Int, timestamp: Timestamp),
             crashed: Bool) {
        reserveOne()
        var next: ScreenView? = consume next   // for the closure to take
        withUnsafeMutablePointer(to: &slot) { slot in
            // Moved first, then changed in place: changed before, its new words were still being
            // stored when the move read them.
            (views + count).moveInitialize(from: slot, count: 1)
            slot.initialize(to: next.take()!)
        }
        endLast(at: end, crashed: crashed, keepInstant: false)
    }

    /// Ends `view` at `end`; a view with no time in the foreground is dropped unless it
    /// `crashed` or is to be kept anyway.
    func end(_ view: consuming ScreenView, at end: (seq: Int, timestamp: Timestamp), crashed: Bool, keepInstant: Bool = false) {
        reserveOne()
        (views + count).initialize(to: view)
        endLast(at: end, crashed: crashed, keepInstant: keepInstant)
    }

    /// Ends the view just put after the last one held, keeping it or dropping it.
    private func endLast(at end: (seq: Int, timestamp: Timestamp), crashed: Bool, keepInstant: Bool) {
        let view = views + count
        view.pointee.endSeq = end.seq
        view.pointee.end = end.timestamp
        view.pointee.crashed = crashed
        // Kept when it ended before it began too: the clock went back, and the view was seen.
        if view.pointee.foregroundMilliseconds != 0 || crashed || keepInstant {
            count += 1
        } else {
            Self.destroy(view)
        }
    }

    /// Adds `view` as it is.
    package func append(_ view: consuming ScreenView) {
        reserveOne()
        (views + count).initialize(to: view)
        count += 1
    }

    /// Sorts the views from the `first` held on by scene.
    func sortByScene(from first: Int) {
        let start = taken + first
        guard count - start > 1 else { return }
        var added = UnsafeMutableBufferPointer(start: views + start, count: count - start)
        added.sort { $0.scene < $1.scene }
    }

    /// Moves each view held out, in order, into `body`; the buffer is empty after, unless `body`
    /// throws, when the views after the one it threw on are still held.
    package func removeEach(_ body: (consuming ScreenView) throws -> Void) rethrows {
        while taken < count {
            taken += 1
            try body((views + taken - 1).move())
        }
        count = 0
        taken = 0
    }

    /// Runs `body` on each view held, in order, where it lies, then destroys it: for a reader that
    /// only reads them, each view read in place (moved out and handed on by value, a view was
    /// copied again at each call on its way to a query: `navlog paths` and `funnel`, callgrind).
    /// Unless `body` throws, when the view it threw on is destroyed too and those after it are
    /// still held.
    package func forEachRemoving(_ body: (inout ScreenView) throws -> Void) rethrows {
        while taken < count {
            taken += 1
            defer { Self.destroy(views + taken - 1) }
            try body(&(views + taken - 1).pointee)
        }
        count = 0
        taken = 0
    }

    /// Moves every view held out, in order.
    package func takeAll() -> [ScreenView] {
        var all: [ScreenView] = []
        all.reserveCapacity(held)
        removeEach { all.append($0) }
        return all
    }

    /// Destroys the view at `view` as `deinitialize(count: 1)` does, but without a release call for
    /// each optional member that is nil: `deinitialize` destroys through the type's value witness,
    /// releasing every member with a call even when it holds nothing, and a view without details
    /// has three nil members, most routes a nil id (1.2% of `navlog funnel`'s instructions, callgrind). A struct is destroyed by destroying its
    /// stored properties; those not named here hold no storage (numbers, an enumeration,
    /// timestamps): `EndedViewsTests` checks that the list is complete.
    static func destroy(_ view: UnsafeMutablePointer<ScreenView>) {
        _ = view.pointer(to: \.session)!.move()
        _ = view.pointer(to: \.scene)!.move()
        if view.pointee.tab != nil { _ = view.pointer(to: \.tab)!.move() }
        _ = view.pointer(to: \.screen.route.screen)!.move()
        if view.pointee.screen.route.id != nil { _ = view.pointer(to: \.screen.route.id)!.move() }
        if view.pointee.screen.route.params != nil { _ = view.pointer(to: \.screen.route.params)!.move() }
        if view.pointee.screen.stack != nil { _ = view.pointer(to: \.screen.stack)!.move() }
        _ = view.pointer(to: \.enteredBy)!.move()
    }

    private func reserveOne() {
        guard count == capacity else { return }
        let larger = UnsafeMutablePointer<ScreenView>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: views + taken, count: count - taken)
        views.deallocate()
        views = larger
        capacity *= 2
        count -= taken
        taken = 0
    }
}
