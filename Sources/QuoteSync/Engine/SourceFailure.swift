import QuoteBase
import QuoteModels
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
    /// The request's own failure, as the HTTP client typed it, when that is what this is: a
    /// caller that treats one apart (a feed file longer than signed) asks this, never the message.
    public var transfer: HTTPFailure?
    /// The upstream's Retry-After asked for longer than `RetryAfter.maximumWait`, so `retryAfter`
    /// is that cap: set where the header is read, for an adapter that words the wait its own way.
    public var retryAfterCapped = false
    /// The store failed (disk full, read-only, busy), not the upstream: recorded as local,
    /// without touching the upstream's backoff.
    public var isLocal: Bool { storeExitCode != nil }
    /// For a local failure: 75 when the store was busy (try again), else 74.
    public var storeExitCode: ExitCode?

    /// The response passed the request's byte cap (max_bytes, or a feed file's signed size).
    public var isTooLarge: Bool {
        if case .tooLarge? = transfer { return true }
        return false
    }

    /// A failed request, in `message`'s words (nil: the client's own), with the failure kept.
    public init(_ failure: HTTPFailure, message: String? = nil) {
        self.init(message ?? failure.description)
        transfer = failure
    }

    /// "store: disk full" and the like, from what the store said.
    public static func local(_ error: StoreError) -> SourceFailure {
        var failure = SourceFailure("store: " + Self.shortReason(error))
        failure.storeExitCode = error.exitCode == .temporaryFailure ? .temporaryFailure : .ioError
        return failure
    }

    /// Why a sync failed, from whatever it threw. A record the store refuses is the upstream's
    /// fault; any other store error is the store's (local, without touching the upstream's backoff).
    public init(classifying error: any Error) {
        switch error {
        case let known as SourceFailure: self = known
        case let list as ListFailure: self.init("the list is \(list)", httpStatus: 200)
        case let http as HTTPFailure: self.init(http)
        case let store as StoreError where store.resultCode == .constraint:
            // Only upstream data is written during a sync: a row the store's rules refuse is the
            // upstream's fault (retried with backoff), not a broken store.
            self.init("the upstream sent data the store refuses (\(store.databaseError?.message ?? "")); store left as it was")
        case StoreError.invalidSourceName: self.init("\(error)")
        case let store as StoreError:
            // The store failed, not the upstream: say what happened in a few words.
            self = .local(store)
        default: self.init("\(error)")
        }
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
