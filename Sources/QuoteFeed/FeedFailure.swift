import QuoteBase

/// Why the feed could not be published or read, in one line (the hub's journal, a spoke's sync
/// log), with what kind of problem it is said where it is found, never read off the words.
public struct FeedFailure: Error, Equatable, CustomStringConvertible {
    public let reason: String
    /// A problem only the configuration can fix (a signing key others may read, a key file that is
    /// no key).
    public let isConfiguration: Bool

    public init(_ reason: String, isConfiguration: Bool = false) {
        self.reason = reason
        self.isConfiguration = isConfiguration
    }

    public var description: String { reason }

    /// What `quoted publish` exits with: 78 for the configuration's problem, 74 for any other
    /// (the store, the folder, the disk, the clock).
    public var exitCode: ExitCode { isConfiguration ? .configuration : .ioError }
}
