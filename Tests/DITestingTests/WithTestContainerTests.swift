import DICore
import DITesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct WithTestContainerTests {
    struct Refused: Error, Equatable {}

    @Test func theContractShapeCompilesAndWorks() throws {
        try App.install()
        let n = try withTestContainer { container in
            try container.register((any Clock).self) { _ in FixedClock() }
            return try Container.current.resolve((any Clock).self).now
        }
        #expect(n == 42)
        #expect(try Container.shared.resolve((any Clock).self).now == 1_000)
    }

    @Test func bindsTheContainerItPassesAndClosesIt() throws {
        let base = Container(name: "base")
        let container = withTestContainer(from: base) { container in
            #expect(Container.current === container)
            #expect(container.context == .test)
            return container
        }
        #expect(container.isClosed)
        #expect(!base.isClosed)
    }

    @Test func keepsTheCallersErrorType() {
        #expect(throws: Refused.self) {
            try withTestContainer { _ throws(Refused) in throw Refused() }
        }
        let typed: () throws(Refused) -> Void = { try withTestContainer { _ throws(Refused) in throw Refused() } }
        #expect(throws: Refused.self) { try typed() }
    }

    @Test func worksAsync() async throws {
        let base = Container(name: "base")
        try base.registerAsync(Marker.self, scope: .singleton) { _ in Marker(value: 5) }
        let live = try await base.resolveAsync(Marker.self)
        let value = try await withTestContainer(from: base) { container in
            try await Container.current.resolveAsync(Marker.self)
        }
        #expect(value == live)
    }
}
