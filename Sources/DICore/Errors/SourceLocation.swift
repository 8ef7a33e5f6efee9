/// Where a registration or an injected property was written, printed in errors and diagnostics.
///
/// Every `register` call captures its caller's `#fileID` and `#line`, so a message can say
/// `Logger (App/Setup.swift:12)` instead of leaving you to search for it.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file, as `#fileID` spells it: `Module/File.swift`.
    public let fileID: String
    /// The line in that file.
    public let line: Int

    /// Creates a location, by default the caller's.
    public init(fileID: String = #fileID, line: Int = #line) {
        self.fileID = fileID
        self.line = line
    }

    /// `Module/File.swift:12`.
    public var description: String { "\(fileID):\(line)" }
}
