import DICore

/// Lets the analysis see through `Optional<T>` dependencies, which resolve to `nil` when `T` is missing.
protocol OptionalMarker {
    static var wrappedType: Any.Type { get }
}
