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

    /// Removes the temporary files a process killed mid-write left in `folders` (`.<name>.<8 hex>`,
    /// as `replace` names them); returns how many. Only for start-up, before anything writes.
    @discardableResult
    public static func removeLeftovers(in folders: [URL]) -> Int {
        var removed = 0
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names where isTemporaryName(name) {
                if unlink(folder.appendingPathComponent(name).path) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// `.plans.ics.1A2B3C4D`: a dot, a name, a dot and `replace`'s eight hexadecimal digits.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), let dot = name.lastIndex(of: "."), dot > name.index(after: name.startIndex) else { return false }
        let suffix = name[name.index(after: dot)...]
        return suffix.count == 8 && suffix.allSatisfy { $0.isHexDigit && !$0.isLowercase }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
