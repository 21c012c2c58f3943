/// Why one source's sync failed: one line for status and logs, with the HTTP
/// status and the earliest next attempt when the upstream said.
public struct SourceFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var httpStatus: Int?
    /// Unix seconds before which the upstream asked not to be contacted.
    public var retryAfter: Int?
    /// A problem only the user can fix (a rejected API key).
    public var isConfiguration = false

    public init(_ message: String, httpStatus: Int? = nil, retryAfter: Int? = nil, isConfiguration: Bool = false) {
        self.message = message
        self.httpStatus = httpStatus
        self.retryAfter = retryAfter
        self.isConfiguration = isConfiguration
    }

    public var description: String { message }
}
