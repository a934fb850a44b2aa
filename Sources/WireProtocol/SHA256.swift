import CLibMD

/// SHA-256 (libmd's, as the store's and importer's checksums) and HMAC-SHA-256 (RFC 2104) on
/// it: `umctl` signs the web app's one-time login tokens with them, the daemon checks them.
public enum SHA256 {
    /// The 32-byte digest of `message`.
    public static func hash(_ message: [UInt8]) -> [UInt8] {
        var context = SHA2_CTX()
        SHA256Init(&context)
        message.withUnsafeBufferPointer { SHA256Update(&context, $0.baseAddress, $0.count) }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        digest.withUnsafeMutableBufferPointer { SHA256Final($0.baseAddress, &context) }
        return digest
    }

    /// HMAC-SHA-256 of `message` under `key`.
    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let blockLength = Int(SHA256_BLOCK_LENGTH)
        var block = key.count > blockLength ? hash(key) : key
        block += [UInt8](repeating: 0, count: blockLength - block.count)
        let inner = hash(block.map { $0 ^ 0x36 } + message)
        return hash(block.map { $0 ^ 0x5c } + inner)
    }

    /// Lower-case hexadecimal, two digits a byte.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}
