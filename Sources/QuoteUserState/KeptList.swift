import QuoteBase

/// The quotes a user liked, or hid: a file of one JSON object per line (`KeptQuote`), read with
/// a cap and written whole. A file that could not be read whole (too large, unreadable, a line
/// that is not a kept quote) is read as far as it can be, and never written over: the user's
/// likes are not lost to a stray edit.
public struct KeptList {
    public let folder: StateFolder
    public let name: String
    public private(set) var entries: [KeptQuote] = []
    private var keys: Set<QuoteKey> = []
    /// Why the file could not be read whole (reported once by whoever reads it).
    public private(set) var problem: UserStateError?
    /// Thousands of quotes are a few hundred kilobytes; more is not a list a person kept.
    public static let maximumBytes = 16 << 20

    public static func liked(_ folder: StateFolder = .current()) -> KeptList { KeptList(name: "liked", folder: folder) }
    public static func hidden(_ folder: StateFolder = .current()) -> KeptList { KeptList(name: "hidden", folder: folder) }

    public init(name: String, folder: StateFolder) {
        self.folder = folder
        self.name = name
        switch folder.read(name, limit: Self.maximumBytes) {
        case .absent:
            break
        case .unreadable(let error):
            problem = error
        case .bytes(let bytes):
            read(bytes)
        }
    }

    private mutating func read(_ bytes: [UInt8]) {
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty { continue }
            guard let text = String(validating: line, as: UTF8.self), let kept = KeptQuote(jsonLine: Substring(text)) else {
                if problem == nil { problem = UserStateError(tr("\(path): line \(lineNumber) is not a kept quote")) }
                continue
            }
            if keys.insert(kept.key).inserted { entries.append(kept) }
        }
    }

    public var path: String { folder.file(name) }
    public var isEmpty: Bool { entries.isEmpty }

    public func contains(_ key: QuoteKey) -> Bool { keys.contains(key) }

    public func entry(_ key: QuoteKey) -> KeptQuote? { keys.contains(key) ? entries.first { $0.key == key } : nil }

    /// The entries whose upstream id is `upstreamID`, from any source.
    public func entries(upstreamID: String) -> [KeptQuote] { entries.filter { $0.key.upstreamID == upstreamID } }

    /// Adds `kept`; false when its quote is in the list already.
    @discardableResult
    public mutating func add(_ kept: KeptQuote) -> Bool {
        guard keys.insert(kept.key).inserted else { return false }
        entries.append(kept)
        return true
    }

    @discardableResult
    public mutating func remove(_ key: QuoteKey) -> KeptQuote? {
        guard keys.remove(key) != nil, let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: index)
    }

    /// Throws when the file could not be read whole: it is then never written over (exit 74).
    public func checkWritable() throws(UserStateError) {
        if let problem { throw UserStateError(problem.message + tr("; not writing over it (move it away or mend it)")) }
    }

    /// Writes the list whole (synced: this is what the user chose to keep) — unless the file
    /// could not be read whole, which is then said and left as it is (exit 74).
    public func save() throws(UserStateError) {
        try checkWritable()
        let text = entries.map { $0.jsonLine + "\n" }.joined()
        try folder.write(name, Array(text.utf8), durable: true)
    }
}
