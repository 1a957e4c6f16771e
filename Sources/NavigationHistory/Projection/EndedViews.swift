/// The views the events ended, waiting to be taken in order: each view is moved in once, where the
/// tracker ends it, and moved out once, where the caller takes it.
///
/// An array of views moved a view in and out through copies: a 200-byte `ScreenView` is copied
/// with a `memcpy` call, whose wide loads stall on the narrow stores that just wrote the view, and
/// the tracker and the analytics stream made seven of them a view (8% of a query's time).
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

    /// Moves the view out of `slot`, which is left uninitialized, and ends it at `end`; a view that
    /// ends in the millisecond it began is dropped unless it `crashed` or is to be kept anyway.
    func end(moving slot: UnsafeMutablePointer<ScreenView>, at end: (seq: Int, timestamp: Timestamp), crashed: Bool,
             keepInstant: Bool = false) {
        reserveOne()
        // Moved first, then changed in place: changed before, its new words were still being
        // stored when the copy read them.
        (views + count).moveInitialize(from: slot, count: 1)
        endLast(at: end, crashed: crashed, keepInstant: keepInstant)
    }

    /// Ends `view` at `end`, as ``end(moving:at:crashed:keepInstant:)`` does.
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
        if view.pointee.end.millisecondsSince1970 != view.pointee.start.millisecondsSince1970 || crashed || keepInstant {
            count += 1
        } else {
            view.deinitializeView()
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

    /// The place of the next view held, in order, which the caller moves the view out of or
    /// deinitializes; nil, and the buffer emptied, when none is left.
    package func next() -> UnsafeMutablePointer<ScreenView>? {
        guard taken < count else {
            count = 0
            taken = 0
            return nil
        }
        taken += 1
        return views + taken - 1
    }

    /// Moves every view held out, in order.
    package func takeAll() -> [ScreenView] {
        var all: [ScreenView] = []
        all.reserveCapacity(held)
        while let view = next() { all.append(view.move()) }
        return all
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

extension UnsafeMutablePointer where Pointee == ScreenView {
    /// Deinitializes the view here, as `deinitialize(count: 1)` does, but without a release for
    /// each optional member that is nil: `deinitialize` releases every member, one call (two on
    /// Linux) each even when it holds nothing, and a view without details has three such members
    /// (1.45% of a funnel's instructions). A struct is destroyed by destroying its stored
    /// properties; those not named here hold no storage (numbers, an enum, timestamps) — a test
    /// checks that the list is complete.
    package func deinitializeView() {
        _ = pointer(to: \.session)!.move()
        _ = pointer(to: \.scene)!.move()
        if pointee.tab != nil { _ = pointer(to: \.tab)!.move() }
        _ = pointer(to: \.screen.route.screen)!.move()
        if pointee.screen.route.id != nil { _ = pointer(to: \.screen.route.id)!.move() }
        if pointee.screen.route.params != nil { _ = pointer(to: \.screen.route.params)!.move() }
        if pointee.screen.stack != nil { _ = pointer(to: \.screen.stack)!.move() }
        _ = pointer(to: \.enteredBy)!.move()
    }
}
