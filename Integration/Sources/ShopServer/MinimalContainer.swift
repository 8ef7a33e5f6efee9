import DICore
import Hummingbird
import Synchronization

/// The least a general request container does, written for the load test's comparison (`load.sh --minimal`,
/// `profile.sh`): it tells what finding services by type and keeping them type-erased costs a request, apart
/// from everything else DIToolkit does.
///
/// Services are registered once, at start-up, by type, in a table that requests read without a lock: an app
/// service as its instance, a request service as a factory with a slot number (the container numbers them in
/// the order they are given). A ``Scope`` per request holds
/// the request's value and one slot per request service, built on the first ask (outside the scope's lock,
/// stored under it), and when it is closed it disposes the built `Disposable` ones, newest first.
///
/// ```swift
/// let services = MinimalContainer([
///     MinimalContainer.shared(journal),
///     MinimalContainer.perRequest { scope in
///         UnitOfWork(request: try scope.resolve(), journal: try scope.resolve())
///     },
/// ])
/// let scope = MinimalContainer.Scope(services, request: info)
/// let work = try scope.resolve(UnitOfWork.self)
/// scope.close()                                   // disposes `work`
/// ```
///
/// It leaves out all else a container is for: no tree of containers (one app level, one request level), no
/// registering after start-up, no names, no lifetimes but these two, no cycle detection (a cycle overflows the
/// stack), no coordination of two concurrent builds of one service (the second instance is dropped undisposed),
/// no validation and no diagnostics.
package final class MinimalContainer: Sendable {
    /// One registration: its service's type and how a request gets the instance.
    package struct Entry: Sendable {
        let type: ObjectIdentifier
        let source: Source
    }

    enum Source: Sendable {
        /// An app service: the box of its one instance.
        case shared(Box)
        /// A request service: its slot in every scope (given by the container's `init`), and its factory.
        case perRequest(slot: Int, make: @Sendable (Scope) throws -> Box)
    }

    /// The entries by type, in an open-addressed table of a power-of-two size (a multiplicative hash of the
    /// type's address, then the next places): a lookup compares a word or two, where a `Dictionary` hashes.
    private let table: [Entry?]
    private let mask: Int
    /// How many slots a scope has.
    var slotCount: Int { disposals.count }
    /// Per slot, whether its instances are known not to be `Disposable`.
    let disposals: [DisposalCache]

    /// Makes the container of `entries`, at most one per type; numbers the request services' slots 0, 1, 2, …
    /// in the order given.
    package init(_ entries: [Entry]) {
        var size = 8
        while size < entries.count * 2 { size *= 2 }
        var table = [Entry?](repeating: nil, count: size)
        var slots = 0
        for var entry in entries {
            if case .perRequest(_, let make) = entry.source {
                entry = Entry(type: entry.type, source: .perRequest(slot: slots, make: make))
                slots += 1
            }
            var place = Self.hash(entry.type) & (size - 1)
            while let taken = table[place] {
                precondition(taken.type != entry.type, "a type is registered twice")
                place = (place + 1) & (size - 1)
            }
            table[place] = entry
        }
        self.table = table
        mask = size - 1
        disposals = (0..<slots).map { _ in DisposalCache() }
    }

    /// Registers `value` as the one instance of `Service` for every request.
    package static func shared<Service>(_ value: Service, as type: Service.Type = Service.self) -> Entry {
        Entry(type: ObjectIdentifier(Service.self), source: .shared(TypedBox(value)))
    }

    /// Registers `make` as the factory of the request service `Service`, built once per scope.
    package static func perRequest<Service>(
        as type: Service.Type = Service.self, _ make: @escaping @Sendable (Scope) throws -> Service
    ) -> Entry {
        // The slot is a placeholder: `init` numbers the request services.
        Entry(type: ObjectIdentifier(Service.self), source: .perRequest(slot: 0, make: { TypedBox(try make($0)) }))
    }

    private static func hash(_ type: ObjectIdentifier) -> Int {
        Int(bitPattern: (UInt(bitPattern: type) >> 4) &* 0x9E37_79B9_7F4A_7C15 >> 32)
    }

    /// The entry of `type`, or `nil`.
    func entry(_ type: ObjectIdentifier) -> Entry? {
        var place = Self.hash(type) & mask
        while let entry = table[place] {
            if entry.type == type { return entry }
            place = (place + 1) & mask
        }
        return nil
    }

    /// A request's services: the request's value, and its request services, built once.
    package final class Scope: Sendable {
        /// The scope of the request the current task serves; `nil` outside ``MinimalContainerMiddleware``.
        @TaskLocal package static var current: Scope?

        let container: MinimalContainer
        private let requestType: ObjectIdentifier
        private let request: Box
        private let slots: Mutex<Slots>

        struct Slots {
            var boxes: [Box?]
            /// The slots built, in the order they were built.
            var built: [Int] = []
        }

        /// Makes the scope of one request, whose value `request` it hands out as a `Request`.
        package init<Request>(_ container: MinimalContainer, request: Request) {
            self.container = container
            requestType = ObjectIdentifier(Request.self)
            self.request = TypedBox(request)
            slots = Mutex(Slots(boxes: [Box?](repeating: nil, count: container.slotCount)))
        }

        /// The instance of `Service`: the request's value, an app service, or this request's instance of a
        /// request service, built on the first ask.
        package func resolve<Service>(_ type: Service.Type = Service.self) throws -> Service {
            let id = ObjectIdentifier(Service.self)
            if id == requestType { return unsafeDowncast(request, to: TypedBox<Service>.self).value }
            guard let entry = container.entry(id) else { throw MinimalContainerError.notRegistered(Service.self) }
            switch entry.source {
            case .shared(let box):
                return unsafeDowncast(box, to: TypedBox<Service>.self).value
            case .perRequest(let slot, let make):
                if let box = slots.withLock({ $0.boxes[slot] }) {
                    return unsafeDowncast(box, to: TypedBox<Service>.self).value
                }
                let made = try make(self)
                let box = slots.withLock { slots -> Box in
                    if let box = slots.boxes[slot] { return box }
                    slots.boxes[slot] = made
                    slots.built.append(slot)
                    return made
                }
                return unsafeDowncast(box, to: TypedBox<Service>.self).value
            }
        }

        /// Runs `operation` with `scope` bound as ``current``, on the caller's executor, as `withContainer` and
        /// `HandScope.bind` bind theirs.
        package nonisolated(nonsending) static func bind<Result>(
            _ scope: Scope,
            operation: nonisolated(nonsending) () async throws -> Result
        ) async throws -> Result {
            try await $current.withValue(scope, operation: operation)
        }

        /// The scope bound to the current task; traps outside ``MinimalContainerMiddleware``.
        package static var bound: Scope {
            guard let scope = current else {
                preconditionFailure("No MinimalContainer.Scope is bound: add MinimalContainerMiddleware first.")
            }
            return scope
        }

        /// Disposes the `Disposable` instances this scope built, newest first, and lets go of them.
        package func close() {
            let built = slots.withLock { slots in
                defer { slots = Slots(boxes: []) }
                return slots.built.map { (box: slots.boxes[$0]!, slot: $0) }
            }
            for (box, slot) in built.reversed() { box.dispose(memo: container.disposals[slot]) }
        }
    }

    /// A type-erased instance.
    class Box: @unchecked Sendable {
        /// Disposes the instance when it is `Disposable`, asking `memo` first whether its type is.
        func dispose(memo: DisposalCache) {}
    }

    final class TypedBox<Value>: Box, @unchecked Sendable {
        let value: Value

        init(_ value: Value) { self.value = value }

        override func dispose(memo: DisposalCache) {
            let type = UInt(bitPattern: ObjectIdentifier(Swift.type(of: value as Any)))
            if memo.isKnownNotDisposable(type) { return }
            guard let disposable = value as? any Disposable else {
                memo.remember(notDisposable: type)
                return
            }
            disposable.dispose()
        }
    }

    /// Whether the instances of one request service are not `Disposable`: the dynamic type of the last instance
    /// found not to be, so that the conformance is checked once per service, not per request.
    final class DisposalCache: Sendable {
        private let notDisposable = Atomic<UInt>(0)

        func isKnownNotDisposable(_ type: UInt) -> Bool { notDisposable.load(ordering: .relaxed) == type }

        func remember(notDisposable type: UInt) { notDisposable.store(type, ordering: .relaxed) }
    }
}

/// What ``MinimalContainer/Scope/resolve(_:)`` throws.
package enum MinimalContainerError: Error {
    /// Nothing is registered for the type.
    case notRegistered(Any.Type)
}

/// Gives every request a ``MinimalContainer/Scope``, bound as `MinimalContainer.Scope.current` while the rest
/// of the chain runs, and closes it when the handler returns or throws: what ``RequestContainerMiddleware``
/// does, for the minimal container.
package struct MinimalContainerMiddleware<Context: RequestContext>: RouterMiddleware {
    let container: MinimalContainer

    package func handle(
        _ request: Request,
        context: Context,
        next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        let scope = MinimalContainer.Scope(container, request: RequestInfo(request, context: context))
        let response: Response
        do {
            response = try await MinimalContainer.Scope.bind(scope) { try await next(request, context) }
        } catch {
            scope.close()
            throw error
        }
        scope.close()
        return response
    }
}
