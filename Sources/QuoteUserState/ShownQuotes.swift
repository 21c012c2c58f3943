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
        return String(object.result.dropLast()) + "," + kept.jsonLine.dropFirst()
    }

    init?(jsonLine line: Substring) {
        guard let object = (try? JSONParser.parse(String(line)))?.object, let kept = KeptQuote(object: object) else { return nil }
        func member(_ name: String) -> String? { object.members.first { $0.key == name }?.value.string.flatMap(SessionIdentity.idText) }
        self.init(kept: kept, identity: SessionIdentity(boot: member("boot"), session: member("session")))
    }
}

/// The quotes this user was last shown, newest last: every quote `random` and `today` print, and
/// what a notification or a bar shows, recorded through `record`. A history: the newest
/// `keptCount` are kept, a file that cannot be read is started afresh.
public enum ShownQuotes {
    public static let fileName = "shown"
    public static let keptCount = 16
    static let maximumBytes = 4 << 20

    /// What was shown, oldest first (malformed lines skipped).
    public static func history(_ folder: StateFolder = .current()) -> [ShownQuote] {
        history(of: fileName, folder)
    }

    /// The last quote shown to this user, if any: the last line that reads as one.
    public static func last(_ folder: StateFolder = .current()) -> ShownQuote? {
        lines(of: fileName, folder).reversed().lazy.compactMap(shownQuote).first
    }

    /// Records `quotes` as shown now (the last of them is "the last quote shown"). Callable from
    /// any command that shows quotes; throws only when the file cannot be written.
    public static func record(_ quotes: [Quote], now: Int = UnixTime.now(), identity: SessionIdentity = .current(),
                              folder: StateFolder = .current()) throws(UserStateError) {
        try record(quotes, into: fileName, now: now, identity: identity, folder: folder)
    }

    /// The history kept in `file`, oldest first (malformed lines skipped).
    static func history(of file: String, _ folder: StateFolder) -> [ShownQuote] {
        lines(of: file, folder).compactMap(shownQuote)
    }

    /// Adds `quotes` to the history kept in `file`. The lines kept are copied as they are, not
    /// parsed: this runs on every `quotectl random`.
    static func record(_ quotes: [Quote], into file: String, now: Int, identity: SessionIdentity,
                       folder: StateFolder) throws(UserStateError) {
        guard !quotes.isEmpty else { return }
        let added = quotes.suffix(keptCount).map { Array((ShownQuote(kept: KeptQuote($0, time: now), identity: identity).jsonLine + "\n").utf8) }
        var bytes: [UInt8] = []
        for line in lines(of: file, folder).suffix(keptCount - added.count) { bytes += line + [UInt8(ascii: "\n")] }
        for line in added { bytes += line }
        // Not synced: a crash loses at most the newest line of a history.
        try folder.write(file, bytes, durable: false)
    }

    private static func lines(of file: String, _ folder: StateFolder) -> [ArraySlice<UInt8>] {
        guard case .bytes(let bytes) = folder.read(file, limit: maximumBytes) else { return [] }
        return bytes.split(separator: UInt8(ascii: "\n"))
    }

    private static func shownQuote(_ line: ArraySlice<UInt8>) -> ShownQuote? {
        String(validating: line, as: UTF8.self).flatMap { ShownQuote(jsonLine: Substring($0)) }
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
