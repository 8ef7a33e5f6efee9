import DICore

/// An alias registration's check that an instance conforms to the alias type.
protocol AliasChecking {
    func accepts(_ value: Any) -> Bool
}
