import QuoteModels

/// The control socket's line protocol, shared by quoted (server) and quotectl (client).
///
/// A client sends one request line (at most 1,024 bytes):
///   `sync [--no-wait] [SOURCE...]`, `status`, `reload` (root and the daemon's own user only)
/// The daemon answers with lines `KIND TEXT`, ending with `end CODE` (a sysexits code):
///   `started SOURCE` / `joined SOURCE` (a sync already running is joined, not started twice)
///   `ok LINE` / `fail LINE`            one per source as it finishes ("upbit: 536 markets, 3 changed, 0.41 s")
///   `daemon JSON`, `source JSON`       for status
///   `error MESSAGE`                    a refused or malformed request (`busy: …`, `permission denied: …`:
///                                      a `ControlRefusal`, which a client acts on)
///   `progress SOURCE TEXT`             a running sync's live line
///   `waiting SOURCES`                  every `heartbeat` while a client waits for syncs
public enum ControlProtocol {
    /// How often the daemon tells a client waiting for syncs that it is still at them.
    public static let heartbeat: Duration = .seconds(5)
    /// Seconds of silence after which a client gives the daemon up: three heartbeats.
    public static let silenceLimit = 15
    /// Seconds a request that waits for nothing (status, sync --no-wait) may take in all.
    public static let quickAnswer = 5
}

public enum ControlRequest: Equatable, Sendable {
    case sync(sources: [String], wait: Bool)
    case status
    case reload

    public static let maximumLength = 1_024

    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case tooLong
        case unknown(String)
        case badSource(String)

        public var description: String {
            switch self {
            // English on purpose: the control protocol's replies (the daemon's, never translated).
            case .empty: return "empty request"
            // English on purpose: the control protocol's replies (the daemon's, never translated)
            case .tooLong: return "request longer than \(ControlRequest.maximumLength) bytes"
            // English on purpose: the control protocol's replies (the daemon's, never translated)
            case .unknown(let word): return "unknown request '\(word.prefix(40))' (sync, status, reload)"
            // English on purpose: the control protocol's replies (the daemon's, never translated)
            case .badSource(let name): return "not a source name: '\(name.prefix(80))'"
            }
        }
    }

    public static func parse(_ line: String) throws(ParseError) -> ControlRequest {
        guard line.utf8.count <= maximumLength else { throw .tooLong }
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard let verb = words.first else { throw .empty }
        switch verb {
        case "sync":
            var wait = true
            var sources: [String] = []
            for word in words.dropFirst() {
                if word == "--no-wait" { wait = false; continue }
                guard isSourceName(word) else { throw .badSource(word) }
                sources.append(word)
            }
            return .sync(sources: sources, wait: wait)
        case "status" where words.count == 1: return .status
        case "reload" where words.count == 1: return .reload
        default: throw .unknown(verb)
        }
    }

    public var line: String {
        switch self {
        case .sync(let sources, let wait): return (["sync"] + (wait ? [] : ["--no-wait"]) + sources).joined(separator: " ")
        case .status: return "status"
        case .reload: return "reload"
        }
    }

    /// Source names are short and plain: no spaces or control characters can be smuggled into replies.
    static func isSourceName(_ word: String) -> Bool {
        SourceName.isValidListName(word)
    }
}

/// One reply line, split into its kind and text.
public struct ControlReply: Equatable, Sendable {
    public let kind: String
    public let text: String

    public init(kind: String, text: String) {
        self.kind = kind
        self.text = text
    }

    public init(line: String) {
        if let space = line.firstIndex(of: " ") {
            kind = String(line[..<space])
            text = String(line[line.index(after: space)...])
        } else {
            kind = line
            text = ""
        }
    }

    /// The line as sent: newlines inside the text are flattened so one reply stays one line.
    public var line: String {
        kind + (text.isEmpty ? "" : " " + text.map { $0 == "\n" || $0 == "\r" ? " " : String($0) }.joined())
    }
}
