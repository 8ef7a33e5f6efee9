/// A service that releases resources when the container holding it is closed.
///
/// The container that holds an instance (the registering container for `.singleton`, the asking one for
/// `.scoped`, …) calls `dispose()` when it is closed, newest instance first, after closing its children;
/// and when the registration that built the instance is replaced.
///
/// ```swift
/// final class Database: Disposable, Sendable {
///     func dispose() { connection.close() }
/// }
/// try app.register(Database.self, scope: .singleton) { _ in Database() }
/// app.close()    // disposes the database
/// ```
///
/// A container calls `dispose()` on whichever thread closes it, so a conformance cannot be isolated to an
/// actor (`SendableMetatype`): a `@MainActor` type conforms with `nonisolated func dispose()`, or registers an
/// `AsyncDisposable` (DIScopes) whose `dispose()` hops to the main actor.
public protocol Disposable: SendableMetatype {
    /// Releases what the instance holds. Called at most once by a container.
    func dispose()
}

extension Container {
    /// Closes the container: closes its children first, then disposes every instance it holds, newest first;
    /// afterwards it refuses to resolve (`containerClosed`) and to register.
    ///
    /// Closing twice does nothing more. The memory of the instances is released as soon as no resolve that
    /// started before `close()` is still running; for a container that held only a few registrations (a
    /// request's), while other threads resolve too, with the next process-wide batch of retired tables,
    /// which a server fills within a few dozen requests (see <doc:Performance>).
    public func close() {
        guard let closing = markClosed() else { return }
        for child in closing.children.reversed() { child.close() }
        Self.dispose(values: releaseOwnInstances(closing))
        // A test container's views, after its own instances, nearest level first (as a child closes before
        // its parent); a view made from now on is closed from the start.
        if testing != nil { for view in closeTestViews() { view.close() } }
    }

    /// Marks this container closed, before its children are closed, so that a child made concurrently is
    /// closed too; returns what the rest of closing needs, or `nil` when it already was closed.
    ///
    /// One lock section marks it closed; when it never had children (a request's container), the same section
    /// takes its instances as well, which closing would otherwise take in a section of its own once the
    /// children are closed (`releaseAllHeld(keeping:)`).
    package func markClosed() -> Closing? {
        var kept = KeptInstances()
        // Taken with the mark only when there are no children to close first.
        var held: [HeldInstance]?
        guard let registrations = registry.close(andThen: { state in
            // Asked under the lock every shard of the list is made under (see `ChildList`).
            if childList.mayHaveChildren { return }
            held = Self.takeAllHeld(&state, from: cells, keeping: &kept)
        }) else { return nil }
        var values: [Any]?
        if let held { values = Self.values(of: held, kept) }
        return Closing(registrations: registrations, children: held == nil ? children : [], values: values)
    }

    /// What `markClosed()` found: the registrations whose lifetime strategies may keep instances of this
    /// container elsewhere, the children to close first, and this container's instances when it had no
    /// children, taken with the mark.
    package struct Closing: ~Copyable {
        /// The registrations with a lifetime strategy (see `Registry.close()`).
        let registrations: [Registration]
        /// The children to close before this container's instances are disposed, oldest first.
        package let children: [Container]
        /// The instances of the held list and of the cells, oldest first; `nil` when there were children,
        /// whose closing comes first.
        var values: [Any]?
    }

    /// Hands over the instances this closed container held, oldest first: those of its held slots and its
    /// cells (taken now unless `markClosed()` took them), then those the lifetimes of its registrations kept
    /// elsewhere. Its children are the caller's business.
    package func releaseOwnInstances(_ closing: consuming Closing) -> [Any] {
        var values: [Any]
        if let taken = closing.values.take() {
            values = taken
        } else {
            var kept = KeptInstances()
            let held = releaseAllHeld(keeping: &kept)
            values = Self.values(of: held, kept)
        }
        for registration in closing.registrations {
            if case .lifetime(let lifetime) = registration.scope.kind {
                values += lifetime.release(registration, in: self)
            }
        }
        return values
    }

    /// The instances of `held` (a closed container's held list) and of `kept` (taken out of its cells), oldest
    /// first.
    static func values(of held: [HeldInstance], _ kept: consuming KeptInstances) -> [Any] {
        held.isEmpty ? kept.values : take(distinct(held), merging: kept)
    }

    /// Takes the instances out of `held`, oldest first (see `take(_:)` for one).
    package static func take(_ held: [HeldInstance]) -> [Any] {
        take(held, merging: KeptInstances())
    }

    /// Takes the instances out of `held` as `take(_:)` does, and puts those of `kept` (taken out of closed
    /// cells) among them by the numbers of their builds, oldest first.
    static func take(_ held: [HeldInstance], merging kept: KeptInstances) -> [Any] {
        // A loop into a list made big enough at once: `compactMap` grows its result one reallocation at a time.
        var values: [Any] = []
        values.reserveCapacity(held.count + kept.values.count)
        var next = 0
        for instance in held {
            while next < kept.values.count, kept.builds[next] < instance.build {
                values.append(kept.values[next])
                next += 1
            }
            if let value = take(instance) { values.append(value) }
        }
        values += kept.values[next...]
        return values
    }

    /// Takes the instance out of `held`, `nil` when its slot is empty. A resettable slot is emptied, so that an
    /// instance released by two parties at once (a reset racing a close) is handed to only one of them; a
    /// singleton's slot is never emptied (it is read without a lock) and is released once, with its
    /// registration.
    package static func take(_ held: HeldInstance) -> Any? {
        let registration = held.registration
        let isSingleton = held.slot === registration.singleton
        let box = isSingleton ? held.slot.current(registration) : held.slot.reset()
        // Not `box.map(registration.body.unbox)`: a partially applied method is a closure allocated (and its
        // context retained) per instance.
        guard let box else { return nil }
        return registration.body.unbox(box)
    }

    /// Disposes the instances of `held` that are `Disposable`, newest first.
    package static func dispose(_ held: [HeldInstance]) {
        dispose(values: take(held))
    }

    /// Disposes the `Disposable` ones among `values`, newest (last) first.
    package static func dispose(values: [Any]) {
        for value in values.reversed() { dispose(value) }
    }

    /// Calls `value`'s `dispose()` when it is `Disposable`.
    package static func dispose(_ value: Any) {
        if let disposable = disposals.disposal(of: value) { dispose(value, as: disposable) }
    }

    /// Calls the `dispose()` of `value` as an `Instance`: the type `disposals` found for it, which is `value`'s
    /// own dynamic type (or, for an optional or an `AnyHashable`, that of what it holds, which `as!` looks
    /// inside too), so the cast cannot fail; usually `value` was stored as that very type, and is read as it
    /// without the runtime's cast (`Unsafe.cast(_:to:)`).
    package static func dispose<Instance: Disposable>(_ value: Any, as type: Instance.Type) {
        Unsafe.cast(value, to: Instance.self).dispose()
    }

    /// How each type's instances are disposed of: the type as a `Disposable`, or `nil`. Releasing an instance
    /// then costs no conformance lookup.
    package static let disposals = DisposalMemo<(any Disposable.Type)?> { value in
        (value as? any Disposable).map { type(of: $0) }
    }
}
