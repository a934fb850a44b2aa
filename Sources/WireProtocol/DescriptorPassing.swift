import FoundationEssentials
import Glibc

/// Open files passed over the Unix socket with a request (`SCM_RIGHTS`): `umctl` opens what
/// the user named and sends the descriptors with the request line, so the daemon reads files
/// it could not open by path (a sandbox's private /tmp, another mount namespace, a folder
/// only the user may enter). Both halves live here.
public enum DescriptorPassing {
    /// The most descriptors one message may carry (and the daemon keeps per connection).
    public static let maximumPerMessage = 16

    /// Sends `data` with `descriptors` attached to its first byte, then the rest as usual.
    /// - throws: `WireClientError.connectionClosed` when the socket fails.
    public static func send(_ data: Data, descriptors: [Int32], on socket: Int32) throws -> Int {
        precondition(descriptors.count <= maximumPerMessage)
        let controlLength = cmsgSpace(descriptors.count)
        return try data.withUnsafeBytes { raw in
            var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress), iov_len: raw.count)
            return try withControlBuffer(byteCount: controlLength) { controlBytes in
                // Typed stores into raw, suitably aligned memory: nothing is bound to a type.
                var header = cmsghdr()
                header.cmsg_len = cmsgLength(descriptors.count)
                header.cmsg_level = SOL_SOCKET
                header.cmsg_type = Int32(SCM_RIGHTS)
                controlBytes.storeBytes(of: header, as: cmsghdr.self)
                for (index, descriptor) in descriptors.enumerated() {
                    controlBytes.storeBytes(of: descriptor, toByteOffset: cmsgLength(index), as: Int32.self)
                }
                var message = msghdr()
                message.msg_control = controlBytes.baseAddress
                message.msg_controllen = controlLength
                return try withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    while true {
                        let sent = sendmsg(socket, &message, Int32(MSG_NOSIGNAL))
                        if sent >= 0 { return sent }
                        if errno != EINTR { throw WireClientError.connectionClosed(String(cString: strerror(errno))) }
                    }
                }
            }
        }
    }

    /// Reads like `read(2)` into `buffer`, also returning the descriptors that came with the
    /// bytes (received close-on-exec). A count below 0 is an error, as for `read`.
    public static func receive(on socket: Int32, into buffer: inout [UInt8]) -> (count: Int, descriptors: [Int32]) {
        var received: [Int32] = []
        let count = buffer.withUnsafeMutableBytes { raw -> Int in
            var vector = iovec(iov_base: raw.baseAddress, iov_len: raw.count)
            return withControlBuffer(byteCount: cmsgSpace(maximumPerMessage)) { controlBytes -> Int in
                var message = msghdr()
                message.msg_control = controlBytes.baseAddress
                message.msg_controllen = controlBytes.count
                return withUnsafeMutablePointer(to: &vector) { vectorPointer -> Int in
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    let count = recvmsg(socket, &message, Int32(MSG_CMSG_CLOEXEC) | Int32(MSG_DONTWAIT)) // after poll: never waits
                    guard count >= 0 else { return count }
                    // Walk the control messages by hand (CMSG_NXTHDR is a macro Swift cannot call).
                    var offset = 0
                    while offset + MemoryLayout<cmsghdr>.size <= message.msg_controllen {
                        // Headers start at word-aligned offsets of word-aligned memory.
                        let header = controlBytes.load(fromByteOffset: offset, as: cmsghdr.self)
                        guard header.cmsg_len >= cmsgLength(0), offset + Int(header.cmsg_len) <= controlBytes.count else { break }
                        if header.cmsg_level == SOL_SOCKET && header.cmsg_type == Int32(SCM_RIGHTS) {
                            let number = (Int(header.cmsg_len) - cmsgLength(0)) / MemoryLayout<Int32>.size
                            for index in 0..<number {
                                received.append(controlBytes.loadUnaligned(fromByteOffset: offset + cmsgLength(index), as: Int32.self))
                            }
                        }
                        offset += align(Int(header.cmsg_len))
                    }
                    return count
                }
            }
        }
        return (count, received)
    }

    /// Zeroed memory for control messages, aligned for `cmsghdr` (which a `[UInt8]` is not
    /// promised to be), for the duration of `body`.
    private static func withControlBuffer<T>(byteCount: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> T) rethrows -> T {
        try withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: MemoryLayout<cmsghdr>.alignment) { bytes in
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
            return try body(bytes)
        }
    }

    private static func align(_ length: Int) -> Int {
        let word = MemoryLayout<Int>.size
        return (length + word - 1) & ~(word - 1)
    }

    private static func cmsgLength(_ descriptors: Int) -> Int {
        align(MemoryLayout<cmsghdr>.size) + descriptors * MemoryLayout<Int32>.size
    }

    private static func cmsgSpace(_ descriptors: Int) -> Int {
        align(MemoryLayout<cmsghdr>.size) + align(descriptors * MemoryLayout<Int32>.size)
    }
}
