import DICore
import Testing

/// Tasks started inside one async factory (`async let`, task groups) ask from the same node of the async
/// path; when they meet at an instance being built, one waits for the other: that is not a cycle.
@Suite(.timeLimit(.minutes(1))) struct AsyncSiblingBuildTests {
    final class Shared: Sendable {}

    final class Many: Sendable {
        let parts: [Shared]
        init(_ parts: [Shared]) { self.parts = parts }
    }

    @Test func siblingTasksWaitForEachOthersSingletonBuildInsteadOfReportingACycle() async throws {
        let app = Container(name: "app")
        let builds = Counter()
        try app.registerAsync(Shared.self, scope: .singleton) { _ in
            builds.increment()
            try await Task.sleep(for: .milliseconds(20))
            return Shared()
        }
        try app.registerAsync(Many.self) { r in
            let parts = try await withThrowingTaskGroup(of: Shared.self) { group in
                for _ in 0..<10 { group.addTask { try await r.resolveAsync(Shared.self) } }
                return try await group.reduce(into: [Shared]()) { $0.append($1) }
            }
            return Many(parts)
        }
        let many = try await app.resolveAsync(Many.self)
        #expect(many.parts.allSatisfy { $0 === many.parts[0] })
        #expect(builds.value == 1)
    }
}
