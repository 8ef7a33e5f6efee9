// The services every contender builds. They are the same classes for DIToolkit, Swinject,
// swift-dependencies and the hand-written baseline, so a difference in time is the container's.
//
// Every class is final and Sendable (immutable `let` storage) because DIToolkit, swift-dependencies
// and the two-thread scenarios share instances across threads. The initialisers are `@inlinable`
// so that the hand-written baseline gets the same cross-module inlining a container's factory
// closure gets.

/// The singleton of every graph: built once, shared by everyone.
public final class Logger: Sendable {
    @usableFromInline let prefix: String

    @inlinable
    public init(prefix: String = "app") {
        self.prefix = prefix
    }
}

/// A service with no dependencies: the transient-resolve scenario builds one per resolve.
public final class Cache: Sendable {
    @usableFromInline let capacity: Int

    @inlinable
    public init(capacity: Int = 16) {
        self.capacity = capacity
    }
}

/// Depends on the singleton `Logger`.
public final class Database: Sendable {
    public let logger: Logger

    @inlinable
    public init(logger: Logger) {
        self.logger = logger
    }
}

/// Depends on a new `Database` and a new `Cache`.
public final class Repository: Sendable {
    public let database: Database
    public let cache: Cache

    @inlinable
    public init(database: Database, cache: Cache) {
        self.database = database
        self.cache = cache
    }
}

/// The root of the 5-object graph: `ViewModel → Repository → (Database → Logger, Cache)`.
/// Four new objects (ViewModel, Repository, Database, Cache) and one singleton (Logger).
public final class ViewModel: Sendable {
    public let repository: Repository

    @inlinable
    public init(repository: Repository) {
        self.repository = repository
    }
}

/// A type nobody registers: the failed-lookup scenarios ask for it.
public final class Unregistered: Sendable {
    @inlinable
    public init() {}
}

/// The owner of the property-wrapper scenarios, written by hand: its dependencies are passed in.
public final class HandwrittenOwner: Sendable {
    public let logger: Logger
    public let cache: Cache

    @inlinable
    public init(logger: Logger, cache: Cache) {
        self.logger = logger
        self.cache = cache
    }
}

/// Two singletons that live on separate cache lines, one per thread in the `threads-distinct`
/// scenarios: they show how the container's own read path scales when threads do not retain the
/// same object (whose shared reference count limits the `threads-singleton` rows).
public final class ShardA: Sendable {
    @usableFromInline let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    @inlinable
    public init() {}
}

/// The second thread's singleton in the `threads-distinct` scenarios; see ``ShardA``.
public final class ShardB: Sendable {
    @usableFromInline let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    @inlinable
    public init() {}
}
