import Glibc

/// Why a file named on the command line cannot be read, in words that tell a missing file from
/// one umctl may not read (or a folder).
enum ReadableFile {
    /// nil when `path` opens for reading and is not a folder; else the sentence to show, naming
    /// the file as the user typed it (`shown`).
    static func problem(_ path: String, shownAs shown: String) -> String? {
        // stat and access, not open: opening a named pipe to check it would disturb its writer.
        var info = stat()
        guard stat(path, &info) == 0 else { return reason(shown, errno: errno) }
        if info.st_mode & S_IFMT == S_IFDIR { return "cannot read \(shown): it is a folder, not a file" }
        guard access(path, R_OK) == 0 else { return reason(shown, errno: errno) }
        return nil
    }

    static func reason(_ shown: String, errno code: Int32) -> String {
        switch code {
        case ENOENT: "cannot read \(shown): no such file"
        case EACCES, EPERM: "cannot read \(shown): permission denied (the file exists, but you may not read it)"
        case ENOTDIR: "cannot read \(shown): a part of its path is not a folder"
        default: "cannot read \(shown): \(String(cString: strerror(code)))"
        }
    }
}
