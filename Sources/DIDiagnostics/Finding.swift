import DICore

/// One problem (or remark) that `Container.validate()` found in a container tree: a stable ID, a severity,
/// the path that leads to it, close matches and one line of help.
///
/// The description is the whole diagnosis, ready to print:
///
/// ```text
/// error[DI-MISSING]: Repository needs Database "primary", which is not registered in app or an ancestor.
///   path:
///     Repository         singleton  in app  App/Setup.swift:14
///     Database "primary" not found  in app
///   did you mean:
///     - Database is registered without a name in app (App/Setup.swift:9): resolve it without `name:`.
///   help: in the factory of Repository (App/Setup.swift:14), resolve it without a name, or register
///         Database "primary" in app or an ancestor
/// ```
///
/// Match on `id`, never on the text: the IDs are stable, the wording may improve.
///
/// ```swift
/// let missing = app.validate().findings.filter { $0.id == .missing }
/// print("\(missing.first!.id)")   // DI-MISSING
/// ```
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of a kind of finding, printed as itself (`DI-MISSING`).
    ///
    /// | ID | severity | meaning |
    /// |---|---|---|
    /// | `DI-MISSING` | error | a dependency with no registration visible on the path |
    /// | `DI-CYCLE` | error | services that need each other, found with strongly connected components |
    /// | `DI-DEFERRED-CYCLE` | note | a loop broken by a `Lazy` or `Provider`: no construction cycle |
    /// | `DI-CAPTIVE` | warning | a longer-lived instance holds a shorter-lived one |
    /// | `DI-MATCHING` | error | a `.matching(tag)` service reachable where no container has the tag |
    /// | `DI-ALIAS` | error | an alias whose implementation does not conform to it |
    /// | `DI-BUILD` | error | building a service failed (`validate(instantiating: true)` only) |
    /// | `DI-SHADOW` | note | a child container hides a registration of an ancestor |
    /// | `DI-OPAQUE` | note | registrations whose dependencies are unknown without running them |
    /// | `DI-CLOSED` | error | the container, an ancestor or a test container's base is closed: no graph to check |
    ///
    /// ```swift
    /// if finding.id == .cycle { … }
    /// ```
    public struct ID: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The identifier as printed: `DI-MISSING`.
        public let rawValue: String

        /// Creates an identifier; use the static members.
        ///
        /// - Parameter rawValue: The identifier as printed.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// A declared or observed dependency with no registration visible on the path.
        public static let missing = ID("DI-MISSING")
        /// Services that need each other: the whole loop, with where to break it.
        public static let cycle = ID("DI-CYCLE")
        /// Services that need each other through a `Lazy` or `Provider`: the loop is broken, built on use.
        public static let deferredCycle = ID("DI-DEFERRED-CYCLE")
        /// A longer-lived instance holding a shorter-lived one (a captive dependency).
        public static let captive = ID("DI-CAPTIVE")
        /// A `.matching(tag)` service reachable from a container with no such tagged container on its path; as a
        /// warning, a `.matching(tag)` registration whose tag is a typo of a container's tag.
        public static let matching = ID("DI-MATCHING")
        /// An alias (`implements(_:)`) whose implementation does not conform to it.
        public static let alias = ID("DI-ALIAS")
        /// A factory failed while `validate(instantiating: true)` built the service.
        public static let build = ID("DI-BUILD")
        /// A child container hides a registration of one of its ancestors.
        public static let shadow = ID("DI-SHADOW")
        /// A synchronous factory (or a `Lazy` or `Provider`) that needs a service only an `async` factory builds.
        public static let async = ID("DI-ASYNC")
        /// Registrations whose dependencies are unknown: closure factories never seen resolving.
        public static let opaque = ID("DI-OPAQUE")
        /// The validated container is closed, or closing with an ancestor, or a test container whose base is
        /// closed: a close dropped the registrations it would resolve, so there is no graph to check.
        public static let closed = ID("DI-CLOSED")

        /// The identifier as printed: `DI-MISSING`.
        public var description: String { rawValue }

        /// Orders identifiers by their text, so reports sort the same way everywhere.
        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How serious a finding is; printed as `error`, `warning` or `note`.
    ///
    /// ```swift
    /// let failing = report.findings.filter { $0.severity == .error }
    /// ```
    public enum Severity: Int, Comparable, Sendable, CustomStringConvertible {
        /// Worth knowing; nothing is broken.
        case note
        /// Works, but probably not as intended.
        case warning
        /// Resolution will fail.
        case error

        /// `error`, `warning` or `note`.
        public var description: String {
            switch self {
            case .note: "note"
            case .warning: "warning"
            case .error: "error"
            }
        }

        /// `note < warning < error`.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What kind of finding this is.
    public let id: ID
    /// How serious it is.
    public let severity: Severity
    /// The service the finding is about, as people write it (`Database "primary"`).
    public let service: String
    /// The name of the container the finding was seen from.
    public let container: String
    /// One sentence saying what is wrong.
    public let message: String
    /// The path to the problem, top-level service first; each step names its container, scope and location.
    public let path: [PathElement]
    /// Registrations that were probably meant, likeliest first.
    public let suggestions: [String]
    /// One line saying what to change.
    public let help: String

    /// Creates a finding; `validate()` makes them.
    ///
    /// - Parameters:
    ///   - id: The kind of finding.
    ///   - severity: How serious it is.
    ///   - service: The service it is about.
    ///   - container: The container it was seen from.
    ///   - message: One sentence saying what is wrong.
    ///   - path: The path to the problem.
    ///   - suggestions: Close matches, likeliest first.
    ///   - help: One line saying what to change.
    public init(
        id: ID,
        severity: Severity,
        service: String,
        container: String,
        message: String,
        path: [PathElement] = [],
        suggestions: [String] = [],
        help: String
    ) {
        self.id = id
        self.severity = severity
        self.service = service
        self.container = container
        self.message = message
        self.path = path
        self.suggestions = suggestions
        self.help = help
    }

    /// The whole finding: headline, path with container, scope and location per step, close matches, help.
    public var description: String {
        var lines = ["\(severity)[\(id)]: \(message)"]
        if !path.isEmpty {
            lines.append("  path:")
            let width = path.map { $0.description.count }.max() ?? 0
            let scopeWidth = path.map { ($0.scope ?? "not found").count }.max() ?? 0
            let placeWidth = path.map { "in \($0.container ?? "?")".count }.max() ?? 0
            for step in path {
                let label = step.description.padded(to: width)
                let scope = (step.scope ?? "not found").padded(to: scopeWidth)
                let place = "in \(step.container ?? "?")"
                let location = step.location.map { "  \($0)" } ?? ""
                let line = "    \(label)  \(scope)  \(location.isEmpty ? place : place.padded(to: placeWidth))"
                    + location
                lines.append(line)
            }
        }
        if !suggestions.isEmpty {
            lines.append("  did you mean:")
            lines += suggestions.map { "    - \($0)" }
        }
        lines.append("  help: \(help)")
        return lines.joined(separator: "\n")
    }

    /// Findings are equal when they say the same thing about the same place.
    public static func == (lhs: Finding, rhs: Finding) -> Bool {
        lhs.id == rhs.id && lhs.container == rhs.container && lhs.service == rhs.service
            && lhs.message == rhs.message
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(container)
        hasher.combine(service)
        hasher.combine(message)
    }
}
