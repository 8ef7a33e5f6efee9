import DICore

/// Everything `Container.validate()` found, in a deterministic order: errors first, then warnings, then
/// notes; within a severity by ID, container and service.
///
/// Its description is the human report; `findings` is what code and tests look at.
///
/// ```swift
/// let report = app.validate()
/// if report.hasErrors { print(report) }
/// #expect(report.findings.map(\.id) == [.missing])
/// ```
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// Every finding, errors first.
    public let findings: [Finding]
    /// The name of the container that was validated.
    public let container: String
    /// How many containers were checked (the validated one and its descendants).
    public let containerCount: Int
    /// How many ancestors of the validated container the check also covered: what the containers resolve from
    /// them is checked too, so their registrations count in ``registrationCount``.
    public let ancestorCount: Int
    /// How many registrations were checked, the ancestors' included.
    public let registrationCount: Int

    /// Creates a report, sorting `findings` into the report order.
    ///
    /// - Parameters:
    ///   - findings: What was found, in any order; duplicates are dropped.
    ///   - container: The validated container's name.
    ///   - containerCount: How many containers were checked.
    ///   - registrationCount: How many registrations were checked, the ancestors' included.
    ///   - ancestorCount: How many ancestors of the validated container the check covered.
    public init(
        findings: [Finding], container: String, containerCount: Int, registrationCount: Int, ancestorCount: Int = 0
    ) {
        var seen = Set<Finding>()
        let unique = findings.filter { seen.insert($0).inserted }
        self.findings = unique.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.severity != y.severity { return x.severity > y.severity }
            if x.id != y.id { return x.id < y.id }
            return a.offset < b.offset
        }.map(\.element)
        self.container = container
        self.containerCount = containerCount
        self.registrationCount = registrationCount
        self.ancestorCount = ancestorCount
    }

    /// Whether any finding is an error.
    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    /// Whether nothing at all was found, not even a note.
    public var isEmpty: Bool { findings.isEmpty }

    /// The findings with severity `error`.
    public var errors: [Finding] { findings.filter { $0.severity == .error } }

    /// The findings with severity `warning`.
    public var warnings: [Finding] { findings.filter { $0.severity == .warning } }

    /// The findings with severity `note`.
    public var notes: [Finding] { findings.filter { $0.severity == .note } }

    /// A summary line, then every finding, separated by blank lines.
    public var description: String {
        let counts = [
            String.counted(errors.count, "error"), .counted(warnings.count, "warning"), .counted(notes.count, "note"),
        ].joined(separator: ", ")
        let ancestors = ancestorCount == 0 ? "" : " and " + .counted(ancestorCount, "ancestor")
        let head = "Validated \(container): \(String.counted(registrationCount, "registration")) in "
            + "\(String.counted(containerCount, "container"))\(ancestors): \(counts)."
        return ([head] + findings.map(\.description)).joined(separator: "\n\n")
    }
}
