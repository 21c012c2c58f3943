import QuoteBase
import QuoteConfig
import QuoteSystem
import Synchronization

/// One line per event on stderr. Under systemd (JOURNAL_STREAM set) each line
/// starts with its syslog priority (`<3>` error ... `<7>` debug) and carries no
/// timestamp — the journal adds one; otherwise a timestamp and the level.
/// When stderr is the journal's own stream, each event goes to the journal's native socket
/// instead, with fields (MESSAGE_ID, QUOTED_SOURCE…) that `journalctl` can select on; an event
/// the socket refuses is written to stderr as ever.
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
    private let journalSocket: JournalSocket?

    /// The entries' SYSLOG_IDENTIFIER, as the stream's lines have it.
    static let identifier = "quoted"

    public init(level: Level = .info, journal: Bool = Environment.variable("JOURNAL_STREAM") != nil,
                write: @escaping @Sendable (String) -> Void = Logger.standardError,
                journalSocket: JournalSocket? = Logger.nativeJournal()) {
        self.threshold = Mutex(level)
        self.journal = journal
        self.write = write
        self.journalSocket = journalSocket
    }

    /// The journal's socket when stderr is the journal's stream, else nil (a terminal, a file, a pipe).
    public static func nativeJournal() -> JournalSocket? {
        JournalSocket.isStandardError(journalStream: Environment.variable("JOURNAL_STREAM")) ? JournalSocket() : nil
    }

    public var level: Level {
        get { threshold.withLock { $0 } }
        set { threshold.withLock { $0 = newValue } }
    }

    public func error(_ message: String) { log(.error, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func info(_ message: String) { log(.info, message) }
    public func debug(_ message: String) { log(.debug, message) }

    /// Logs `message`, with `event`'s MESSAGE_ID and `fields` when it goes to the journal.
    public func log(_ level: Level, _ message: String, event: LogEvent? = nil, fields: [(name: String, value: String)] = []) {
        guard level <= self.level else { return }
        if let journalSocket {
            var all = [(name: "PRIORITY", value: String(level.rawValue)), ("SYSLOG_IDENTIFIER", Self.identifier)]
            if let event { all.append(("MESSAGE_ID", event.messageID)) }
            if journalSocket.send(JournalEntry.encode(message: message, fields: all + fields)) { return }
        }
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

    /// "2026-11-29 13:05:09.042", local time: a line on a terminal, where the journal adds none.
    static func timestamp() -> String {
        let now = ClockReading.wallClock()
        return LocalTime(now.seconds).dateAndTime + "." + pad(Int32(now.nanoseconds / 1_000_000), width: 3)
    }
}
