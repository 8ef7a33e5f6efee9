import DICore
import ShopApp
import ShopCore
import Testing

/// Binds one feature container of the shop app as `Container.current` for a suite or a test, so that an
/// `.isolatedContainer` trait listed after it gives each test case a private copy of that feature's graph.
///
/// ```swift
/// @Suite(.shopFeature(\.catalog), .isolatedContainer) struct CatalogTests { … }
/// ```
///
/// Every test target of the package shares one app tree, built once the way the app builds it; tests never
/// change it, they override in their own test containers.
public struct ShopFeatureTrait: SuiteTrait, TestTrait, TestScoping {
    let feature: @Sendable (ShopApp) -> Container

    /// `true`: each test of a suite runs with the feature container bound.
    public var isRecursive: Bool { true }

    /// Runs the test with the feature container as `Container.current`.
    ///
    /// - Parameters:
    ///   - test: The test that runs.
    ///   - testCase: The test case.
    ///   - function: Runs the test case.
    /// - Throws: What building the app tree or the test throws.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable @concurrent () async throws -> Void
    ) async throws {
        try await withContainer(feature(try TestShop.shared.get())) { try await function() }
    }
}

extension Trait where Self == ShopFeatureTrait {
    /// Binds the shop app's feature container at `feature` (`\.catalog`, `\.cart`, `\.checkout`, `\.app`).
    ///
    /// - Parameter feature: The key path of the container in ``ShopApp``.
    /// - Returns: The trait.
    public static func shopFeature(_ feature: any KeyPath<ShopApp, Container> & Sendable) -> Self {
        ShopFeatureTrait { $0[keyPath: feature] }
    }
}

/// The app tree the tests share.
public enum TestShop {
    /// Built once, the way the app builds it, with a logger that prints nothing.
    public static let shared = Result { try ShopApp.makeContainer(logger: RecordingLogger()) }
}
