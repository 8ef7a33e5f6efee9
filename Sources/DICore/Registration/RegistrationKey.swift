/// What a registration is found by: the service type, an optional name, the types of its runtime arguments,
/// and, for the keypath registry, the key path it stands for.
///
/// Lookups compare keys by identity of metatypes (`ObjectIdentifier`), never by type names, and hash them with
/// a few multiplications instead of `Hasher`, because this runs on every resolve.
@usableFromInline
package struct RegistrationKey: Hashable, Sendable {
    @inlinable
    package static func == (lhs: RegistrationKey, rhs: RegistrationKey) -> Bool {
        lhs.type == rhs.type && lhs.keyPath == rhs.keyPath && lhs.arguments == rhs.arguments && lhs.name == rhs.name
    }

    @inlinable
    package func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(name)
        hasher.combine(arguments)
        hasher.combine(keyPath)
    }

    @usableFromInline package let type: ObjectIdentifier
    @usableFromInline package let name: String?
    /// The metatype of the argument tuple, `nil` for a registration without runtime arguments.
    @usableFromInline package let arguments: ObjectIdentifier?
    /// The interned id of a `ServiceKeys` key path, `0` for an ordinary registration.
    @usableFromInline package let keyPath: Int

    @inlinable
    package init(type: ObjectIdentifier, name: String?, arguments: ObjectIdentifier? = nil, keyPath: Int = 0) {
        self.type = type
        self.name = name
        self.arguments = arguments
        self.keyPath = keyPath
    }

    @inlinable
    package init<Service>(_ service: Service.Type, name: String?) {
        self.init(type: ObjectIdentifier(service), name: name)
    }

    /// FNV-1a of the name's UTF-8 bytes, read from contiguous storage where the string has it (every native
    /// string, small ones included): half the instructions of iterating `utf8`.
    @inlinable
    static func nameHash(_ name: String) -> UInt {
        if let hash = name.utf8.withContiguousStorageIfAvailable({ bytes -> UInt in
            var fnv: UInt = 0xCBF2_9CE4_8422_2325
            for byte in bytes { fnv = (fnv ^ UInt(byte)) &* 0x100_0000_01B3 }
            return fnv
        }) {
            return hash
        }
        var fnv: UInt = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { fnv = (fnv ^ UInt(byte)) &* 0x100_0000_01B3 }
        return fnv
    }

    /// Whether the key is a type and nothing else (no name, arguments or key path), with the type's address
    /// even. Metadata is pointer-aligned, so the address always is; checking keeps `bucketWord` exact even
    /// if it were not.
    @inlinable @inline(__always)
    var isTypeOnly: Bool {
        name == nil && arguments == nil && keyPath == 0 && UInt(bitPattern: Int(bitPattern: type)) & 1 == 0
    }

    /// What a `RegistrationTable` bucket stores to recognise this key, given its `tableHash`: for a type-only
    /// key the type's address (even), which equals another key's word only if the keys are equal; for any
    /// other key the hash with bit 0 set, so that it never equals a type-only key's word, and a match is then
    /// confirmed by comparing keys. Never `0`, which marks an empty bucket.
    @inlinable @inline(__always)
    func bucketWord(hash: UInt) -> UInt {
        isTypeOnly ? UInt(bitPattern: Int(bitPattern: type)) : hash | 1
    }

    /// A cheap, well-mixed hash: the metatype pointer times a Fibonacci constant, folded with FNV-1a of the name.
    @inlinable @inline(__always)
    package var tableHash: UInt {
        var hash = UInt(bitPattern: Int(bitPattern: type)) &* 0x9E37_79B9_7F4A_7C15
        if _slowPath(name != nil), let name {
            hash ^= Self.nameHash(name) &* 0xFF51_AFD7_ED55_8CCD
        }
        if _slowPath(arguments != nil), let arguments {
            hash ^= UInt(bitPattern: Int(bitPattern: arguments)) &* 0xC4CE_B9FE_1A85_EC53
        }
        if _slowPath(keyPath != 0) {
            hash ^= UInt(bitPattern: keyPath) &* 0x94D0_49BB_1331_11EB
        }
        // Fold the high bits into the low ones, which pick the bucket.
        return hash ^ (hash >> 29)
    }
}
