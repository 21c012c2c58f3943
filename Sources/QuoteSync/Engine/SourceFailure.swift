import QuoteBase
import QuoteStore
/// Why one source's sync failed: one line for status and logs, with the HTTP
/// status and the earliest next attempt when the upstream said.
public struct SourceFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var httpStatus: Int?
    /// Unix seconds before which the upstream asked not to be contacted.
    public var retryAfter: Int?
    /// A problem only the user can fix (a rejected API key).
    public var isConfiguration = false
    /// The store failed (disk full, read-only, busy), not the upstream: recorded as local,
    /// without touching the upstream's backoff.
    public var isLocal: Bool { storeExitCode != nil }
    /// For a local failure: 75 when the store was busy (try again), else 74.
    public var storeExitCode: ExitCode?

    /// "store: disk full" and the like, from what the store said.
    public static func local(_ error: StoreError) -> SourceFailure {
        var failure = SourceFailure("store: " + Self.shortReason(error))
        failure.storeExitCode = error.exitCode == .temporaryFailure ? .temporaryFailure : .ioError
        return failure
    }

    static func shortReason(_ error: StoreError) -> String {
        switch error {
        case .full: return "disk full"
        case .busy: return "busy (another process holds the write lock)"
        case .readOnly(_, let reason): return "read-only (\(reason))"
        case .notADatabase: return "damaged"
        case .damaged(_, let reason): return "damaged (\(reason))"
        default: return error.description
        }
    }

    public init(_ message: String, httpStatus: Int? = nil, retryAfter: Int? = nil, isConfiguration: Bool = false) {
        self.message = message
        self.httpStatus = httpStatus
        self.retryAfter = retryAfter
        self.isConfiguration = isConfiguration
    }

    public var description: String { message }
}
