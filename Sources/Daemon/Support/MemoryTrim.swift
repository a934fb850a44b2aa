import Foundation
import Glibc

/// Gives freed heap pages back to the system (glibc's `malloc_trim`, which Swift's Glibc module
/// does not declare). Many small freed lines leave malloc's arenas holding their pages, so a
/// daemon that once queued much for slow clients would otherwise keep that memory.
enum MemoryTrim {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
        .map { unsafeBitCast($0, to: Trim.self) }

    static func releaseFreePages() {
        _ = trim?(0)
    }

    private typealias Option = @convention(c) (Int32, Int32) -> Int32
    private static let option: Option? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
        .map { unsafeBitCast($0, to: Option.self) }

    /// Fixes glibc's thresholds, which otherwise grow after a large block is freed: a big map's
    /// buffers raise the mmap threshold to 32 MiB and the trim threshold to 64 MiB, and from
    /// then on each thread's arena keeps up to that much freed memory, which `malloc_trim` does
    /// not give back from a thread arena's top (the long soak's +27 % after the map storm).
    /// With fixed ones, blocks over 256 KiB are mapped and unmapped on their own, and an
    /// arena gives back what is free above 1 MiB at its top.
    static func keepFreedMemoryFromPilingUp() {
        _ = option?(-3 /* M_MMAP_THRESHOLD */, 256 << 10)
        _ = option?(-1 /* M_TRIM_THRESHOLD */, 1 << 20)
    }
}
