import CCurl
import QuoteBase
import QuoteConfig
import QuoteSystem
import QuoteSystemTasks
import Synchronization

/// HTTP through libcurl, with the rules every upstream gets: a size cap on the bytes
/// received AND on the bytes decoded (a gzip bomb is stopped as soon as it inflates past
/// `maxBytes`, not after), ONE timeout on the whole request and its redirects, http and https only, at most
/// 5 redirects (each checked: https unless loopback or allow_http), `User-Agent:
/// quoted/<version>`, no cookies, no cache, never an `Origin` header. Proxies come from
/// the standard environment variables (libcurl reads them).
///
/// libcurl rather than URLSession: URLSession buffers ahead of its delegate and inflates
/// gzip before anyone can count, so a small gzip bomb takes gigabytes; libcurl hands
/// every decoded chunk to a callback that can stop the transfer, and it spares `quoted`
/// the statically linked FoundationNetworking.
public final class HTTPClient: Sendable {
    public static let maximumRedirects = 5
    /// The most header bytes one response may carry (libcurl alone allows 100 KiB per line).
    public static let maximumHeaderBytes = 64 << 10
    public let userAgent: String
    /// Easy handles between requests (their addresses: the pool owns them): each keeps its
    /// connections, so a run of requests to one host (Breaking Bad's sampling) reuses one connection.
    private let idleHandles = Mutex<[UInt]>([])

    public init(userAgent: String = "quoted/\(QuotedVersion.current)") {
        _ = curlInitialised
        self.userAgent = userAgent
    }

    deinit {
        for address in idleHandles.withLock({ $0 }) { _ = CurlHandle(idle: address) }  // each cleaned up as it goes
    }

    /// Sends `request` and returns the response, whatever its status; throws only
    /// when there is no complete response.
    public func send(_ request: HTTPRequest) async throws(HTTPFailure) -> HTTPResponse {
        try Self.checkTarget(request.url, allowHTTP: request.allowHTTP, httpsOnly: request.httpsOnly)
        let cancel = CancelFlag()
        // The whole chain on a thread of its own (libcurl blocks): not a shared pool, whose
        // other slow work would eat this request's deadline between two hops.
        let result: Result<HTTPResponse, HTTPFailure> = await withTaskCancellationHandler {
            await BlockingWork.perform { () -> Result<HTTPResponse, HTTPFailure> in Result { () throws(HTTPFailure) in try self.followRedirects(request, cancel: cancel) } }
        } onCancel: {
            cancel.set()
        }
        return try result.get()
    }

    /// The request and its redirects under ONE deadline: a redirect gets what is left of
    /// `timeout`, not a fresh one (five slow hops would otherwise take six timeouts).
    private func followRedirects(_ request: HTTPRequest, cancel: CancelFlag) throws(HTTPFailure) -> HTTPResponse {
        var url = request.url
        // The system's clock, not an injected one: libcurl's own timeouts run on real time.
        let clock = SystemClock()
        let deadline = clock.now + .seconds(max(1, request.timeout))
        var redirects = 0
        while true {
            let left = deadline - clock.now
            let milliseconds = left.components.seconds.multipliedReportingOverflow(by: 1_000)
            guard left > .zero, !milliseconds.overflow else { throw .timedOut(seconds: request.timeout) }
            let budget = max(1, Int(milliseconds.partialValue) + Int(left.components.attoseconds / 1_000_000_000_000_000))
            let outcome = try transfer(request, url: url, milliseconds: budget, cancel: cancel).get()
            guard [301, 302, 303, 307, 308].contains(outcome.response.status), let target = outcome.redirect else {
                return outcome.response
            }
            redirects += 1
            if redirects > Self.maximumRedirects { throw .tooManyRedirects(Self.maximumRedirects) }
            try Self.checkTarget(target, allowHTTP: request.allowHTTP, httpsOnly: request.httpsOnly)
            url = target
        }
    }

    /// http(s) only, no credentials in the URL, and plain http only to loopback unless allowed
    /// (never with `httpsOnly`).
    static func checkTarget(_ url: String, allowHTTP: Bool, httpsOnly: Bool = false) throws(HTTPFailure) {
        guard let parts = URLText.schemeAndHost(url), !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw .invalidURL(url)
        }
        if URLText.hasUserInfo(url) { throw .invalidURL(url) }
        if parts.scheme == "http", httpsOnly || !allowHTTP && !URLText.isLoopback(host: parts.host) { throw .insecure(url) }
    }

    private struct Outcome {
        var response: HTTPResponse
        var redirect: String?
    }

    /// One transfer on a pooled handle. A handle goes back to the pool only after a transfer
    /// that completed: a failed one can leave state behind that `curl_easy_reset` keeps (libcurl
    /// 7.88 refuses CURLOPT_BUFFERSIZE on a handle still holding the receive buffer a failed
    /// transfer left), so it is closed instead. Should a reused handle still refuse an option,
    /// the request starts again on a fresh handle rather than failing.
    private func transfer(_ request: HTTPRequest, url: String, milliseconds: Int, cancel: CancelFlag) -> Result<Outcome, HTTPFailure> {
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for line in ["Accept: application/json"] + request.headers.compactMap(Self.headerLine) {
            headerList = curl_slist_append(headerList, line)
        }
        if let address = idleHandles.withLock({ $0.popLast() }) {
            let handle = CurlHandle(idle: address)
            curl_easy_reset(handle.pointer)
            switch transfer(request, url: url, milliseconds: milliseconds, headers: headerList, cancel: cancel, on: handle) {
            case .completed(let result): return result
            case .refusedSetup: break  // `handle` is dropped here; a fresh one follows.
            }
        }
        guard let handle = CurlHandle() else { return .failure(.connection("cannot start libcurl")) }
        switch transfer(request, url: url, milliseconds: milliseconds, headers: headerList, cancel: cancel, on: handle) {
        case .completed(let result): return result
        case .refusedSetup(let problem):
            return .failure(.connection("libcurl refused option \(problem.option): \(problem.code.message)"))
        }
    }

    private enum Attempt {
        case completed(Result<Outcome, HTTPFailure>)
        case refusedSetup((option: String, code: CURLcode))
    }

    private func transfer(_ request: HTTPRequest, url: String, milliseconds: Int, headers headerList: UnsafeMutablePointer<curl_slist>?,
                          cancel: CancelFlag, on handle: consuming CurlHandle) -> Attempt {
        let state = TransferState(maxBytes: request.maxBytes, cancel: cancel)
        state.onProgress = request.onProgress
        state.sink = request.bodySink
        let context = Unmanaged.passUnretained(state).toOpaque()
        let pointer = handle.pointer
        let setup: [(String, CURLcode)] = [
            ("URL", quoted_curl_set_string(pointer, CURLOPT_URL, url)),
            ("PROTOCOLS_STR", quoted_curl_set_string(pointer, CURLOPT_PROTOCOLS_STR, "http,https")),
            ("NOSIGNAL", quoted_curl_set_long(pointer, CURLOPT_NOSIGNAL, 1)),
            // Bigger reads: libcurl's 16 KB callbacks cost a big list a second (docs/benchmarks.md).
            ("BUFFERSIZE", quoted_curl_set_long(pointer, CURLOPT_BUFFERSIZE, 512 * 1024)),
            ("FOLLOWLOCATION", quoted_curl_set_long(pointer, CURLOPT_FOLLOWLOCATION, 0)),
            ("TIMEOUT_MS", quoted_curl_set_long(pointer, CURLOPT_TIMEOUT_MS, milliseconds)),
            ("USERAGENT", quoted_curl_set_string(pointer, CURLOPT_USERAGENT, userAgent)),
            ("HTTPHEADER", quoted_curl_set_list(pointer, CURLOPT_HTTPHEADER, headerList)),
            // Only the encodings we can bound: each decoded chunk passes the write callback's count.
            ("ACCEPT_ENCODING", quoted_curl_set_string(pointer, CURLOPT_ACCEPT_ENCODING, "gzip, deflate")),
            // An announced length over the cap is refused before any body byte arrives.
            ("MAXFILESIZE_LARGE", quoted_curl_set_offset(pointer, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes))),
            ("WRITEFUNCTION", quoted_curl_set_data_callback(pointer, CURLOPT_WRITEFUNCTION, receiveBody)),
            ("WRITEDATA", quoted_curl_set_pointer(pointer, CURLOPT_WRITEDATA, context)),
            ("HEADERFUNCTION", quoted_curl_set_data_callback(pointer, CURLOPT_HEADERFUNCTION, receiveHeader)),
            ("HEADERDATA", quoted_curl_set_pointer(pointer, CURLOPT_HEADERDATA, context)),
            ("XFERINFOFUNCTION", quoted_curl_set_progress_callback(pointer, watchProgress)),
            ("XFERINFODATA", quoted_curl_set_pointer(pointer, CURLOPT_XFERINFODATA, context)),
        ] + (request.caFile.map { [("CAINFO", quoted_curl_set_string(pointer, CURLOPT_CAINFO, $0))] } ?? []) + [
            // libcurl's own words for a failure ("SSL certificate problem: self-signed certificate"),
            // more than the generic text libcurl has for the code alone.
            ("ERRORBUFFER", quoted_curl_set_pointer(pointer, CURLOPT_ERRORBUFFER, state.errorBuffer)),
        ]
        if let problem = setup.first(where: { $0.1 != CURLE_OK }) { return .refusedSetup((problem.0, problem.1)) }

        let code = withExtendedLifetime(state) { curl_easy_perform(pointer) }
        // The buffer belongs to `state`, which ends with this call: no handle may keep pointing at it.
        _ = quoted_curl_set_pointer(pointer, CURLOPT_ERRORBUFFER, nil)
        // A failed transfer's handle is cleaned up when this function ends (see `transfer` above).
        if let failure = state.failure { return .completed(.failure(failure)) }
        if code != CURLE_OK {
            let host = URLText.schemeAndHost(url)?.host ?? "the server"
            return .completed(.failure(Self.failure(for: code, state: state, timeout: request.timeout, host: host)))
        }
        // A server that closed in the middle of its headers: libcurl may call that a response.
        guard state.headersEnded else { return .completed(.failure(.connection("connection lost before the response headers were complete"))) }
        var status = 0
        _ = quoted_curl_get_long(pointer, CURLINFO_RESPONSE_CODE, &status)
        var location: UnsafePointer<CChar>?
        _ = quoted_curl_get_string(pointer, CURLINFO_REDIRECT_URL, &location)
        let redirect = location.map { String(cString: $0) }
        // Back to the pool only now: the status and the redirect were read from the handle, and
        // another transfer may take it the moment it is back.
        giveBack(handle)
        let response = HTTPResponse(status: status, headers: state.headers, body: state.body, receivedBytes: state.received)
        return .completed(.success(Outcome(response: response, redirect: redirect)))
    }

    /// "Name: value", or nil for a header that would break the request (a stored ETag
    /// came from an upstream: a line break in it must not add headers of its own).
    static func headerLine(_ header: (key: String, value: String)) -> String? {
        guard header.key.lowercased() != "origin",
              !(header.key + header.value).unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
              !header.key.contains(":") else { return nil }
        return header.key + ": " + header.value
    }

    private func giveBack(_ handle: consuming CurlHandle) {
        let address = handle.idle()
        let kept = idleHandles.withLock { idle in
            guard idle.count < 4 else { return false }
            idle.append(address)
            return true
        }
        if !kept { _ = CurlHandle(idle: address) }  // cleaned up at once
    }

    static func failure(for code: CURLcode, state: TransferState, timeout: Int, host: String) -> HTTPFailure {
        let generic = code.message
        let detail = state.errorMessage
        let reason = detail.isEmpty ? generic : detail
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(seconds: timeout)
        case CURLE_COULDNT_CONNECT: return .connection("connection refused")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .connection("host not found")
        case CURLE_FILESIZE_EXCEEDED: return .tooLarge(limit: state.maxBytes)
        case CURLE_PARTIAL_FILE: return .truncated(received: state.received, expected: state.announcedLength)
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            return .connection("connection lost before the response was complete")
        case CURLE_BAD_CONTENT_ENCODING: return .connection("the compressed body is damaged")
        case CURLE_WEIRD_SERVER_REPLY: return .connection("bad server response")
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: return .connection("invalid URL (\(reason))")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .connection("TLS: the certificate of \(host) is not trusted (\(reason)); a captive portal or an intercepting proxy?")
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE:
            return .connection("TLS failure with \(host): \(reason)")
        default: return .connection(reason)
        }
    }
}

/// libcurl's process-wide set-up, once, before the first handle (it is not thread-safe).
private let curlInitialised: Void = {
    _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
}()

/// One CURL easy handle, owned as QuoteSystem's `FileDescriptor` owns a descriptor:
/// noncopyable, so one transfer holds it at a time (libcurl's rule) and cannot touch it once it
/// is given back; its address is kept as a handle, like a descriptor's number, and the pool
/// holds the addresses of idle ones. Cleaned up with the value, unless it went back to the pool.
private struct CurlHandle: ~Copyable, Sendable {
    private let address: UInt

    init?() {
        guard let pointer = curl_easy_init() else { return nil }
        address = UInt(bitPattern: pointer)
    }

    /// One the pool held: this value owns it now.
    init(idle address: UInt) {
        self.address = address
    }

    var pointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: address)! }

    /// The address, for the pool, which owns the handle from now on.
    consuming func idle() -> UInt {
        let address = address
        discard self
        return address
    }

    deinit { curl_easy_cleanup(pointer) }
}

/// What libcurl's callbacks collect during one transfer. Touched only on the thread
/// running curl_easy_perform, then handed over when it returns.
final class TransferState {
    let maxBytes: Int
    let cancel: CancelFlag
    var body: [UInt8] = []
    /// Body bytes received (decoded), whether collected in `body` or handed to `sink`.
    var received = 0
    /// The status line's code, once it has come.
    var status = 0
    var sink: (any HTTPBodySink)?
    /// Whether the sink was told the body's Content-Type (`begin`), at its first chunk.
    private var begun = false
    var headers: [String: String] = [:]
    var headerBytes = 0
    var announcedLength = 0
    var failure: HTTPFailure?
    /// Set by the blank line that ends a response's headers; a new status line (after a 1xx) clears it.
    var headersEnded = false
    /// CURLOPT_ERRORBUFFER: CURL_ERROR_SIZE bytes, NUL-terminated by libcurl.
    let errorBuffer: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        return buffer
    }()
    var errorMessage: String {
        errorBuffer[Int(CURL_ERROR_SIZE) - 1] = 0
        return String(cString: errorBuffer).trimmingASCIIWhitespace()
    }
    var onProgress: (@Sendable (Int, Int) -> Void)?
    /// Progress is throttled in real time (libcurl calls back on it): the system's clock.
    private let clock = SystemClock()
    private var lastReport = SystemClock().now

    /// Reports progress at most every quarter of a second.
    func reportProgress(received: Int, total: Int) {
        guard let onProgress, clock.now - lastReport >= .milliseconds(250) else { return }
        lastReport = clock.now
        onProgress(received, total)
    }

    init(maxBytes: Int, cancel: CancelFlag) {
        self.maxBytes = maxBytes
        self.cancel = cancel
    }

    deinit { errorBuffer.deallocate() }

    /// Records one header line; a new status line (after a 1xx) starts the headers afresh.
    func header(_ bytes: UnsafeRawBufferPointer) -> Bool {
        headerBytes += bytes.count
        guard headerBytes <= HTTPClient.maximumHeaderBytes else {
            failure = .connection("response headers larger than \(HTTPClient.maximumHeaderBytes) bytes")
            return false
        }
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = [:]
            headersEnded = false
            // "HTTP/1.1 200 OK", "HTTP/2 200": the three digits after the first space.
            let parts = line.split(separator: " ", maxSplits: 2)
            status = parts.count >= 2 ? Int(parts[1].prefix(3)) ?? 0 : 0
            return true
        }
        if line == "\r\n" || line == "\n" {
            headersEnded = true
            return true
        }
        guard let colon = line.firstIndex(of: ":") else { return true }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingASCIIWhitespace()
        headers[name] = value
        if name == "content-length", let length = Int(value), length > 0 {
            announcedLength = length
            // One allocation of the announced size, never more than the cap (the number is the
            // server's word), and none for a body that a sink takes.
            if !streams { body.reserveCapacity(min(length, maxBytes)) }
        }
        return true
    }

    /// Whether this response's body goes to the sink: a 200's does.
    private var streams: Bool { sink != nil && status == 200 }

    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= maxBytes - received else {
            failure = .tooLarge(limit: maxBytes)
            return false
        }
        received += bytes.count
        if let sink, streams {
            // The headers are all in by the body's first byte: the sink learns its type first.
            if !begun {
                begun = true
                guard sink.begin(contentType: headers["content-type"]) else {
                    failure = .stoppedByReader
                    return false
                }
            }
            guard sink.receive(bytes) else {
                failure = .stoppedByReader
                return false
            }
            return true
        }
        body.append(contentsOf: bytes)
        return true
    }
}

private func state(_ context: UnsafeMutableRawPointer?) -> TransferState {
    Unmanaged<TransferState>.fromOpaque(context!).takeUnretainedValue()
}

/// Every decoded body chunk: counted against the cap before it is kept. Returning less
/// than the chunk's size makes libcurl abort the transfer at once.
private let receiveBody: quoted_curl_data_callback = { data, size, count, context in
    let length = size * count
    return state(context).append(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private let receiveHeader: quoted_curl_data_callback = { data, size, count, context in
    let length = size * count
    return state(context).header(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// Called often during a transfer and about once a second when idle: stops a cancelled
/// transfer, and one whose bytes on the wire passed the cap (whatever they decode to).
private let watchProgress: quoted_curl_progress_callback = { context, _, downloaded, _, _ in
    let transfer = state(context)
    if transfer.cancel.isSet { return 1 }
    if downloaded > curl_off_t(transfer.maxBytes) {
        transfer.failure = .tooLarge(limit: transfer.maxBytes)
        return 1
    }
    transfer.reportProgress(received: Int(downloaded), total: transfer.announcedLength)
    return 0
}

extension CURLcode {
    /// libcurl's words for the code ("Couldn't resolve host name"): the one place they are asked
    /// for, as Errno is for errno (QuoteSystem stays Glibc-only: quotectl links no libcurl).
    var message: String { String(cString: curl_easy_strerror(self)) }
}
