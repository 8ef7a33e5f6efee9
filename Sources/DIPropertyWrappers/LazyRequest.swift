import DICore
import Synchronization

/// What a lazy wrapper resolves: a type under a name, or a key of the keypath registry.
@usableFromInline
enum LazyRequest<Value>: Sendable {
    case type(name: String?)
    case key(ServiceKeyPath<Value>)
}
