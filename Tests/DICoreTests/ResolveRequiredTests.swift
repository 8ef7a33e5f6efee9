import DICore
import Testing

/// `resolveRequired` is the one place the library traps; these exit tests run it in a child process and read
/// what it printed.
@Suite(.timeLimit(.minutes(1))) struct ResolveRequiredTests {
    @Test func trapsWithTheFullDiagnostic() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = Container(name: "app")
            _ = app.resolveRequired(Database.self)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("resolveRequired at DICoreTests/ResolveRequiredTests.swift"))
        #expect(output.contains("ResolutionError.notRegistered: Cannot resolve Database"))
        #expect(output.contains("searched:  app"))
    }

    @Test func castingVariantTrapsOnTheWrongType() async {
        await #expect(processExitsWith: .failure) {
            let app = Container(name: "app")
            _ = try? app.register((any Logger).self) { _ in ConsoleLogger() }
            _ = app.resolveRequired((any Logger).self, as: RouterImpl.self)
        }
    }
}
