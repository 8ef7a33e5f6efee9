import DICore
import Testing

extension Container {
    /// The instance registered for `type` under `name`, as the mock type the test installed.
    ///
    /// Records a test failure — it does not trap — when the service cannot be resolved or its instance is
    /// not a `Mock` (the test installed another type, or forgot to install one), and returns `nil`.
    ///
    /// ```swift
    /// @Test(.override(Repository.self) { _ in SpyRepository() })
    /// func savesOnCheckout() throws {
    ///     try Container.current.resolve(Checkout.self).finish()
    ///     let spy = try #require(Container.current.mock(Repository.self, as: SpyRepository.self))
    ///     #expect(spy.saved.count == 1)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The service the mock was installed for.
    ///   - name: The registration name, `nil` for the unnamed registration.
    ///   - mockType: The mock's concrete type.
    ///   - fileID: Where it was called; leave the default.
    ///   - filePath: Where it was called; leave the default.
    ///   - line: Where it was called; leave the default.
    ///   - column: Where it was called; leave the default.
    /// - Returns: The mock, or `nil` after recording a failure.
    public func mock<Service, Mock>(
        _ type: Service.Type,
        name: String? = nil,
        as mockType: Mock.Type,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) -> Mock? {
        let location = Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let service = ServiceName.describe(type, name: name)
        let mockName = ServiceName.readable(mockType)
        let call = "mock(\(ServiceName.key(type, name: name)), as: \(mockName).self)"
        let instance: Service
        do {
            instance = try resolve(type, name: name)
        } catch {
            FailureReporter.current.record(
                "\(call) found no mock: the service cannot be resolved from \(self.name).\n\(error)",
                location
            )
            return nil
        }
        guard let mock = instance as? Mock else {
            FailureReporter.current.record(
                "\(call): the instance registered for \(service) is a "
                    + "\(ServiceName.readable(Swift.type(of: instance as Any))), not a \(mockName). Install the "
                    + "mock for this test (.override(\(ServiceName.key(type, name: name))) { _ in \(mockName)() }).",
                location
            )
            return nil
        }
        return mock
    }
}
