import DICore
import Foundation
import Testing

/// `register(_:value:)`: a value made by the caller, handed out as a singleton of the registering container,
/// never built, held or disposed by it — through every way a resolve can reach it.
@Suite(.timeLimit(.minutes(1))) struct ValueRegistrationTests {
    final class Handle: Disposable, Sendable {
        let label: String
        private let disposed = Counter()
        init(_ label: String = "handle") { self.label = label }
        func dispose() { disposed.increment() }
        var disposals: Int { disposed.value }
    }

    struct RequestID: Sendable, Equatable {
        let value: String
    }

    final class Work: Sendable {
        let request: RequestID
        init(request: RequestID) { self.request = request }
    }

    @Test func everyResolveReturnsTheValueHereAndInDescendants() throws {
        let app = Container(name: "app")
        let handle = Handle()
        try app.register(Handle.self, value: handle)
        try app.register(value: RequestID(value: "r-1"))
        let grandchild = app.child(name: "a").child(name: "b")
        #expect(try app.resolve(Handle.self) === handle)
        #expect(try grandchild.resolve(Handle.self) === handle)
        #expect(try grandchild.resolve(RequestID.self) == RequestID(value: "r-1"))
        #expect(app.isRegistered(RequestID.self))
    }

    /// An error's path names a value's lifetime `value`, and its detail says the value is of another type:
    /// `singleton` and "built" would say it was built, and that closing its container disposes it.
    @Test func anErrorPathCallsAValueAValue() throws {
        let request = Container(name: "app").child(name: "request")
        try request.register(fileID: "App/Request.swift", line: 2, value: RequestID(value: "r-2"))
        let error = try #require(throws: ResolutionError.self) {
            try request.resolve(RequestID.self, as: Work.self)
        }
        #expect(error.code == .typeMismatch)
        #expect(error.path.map(\.scope) == ["value"])
        #expect("\(error)".contains("RequestID   value  in request  App/Request.swift:2"), "\(error)")
        #expect(error.detail?.hasPrefix("The value registered at App/Request.swift:2 is a RequestID, not a Work.") == true)
    }

    @Test func aChildWithAFewValuesResolvesThemAndServicesBuiltFromThem() throws {
        // A request's container: its few values stay among the pending registrations, looked up there.
        let server = Container(name: "server")
        try server.register(Work.self, scope: .singleton) { r in Work(request: try r.resolve(RequestID.self)) }
        for index in 0..<3 {
            let request = server.child(name: "request \(index)")
            try request.register(value: RequestID(value: "r-\(index)"))
            try request.register(Work.self, scope: .singleton) { r in Work(request: try r.resolve(RequestID.self)) }
            #expect(try request.resolve(RequestID.self).value == "r-\(index)")
            #expect(try request.resolve(Work.self).request.value == "r-\(index)")
            #expect(try request.resolve(Work.self) === request.resolve(Work.self))
            request.close()
        }
    }

    @Test func namesTellValuesApartAndTheAsyncPathReturnsThemToo() async throws {
        let app = Container(name: "app")
        try app.register(String.self, name: "region", value: "eu-west")
        try app.register(String.self, name: "tier", value: "gold")
        #expect(try app.resolve(String.self, name: "region") == "eu-west")
        #expect(try await app.resolveAsync(String.self, name: "tier") == "gold")
        let missing = try #require(throws: ResolutionError.self) { try app.resolve(String.self) }
        #expect(missing.code == .notRegistered)
    }

    @Test func closingTheContainerDoesNotDisposeAValueItWasGiven() throws {
        let app = Container(name: "app")
        let request = app.child(name: "request")
        let handle = Handle()
        try request.register(value: handle)
        _ = try request.resolve(Handle.self)
        request.close()
        app.close()
        #expect(handle.disposals == 0)
    }

    @Test func aTestContainerHandsOutTheBaseValueAndDoesNotDisposeIt() throws {
        let app = Container(name: "app")
        let handle = Handle()
        try app.register(value: handle)
        let test = Container.makeTestContainer(from: app, name: "test")
        #expect(try test.resolve(Handle.self) === handle)
        test.close()
        #expect(handle.disposals == 0)
        #expect(try app.resolve(Handle.self) === handle)
    }

    @Test func reRegisteringReplacesTheValueAndKeepsNoEarlierOne() throws {
        let app = Container(name: "app")
        weak var first: Handle?
        do {
            let handle = Handle("first")
            first = handle
            try app.register(value: handle)
            #expect(try app.resolve(Handle.self).label == "first")
        }
        for index in 0..<5_000 { try app.register(value: Handle("value \(index)")) }
        #expect(try app.resolve(Handle.self).label == "value 4999")
        #expect(first == nil)
        #expect(try app.resolve(Handle.self).disposals == 0)
    }

    @Test func aFinalValueRefusesReplacementAndKeepsItsValue() throws {
        let app = Container(name: "app")
        try app.register(overridable: false, value: RequestID(value: "kept"))
        let error = try #require(throws: RegistrationError.self) {
            try app.register(value: RequestID(value: "other"))
        }
        #expect(error.code == .alreadyRegistered)
        #expect(error.description.contains("overridable: false"))
        #expect(try app.resolve(RequestID.self).value == "kept")
    }

    @Test func aClosedContainerAndItsNewChildrenRefuseValues() throws {
        let app = Container(name: "app")
        try app.register(value: RequestID(value: "r"))
        app.close()
        let late = app.child(name: "late")
        for container in [app, late] {
            let registration = try #require(throws: RegistrationError.self) {
                try container.register(value: RequestID(value: "again"))
            }
            #expect(registration.code == .containerClosed)
            let resolution = try #require(throws: ResolutionError.self) { try container.resolve(RequestID.self) }
            #expect(resolution.code == .containerClosed)
        }
    }

    @Test func anAliasOfAValueResolvesToTheSameInstance() throws {
        let app = Container(name: "app")
        let handle = Handle()
        try app.register(value: handle).implements((any Disposable).self)
        #expect(try app.resolve((any Disposable).self) as? Handle === handle)
        let child = app.child(name: "child")
        #expect(try child.resolve((any Disposable).self) as? Handle === handle)
    }

    @Test func anObservedContainerReportsTheValue() throws {
        let app = Container(name: "app")
        let seen = Counter()
        app.addBehavior(Observer(seen: seen))
        try app.register(value: RequestID(value: "r"))
        #expect(try app.resolve(RequestID.self).value == "r")
        #expect(seen.value == 1)
    }

    private struct Observer: ResolutionBehavior {
        let seen: Counter
        func didResolve(_ info: RegistrationInfo, instance: Any, in container: Container) {
            if (instance as? RequestID)?.value == "r" { seen.increment() }
        }
    }

    @Test(arguments: [1, 2, 3, 16])
    func requestContainersRegisterAndResolveTheirValuesOnManyThreads(threads: Int) async throws {
        let server = Container(name: "server")
        try server.register(Work.self, scope: .singleton) { r in Work(request: try r.resolve(RequestID.self)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    for index in 0..<200 {
                        let request = server.child(name: "request")
                        let id = RequestID(value: "\(thread)-\(index)")
                        try request.register(value: id)
                        try request.register(Work.self, scope: .singleton) { r in
                            Work(request: try r.resolve(RequestID.self))
                        }
                        guard try request.resolve(Work.self).request == id, try request.resolve(RequestID.self) == id
                        else { throw ValueMixUp(thread: thread, index: index) }
                        request.close()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(server.childCount == 0)
    }

    struct ValueMixUp: Error {
        let thread: Int
        let index: Int
    }
}
