import CCurl

/// libcurl's process-wide setup, which is not thread-safe itself: done once, by whichever
/// fetch comes first (a Swift global is initialised exactly once, under a lock).
enum CurlLibrary {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    static func initializeOnce() -> Bool { initialized }
}
