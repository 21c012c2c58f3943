import QuoteBase

/// A user's state file that could not be read or written, named in one line, with the exit
/// status it calls for (74: the file is there but not usable; the user's likes are never
/// written over then).
public struct UserStateError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public let exitCode: ExitCode

    public init(_ message: String, exitCode: ExitCode = .ioError) {
        self.message = message
        self.exitCode = exitCode
    }

    public var description: String { message }
}
