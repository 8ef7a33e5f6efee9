import DICore
import Foundation
import Testing

/// A value registered in a container with nothing registered yet (a request's) is kept without its
/// registration until something other than a resolve needs one. Whoever asks — a listing, a second
/// registration, an alias, a behaviour, a close, many threads at once — sees the same value and one
/// registration for it, made where the value was registered.
@Suite(.timeLimit(.minutes(1))) struct KeptValueTests {
    struct RequestID: Sendable, Equatable {
        let value: String
    }

    protocol Identified: Sendable {
        var label: String { get }
    }

    final class Handle: Identified, Sendable {
        let label: String
        init(_ label: String) { self.label = label }
    }

    final class Work: Sendable {
        let request: RequestID
        init(request: RequestID) { self.request = request }
    }

    @Test func everyReaderSeesTheKeptValueAndOneRegistrationForIt() async throws {
        let app = Container(name: "app")
        try app.register(Work.self, scope: .transient) { r in Work(request: try r.resolve(RequestID.self)) }
        let request = app.child(name: "request")
        let handle = Handle("h")
        try request.register(value: handle); let line = #line
        #expect(try request.resolve(Handle.self) === handle)
        #expect(try await request.resolveAsync(Handle.self) === handle)
        #expect(try request.child(name: "nested").resolve(Handle.self) === handle)
        let listed = request.registrations
        #expect(listed.count == 1)
        #expect(listed.first.map { $0.serviceType == Handle.self } == true)
        #expect(listed.first?.location == SourceLocation(fileID: #fileID, line: line))
        #expect(listed.first?.container == "request")
        // Listed again, or looked up by the slow path: the same registration, and the same value.
        #expect(request.registrations.map(\.location) == listed.map(\.location))
        #expect(request.isRegistered(Handle.self))
        #expect(try request.resolveIfRegistered(Handle.self) === handle)
        #expect(try request.resolveAll(Handle.self).map { $0 === handle } == [true])
        #expect(try request.resolve(Handle.self) === handle)
        try request.register(value: RequestID(value: "r-1"))
        #expect(try request.resolve(Work.self).request.value == "r-1")
        #expect(request.registrations.map(\.displayName) == ["Handle", "RequestID"])
    }

    @Test func aSecondValueOfTheKeyReplacesTheKeptOne() throws {
        let request = Container(name: "app").child(name: "request")
        try request.register(value: RequestID(value: "first"))
        #expect(try request.resolve(RequestID.self).value == "first")
        try request.register(value: RequestID(value: "second"))
        #expect(try request.resolve(RequestID.self).value == "second")
        #expect(request.registrations.count == 1)
    }

    @Test func anAliasOfAKeptValueResolvesToItBeforeAndAfterItsRegistrationIsMade() throws {
        let request = Container(name: "app").child(name: "request")
        let handle = Handle("aliased")
        try request.register(value: handle).implements((any Identified).self)
        #expect(try request.resolve((any Identified).self) as AnyObject === handle)
        #expect(try request.resolve(Handle.self) === handle)

        let other = Container(name: "app").child(name: "request")
        let kept = try other.register(value: Handle("late"))
        _ = other.registrations         // the registration is made before the alias asks for it
        try kept.implements((any Identified).self)
        #expect(try other.resolve((any Identified).self).label == "late")
    }

    @Test func aClosedContainerDropsTheKeptValueAndRefusesAnAliasOfIt() throws {
        let request = Container(name: "app").child(name: "request")
        let kept = try request.register(value: Handle("dropped"))
        request.close()
        let closed = try #require(throws: ResolutionError.self) { try request.resolve(Handle.self) }
        #expect(closed.code == .containerClosed)
        #expect(throws: RegistrationError.self) { try kept.implements((any Identified).self) }
        #expect(request.registrations.isEmpty)
    }

    @Test func aKeptValueIsFreedWithItsContainerClosedOrNot() throws {
        weak var closedValue: Handle?
        weak var droppedValue: Handle?
        do {
            let app = Container(name: "app")
            let closing = app.child(name: "closing")
            let dropping = app.child(name: "dropping")
            do {
                let first = Handle("closed")
                let second = Handle("dropped")
                closedValue = first
                droppedValue = second
                _ = try closing.register(value: first)
                _ = try dropping.register(value: second)
            }
            #expect(try closing.resolve(Handle.self) === closedValue)
            closing.close()
            #expect(closedValue == nil, "closing the container released the value")
            #expect(droppedValue != nil)
        }
        #expect(droppedValue == nil, "the value went with its container")
    }

    @Test func anAncestorsFinalRegistrationOfTheKeyStillRefusesTheValue() throws {
        let app = Container(name: "app")
        try app.register(overridable: false, value: RequestID(value: "app"))
        let request = app.child(name: "request")
        let error = try #require(throws: RegistrationError.self) {
            try request.register(value: RequestID(value: "request"))
        }
        #expect(error.code == .alreadyRegistered)
        #expect(try request.resolve(RequestID.self).value == "app")
        #expect(request.registrations.isEmpty)
    }

    /// A behaviour of an ancestor is told about a kept value, with the registration every later reader sees.
    @Test func aBehaviourIsToldAboutTheKeptValue() throws {
        final class Recorder: ContainerBehavior {
            let seen = Lock<[String]>([])
            func didRegister(_ info: RegistrationInfo, in container: Container) throws {
                seen.withLock { $0.append("\(info.displayName) in \(container.name) at line \(info.location.line)") }
            }
        }
        let app = Container(name: "app")
        let recorder = Recorder()
        app.addBehavior(recorder)
        let request = app.child(name: "request")
        try request.register(value: RequestID(value: "r")); let line = #line
        #expect(recorder.seen.withLock { $0 } == ["RequestID in request at line \(line)"])
        #expect(try request.resolve(RequestID.self).value == "r")
    }

    /// A behaviour added to another tree neither makes the kept value's registration nor counts a lookup of
    /// it toward publishing.
    @Test func aBehaviourElsewhereLeavesTheValueKept() throws {
        struct Silent: ContainerBehavior {
            func didRegister(_ info: RegistrationInfo, in container: Container) throws {}
        }
        Container(name: "elsewhere").addBehavior(Silent())
        let app = Container(name: "app")
        try app.register(Int.self, scope: .singleton) { _ in 7 }
        let request = app.child(name: "request")
        try request.register(value: RequestID(value: "r"))
        #expect(try request.resolve(Int.self) == 7)
        #expect(try request.resolve(RequestID.self).value == "r")
        #expect(request.registry.lockedLookupCount == 0)
    }

    /// Threads resolving a kept value while others make its registration (listing, looking up, registering
    /// another value), alias it, and close the container: every resolve returns the value or, once closed,
    /// `containerClosed`; the registrations list it once, made where it was registered.
    @Test(arguments: [1, 2, 3, 16])
    func threadsResolvingAKeptValueWhileOthersMakeItsRegistrationSeeOneValue(threads: Int) async throws {
        let app = Container(name: "app")
        for round in 0..<50 {
            let request = app.child(name: "request")
            let handle = Handle("round \(round)")
            try request.register(value: handle); let line = #line
            let outcomes = try await withThrowingTaskGroup(of: [String].self) { group in
                for thread in 0..<threads {
                    group.addTask {
                        var seen: [String] = []
                        for step in 0..<40 {
                            switch (thread + step + round) % 5 {
                            case 0:
                                let listed = request.registrations.filter { $0.serviceType == Handle.self }
                                if let info = listed.first {
                                    seen.append(listed.count == 1 && info.location.line == line ? "listed" : "bad list")
                                }
                            case 1:
                                seen.append(request.isRegistered(Handle.self) || request.isClosed ? "found" : "lost")
                            case 2 where thread == 0 && step == 20:
                                request.close()
                            default:
                                do {
                                    seen.append(try request.resolve(Handle.self) === handle ? "same" : "other")
                                } catch let error as ResolutionError where error.code == .containerClosed {
                                    seen.append("closed")
                                }
                            }
                        }
                        return seen
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(!outcomes.contains { ["bad list", "lost", "other"].contains($0) }, "round \(round)")
            request.close()
        }
        #expect(app.childCount == 0)
    }
}
