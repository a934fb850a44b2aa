extension Array where Element == String {
    /// The texts with `separator` between them, as `joined(separator:)` gives them. The standard
    /// library's `joined` is not specialized for umctl, and its first call in a process scans
    /// every protocol conformance of the binary (about 200,000 instructions): `umctl status`
    /// joins its lines with this one instead.
    func joinedPlainly(separator: String) -> String {
        var text = ""
        for (index, element) in enumerated() {
            if index > 0 { text += separator }
            text += element
        }
        return text
    }
}
