/// A rule of ``InstanceStorage`` that a storage broke, found by ``checkInstanceStorage(_:)``.
///
/// ```swift
/// for violation in await checkInstanceStorage(UserStorage()) {
///     print(violation)   // keysAreDistinct: An instance stored under one key of Twin was returned for …
/// }
/// ```
public struct InstanceStorageViolation: Sendable, Hashable, CustomStringConvertible {
    /// The rule, as a short identifier: `emptyStorageHasNothing`, `readsWhatWasStored`, `keysAreDistinct`,
    /// `storeReplaces`, `releaseReturnsTheInstance`, `releaseForgets`, `releaseOfMissingKeyIsNil`,
    /// `releaseDropsTheInstance` or `concurrentAccess`.
    ///
    /// ```swift
    /// #expect(!violations.map(\.rule).contains("keysAreDistinct"))
    /// ```
    public let rule: String
    /// What happened, as sentences naming the key, what was expected and the way out.
    ///
    /// ```swift
    /// violations.forEach { print($0.message) }
    /// ```
    public let message: String

    /// The rule and the message: `keysAreDistinct: …`.
    ///
    /// ```swift
    /// #expect(violations.isEmpty, "\(violations)")
    /// ```
    public var description: String { "\(rule): \(message)" }
}
