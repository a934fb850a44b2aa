import Foundation
@testable import Transit

/// Bytes already in memory, handed out in small chunks so chunk boundaries get exercised.
final class InMemoryChunkSource: ByteChunkSource {
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var offset = 0

    init(_ bytes: [UInt8], chunkSize: Int = 1 << 16) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    func nextChunk() throws -> ArraySlice<UInt8>? {
        guard offset < bytes.count else { return nil }
        let end = min(bytes.count, offset + chunkSize)
        defer { offset = end }
        return bytes[offset..<end]
    }
}
