import FoundationEssentials
import Glibc

/// umctl's standard input, output and error as plain descriptors: unbuffered writes, as
/// Foundation's `FileHandle` made them, without loading Foundation for it.
enum StandardStream {
    static func writeOutput(_ data: Data) { write(data, to: STDOUT_FILENO) }
    static func writeError(_ data: Data) { write(data, to: STDERR_FILENO) }

    /// All of standard input, to its end (what it holds before a read error).
    static func readInput() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    /// Writes all of `data`, again after an interruption; gives up on any other error (a closed pipe).
    static func write(_ data: some ContiguousBytes, to descriptor: Int32) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
