/// Test containers: private copies of a base container's graph, for one test.
///
/// A test container is a root (`parent == nil`) that also resolves everything its base chain registers, as
/// the base's registrations stand at resolve time, and treats each such registration as if it were registered
/// in the test container: it keeps its own instance of every lifetime that keeps instances (the base's
/// `.singleton` slot is never read or filled), and those instances resolve their dependencies from the test
/// container, so the test's overrides reach the dependencies of the app's singletons. Nothing in the base
/// changes. Making one copies no registration.
extension Container {
    /// Makes a test container over `base`.
    ///
    /// - Parameters:
    ///   - base: The container whose graph the test container resolves; the base and its ancestors are read,
    ///     never changed.
    ///   - name: The name printed in diagnostics.
    ///   - resolvedAfterClose: Called when anything asks this test container (or one of its descendants) to
    ///     resolve after it was closed: work that outlived its test.
    package static func makeTestContainer(
        from base: Container,
        name: String,
        resolvedAfterClose: (@Sendable (_ service: String) -> Void)? = nil
    ) -> Container {
        Container(
            name: name,
            tags: base.visibleTags,
            testing: TestContainerLink(base: base, resolvedAfterClose: resolvedAfterClose)
        )
    }

    /// Whether this container is a test container or hangs below one.
    package var isInTestContainer: Bool {
        nearest { $0.testing != nil } != nil
    }

    /// The tags of this container, its ancestors and, through test containers, their bases: what
    /// `.matching(_:)` can find from here. A test container carries them so that it builds its own instance
    /// of a `.matching` service of its base.
    var visibleTags: Set<String> {
        var tags = Set<String>()
        var current: Container? = self
        while let container = current {
            tags.formUnion(container.tags)
            current = container.parent
        }
        return tags
    }

    /// Each container whose registrations this one sees, nearest first, with the container that owns what is
    /// built from them (a test container owns what it resolves from its base chain).
    var registrationSources: [(container: Container, owner: Container)] {
        var sources: [(container: Container, owner: Container)] = []
        for container in ancestry {
            sources.append((container, container))
            if let base = container.testing?.base {
                sources += base.registrationSources.map { ($0.container, container) }
            }
        }
        return sources
    }

    /// The registrations this container resolves as its own: its own and, for a test container, those of its
    /// base chain that it does not shadow (nearest first, each key once, up to the first closed container, which
    /// resolves nothing), since it builds and keeps its own instance of each of them with dependencies from
    /// itself. What diagnostics model a container with.
    package var registrationsTreatedAsOwn: [Registration] {
        let own = registry.all
        guard let base = testing?.base else { return own }
        var seen = Set(own.map(\.key))
        var result = own
        for (container, _) in base.registrationSources {
            if container.isClosed { break }
            for registration in container.registry.all where seen.insert(registration.key).inserted {
                result.append(registration)
            }
        }
        return result
    }

    /// The slot in which this test container keeps its own instance of a `.singleton` registration.
    func testSlot(for registration: Registration) -> InstanceSlot {
        slots.slot(for: registration)
    }

    /// Tells the nearest test container (self or an ancestor) that it was asked to resolve after it closed.
    func reportResolvedAfterTest(_ type: Any.Type, name: String?) {
        var current: Container? = self
        while let container = current {
            if let report = container.testing?.resolvedAfterClose {
                report(ServiceName.describe(type, name: name))
                return
            }
            current = container.parent
        }
    }
}

extension Container {
    /// The path of the resolution running on this thread or task, from the top-level request; empty outside
    /// a resolve. For messages of test helpers.
    package static var activeResolutionPath: [PathElement] {
        let path = ResolutionStack.current.path
        if !path.isEmpty { return path }
        return AsyncResolution.currentIfActive?.path ?? []
    }
}
