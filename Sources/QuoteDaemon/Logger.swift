import Glibc
import QuoteBase
import QuoteConfig
import QuoteSystem
import Synchronization

/// One line per event on stderr. Under systemd (JOURNAL_STREAM set) each line
/// starts with its syslog priority (`<3>` error ... `<7>` debug) and carries no
/// timestamp — the journal adds one; otherwise a timestamp and the level.
/// Callers never pass secrets or whole response bodies.
public final class Logger: Sendable {
    public enum Level: Int, Comparable, Sendable, CaseIterable {
        case error = 3, warning = 4, info = 6, debug = 7

        /// The syslog priority of a level as the configuration names it.
        public init(_ level: LogLevel) {
            switch level {
            case .error: self = .error
            case .warning: self = .warning
            case .info: self = .info
            case .debug: self = .debug
            }
        }

        var name: String {
            switch self {
            case .error: return LogLevel.error.rawValue
            case .warning: return LogLevel.warning.rawValue
            case .info: return LogLevel.info.rawValue
            case .debug: return LogLevel.debug.rawValue
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private let threshold: Mutex<Level>
    private let journal: Bool
    private let write: @Sendable (String) -> Void

    public init(level: Level = .info, journal: Bool = Environment.variable("JOURNAL_STREAM") != nil,
                write: @escaping @Sendable (String) -> Void = Logger.standardError) {
        self.threshold = Mutex(level)
        self.journal = journal
        self.write = write
    }

    public var level: Level {
        get { threshold.withLock { $0 } }
        set { threshold.withLock { $0 = newValue } }
    }

    public func error(_ message: String) { log(.error, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func info(_ message: String) { log(.info, message) }
    public func debug(_ message: String) { log(.debug, message) }

    public func log(_ level: Level, _ message: String) {
        guard level <= self.level else { return }
        // One event, one line: newlines inside a message would split it in the journal.
        let flat = String(message.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
        if journal {
            write("<\(level.rawValue)>\(flat)\n")
        } else {
            write("\(Self.timestamp()) \(level.name): \(flat)\n")
        }
    }

    /// One write(2) per line: lines from several threads never interleave.
    public static let standardError: @Sendable (String) -> Void = { line in
        try? Descriptor.standardError.writeAll(line)
    }

    static func pad(_ value: Int32, width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func timestamp() -> String {
        let now = ClockReading.wallClock()
        var parts = tm()
        var seconds = time_t(now.seconds)
        localtime_r(&seconds, &parts)
        // Plain padding, not String(format:): that one wakes up Foundation's locale machinery,
        // megabytes of resident memory in a daemon that otherwise never needs it.
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday)) "
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(pad(Int32(now.nanoseconds / 1_000_000), width: 3))"
    }
}
