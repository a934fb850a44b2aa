/// Sizes and versions both ends agree on.
public enum WireLimits {
    /// A line (without its newline) longer than this gets `line_too_long` and the connection closes.
    public static let maximumLineBytes = 1 << 20
    /// Calls one batch line may hold; a longer batch gets one `invalid_request` error and none
    /// of its calls runs (a batch's answer is held whole in memory before it is sent).
    public static let maximumBatchCalls = 128
    /// The largest answer line: the daemon answers `answer_too_large` rather than write a longer
    /// one, and umctl reads lines up to it. (Alerts are capped per ride so that no answer comes
    /// near it: a plan or comparison through 8 alert-heavy feeds is tens of kB.)
    public static let maximumAnswerBytes = 64 << 20
}

/// The protocol version exchanged by `hello`. Bump `current` on an incompatible change and
/// raise `oldestSupported` when the daemon stops understanding old clients.
public enum ProtocolVersion {
    /// 2: JSON-RPC 2.0 error codes (integers, the word in `data.code`), notifications, batches.
    public static let current = 2
    public static let oldestSupported = 2
    /// The product version both binaries report.
    public static let softwareVersion = "0.1.0"
}
