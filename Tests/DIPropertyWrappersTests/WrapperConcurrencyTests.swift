import DICore
import DIPropertyWrappers
import Testing

private struct Service: Sendable {
    @Inject var logger: any Logger
    @LazyInject var database: Database
    @Injected(\.clock) var clock
}

private final class Parent: Sendable {}

private struct Child: Sendable {
    @WeakLazyInject var parent: Parent?
}

/// Wrappers used from many tasks at once; run these under the thread sanitizer too.
@Suite(.timeLimit(.minutes(1))) struct WrapperConcurrencyTests {
    @Test func parallelTasksEachSeeTheirOwnAmbientContainer() async throws {
        let app = Container(name: "app")
        try app.register(Database.self, scope: .singleton) { _ in Database() }
        let labels = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for index in 0..<32 {
                let child = app.child(name: "task \(index)")
                try child.register((any Logger).self) { _ in ConsoleLogger(label: "task \(index)") }
                group.addTask {
                    await withContainer(child) {
                        await Task.yield()
                        let service = Service()
                        await Task.yield()
                        return (child.name, service.logger.label)
                    }
                }
            }
            return try await group.reduce(into: [(String, String)]()) { $0.append($1) }
        }
        #expect(labels.count == 32)
        for (expected, seen) in labels { #expect(expected == seen) }
    }

    @Test func sharedOwnerReadFromManyTasks() async throws {
        let app = Container(name: "app")
        try app.register((any Logger).self, scope: .singleton) { _ in ConsoleLogger() }
        try app.register(Database.self) { _ in Database() }
        for _ in 0..<20 {
            let service = withContainer(app) { Service() }
            let seen = await withTaskGroup(of: [ObjectIdentifier].self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        [ObjectIdentifier(service.database), ObjectIdentifier(service.clock as AnyObject)]
                    }
                }
                return await group.reduce(into: Set<[ObjectIdentifier]>()) { $0.insert($1) }
            }
            #expect(seen.count == 1)
        }
    }

    @Test func weakLazyFirstReadsFromManyTasksAgree() async throws {
        let app = Container(name: "app")
        try app.register(Parent.self, scope: .singleton) { _ in Parent() }
        let held = try app.resolve(Parent.self)
        for _ in 0..<20 {
            let child = withContainer(app) { Child() }
            let seen = await withTaskGroup(of: ObjectIdentifier?.self) { group in
                for _ in 0..<6 { group.addTask { child.parent.map(ObjectIdentifier.init) } }
                return await group.reduce(into: Set<ObjectIdentifier?>()) { $0.insert($1) }
            }
            #expect(seen == [ObjectIdentifier(held)])
        }
    }
}
