import DICore
import DITesting
import Testing

@Suite struct ContainerMockTests {
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

    @Test(.isolatedContainer) func recordsAFailureWhenNothingIsRegistered() {
        withKnownIssue {
            #expect(Container.current.mock(Counter.self, as: Counter.self) == nil)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("cannot be resolved")
        }
    }
}
