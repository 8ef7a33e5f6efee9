import DICore
import ShopServer
import Synchronization
import Testing

/// The load test's minimal general container does what it stands for: services by type, app services
/// shared, request services built once per scope, the `Disposable` ones disposed newest first on close.
@Suite struct MinimalContainerTests {
    /// Records the order in which its instances are disposed.
    final class Journal: Sendable {
        let disposed = Mutex<[String]>([])
    }

    protocol Named: Sendable { var name: String { get } }
    struct Plain: Named { let name: String }

    /// A request service that records its disposal; as an `any Named`, disposable only by its dynamic type.
    final class Resource: Named, Disposable {
        let name: String
        let journal: Journal

        init(_ name: String, journal: Journal) {
            self.name = name
            self.journal = journal
        }

        func dispose() { journal.disposed.withLock { $0.append(name) } }
    }

    private static func container(_ journal: Journal, named: @escaping @Sendable (String) -> any Named)
        -> MinimalContainer
    {
        MinimalContainer([
            MinimalContainer.shared(journal),
            MinimalContainer.perRequest { scope in
                Resource("first of \(try scope.resolve(String.self))", journal: try scope.resolve())
            },
            MinimalContainer.perRequest { scope in
                // Built after, and on top of, the first.
                _ = try scope.resolve(Resource.self)
                return [try scope.resolve(String.self)]
            },
            MinimalContainer.perRequest(as: (any Named).self) { scope in
                named(try scope.resolve(String.self))
            },
        ])
    }

    @Test func aScopeBuildsEachRequestServiceOnceAndSharesAppServices() throws {
        let journal = Journal()
        let services = Self.container(journal) { Plain(name: $0) }
        let one = MinimalContainer.Scope(services, request: "one")
        let two = MinimalContainer.Scope(services, request: "two")

        let first = try one.resolve(Resource.self)
        #expect(try one.resolve(Resource.self) === first)
        #expect(try two.resolve(Resource.self) !== first)
        #expect(try two.resolve(Resource.self).name == "first of two")
        #expect(try one.resolve(Journal.self) === two.resolve(Journal.self))
        #expect(try one.resolve([String].self) == ["one"])
    }

    @Test func closingDisposesTheBuiltDisposableInstancesNewestFirstOnce() throws {
        let journal = Journal()
        let services = Self.container(journal) { Resource("named \($0)", journal: journal) }
        let scope = MinimalContainer.Scope(services, request: "r")
        _ = try scope.resolve([String].self)            // builds the resource, then the list
        _ = try scope.resolve((any Named).self)          // disposable by its dynamic type only
        scope.close()
        scope.close()
        #expect(journal.disposed.withLock { $0 } == ["named r", "first of r"])

        // A scope that built nothing disposes nothing; a non-disposable existential is not disposed.
        let plain = Self.container(journal) { Plain(name: $0) }
        MinimalContainer.Scope(plain, request: "idle").close()
        let other = MinimalContainer.Scope(plain, request: "p")
        _ = try other.resolve((any Named).self)
        other.close()
        #expect(journal.disposed.withLock { $0 } == ["named r", "first of r"])
    }

    @Test func aTypeWithoutARegistrationIsAnError() throws {
        let scope = MinimalContainer.Scope(Self.container(Journal()) { Plain(name: $0) }, request: "r")
        #expect(throws: MinimalContainerError.self) { try scope.resolve(Int.self) }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [1, 2, 3, 16])
    func concurrentAsksOfOneScopeGetOneInstance(tasks: Int) async throws {
        let journal = Journal()
        let scope = MinimalContainer.Scope(Self.container(journal) { Plain(name: $0) }, request: "r")
        let resources = try await withThrowingTaskGroup(of: Resource.self) { group in
            for _ in 0..<tasks { group.addTask { try scope.resolve(Resource.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(resources.allSatisfy { $0 === resources[0] })
        scope.close()
        #expect(journal.disposed.withLock { $0 } == ["first of r"])
    }
}
