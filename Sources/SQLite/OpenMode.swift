/// How `Database` opens its file.
public enum OpenMode: Sendable {
    /// Reads only; fails if the file does not exist.
    case readOnly
    /// Reads and writes; fails if the file does not exist.
    case readWrite
    /// Reads and writes; creates the file when it does not exist.
    case readWriteCreate
}
