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
}
