import DICore
import DITestSupport
import Testing

/// A seeded random walk over request containers that register values (the first kept without its
/// registration), register factories, resolve (also from new children), list and close, checked step by step
/// against a small model: which value each key resolves to, and the registrations in order.
@Suite struct KeptValueModelTests {
    struct Value: Sendable, Equatable {
        let number: Int
    }

    /// The keys the walk uses: two of `Value`, two of `String`, named and not.
    enum Key: CaseIterable {
        case value, namedValue, text, namedText

        var name: String? {
            switch self {
            case .value, .text: nil
            case .namedValue, .namedText: "named"
            }
        }

        var isText: Bool { self == .text || self == .namedText }
        /// As `RegistrationInfo.displayName` spells it.
        var label: String { "\(isText ? "String" : "Value")\(name.map { " \"\($0)\"" } ?? "")" }
    }

    static func register(_ key: Key, number: Int, asFactory: Bool, in container: Container) throws {
        switch (key.isText, asFactory) {
        case (true, false): try container.register(String.self, name: key.name, value: "\(number)")
        case (true, true): try container.register(String.self, name: key.name) { _ in "\(number)" }
        case (false, false): try container.register(Value.self, name: key.name, value: Value(number: number))
        case (false, true): try container.register(Value.self, name: key.name) { _ in Value(number: number) }
        }
    }

    static func resolve(_ key: Key, in container: Container) throws -> Int {
        key.isText
            ? Int(try container.resolve(String.self, name: key.name))!
            : try container.resolve(Value.self, name: key.name).number
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, UInt64.random(in: 6...UInt64.max)])
    func matchesTheModel(seed: UInt64) throws {
        print("KeptValueModelTests seed: \(seed)")
        var random = SplitMix64(state: seed)
        let app = Container(name: "app")
        for round in 0..<40 {
            let request = app.child(name: "request")
            var registered: [(key: Key, number: Int)] = []    // in registration order; a replaced key moves last
            var closed = false
            for step in 0..<12 {
                let key = Key.allCases.randomElement(using: &random)!
                let number = Int.random(in: 1...1_000, using: &random)
                let context = "seed \(seed), round \(round), step \(step)"
                switch Int.random(in: 0..<10, using: &random) {
                case 0...3:
                    let asFactory = Int.random(in: 0..<4, using: &random) == 0
                    if closed {
                        #expect(throws: RegistrationError.self, "\(context)") {
                            try Self.register(key, number: number, asFactory: asFactory, in: request)
                        }
                    } else {
                        try Self.register(key, number: number, asFactory: asFactory, in: request)
                        registered.removeAll { $0.key == key }
                        registered.append((key, number))
                    }
                case 4...6:
                    if closed {
                        let error = try #require(throws: ResolutionError.self) { try Self.resolve(key, in: request) }
                        #expect(error.code == .containerClosed, "\(context)")
                    } else if let expected = registered.first(where: { $0.key == key }) {
                        #expect(try Self.resolve(key, in: request) == expected.number, "\(context)")
                    } else {
                        let error = try #require(throws: ResolutionError.self) { try Self.resolve(key, in: request) }
                        #expect(error.code == .notRegistered, "\(context)")
                    }
                case 7:
                    let expected = closed ? [] : registered.map(\.key.label)
                    #expect(request.registrations.map(\.displayName) == expected, "\(context)")
                case 8:
                    let present = !closed && registered.contains { $0.key == key }
                    #expect(
                        (key.isText ? request.isRegistered(String.self, name: key.name)
                            : request.isRegistered(Value.self, name: key.name)) == present,
                        "\(context)"
                    )
                default:
                    if Int.random(in: 0..<3, using: &random) == 0 {
                        request.close()
                        closed = true
                    } else {
                        // A new child sees the request's registrations; a closed container's child is closed.
                        let nested = request.child(name: "nested")
                        if closed {
                            let error = try #require(throws: ResolutionError.self) { try Self.resolve(key, in: nested) }
                            #expect(error.code == .containerClosed, "\(context)")
                        } else if let expected = registered.first(where: { $0.key == key }) {
                            #expect(try Self.resolve(key, in: nested) == expected.number, "\(context)")
                        }
                    }
                }
            }
            request.close()
        }
        #expect(app.childCount == 0)
    }
}
