@testable import DICore
import DITestSupport
import Testing

/// The roots alive in the process, and the close match they give a lookup that fails in `Container.shared`'s
/// tree: the service registered in the app's own root, asked of `Container.current` where nothing was bound.
///
/// `Container.shared` is one for the whole test run, so every test here asks it for a type of its own, which no
/// other test registers anywhere, and registers nothing in it (only in children it drops).
extension ServiceKeys {
    fileprivate var rootListRequired: ServiceKey<Int> { .required() }
}

@Suite(.timeLimit(.minutes(1))) struct RootListTests {
    /// A `Logger` of this suite's own, as the article's example has: no other test registers it.
    enum Documented {
        protocol Logger: Sendable {}
        struct ConsoleLogger: Logger {}
    }
    private struct AskedOfCurrent: Sendable {}
    private struct AskedFromElsewhere: Sendable {}
    private struct AskedOfAClosedTree: Sendable {}
    private struct Needed: Sendable {}
    private final class NeedsIt: Sendable { init(_ needed: Needed) {} }
    private struct PerRequest: Sendable { let id: Int }
    private struct Raced: Sendable {}

    @Test func aRootIsListedWhileItLivesAndChildrenAndTestContainersAreNot() {
        var root: Container? = Container(name: "listed")
        let identity = ObjectIdentifier(root!)
        let child = root!.child(name: "child")
        let test = Container.makeTestContainer(from: root!, name: "test")
        var listed = Set<ObjectIdentifier>()
        RootList.forEach { listed.insert(ObjectIdentifier($0)) }
        #expect(listed.contains(identity))
        #expect(!listed.contains(ObjectIdentifier(child)))
        #expect(!listed.contains(ObjectIdentifier(test)))
        _ = consume child
        _ = consume test
        root = nil
        var stillListed = false
        RootList.forEach { stillListed = stillListed || ObjectIdentifier($0) == identity }
        #expect(!stillListed)
    }

    /// The Getting Started article's example, as printed.
    @Test func aServiceOfAnotherRootIsTheCloseMatchAndTheFixResolvesFromIt() throws {
        let app = Container(name: "app")
        try app.register((any Documented.Logger).self, fileID: "App/Setup.swift", line: 8) { _ in
            Documented.ConsoleLogger()
        }

        let error = try #require(throws: ResolutionError.self) {
            try Container.shared.resolve((any Documented.Logger).self)
        }
        #expect(error.suggestions == [
            "any Logger is registered in app (App/Setup.swift:8), a container of another tree, which shared cannot see."
        ])
        let article = try DocumentationArticle("Sources/DICore/Documentation.docc/GettingStarted.md")
        let block = try #require(article.textBlocks(after: "says where the service is").first)
        #expect(block == error.description)
    }

    /// `Container.current` where nothing is bound is `Container.shared`; a child of it asks its tree too.
    @Test func anAskerBelowSharedAndTheUnboundCurrentGetTheMatchToo() throws {
        let app = Container(name: "app")
        try app.register(AskedOfCurrent.self) { _ in AskedOfCurrent() }

        let unbound = try #require(throws: ResolutionError.self) { try Container.current.resolve(AskedOfCurrent.self) }
        #expect(unbound.suggestions.first?.contains("registered in app") == true, "\(unbound)")
        let below = Container.shared.child(name: "below")
        let error = try #require(throws: ResolutionError.self) { try below.resolve(AskedOfCurrent.self) }
        #expect(error.suggestions.first?.contains("which below cannot see") == true, "\(error)")
        #expect(error.description.contains("fix:       resolve it from app: call app.resolve("), "\(error)")
    }

    /// A `.required()` key of the keypath registry that the app provides in its own root: the same slip, the
    /// same close match (the error's detail still says how to provide it where it was asked).
    @Test func aRequiredKeyProvidedByAnotherRootIsTheCloseMatch() throws {
        let app = Container(name: "app")
        let line = #line + 1
        try app.register(\.rootListRequired) { _ in 7 }
        let error = try #require(throws: ResolutionError.self) { try Container.shared.resolve(\.rootListRequired) }
        #expect(error.code == .requiredKeyMissing)
        #expect(error.suggestions == [
            "\\.rootListRequired is registered in app (DICoreTests/RootListTests.swift:\(line)), a container of "
                + "another tree, which shared cannot see."
        ], "\(error)")
    }

    /// Only `Container.shared`'s tree looks at other trees: a test's own root, or a test container (made from
    /// `Container.shared` too), must not name what other tests running at the same moment register.
    @Test func otherRootsAndTestContainersDoNotLookAtOtherTrees() throws {
        let app = Container(name: "app")
        try app.register(AskedFromElsewhere.self) { _ in AskedFromElsewhere() }
        let other = Container(name: "other")
        let test = Container.makeTestContainer(from: Container.shared, name: "test")

        for asker in [other, other.child(name: "child"), test, test.child(name: "child")] {
            let error = try #require(throws: ResolutionError.self) { try asker.resolve(AskedFromElsewhere.self) }
            #expect(error.suggestions.isEmpty, "\(error)")
            #expect(error.description.contains("fix:       register it in \(asker.name) or an ancestor"), "\(error)")
        }
    }

    /// A closed container resolves nothing, so resolving from it is no way out; a freed root is not listed.
    @Test func closedAndFreedContainersAreNotSuggested() throws {
        var app: Container? = Container(name: "app")
        let closedChild = app!.child(name: "closed-child")
        try closedChild.register(AskedOfAClosedTree.self) { _ in AskedOfAClosedTree() }
        closedChild.close()
        #expect(throws: ResolutionError.self) { try Container.shared.resolve(AskedOfAClosedTree.self) }
        let afterTheChild = try #require(throws: ResolutionError.self) {
            try Container.shared.resolve(AskedOfAClosedTree.self)
        }
        #expect(afterTheChild.suggestions.isEmpty, "\(afterTheChild)")

        try app!.register(AskedOfAClosedTree.self) { _ in AskedOfAClosedTree() }
        let open = try #require(throws: ResolutionError.self) { try Container.shared.resolve(AskedOfAClosedTree.self) }
        app!.close()
        #expect(!open.description.contains("registered in app"), "looked for when printed, after the close: \(open)")
        app = nil
        _ = consume closedChild
        let freed = try #require(throws: ResolutionError.self) { try Container.shared.resolve(AskedOfAClosedTree.self) }
        #expect(freed.suggestions.isEmpty, "\(freed)")
    }

    /// A dependency that only another tree registers: the dependent's registration is what moves.
    @Test func aDependencyOfAnotherTreeMovesItsDependent() throws {
        let app = Container(name: "app")
        try app.register(Needed.self) { _ in Needed() }
        let feature = Container.shared.child(name: "feature")
        let line = #line + 1
        try feature.register(NeedsIt.self) { r in NeedsIt(try r.resolve(Needed.self)) }

        let error = try #require(throws: ResolutionError.self) { try feature.resolve(NeedsIt.self) }
        #expect(error.description.contains(
            "fix:       move the registration of NeedsIt at DICoreTests/RootListTests.swift:\(line) to "
                + "app: app registers Needed, and feature cannot see it"
        ), "\(error)")
    }

    /// Only roots are looked at: walking another tree's children would keep them alive while the error is
    /// printed (a server's app container has a child per request). Roots of one name and registration site, as
    /// a loop of tests makes them, give one line.
    @Test func onlyRootsAreLookedAtOnceForEachNameAndSite() throws {
        let app = Container(name: "app")
        let feature = app.child(name: "feature")
        try feature.register(PerRequest.self) { _ in PerRequest(id: 0) }
        let inAChild = try #require(throws: ResolutionError.self) { try Container.shared.resolve(PerRequest.self) }
        #expect(inAChild.suggestions.isEmpty, "\(inAChild)")

        let roots = (0..<20).map { _ in Container(name: "copy") }
        for (id, root) in roots.enumerated() { try root.register(PerRequest.self) { _ in PerRequest(id: id) } }
        let error = try #require(throws: ResolutionError.self) { try Container.shared.resolve(PerRequest.self) }
        #expect(error.suggestions.count == 1, "\(error.suggestions)")
        #expect(error.suggestions.first?.contains("registered in copy") == true, "\(error)")
    }

    /// Roots made and freed on 1, 2, 3 and 16 threads while other threads print errors that look through them:
    /// no crash, no hang, and (under ThreadSanitizer) no race on the list.
    @Test(arguments: [1, 2, 3, 16]) func rootsComeAndGoWhileErrorsArePrinted(threads: Int) async throws {
        let printed = await raceOnThreads(threads * 2) { thread -> Bool in
            if thread < threads {
                for _ in 0..<200 {
                    let root = Container(name: "raced")
                    _ = try? root.register(Raced.self) { _ in Raced() }
                    if thread.isMultiple(of: 2) { root.close() }
                }
                return true
            }
            return (0..<20).allSatisfy { _ in
                do {
                    _ = try Container.shared.resolve(Raced.self)
                    return false
                } catch {
                    return "\(error)".contains("Cannot resolve Raced")
                }
            }
        }
        let results = try #require(printed, "the threads hung")
        #expect(results.allSatisfy { $0 })
    }
}
