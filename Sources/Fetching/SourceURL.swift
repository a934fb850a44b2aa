import Foundation

/// Telling a URL from a file path, and showing a URL without its secrets.
public enum SourceURL {
    /// True when the text starts with a scheme and `://` (`https://…`, `ftp://…`, `file://…`):
    /// such text is fetched (or refused), never opened as a path.
    public static func isURL(_ text: String) -> Bool {
        scheme(of: text) != nil
    }

    /// The scheme, lowercased, of text that `isURL`.
    public static func scheme(of text: String) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return scheme.lowercased()
    }

    /// The URL as it may be logged or shown: user and password become `***`, and the query
    /// and fragment (where tokens travel) are dropped.
    /// `"https://u:p@h/x?token=…"` → `"https://***@h/x"`.
    public static func redacted(_ url: String) -> String {
        guard let separator = url.range(of: "://") else { return url }
        let head = url[..<separator.upperBound]
        var rest = url[separator.upperBound...]
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return String(head + rest) }
        return String(head) + "***" + rest[at...]
    }

    /// The user and password written into a URL, for scrubbing them out of messages.
    static func credentials(of url: String) -> [String] {
        guard let separator = url.range(of: "://") else { return [] }
        let rest = url[separator.upperBound...]
        let authority = rest[..<(rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex)]
        guard let at = authority.lastIndex(of: "@") else { return [] }
        let userInfo = authority[..<at]
        var parts = userInfo.split(separator: ":", maxSplits: 1).map(String.init)
        parts += parts.compactMap { $0.removingPercentEncoding }
        return parts.filter { !$0.isEmpty }
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
