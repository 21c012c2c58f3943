import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import QuoteConfig

/// HTTP over URLSession, with the rules every upstream gets: an ephemeral session
/// with no cache (the shared one writes under $HOME), whole-second timeouts, a size
/// cap enforced while receiving, at most 5 redirects, https unless loopback (or
/// allow_http), `User-Agent: quoted/<version>`, and never an `Origin` header.
/// Proxies come from the standard environment variables (libcurl reads them).
public final class HTTPClient: NSObject, @unchecked Sendable {
    public static let maximumRedirects = 5
    public let userAgent: String

    private var session: URLSession!
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    /// The state of one request in flight; guarded by `lock`.
    private final class Transfer {
        let request: HTTPRequest
        let continuation: CheckedContinuation<HTTPResponse, Error>
        var body: [UInt8] = []
        var redirects = 0
        var failure: HTTPFailure?

        init(request: HTTPRequest, continuation: CheckedContinuation<HTTPResponse, Error>) {
            self.request = request
            self.continuation = continuation
        }
    }

    public init(userAgent: String = "quoted/\(QuotedVersion.current)") {
        self.userAgent = userAgent
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpMaximumConnectionsPerHost = 2
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// Sends `request` and returns the response, whatever its status; throws only
    /// when there is no complete response.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let url = URL(string: request.url), let parts = URLText.schemeAndHost(request.url) else {
            throw HTTPFailure.invalidURL(request.url)
        }
        if parts.scheme == "http", !request.allowHTTP, !URLText.isLoopback(host: parts.host) {
            throw HTTPFailure.insecure(request.url)
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: TimeInterval(max(1, request.timeout)))
        urlRequest.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in request.headers where name.lowercased() != "origin" {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let task = session.dataTask(with: urlRequest)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.withLock { transfers[task.taskIdentifier] = Transfer(request: request, continuation: continuation) }
                task.resume()
                // URLSession's own timeout counts idle time only; this one bounds the whole request.
                DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(max(1, request.timeout))) { [weak self] in
                    self?.fail(task, with: .timedOut(seconds: max(1, request.timeout)))
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Marks a transfer still in flight as failed and stops it.
    private func fail(_ task: URLSessionTask, with failure: HTTPFailure) {
        let stillRunning = lock.withLock { () -> Bool in
            guard let transfer = transfers[task.taskIdentifier] else { return false }
            if transfer.failure == nil { transfer.failure = failure }
            return true
        }
        if stillRunning { task.cancel() }
    }

    private func transfer(_ task: URLSessionTask) -> Transfer? {
        lock.withLock { transfers[task.taskIdentifier] }
    }
}

extension HTTPClient: URLSessionDataDelegate {
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(dataTask) else { return }
        let tooLarge = lock.withLock { () -> Bool in
            transfer.body.append(contentsOf: data)
            if transfer.body.count > transfer.request.maxBytes {
                transfer.failure = .tooLarge(limit: transfer.request.maxBytes)
                return true
            }
            return false
        }
        // Stop receiving at once rather than buffering an unbounded body.
        if tooLarge { dataTask.cancel() }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let transfer = transfer(dataTask) {
            let expected = response.expectedContentLength
            if expected > Int64(transfer.request.maxBytes) {
                lock.withLock { transfer.failure = .tooLarge(limit: transfer.request.maxBytes) }
                completionHandler(.cancel)
                return
            }
            // One allocation of the announced size instead of repeated doubling (a big list's
            // body would otherwise need up to twice its size while growing).
            if expected > 0 { lock.withLock { transfer.body.reserveCapacity(Int(expected)) } }
        }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        guard let transfer = transfer(task) else { completionHandler(nil); return }
        let target = request.url?.absoluteString ?? ""
        let verdict: HTTPFailure? = lock.withLock {
            transfer.redirects += 1
            if transfer.redirects > Self.maximumRedirects { return .tooManyRedirects(Self.maximumRedirects) }
            guard let parts = URLText.schemeAndHost(target) else { return .invalidURL(target) }
            if parts.scheme == "http", !transfer.request.allowHTTP, !URLText.isLoopback(host: parts.host) {
                return .insecure(target)
            }
            return nil
        }
        if let verdict {
            lock.withLock { transfer.failure = verdict }
            completionHandler(nil)
            task.cancel()
            return
        }
        var next = request
        next.setValue(nil, forHTTPHeaderField: "Origin")
        completionHandler(next)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        let (failure, body) = lock.withLock { () -> (HTTPFailure?, [UInt8]) in
            defer { transfer.body = [] }  // hand the bytes over rather than keep a second reference
            return (transfer.failure, transfer.body)
        }
        if let failure {
            transfer.continuation.resume(throwing: failure)
            return
        }
        if let error {
            transfer.continuation.resume(throwing: Self.failure(for: error, timeout: transfer.request.timeout))
            return
        }
        guard let response = task.response as? HTTPURLResponse else {
            transfer.continuation.resume(throwing: HTTPFailure.connection("no HTTP response"))
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        let expected = response.expectedContentLength
        if expected >= 0, body.count < Int(expected), headers["content-encoding"] == nil {
            transfer.continuation.resume(throwing: HTTPFailure.truncated(received: body.count, expected: Int(expected)))
            return
        }
        transfer.continuation.resume(returning: HTTPResponse(status: response.statusCode, headers: headers, body: body))
    }

    static func failure(for error: Error, timeout: Int) -> HTTPFailure {
        guard let urlError = error as? URLError else { return .connection(error.localizedDescription) }
        switch urlError.code {
        case .timedOut: return .timedOut(seconds: timeout)
        case .cancelled: return .cancelled
        case .networkConnectionLost: return .connection("connection lost before the response was complete")
        case .cannotConnectToHost: return .connection("connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .connection("host not found")
        case .notConnectedToInternet: return .connection("no network")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return .connection("TLS failure")
        case .httpTooManyRedirects: return .tooManyRedirects(maximumRedirects)
        case .badServerResponse: return .connection("bad server response")
        case .unknown:
            // libcurl's own failures (a body cut short, a reset) arrive here without a code.
            return .connection("transfer failed: the connection broke before the response was complete")
        default: return .connection("network error \(urlError.code.rawValue)")
        }
    }
}

public enum QuotedVersion {
    public static let current = "0.1.0"
}
