import DICore
import DIScopes
import Testing

@Suite(.timeLimit(.minutes(1))) struct GraphLifetimeTests {
    final class UnitOfWork: Sendable {}

    final class Orders: Sendable {
        let work: UnitOfWork
        init(_ work: UnitOfWork) { self.work = work }
    }

    final class Stock: Sendable {
        let work: UnitOfWork
        init(_ work: UnitOfWork) { self.work = work }
    }

    final class PlaceOrder: Sendable {
        let orders: Orders
        let stock: Stock
        let work: UnitOfWork
        init(orders: Orders, stock: Stock, work: UnitOfWork) {
            self.orders = orders
            self.stock = stock
            self.work = work
        }
    }

    private func container(builds: Counter) throws -> Container {
        let app = Container(name: "app")
        try app.register(UnitOfWork.self, scope: .graph) { _ in
            builds.increment()
            return UnitOfWork()
        }
        try app.register(Orders.self) { r in Orders(try r.resolve(UnitOfWork.self)) }
        try app.register(Stock.self) { r in Stock(try r.resolve(UnitOfWork.self)) }
        try app.register(PlaceOrder.self) { r in
            PlaceOrder(
                orders: try r.resolve(Orders.self),
                stock: try r.resolve(Stock.self),
                work: try r.resolve(UnitOfWork.self)
            )
        }
        return app
    }

    @Test func everythingBuiltInsideOneResolveSharesOneInstance() throws {
        let builds = Counter()
        let app = try container(builds: builds)
        let order = try app.resolve(PlaceOrder.self)
        #expect(order.orders.work === order.stock.work)
        #expect(order.work === order.orders.work)
        #expect(builds.value == 1)
    }

    @Test func theNextTopLevelResolveBuildsANewOne() throws {
        let builds = Counter()
        let app = try container(builds: builds)
        let first = try app.resolve(PlaceOrder.self)
        let second = try app.resolve(PlaceOrder.self)
        #expect(first.work !== second.work)
        #expect(try app.resolve(UnitOfWork.self) !== app.resolve(UnitOfWork.self))
        #expect(builds.value == 4)
    }

    /// The resolve in progress travels with the thread, not only with the factory's `Resolver` argument.
    @Test func aFactoryResolvingThroughACapturedContainerStaysInTheSameResolve() throws {
        let builds = Counter()
        let app = try container(builds: builds)
        try app.register(Stock.self) { _ in Stock(try app.resolve(UnitOfWork.self)) }
        let order = try app.resolve(PlaceOrder.self)
        #expect(order.stock.work === order.orders.work)
        #expect(builds.value == 1)
    }

    @Test func aChildResolveBuildsWithTheChildsOverrides() throws {
        let tree = try Tree(widget: .graph)
        final class Pair: Sendable {
            let first: Widget
            let second: Widget
            init(_ first: Widget, _ second: Widget) {
                self.first = first
                self.second = second
            }
        }
        try tree.app.register(Pair.self) { r in Pair(try r.resolve(Widget.self), try r.resolve(Widget.self)) }
        let pair = try tree.screen.resolve(Pair.self)
        #expect(pair.first === pair.second)
        #expect(pair.first.origin == "screen")
    }

    /// Tasks started inside one async factory belong to the same resolve: they share one instance, built once
    /// even though they ask at the same moment.
    @Test func asyncLetInsideOneResolveSharesOneInstanceBuiltOnce() async throws {
        let app = Container(name: "app")
        let builds = Counter()
        try app.registerAsync(UnitOfWork.self, scope: .graph) { _ in
            builds.increment()
            try await Task.sleep(for: .milliseconds(20))
            return UnitOfWork()
        }
        final class Many: Sendable {
            let works: [UnitOfWork]
            init(_ works: [UnitOfWork]) { self.works = works }
        }
        try app.registerAsync(Many.self) { r in
            let works = try await withThrowingTaskGroup(of: UnitOfWork.self) { group in
                for _ in 0..<20 { group.addTask { try await r.resolveAsync(UnitOfWork.self) } }
                return try await group.reduce(into: [UnitOfWork]()) { $0.append($1) }
            }
            return Many(works)
        }
        let many = try await app.resolveAsync(Many.self)
        #expect(many.works.count == 20)
        #expect(many.works.allSatisfy { $0 === many.works[0] })
        #expect(builds.value == 1)
        let again = try await app.resolveAsync(Many.self)
        #expect(again.works[0] !== many.works[0])
    }

    @Test func graphInstancesAreNeverDisposed() throws {
        let tree = try Tree(widget: .graph)
        _ = try tree.feature.resolve(Widget.self)
        _ = try tree.app.resolve(Widget.self)
        #expect(tree.app.reset(.graph, includingDescendants: true) == 0)
        tree.app.close()
        #expect(tree.log.entries.isEmpty)
    }

    @Test func twoNamesOfOneTypeNeverShareAnInstanceWithinAResolve() throws {
        let app = Container(name: "app")
        try app.register(UnitOfWork.self, name: "orders", scope: .graph) { _ in UnitOfWork() }
        try app.register(UnitOfWork.self, name: "stock", scope: .graph) { _ in UnitOfWork() }
        try app.register(PlaceOrder.self) { r in
            PlaceOrder(
                orders: Orders(try r.resolve(UnitOfWork.self, name: "orders")),
                stock: Stock(try r.resolve(UnitOfWork.self, name: "stock")),
                work: try r.resolve(UnitOfWork.self, name: "orders")
            )
        }
        let order = try app.resolve(PlaceOrder.self)
        #expect(order.orders.work !== order.stock.work)
        #expect(order.orders.work === order.work)
    }
}
