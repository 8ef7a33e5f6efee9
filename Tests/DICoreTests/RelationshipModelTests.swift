import DICore
import DITestSupport
import Testing

/// Relationship types against a small reference model: random registrations in a parent and a child,
/// then `Lazy`, `Provider` and `All` of every name from both, compared with what the model predicts.
@Suite struct RelationshipModelTests {
    final class Item: Sendable {
        let origin: String
        init(origin: String) { self.origin = origin }
    }

    struct Entry {
        let name: String
        let singleton: Bool
    }

    @Test(arguments: [UInt64(1), 2, 3, UInt64.random(in: 0...UInt64.max)])
    func relationshipsMatchTheModel(seed: UInt64) throws {
        print("RelationshipModelTests seed: \(seed)")
        var random = SplitMix64(state: seed)
        let app = Container(name: "app")
        let child = app.child(name: "child")
        let names = (0..<6).map { "n\($0)" }
        // Model: each container's registrations in registration order (the latest per name wins in place).
        var model: [String: [Entry]] = ["app": [], "child": []]
        for _ in 0..<10 {
            let name = names.randomElement(using: &random)!
            let singleton = Bool.random(using: &random)
            let container = Bool.random(using: &random) ? app : child
            let label = container.name
            try container.register(Item.self, name: name, scope: singleton ? .singleton : .transient) { _ in
                Item(origin: label)
            }
            if let index = model[label]!.firstIndex(where: { $0.name == name }) {
                model[label]![index] = Entry(name: name, singleton: singleton)
            } else {
                model[label]!.append(Entry(name: name, singleton: singleton))
            }
        }
        for (asked, chain) in [(app, ["app"]), (child, ["child", "app"])] {
            for name in names {
                let found = chain.lazy.compactMap { label in
                    model[label]!.first { $0.name == name }.map { (label, $0) }
                }.first
                guard let (origin, entry) = found else {
                    #expect(throws: ResolutionError.self, "seed \(seed)") {
                        try asked.resolve(Provider<Item>.self, name: name)
                    }
                    #expect(throws: ResolutionError.self, "seed \(seed)") {
                        try asked.resolve(Lazy<Item>.self, name: name)
                    }
                    continue
                }
                let provider = try asked.resolve(Provider<Item>.self, name: name)
                let (first, second) = (try provider(), try provider())
                #expect(first.origin == origin, "seed \(seed)")
                #expect((first === second) == entry.singleton, "seed \(seed)")
                let lazy = try asked.resolve(Lazy<Item>.self, name: name)
                let value = try lazy.value
                #expect(try lazy.value === value, "seed \(seed)")
                #expect(value.origin == origin, "seed \(seed)")
                if entry.singleton { #expect(value === first, "seed \(seed)") }
            }
            var seen = Set<String>()
            let expected = chain.flatMap { label in
                model[label]!.filter { seen.insert($0.name).inserted }.map { _ in label }
            }
            #expect(try asked.resolve(All<Item>.self).map(\.origin) == expected, "seed \(seed)")
        }
    }
}
