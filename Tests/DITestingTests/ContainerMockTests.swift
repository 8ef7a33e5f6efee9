import DICore
import DITesting
import Testing

/// The app is installed before any trait of a test runs, so that what `.override` replaces is there.
@Suite(.container { _ in try App.install() }) struct ContainerMockTests {
    @Test(.override((any Repository).self) { _ in SpyRepository() })
    func givesTypedAccessToTheInstalledMock() throws {
        let spy = try #require(Container.current.mock((any Repository).self, as: SpyRepository.self))
        try Container.current.resolve((any Repository).self).save("order")
        #expect(spy.items == ["order"])
    }

    @Test(.override((any Repository).self) { _ in OtherSpy() })
    func recordsAFailureWhenTheInstanceIsAnotherType() {
        withKnownIssue {
            #expect(Container.current.mock((any Repository).self, as: SpyRepository.self) == nil)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("OtherSpy") && text.contains("not a SpyRepository")
        }
    }

    /// The failure's advice is code that compiles: the service's name is an argument, and an existential is
    /// written `(any Repository).self`.
    @Test(.container { try $0.register((any Repository).self, name: "audit") { _ in SpyRepository() } },
          .override((any Repository).self, name: "audit") { _ in OtherSpy() })
    func theAdviceForANamedServiceIsCodeThatCompiles() {
        withKnownIssue {
            #expect(Container.current.mock((any Repository).self, name: "audit", as: SpyRepository.self) == nil)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("mock((any Repository).self, name: \"audit\", as: SpyRepository.self)")
                && text.contains("the instance registered for any Repository \"audit\" is a OtherSpy")
                && text.contains(".override((any Repository).self, name: \"audit\") { _ in SpyRepository() }")
        }
    }

    @Test(.isolatedContainer) func recordsAFailureWhenNothingIsRegistered() {
        withKnownIssue {
            #expect(Container.current.mock(Counter.self, as: Counter.self) == nil)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("cannot be resolved")
        }
    }
}
