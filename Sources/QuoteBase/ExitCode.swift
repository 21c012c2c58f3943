/// How quoted and quotectl end: the codes of sysexits.h, named once. Every exit status the
/// two programs return comes from here, so a code means the same thing everywhere.
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let success = ExitCode(rawValue: 0)
    /// EX_USAGE: a command-line mistake.
    public static let usage = ExitCode(rawValue: 64)
    /// EX_DATAERR: input data is malformed or too large.
    public static let dataError = ExitCode(rawValue: 65)
    /// EX_NOINPUT: no such input (a missing file, nothing matched, no store there).
    public static let noInput = ExitCode(rawValue: 66)
    /// EX_UNAVAILABLE: a needed service or program is not there.
    public static let unavailable = ExitCode(rawValue: 69)
    /// EX_SOFTWARE: a bug (never on purpose).
    public static let software = ExitCode(rawValue: 70)
    /// EX_OSERR: the system refused (socket, pipe, fork).
    public static let osError = ExitCode(rawValue: 71)
    /// EX_CANTCREAT: an output file (the store) cannot be created.
    public static let cannotCreate = ExitCode(rawValue: 73)
    /// EX_IOERR: reading or writing failed (read-only, disk full, damaged).
    public static let ioError = ExitCode(rawValue: 74)
    /// EX_TEMPFAIL: try again later (a sync failed, the store was busy).
    public static let temporaryFailure = ExitCode(rawValue: 75)
    /// EX_NOPERM: permission denied (the control socket refused us).
    public static let noPermission = ExitCode(rawValue: 77)
    /// EX_CONFIG: the configuration is wrong.
    public static let configuration = ExitCode(rawValue: 78)

    public var description: String { String(rawValue) }
}

/// Tests compare with the numbers a shell sees (`#expect(result.exitCode == 66)`).
extension ExitCode: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int32) { self.init(rawValue: value) }
}
