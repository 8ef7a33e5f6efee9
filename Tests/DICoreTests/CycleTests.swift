import DICore
import Testing

@Suite struct CycleTests {
    final class A: Sendable { init(_ b: B) {} }
    final class B: Sendable { init(_ c: C) {} }
    final class C: Sendable { init(_ a: A) {} }

    @Test func threeNodeCyclePrintsTheWholeCycle() throws {
        let app = Container(name: "app")
        try app.register(A.self) { r in A(try r.resolve(B.self)) }
        try app.register(B.self) { r in B(try r.resolve(C.self)) }
        try app.register(C.self) { r in C(try r.resolve(A.self)) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(A.self) }
        #expect(error.code == .circularDependency)
        #expect(error.path.map(\.description) == ["A", "B", "C", "A"])
        #expect(error.description.contains("A → B → C → A"))
    }

    @Test func singletonCycleIsDetected() throws {
        let app = Container(name: "app")
        try app.register(A.self, scope: .singleton) { r in A(try r.resolve(B.self)) }
        try app.register(B.self, scope: .singleton) { r in B(try r.resolve(C.self)) }
        try app.register(C.self, scope: .singleton) { r in C(try r.resolve(A.self)) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(B.self) }
        #expect(error.code == .circularDependency)
        // The container still works for registrations outside the cycle.
        try app.register(Int.self) { _ in 1 }
        #expect(try app.resolve(Int.self) == 1)
    }

    @Test func cycleThroughACapturedContainerIsDetected() throws {
        let app = Container(name: "app")
        try app.register(A.self) { _ in A(try app.resolve(B.self)) }
        try app.register(B.self) { _ in B(try app.resolve(C.self)) }
        try app.register(C.self) { _ in C(try app.resolve(A.self)) }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(A.self) }
        #expect(error.code == .circularDependency)
    }

    @Test func selfDependencyIsACycle() throws {
        let app = Container(name: "app")
        try app.register(String.self) { r in try r.resolve(String.self) + "!" }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(String.self) }
        #expect(error.code == .circularDependency)
        #expect(error.path.count == 2)
    }

    @Test func deepChainsStopWithAnErrorInsteadOfOverflowingTheStack() throws {
        let app = Container(name: "app")
        for level in 0..<1_000 {
            try app.register(Int.self, name: "level\(level)") { r in
                try r.resolve(Int.self, name: "level\(level + 1)") + 1
            }
        }
        let error = try #require(throws: ResolutionError.self) { try app.resolve(Int.self, name: "level0") }
        #expect(error.code == .depthLimitExceeded)
    }

    @Test func legitimateChainsOfModerateDepthResolve() throws {
        let app = Container(name: "app")
        try app.register(Int.self, name: "level100") { _ in 0 }
        for level in 0..<100 {
            try app.register(Int.self, name: "level\(level)") { r in
                try r.resolve(Int.self, name: "level\(level + 1)") + 1
            }
        }
        #expect(try app.resolve(Int.self, name: "level0") == 100)
    }
}
