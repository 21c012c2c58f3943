import QuoteBase

/// The quotes a user liked, or hid: a file of one JSON object per line (`KeptQuote`), read with
/// a cap and written whole. A file that could not be read whole (too large, unreadable, a line
/// that is not a kept quote) is read as far as it can be, and never written over: the user's
/// likes are not lost to a stray edit.
public struct KeptList {
    public let folder: StateFolder
    public let name: String
    public private(set) var entries: [KeptQuote] = []
    /// The entries' keys, sorted: `contains` is a binary search. Not a Set: its storage's
    /// metadata, made at run time with QuoteKey's Hashable conformance looked up by a scan of every
    /// conformance in the binary, cost each `random` more than reading the file (docs/benchmarks.md).
    private var keys: [QuoteKey] = []
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
        var read: [KeptQuote] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty { continue }
            guard let text = String(validating: line, as: UTF8.self), let kept = KeptQuote(jsonLine: Substring(text)) else {
                if problem == nil { problem = UserStateError(tr("\(path): line \(lineNumber) is not a kept quote")) }
                continue
            }
            read.append(kept)
        }
        // Sorted once by key, the first line of each key kept (a file edited by hand may repeat one).
        let order = read.indices.sorted { Self.precedes(read[$0].key, read[$1].key) || (read[$0].key == read[$1].key && $0 < $1) }
        var kept = [Bool](repeating: false, count: read.count)
        for index in order where keys.last != read[index].key {
            keys.append(read[index].key)
            kept[index] = true
        }
        entries = read.indices.filter { kept[$0] }.map { read[$0] }
    }

    private static func precedes(_ left: QuoteKey, _ right: QuoteKey) -> Bool {
        left.source != right.source ? left.source < right.source : left.upstreamID < right.upstreamID
    }

    /// Where `key` is in `keys`, or would be.
    private func position(of key: QuoteKey) -> (index: Int, found: Bool) {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = low + (high - low) / 2
            if Self.precedes(keys[middle], key) { low = middle + 1 } else { high = middle }
        }
        return (low, low < keys.count && keys[low] == key)
    }

    public var path: String { folder.file(name) }
    public var isEmpty: Bool { entries.isEmpty }

    public func contains(_ key: QuoteKey) -> Bool { position(of: key).found }

    public func entry(_ key: QuoteKey) -> KeptQuote? { contains(key) ? entries.first { $0.key == key } : nil }

    /// The entries whose upstream id is `upstreamID`, from any source.
    public func entries(upstreamID: String) -> [KeptQuote] { entries.filter { $0.key.upstreamID == upstreamID } }

    /// Adds `kept`; false when its quote is in the list already.
    @discardableResult
    public mutating func add(_ kept: KeptQuote) -> Bool {
        let place = position(of: kept.key)
        guard !place.found else { return false }
        keys.insert(kept.key, at: place.index)
        entries.append(kept)
        return true
    }

    @discardableResult
    public mutating func remove(_ key: QuoteKey) -> KeptQuote? {
        let place = position(of: key)
        guard place.found, let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        keys.remove(at: place.index)
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
