/// An error of another module that carries a `ResolutionError` (a property wrapper's `InjectionError`), so
/// that the engine can see a cycle through it.
package protocol ResolutionErrorWrapper: Error {
    /// The resolution error inside, if that is what failed.
    var resolutionError: ResolutionError? { get }
}
