import QuoteBase
import QuoteConfig

public struct HTTPRequest: Sendable {
    public var url: String
    /// Extra request headers (If-None-Match, If-Modified-Since, ...).
    public var headers: [String: String] = [:]
    /// Whole seconds: libcurl truncates fractions (0.5 s would fire at once).
    public var timeout: Int = 15
    public var maxBytes: Int = 32 << 20
    /// Plain http to a host that is not loopback (the source said allow_http = true).
    public var allowHTTP = false
    /// No plain http at all, loopback included, redirects included: an https hub's feed stays https.
    public var httpsOnly = false
    /// A CA certificate file to trust instead of the system's ([fleet] ca_file: a hub with a private CA).
    public var caFile: String?
    /// Called now and then while the body arrives: (bytes received, bytes announced or 0).
    public var onProgress: (@Sendable (Int, Int) -> Void)?
    /// Takes a 200 response's body as it arrives, instead of the client collecting it (any other
    /// status's body is still collected, for its error message).
    public var bodySink: (any HTTPBodySink)?

    public init(url: String, headers: [String: String] = [:], timeout: Int = 15, maxBytes: Int = 32 << 20, allowHTTP: Bool = false) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.allowHTTP = allowHTTP
    }
}

/// A reader of a body as it arrives. Called on the thread running the transfer, one chunk at a
/// time, never concurrently; the chunk is valid during the call only.
public protocol HTTPBodySink: AnyObject, Sendable {
    /// Called once, before the first chunk of a 200's body, with its Content-Type (nil when the
    /// server sent none): a reader that decides the body's format from it is made here. Not called
    /// for an empty body. False stops the transfer, as `receive` does.
    func begin(contentType: String?) -> Bool
    /// False stops the transfer (the sink keeps why); the request then fails as `.stoppedByReader`.
    func receive(_ chunk: UnsafeRawBufferPointer) -> Bool
}

extension HTTPBodySink {
    public func begin(contentType: String?) -> Bool { true }
}

public struct HTTPResponse: Sendable {
    public let status: Int
    /// Header names in lower case.
    public let headers: [String: String]
    public let body: [UInt8]
    /// The body's bytes as received, whether collected in `body` or handed to a sink.
    public let receivedBytes: Int

    public init(status: Int, headers: [String: String], body: [UInt8], receivedBytes: Int? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.receivedBytes = receivedBytes ?? body.count
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why a request produced no usable response. Descriptions are one line and
/// never include a URL's query (it can hold an API key).
public enum HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidURL(String)
    case insecure(String)
    case timedOut(seconds: Int)
    case tooLarge(limit: Int)
    case truncated(received: Int, expected: Int)
    case tooManyRedirects(Int)
    case connection(String)
    case cancelled
    /// The request's `bodySink` refused a chunk: its own error says why.
    case stoppedByReader

    public var description: String {
        switch self {
        case .invalidURL(let url): return "invalid URL \(URLText.redacted(url))"
        case .insecure(let url): return "refusing plain http to \(URLText.redacted(url)) (use https or allow_http = true; an https hub is never followed to http)"
        case .timedOut(let seconds): return "timed out after \(seconds) s"
        case .tooLarge(let limit): return "response larger than \(limit) bytes (max_bytes)"
        case .truncated(let received, let expected):
            return "body truncated: the connection broke before the response was complete (\(received)"
                + (expected > 0 ? " of \(expected) bytes)" : " bytes)")
        case .tooManyRedirects(let count): return "more than \(count) redirects"
        case .connection(let reason): return reason
        case .cancelled: return "cancelled"
        case .stoppedByReader: return "the body was refused while it arrived"
        }
    }
}
