/// What makes a container a test container: the base it resolves through, and who hears of late resolves.
package final class TestContainerLink: Sendable {
    /// The container whose graph the test container resolves as its own.
    package let base: Container
    let resolvedAfterClose: (@Sendable (String) -> Void)?

    init(base: Container, resolvedAfterClose: (@Sendable (String) -> Void)?) {
        self.base = base
        self.resolvedAfterClose = resolvedAfterClose
    }
}
