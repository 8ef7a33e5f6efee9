import DIDiagnostics

/// Why ``ShopServer`` refused to start: the validation report of the graph a request sees, with its errors.
///
/// ```swift
/// do {
///     let application = try ShopServer.makeApplication(ShopServer.Options())
/// } catch let error as StartupError {
///     print(error)          // "shop-server did not start: … error[DI-MISSING]: …"
/// }
/// ```
public struct StartupError: Error, CustomStringConvertible {
    /// The report whose errors stopped the start-up.
    public let report: ValidationReport

    /// Creates the error for a report with errors.
    ///
    /// - Parameter report: The validation report.
    public init(report: ValidationReport) {
        self.report = report
    }

    /// A sentence saying what failed and how to get out, then the whole report.
    public var description: String {
        "shop-server did not start: the dependency graph that every request container sees has "
            + "\(report.errors.count) error\(report.errors.count == 1 ? "" : "s"). Fix the registrations "
            + "named below (each finding says how), then start the server again.\n\n\(report)"
    }
}
