import CGTFSRealtime
import Foundation

/// Memory for one protobuf-c unpack, handed out from large blocks and released together.
/// A feed of 3000 trips holds some 400 000 small C structures and strings; allocating and
/// freeing each through malloc took about half the decoding time.
///
/// ```swift
/// let arena = ProtobufArena()
/// arena.withAllocator { allocator in transit_realtime__feed_message__unpack(allocator, count, bytes) }
/// ```
/// Everything protobuf-c allocated lives until the arena goes, so nothing may keep a pointer
/// into it past that; protobuf-c's own frees are no-ops.
final class ProtobufArena {
    private static let blockBytes = 1 << 20
    private var blocks: [UnsafeMutableRawPointer] = []
    private var next: UnsafeMutableRawPointer?
    private var remaining = 0

    deinit {
        for block in blocks { free(block) }
    }

    /// 16-byte aligned, like malloc; nil when the system has no memory left (protobuf-c then fails the unpack).
    func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        let rounded = max(16, (size + 15) & ~15)
        if rounded > remaining || next == nil {
            let blockSize = max(Self.blockBytes, rounded)
            guard let block = malloc(blockSize) else { return nil }
            blocks.append(block)
            next = block
            remaining = blockSize
        }
        guard let pointer = next else { return nil }
        next = pointer + rounded
        remaining -= rounded
        return pointer
    }

    /// A protobuf-c allocator drawing on this arena, valid during `body`.
    func withAllocator<Result>(_ body: (UnsafeMutablePointer<ProtobufCAllocator>) -> Result) -> Result {
        var allocator = ProtobufCAllocator(
            alloc: { data, size in
                guard let data else { return nil }
                return Unmanaged<ProtobufArena>.fromOpaque(data).takeUnretainedValue().allocate(size)
            },
            free: { _, _ in },
            allocator_data: Unmanaged.passUnretained(self).toOpaque())
        return withExtendedLifetime(self) { withUnsafeMutablePointer(to: &allocator) { body($0) } }
    }
}
