import DICore

/// What a container tree resolved while `Container.trace(_:)` ran: one event per hop, with depth, service,
/// scope, whether it was built or reused, the container and how long it took.
///
/// Print it as an indented log, or export it as Chrome trace-event JSON, which Perfetto
/// (ui.perfetto.dev) and `chrome://tracing` open, to see which services make start-up slow.
///
/// ```swift
/// let trace = app.trace { _ = try? app.resolve(ViewModel.self) }
/// print(trace)
/// // ViewModel  transient  built  in app  0.041 ms
/// //   Repository  singleton  built  in app  0.030 ms
/// try trace.chromeTraceJSON().write(toFile: "startup.json", atomically: true, encoding: .utf8)
/// ```
public struct ResolutionTrace: Sendable, CustomStringConvertible {
    /// One resolve of one service.
    public struct Event: Sendable {
        /// How many builds were running when this resolve started (0 for a top-level resolve).
        public let depth: Int
        /// The service as people write it: `Database "primary"`.
        public let service: String
        /// Its scope's name.
        public let scope: String
        /// Whether a factory ran (`false`: an existing instance was handed out).
        public let built: Bool
        /// The container that was asked.
        public let container: String
        /// The container that holds the registration.
        public let registeredIn: String
        /// Nanoseconds from the start of the trace to the start of this resolve.
        public let startNanoseconds: Int64
        /// How long the resolve took, its dependencies included, in nanoseconds.
        public let durationNanoseconds: Int64
        /// The error's description when the resolve failed.
        public let failure: String?
    }

    /// Every event, in the order the resolves started.
    public let events: [Event]

    /// The indented log, with durations.
    public var description: String { log(includingDurations: true) }

    /// The indented log: one line per event, indented by depth.
    ///
    /// ```swift
    /// print(trace.log(includingDurations: false))   // stable across runs, for tests
    /// ```
    ///
    /// - Parameter includingDurations: Whether each line ends with its duration in milliseconds.
    /// - Returns: One line per event.
    public func log(includingDurations: Bool = true) -> String {
        events.map { event in
            var line = String(repeating: "  ", count: event.depth) + event.service + "  \(event.scope)  "
                + (event.built ? "built" : "reused") + "  "
            // The container asked is not where the instance lives for every lifetime (a singleton lives where it
            // was registered): when the two differ, the line names both for what they are.
            line += event.registeredIn == event.container
                ? "in \(event.container)" : "asked in \(event.container), registered in \(event.registeredIn)"
            if let failure = event.failure { line += "  FAILED: \(failure.split(separator: "\n").first ?? "")" }
            if includingDurations { line += "  " + Self.milliseconds(event.durationNanoseconds) }
            return line
        }.joined(separator: "\n")
    }

    /// The trace as Chrome trace-event JSON (complete `X` events, microseconds), for Perfetto or
    /// `chrome://tracing`.
    ///
    /// - Returns: `{"traceEvents": [...], "displayTimeUnit": "ms"}`.
    public func chromeTraceJSON() -> String {
        let items: [JSON] = events.map { event in
            var args: [(String, JSON)] = [
                ("container", .string(event.container)),
                ("registeredIn", .string(event.registeredIn)),
                ("scope", .string(event.scope)),
                ("built", .bool(event.built)),
                ("depth", .number(event.depth)),
            ]
            if let failure = event.failure { args.append(("failure", .string(failure))) }
            return .object([
                ("name", .string(event.service)),
                ("cat", .string(event.built ? "build" : "reuse")),
                ("ph", .string("X")),
                ("ts", .decimal(Self.microseconds(event.startNanoseconds))),
                ("dur", .decimal(Self.microseconds(event.durationNanoseconds))),
                ("pid", .number(1)),
                ("tid", .number(1)),
                ("args", .object(args)),
            ])
        }
        var output = ""
        JSON.object([("traceEvents", .array(items)), ("displayTimeUnit", .string("ms"))])
            .write(into: &output, indent: "")
        return output + "\n"
    }

    static func milliseconds(_ nanoseconds: Int64) -> String {
        let micro = (nanoseconds + 500) / 1_000
        let fraction = String(micro % 1_000)
        return "\(micro / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
    }

    /// `12.345` for 12,345 ns.
    static func microseconds(_ nanoseconds: Int64) -> String {
        let fraction = String(nanoseconds % 1_000)
        return "\(nanoseconds / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
