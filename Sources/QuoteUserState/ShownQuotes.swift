import QuoteBase
import QuoteModels
import QuoteText

/// One quote shown to this user: what `like` and `hide` take when given no ID, and — a greeting,
/// kept by `Greetings` — what `--once-per` asks about (when, in which boot, in which session).
public struct ShownQuote: Equatable, Sendable {
    public let kept: KeptQuote
    public let identity: SessionIdentity

    public init(kept: KeptQuote, identity: SessionIdentity) {
        self.kept = kept
        self.identity = identity
    }

    var jsonLine: String {
        var object = JSONObjectBuilder()
        object.add("boot", identity.boot)
        object.add("session", identity.session)
        // The kept quote's members follow, so one reader reads both kinds of line.
        // Substrings made Strings before they are joined: String + Substring is the generic `+`,
        // whose Collection conformance is looked up at run time.
        return String(object.result.dropLast()) + "," + String(kept.jsonLine.dropFirst())
    }

    init?(jsonLine line: Substring) {
        guard let object = (try? JSONParser.parse(String(line)))?.object, let kept = KeptQuote(object: object) else { return nil }
        func member(_ name: String) -> String? { object.members.first { $0.key == name }?.value.string.flatMap(SessionIdentity.idText) }
        self.init(kept: kept, identity: SessionIdentity(boot: member("boot"), session: member("session")))
    }
}

/// The quotes this user was last shown, newest last: every quote `random` and `today` print, and
/// what a notification or a bar shows, recorded through `record` — a line added to the file per
/// quote (`StateHistory`), only its last byte read. The newest `keptCount` are what is kept: a
/// reader reads those, and the file is rewritten to them once it passes `compactionBytes`.
public enum ShownQuotes {
    public static let fileName = "shown"
    public static let keptCount = 16
    /// The most of the file's end that is read (its newest lines; a larger file's older part never).
    static let maximumBytes = 4 << 20
    /// About a thousand quotes: a bar drawing each second rewrites the file a few times an hour.
    static let compactionBytes = 256 << 10

    /// What was shown, oldest first (malformed lines skipped).
    public static func history(_ folder: StateFolder = .current()) -> [ShownQuote] {
        history(of: fileName, folder)
    }

    /// The last quote shown to this user, if any: the last line that reads as one.
    public static func last(_ folder: StateFolder = .current()) -> ShownQuote? {
        newest(1, of: file(fileName, folder).bytes()).last?.shown
    }

    /// Records `quotes` as shown now (the last of them is "the last quote shown"). Callable from
    /// any command that shows quotes; throws only when the file cannot be written. What is
    /// recorded of the session is what costs no file to learn (`SessionIdentity.fromEnvironment`):
    /// `like` and `hide` take the last quote shown, whatever the session.
    public static func record(_ quotes: [Quote], now: Int = UnixTime.now(), identity: SessionIdentity = .fromEnvironment(),
                              folder: StateFolder = .current()) throws(UserStateError) {
        try record(quotes, into: fileName, now: now, identity: identity, folder: folder)
    }

    /// The history kept in `file`: its newest `keptCount` quotes, oldest first (malformed lines skipped).
    static func history(of file: String, _ folder: StateFolder) -> [ShownQuote] {
        newest(keptCount, of: Self.file(file, folder).bytes()).map { $0.shown }
    }

    /// Adds `quotes` to the history kept in `file`, a line each (the last `keptCount` of them).
    static func record(_ quotes: [Quote], into file: String, now: Int, identity: SessionIdentity,
                       folder: StateFolder) throws(UserStateError) {
        let added = quotes.suffix(keptCount).map { Array(ShownQuote(kept: KeptQuote($0, time: now), identity: identity).jsonLine.utf8) }
        try Self.file(file, folder).add(added, keep: keptLines)
    }

    static func file(_ name: String, _ folder: StateFolder) -> StateHistory {
        StateHistory(folder: folder, name: name, readLimit: maximumBytes, compactionBytes: compactionBytes)
    }

    /// What a compaction keeps of the lines read: the newest `keptCount` that read as quotes
    /// shown, as they were written (a line of the previous version's too).
    static func keptLines(_ bytes: [UInt8]) -> [UInt8] {
        var kept: [UInt8] = []
        for line in newest(keptCount, of: bytes) {
            kept += line.bytes
            kept.append(StateHistory.newline)
        }
        return kept
    }

    /// The newest `count` lines of `bytes` (whole lines) that read as quotes shown, oldest first:
    /// found from the end, so that no more lines are looked at, or parsed, than are wanted.
    private static func newest(_ count: Int, of bytes: [UInt8]) -> [(bytes: ArraySlice<UInt8>, shown: ShownQuote)] {
        var found: [(bytes: ArraySlice<UInt8>, shown: ShownQuote)] = []
        var end = bytes.endIndex
        while end > bytes.startIndex, found.count < count {
            let start = bytes[..<end].lastIndex(of: StateHistory.newline).map { $0 + 1 } ?? bytes.startIndex
            let line = bytes[start..<end]
            if !line.isEmpty, let shown = String(validating: line, as: UTF8.self).flatMap({ ShownQuote(jsonLine: Substring($0)) }) {
                found.append((bytes: line, shown: shown))
            }
            end = max(start - 1, bytes.startIndex)
        }
        return Array(found.reversed())
    }
}

/// `random --once-per day|boot|session`: whether this user was greeted in the period (`Greetings`).
public enum OncePeriod: String, CaseIterable, Sendable {
    case day, boot, session

    /// True when `last` was shown in this period. A last-shown time in the future (the clock went
    /// back) is not "already shown". A session unknown on either side is taken as the boot.
    public func includes(_ last: ShownQuote?, now: Int, identity: SessionIdentity) -> Bool {
        guard let last, last.kept.time <= now else { return false }
        switch self {
        case .day:
            // Only a time of the last two days can be today's (whatever the zone), so no older one
            // is worth a look at the local zone's calendar.
            guard last.kept.time > now - 2 * 86_400 else { return false }
            return UnixTime.localDay(last.kept.time) == UnixTime.localDay(now)
        case .boot:
            return last.identity.boot != nil && last.identity.boot == identity.boot
        case .session:
            guard last.identity.boot != nil, last.identity.boot == identity.boot else { return false }
            guard let session = identity.session, let lastSession = last.identity.session else {
                return identity.session == nil && last.identity.session == nil
            }
            return session == lastSession
        }
    }
}
