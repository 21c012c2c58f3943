import QuoteBase
import QuoteSystem
import QuoteModels

/// Which quotes this user has been shown (`random --unseen`): each matching quote once before
/// any repeats. Kept per user and per store under $XDG_STATE_HOME/quoted (never in the store:
/// readers may not write it), as one key per quote — a hash of its source and upstream id, so
/// it stays right when the store is rebuilt or a list is re-imported.
struct SeenQuotes {
    let path: String
    private(set) var keys: Set<UInt64>
    /// The state file is at most this large; beyond it, it starts afresh.
    static let maximumBytes = 64 << 20

    init(storePath: String) {
        let folder = Path.join(Environment.absolutePath("XDG_STATE_HOME") ?? Path.join(Environment.home(), ".local/state"), "quoted")
        path = Path.join(folder, "seen-" + FNV1a.hash(storePath).hex)
        keys = []
        guard let bytes = try? FileReader.read(path, limit: Self.maximumBytes) else { return }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if let key = UInt64(line, radix: 16) { keys.insert(key) }
        }
    }

    static func key(source: String, upstreamID: String) -> UInt64 {
        UInt64(bitPattern: Int64(FNV1a.hash(source + "\u{0}" + upstreamID).signed))
    }

    func contains(_ quote: Quote) -> Bool { keys.contains(Self.key(source: quote.source, upstreamID: quote.upstreamID)) }

    mutating func insert(_ quote: Quote) { keys.insert(Self.key(source: quote.source, upstreamID: quote.upstreamID)) }

    mutating func remove(_ key: UInt64) { keys.remove(key) }

    /// Writes the state (0600, replaced whole: never half a file, not even after a crash).
    func save() {
        let folder = Path.parent(of: path), name = path.split(separator: "/").last.map(String.init) ?? path
        guard Path.makeDirectories(folder) == nil, let file = try? AtomicFile(in: folder, prefix: name, mode: 0o600) else { return }
        var text = ""
        text.reserveCapacity(keys.count * 17)
        for key in keys { text += String(key, radix: 16) + "\n" }
        guard (try? file.write(Array(text.utf8))) != nil else { return }
        try? file.commit(as: name)
    }
}
