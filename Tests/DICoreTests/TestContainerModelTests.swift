import DICore
import DITestSupport
import Testing

/// A seeded random walk over a base container and a test container made from it, checked step by step
/// against a small model: which marker each singleton was built with, in the base and in the test.
@Suite struct TestContainerModelTests {
    final class Built: Sendable {
        let marker: Int
        init(marker: Int) { self.marker = marker }
    }

    static let keys = ["k0", "k1", "k2", "k3"]

    static func registerSingleton(_ key: String, in container: Container) throws {
        try container.register(Built.self, name: key, scope: .singleton) { r in
            Built(marker: try r.resolve(Int.self, name: "marker"))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, UInt64.random(in: 4...UInt64.max)])
    func matchesTheModel(seed: UInt64) throws {
        print("TestContainerModelTests seed: \(seed)")
        var random = SplitMix64(state: seed)
        let base = Container(name: "base")
        try base.register(Int.self, name: "marker") { _ in 0 }
        for key in Self.keys { try Self.registerSingleton(key, in: base) }
        let test = Container.makeTestContainer(from: base, name: "test")

        var baseMarker = 0
        var testMarker: Int?
        var baseBuilt: [String: Int] = [:]
        var testBuilt: [String: Int] = [:]
        for step in 0..<200 {
            let key = Self.keys.randomElement(using: &random)!
            let value = Int.random(in: 1...1_000, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                try base.register(Int.self, name: "marker") { _ in value }
                baseMarker = value
            case 1:
                try test.register(Int.self, name: "marker") { _ in value }
                testMarker = value
            case 2:
                let expected = baseBuilt[key] ?? baseMarker
                baseBuilt[key] = expected
                #expect(try base.resolve(Built.self, name: key).marker == expected, "seed \(seed), step \(step)")
            case 3:
                let expected = testBuilt[key] ?? testMarker ?? baseMarker
                testBuilt[key] = expected
                #expect(try test.resolve(Built.self, name: key).marker == expected, "seed \(seed), step \(step)")
            default:
                // The base registers the key again: its instance is dropped, and the test container, which
                // resolves registrations as they stand, builds one from the new registration.
                try Self.registerSingleton(key, in: base)
                baseBuilt[key] = nil
                testBuilt[key] = nil
            }
        }
    }
}
