import CCurl
import Foundation

/// Fetches one http(s) URL with libcurl: conditional requests, resumed transfers, size
/// limits, redirects (on the named host and port unless the request allows others), and
/// timeouts for connecting, for the whole transfer and for a transfer that stops making
/// progress. Refuses every other scheme before any connection.
public struct HTTPFetcher: Sendable {
    public init() {}

    /// Blocking (callers run it off the request path). `progress(received, expected)` returning false cancels.
    ///
    /// - throws: `FetchError`; a refused or broken transfer leaves a `.file` destination
    ///   holding what arrived, so a later request can resume it.
    public func fetch(_ request: FetchRequest, into destination: FetchDestination = .memory,
                      progress: (@Sendable (Int, Int?) -> Bool)? = nil) throws(FetchError) -> FetchResponse {
        guard let scheme = SourceURL.scheme(of: request.url) else {
            throw .invalidURL(SourceURL.redacted(request.url))
        }
        guard scheme == "http" || scheme == "https" else { throw .schemeRefused(scheme) }
        guard CurlLibrary.initializeOnce(), let handle = curl_easy_init() else {
            throw .connectionFailed("libcurl could not be started")
        }
        defer { curl_easy_cleanup(handle) }

        let state = TransferState(request: request, destination: destination, progress: progress)
        let context = Unmanaged.passRetained(state)
        defer { context.release() }
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorText.deallocate() }

        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        for line in Self.requestHeaders(request, resumeFrom: state.resumeOffset) {
            headers = curl_slist_append(headers, line)
        }

        let configured = configure(handle, request, headers: headers, errorText: errorText,
                                   context: context.toOpaque())
        guard configured else { throw .invalidURL(SourceURL.redacted(request.url)) }

        let result = curl_easy_perform(handle)
        if let failure = state.failure { throw failure }
        if result != CURLE_OK {
            throw Self.error(for: result, handle: handle, request: request, state: state,
                             detail: String(cString: errorText))
        }
        try state.finishFile()

        var status = 0
        _ = usefulmap_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        if status == 304 {
            return FetchResponse(status: status, notModified: true, body: nil, bytes: 0, etag: state.etag,
                                 lastModified: state.lastModified, contentType: state.contentType, resumed: false)
        }
        guard (200..<300).contains(status), state.acceptingBody else { throw .httpStatus(status) }
        if let expected = state.expected, state.total < expected {
            throw .cutOff(received: state.total, expected: expected)
        }
        let body: Data? = if case .memory = destination { state.body } else { nil }
        return FetchResponse(status: status, notModified: false, body: body, bytes: state.total, etag: state.etag,
                             lastModified: state.lastModified, contentType: state.contentType, resumed: state.resumed)
    }

    /// The conditional and range headers; a value holding a line break is left out rather
    /// than let it add a header of its own.
    static func requestHeaders(_ request: FetchRequest, resumeFrom: Int) -> [String] {
        var lines: [String] = []
        func add(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty, !value.contains(where: { $0 == "\r" || $0 == "\n" }) else { return }
            lines.append("\(name): \(value)")
        }
        add("If-None-Match", request.ifNoneMatch)
        add("If-Modified-Since", request.ifModifiedSince)
        if resumeFrom > 0 {
            add("Range", "bytes=\(resumeFrom)-")
            add("If-Range", request.ifRange)
        }
        return lines
    }

    // MARK: - libcurl options

    private func configure(_ handle: UnsafeMutableRawPointer, _ request: FetchRequest,
                           headers: UnsafeMutablePointer<curl_slist>?, errorText: UnsafeMutablePointer<CChar>,
                           context: UnsafeMutableRawPointer) -> Bool {
        let millisecond = 1000.0
        var codes: [CURLcode] = [
            usefulmap_curl_set_string(handle, CURLOPT_URL, request.url),
            usefulmap_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            usefulmap_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            usefulmap_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            usefulmap_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1),
            usefulmap_curl_set_long(handle, CURLOPT_MAXREDIRS, max(0, request.maxRedirects)),
            usefulmap_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * millisecond)),
            // Below one byte a second for `stallTimeout` seconds: stalled.
            usefulmap_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1),
            usefulmap_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, Self.stallSeconds(request)),
            usefulmap_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, ""),
            usefulmap_curl_set_string(handle, CURLOPT_USERAGENT, "usefulmapd"),
            usefulmap_curl_set_headers(handle, headers),
            usefulmap_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorText),
            usefulmap_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION, headerCallback),
            usefulmap_curl_set_pointer(handle, CURLOPT_HEADERDATA, context),
            usefulmap_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION, writeCallback),
            usefulmap_curl_set_pointer(handle, CURLOPT_WRITEDATA, context),
            usefulmap_curl_set_long(handle, CURLOPT_NOPROGRESS, 0),
            usefulmap_curl_set_progress_callback(handle, progressCallback),
            usefulmap_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context),
        ]
        if let total = request.totalTimeout {
            codes.append(usefulmap_curl_set_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(total * millisecond))))
        }
        return codes.allSatisfy { $0 == CURLE_OK }
    }

    static func stallSeconds(_ request: FetchRequest) -> Int {
        max(1, Int(request.stallTimeout.rounded(.up)))
    }

    // MARK: - Failures

    private static func error(for result: CURLcode, handle: UnsafeMutableRawPointer, request: FetchRequest,
                              state: TransferState, detail: String) -> FetchError {
        switch result {
        case CURLE_UNSUPPORTED_PROTOCOL:
            var redirect: UnsafeMutablePointer<CChar>?
            _ = usefulmap_curl_get_pointer(handle, CURLINFO_REDIRECT_URL, &redirect)
            // A redirect libcurl refused to follow leaves no redirect URL: its Location names the scheme.
            let target = redirect.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? state.location ?? ""
            return .schemeRefused(SourceURL.scheme(of: target) ?? "unknown")
        case CURLE_URL_MALFORMAT:
            return .invalidURL(SourceURL.redacted(request.url))
        case CURLE_TOO_MANY_REDIRECTS:
            return .redirectLoop
        case CURLE_OPERATION_TIMEDOUT:
            return timeout(handle: handle, request: request)
        case CURLE_PARTIAL_FILE:
            return .cutOff(received: state.total, expected: state.expected)
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        case CURLE_FILESIZE_EXCEEDED:
            return .tooLarge(limit: request.maxBytes)
        default:
            let reason = detail.isEmpty ? String(cString: curl_easy_strerror(result)) : detail
            return .connectionFailed(scrubbed(reason, of: request.url))
        }
    }

    /// libcurl says "timed out" for the connect timeout, the total timeout and the low-speed
    /// limit alike; which one it was follows from how far the transfer got.
    private static func timeout(handle: UnsafeMutableRawPointer, request: FetchRequest) -> FetchError {
        var connected: curl_off_t = 0
        var elapsed: curl_off_t = 0
        _ = usefulmap_curl_get_offset(handle, CURLINFO_CONNECT_TIME_T, &connected)
        _ = usefulmap_curl_get_offset(handle, CURLINFO_TOTAL_TIME_T, &elapsed)
        if connected == 0 { return .timedOut }
        if let total = request.totalTimeout, Double(elapsed) >= total * 1_000_000 * 0.95 { return .timedOut }
        return .stalled(seconds: stallSeconds(request))
    }

    /// libcurl's own words, without any user or password the URL carried.
    static func scrubbed(_ text: String, of url: String) -> String {
        var text = text
        for secret in SourceURL.credentials(of: url) {
            text = text.replacingOccurrences(of: secret, with: "***")
        }
        return text
    }
}

// MARK: - Callbacks (libcurl calls these on the fetching thread)

private func transfer(_ context: UnsafeMutableRawPointer?) -> TransferState {
    Unmanaged<TransferState>.fromOpaque(context!).takeUnretainedValue()
}

private let headerCallback: usefulmap_curl_data_callback = { data, size, count, context in
    let length = size * count
    guard let data else { return length }
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    return transfer(context).header(line) ? length : 0
}

private let writeCallback: usefulmap_curl_data_callback = { data, size, count, context in
    let length = size * count
    guard let data else { return length }
    return transfer(context).write(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private let progressCallback: usefulmap_curl_progress_callback = { context, _, _, _, _ in
    transfer(context).reportProgress() ? 0 : 1
}
