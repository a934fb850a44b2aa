/// Empties the CPU caches for a measurement by reading a buffer larger than the last-level
/// cache (64 MiB, twice this machine's 32 MiB L3): what a query finds cached after a sweep is
/// only what it brings in itself.
final class CacheSweep {
    private let bytes = 64 << 20
    private let buffer: UnsafeMutablePointer<UInt64>
    /// Kept so that the reads are not optimised away.
    private(set) var checksum: UInt64 = 0

    init() {
        buffer = .allocate(capacity: bytes / 8)
        buffer.initialize(repeating: 1, count: bytes / 8)
    }

    deinit { buffer.deallocate() }

    /// Reads one word per cache line of the buffer. Never optimised: a sweep whose sum is never
    /// read was removed whole where the compiler saw the sweep's object stay local.
    @inline(never) @_optimize(none)
    func run() {
        var sum: UInt64 = 0
        for k in stride(from: 0, to: bytes / 8, by: 8) { sum &+= buffer[k] }
        checksum &+= sum
    }
}
