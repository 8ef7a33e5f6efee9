import DITesting
import Testing

@Suite struct UnimplementedTests {
    struct Analytics: Sendable {
        var track: @Sendable (String) -> Void
        var count: @Sendable () -> Int
    }

    @Test func aValuePlaceholderRecordsAFailureAndReturnsThePlaceholder() {
        withKnownIssue {
            let items: [String] = unimplemented("Repository.items()", placeholder: ["placeholder"])
            #expect(items == ["placeholder"])
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("Repository.items()")
        }
    }

    @Test func aClosurePlaceholderRecordsEachCallWithItsArguments() {
        let analytics = Analytics(
            track: unimplemented("Analytics.track"),
            count: unimplemented("Analytics.count", placeholder: 0)
        )
        withKnownIssue {
            analytics.track("checkout")
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("Analytics.track") && text.contains("\"checkout\"")
        }
        withKnownIssue {
            #expect(analytics.count() == 0)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("Analytics.count")
        }
    }

    @Test func anUnusedPlaceholderRecordsNothing() {
        let analytics = Analytics(
            track: unimplemented("Analytics.track"),
            count: unimplemented("Analytics.count", placeholder: 0)
        )
        _ = analytics
    }
}
