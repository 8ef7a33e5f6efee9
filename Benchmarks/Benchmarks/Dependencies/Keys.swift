import BenchmarkFixtures
import Dependencies

// swift-dependencies has no containers of registrations: every dependency is a key with a live
// value, read through `DependencyValues`. The translation used here:
//
// - a singleton is a key whose `liveValue` is the instance (the library caches it);
// - a new object per resolve is a key whose value is a factory client, `Factory<T>`, called
//   after the read (swift-dependencies' usual "client" shape);
// - a name is another key (`\.primaryDatabase`);
// - an object graph is a chain of factory clients, each reading its own dependencies through
//   `DependencyValues` when it is called, so every edge costs one dependency read, as every
//   edge costs one lookup in a container.

/// A client that builds a new `Value` every time it is called.
struct Factory<Value>: Sendable {
    let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    func callAsFunction() -> Value {
        make()
    }
}

/// Reads one dependency exactly as `@Dependency(\.key) var value; value` does.
@inline(__always)
func read<Value>(_ keyPath: any KeyPath<DependencyValues, Value> & Sendable) -> Value {
    Dependency(keyPath).wrappedValue
}

private enum LoggerKey: DependencyKey {
    static let liveValue = Logger()
}
private enum PrimaryDatabaseKey: DependencyKey {
    static let liveValue = Database(logger: LoggerKey.liveValue)
}
private enum CacheFactoryKey: DependencyKey {
    static let liveValue = Factory { Cache() }
}
private enum DatabaseFactoryKey: DependencyKey {
    static let liveValue = Factory { Database(logger: read(\.logger)) }
}
private enum RepositoryFactoryKey: DependencyKey {
    static let liveValue = Factory { Repository(database: read(\.makeDatabase)(), cache: read(\.makeCache)()) }
}
private enum ViewModelFactoryKey: DependencyKey {
    static let liveValue = Factory { ViewModel(repository: read(\.makeRepository)()) }
}

extension DependencyValues {
    var logger: Logger {
        get { self[LoggerKey.self] }
        set { self[LoggerKey.self] = newValue }
    }
    var primaryDatabase: Database {
        get { self[PrimaryDatabaseKey.self] }
        set { self[PrimaryDatabaseKey.self] = newValue }
    }
    var makeCache: Factory<Cache> {
        get { self[CacheFactoryKey.self] }
        set { self[CacheFactoryKey.self] = newValue }
    }
    var makeDatabase: Factory<Database> {
        get { self[DatabaseFactoryKey.self] }
        set { self[DatabaseFactoryKey.self] = newValue }
    }
    var makeRepository: Factory<Repository> {
        get { self[RepositoryFactoryKey.self] }
        set { self[RepositoryFactoryKey.self] = newValue }
    }
    var makeViewModel: Factory<ViewModel> {
        get { self[ViewModelFactoryKey.self] }
        set { self[ViewModelFactoryKey.self] = newValue }
    }
}

// MARK: The 20-object graph

private enum G01Key: DependencyKey {
    static let liveValue = Factory { G01(a: read(\.g02)(), b: read(\.g03)(), c: read(\.g04)()) }
}
private enum G02Key: DependencyKey {
    static let liveValue = Factory { G02(a: read(\.g05)(), b: read(\.g06)(), c: read(\.g07)()) }
}
private enum G03Key: DependencyKey {
    static let liveValue = Factory { G03(a: read(\.g08)(), b: read(\.g09)(), c: read(\.g10)()) }
}
private enum G04Key: DependencyKey {
    static let liveValue = Factory { G04(a: read(\.g11)(), b: read(\.g12)(), c: read(\.g13)()) }
}
private enum G05Key: DependencyKey { static let liveValue = Factory { G05(a: read(\.g14)()) } }
private enum G06Key: DependencyKey { static let liveValue = Factory { G06(a: read(\.g15)()) } }
private enum G07Key: DependencyKey { static let liveValue = Factory { G07(a: read(\.g16)()) } }
private enum G08Key: DependencyKey { static let liveValue = Factory { G08(a: read(\.g17)()) } }
private enum G09Key: DependencyKey { static let liveValue = Factory { G09(a: read(\.g18)()) } }
private enum G10Key: DependencyKey { static let liveValue = Factory { G10(a: read(\.g19)()) } }
private enum G11Key: DependencyKey { static let liveValue = Factory { G11(logger: read(\.logger)) } }
private enum G12Key: DependencyKey { static let liveValue = Factory { G12(logger: read(\.logger)) } }
private enum G13Key: DependencyKey { static let liveValue = Factory { G13(logger: read(\.logger)) } }
private enum G14Key: DependencyKey { static let liveValue = Factory { G14() } }
private enum G15Key: DependencyKey { static let liveValue = Factory { G15() } }
private enum G16Key: DependencyKey { static let liveValue = Factory { G16() } }
private enum G17Key: DependencyKey { static let liveValue = Factory { G17() } }
private enum G18Key: DependencyKey { static let liveValue = Factory { G18() } }
private enum G19Key: DependencyKey { static let liveValue = Factory { G19() } }

extension DependencyValues {
    var g01: Factory<G01> { self[G01Key.self] }
    var g02: Factory<G02> { self[G02Key.self] }
    var g03: Factory<G03> { self[G03Key.self] }
    var g04: Factory<G04> { self[G04Key.self] }
    var g05: Factory<G05> { self[G05Key.self] }
    var g06: Factory<G06> { self[G06Key.self] }
    var g07: Factory<G07> { self[G07Key.self] }
    var g08: Factory<G08> { self[G08Key.self] }
    var g09: Factory<G09> { self[G09Key.self] }
    var g10: Factory<G10> { self[G10Key.self] }
    var g11: Factory<G11> { self[G11Key.self] }
    var g12: Factory<G12> { self[G12Key.self] }
    var g13: Factory<G13> { self[G13Key.self] }
    var g14: Factory<G14> { self[G14Key.self] }
    var g15: Factory<G15> { self[G15Key.self] }
    var g16: Factory<G16> { self[G16Key.self] }
    var g17: Factory<G17> { self[G17Key.self] }
    var g18: Factory<G18> { self[G18Key.self] }
    var g19: Factory<G19> { self[G19Key.self] }
}

/// The owner of the property-wrapper scenarios, written the swift-dependencies way. `@Dependency`
/// captures the current dependencies when the owner is created and looks the value up on every
/// read.
final class DependencyOwner {
    @Dependency(\.logger) var logger
    @Dependency(\.makeCache) var makeCache
}
