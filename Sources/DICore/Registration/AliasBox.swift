/// How an alias turns its target's instance into the alias type.
package final class AliasBox<Alias>: ServiceBody {
    package typealias Service = Alias

    package init() {}

    package func cast(_ value: Any) -> Alias? {
        value as? Alias
    }
}
