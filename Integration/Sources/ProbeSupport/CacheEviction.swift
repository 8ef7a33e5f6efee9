#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `request-probe` and `server-probe` do after every request when `PROBE_EVICT_KB=N` asks for it: write
/// N KB of other memory, one byte of every cache line, as the kernel and the HTTP stack do between a server's
/// requests, so that the next request finds its code and objects out of the caches.
///
/// ```swift
/// let eviction = CacheEviction()     // reads PROBE_EVICT_KB; 0 (nothing written) when it is unset
/// for index in 0..<count {
///     try await serve(index)
///     eviction.run()
/// }
/// ```
///
/// One per task: the memory it writes is its own.
package final class CacheEviction {
    /// The bytes written by each `run()`.
    package let bytes: Int
    private let memory: UnsafeMutableRawBufferPointer

    /// Memory of `PROBE_EVICT_KB` kilobytes (none when the variable is unset).
    package init() {
        bytes = (getenv("PROBE_EVICT_KB").flatMap { Int(String(cString: $0)) } ?? 0) * 1024
        memory = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 64)
    }

    deinit { memory.deallocate() }

    /// Writes one byte of every cache line of the memory; nothing when it has none.
    package func run() {
        for offset in stride(from: 0, to: bytes, by: 64) {
            memory.storeBytes(of: UInt8(truncatingIfNeeded: offset), toByteOffset: offset, as: UInt8.self)
        }
    }
}
