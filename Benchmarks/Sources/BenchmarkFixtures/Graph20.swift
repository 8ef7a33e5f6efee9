// The 20-object graph: nineteen new objects (G01…G19) and the singleton `Logger`.
//
//     G01 ─┬─ G02 ─┬─ G05 ── G14
//          │       ├─ G06 ── G15
//          │       └─ G07 ── G16
//          ├─ G03 ─┬─ G08 ── G17
//          │       ├─ G09 ── G18
//          │       └─ G10 ── G19
//          └─ G04 ─┬─ G11 ── Logger
//                  ├─ G12 ── Logger
//                  └─ G13 ── Logger
//
// Each node is its own type, so a container holds nineteen registrations (plus Logger) and
// performs twenty lookups per top-level resolve.

public final class G01: Sendable {
    public let a: G02, b: G03, c: G04
    @inlinable public init(a: G02, b: G03, c: G04) { (self.a, self.b, self.c) = (a, b, c) }
}
public final class G02: Sendable {
    public let a: G05, b: G06, c: G07
    @inlinable public init(a: G05, b: G06, c: G07) { (self.a, self.b, self.c) = (a, b, c) }
}
public final class G03: Sendable {
    public let a: G08, b: G09, c: G10
    @inlinable public init(a: G08, b: G09, c: G10) { (self.a, self.b, self.c) = (a, b, c) }
}
public final class G04: Sendable {
    public let a: G11, b: G12, c: G13
    @inlinable public init(a: G11, b: G12, c: G13) { (self.a, self.b, self.c) = (a, b, c) }
}
public final class G05: Sendable {
    public let a: G14
    @inlinable public init(a: G14) { self.a = a }
}
public final class G06: Sendable {
    public let a: G15
    @inlinable public init(a: G15) { self.a = a }
}
public final class G07: Sendable {
    public let a: G16
    @inlinable public init(a: G16) { self.a = a }
}
public final class G08: Sendable {
    public let a: G17
    @inlinable public init(a: G17) { self.a = a }
}
public final class G09: Sendable {
    public let a: G18
    @inlinable public init(a: G18) { self.a = a }
}
public final class G10: Sendable {
    public let a: G19
    @inlinable public init(a: G19) { self.a = a }
}
public final class G11: Sendable {
    public let logger: Logger
    @inlinable public init(logger: Logger) { self.logger = logger }
}
public final class G12: Sendable {
    public let logger: Logger
    @inlinable public init(logger: Logger) { self.logger = logger }
}
public final class G13: Sendable {
    public let logger: Logger
    @inlinable public init(logger: Logger) { self.logger = logger }
}
public final class G14: Sendable { @inlinable public init() {} }
public final class G15: Sendable { @inlinable public init() {} }
public final class G16: Sendable { @inlinable public init() {} }
public final class G17: Sendable { @inlinable public init() {} }
public final class G18: Sendable { @inlinable public init() {} }
public final class G19: Sendable { @inlinable public init() {} }
