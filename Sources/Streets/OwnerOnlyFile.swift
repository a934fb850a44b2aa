import Foundation

/// Replaces a small file that may hold secrets (URLs with credentials or keys): written to a
/// temporary file readable by its owner alone, flushed to disk, renamed over the old one, and
/// the folder flushed, so a crash leaves the old content or the new, never a part or nothing.
public enum OwnerOnlyFile {
    /// - throws: `OwnerOnlyFile.Failure` naming the file and the system's reason.
    public static func replace(_ file: URL, with data: Data) throws {
        let folder = file.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString.prefix(8))")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(message: "cannot write \(temporary.path): \(reason())") }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 { if errno == EINTR { continue }; return false }
                offset += count
            }
            return fsync(descriptor) == 0
        }
        let why = reason()
        close(descriptor)
        guard written else {
            unlink(temporary.path)
            throw Failure(message: "cannot write \(temporary.path): \(why)")
        }
        guard rename(temporary.path, file.path) == 0 else {
            let why = reason()
            unlink(temporary.path)
            throw Failure(message: "cannot replace \(file.path): \(why)")
        }
        let folderDescriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
