import QuoteBase
import QuoteModels

/// Which quotes this user has been shown (`random --unseen`): each matching quote once before
/// any repeats. Kept per user and per store under $XDG_STATE_HOME/quoted (never in the store:
/// readers may not write it), as one key per quote — a hash of its source and upstream id, so
/// it stays right when the store is rebuilt or a list is re-imported.
public struct SeenQuotes {
    public let folder: StateFolder
    public let name: String
    public private(set) var keys: Set<UInt64>
    /// The state file is at most this large; beyond it, it starts afresh (a history, not a keepsake).
    public static let maximumBytes = 64 << 20

    public init(storePath: String, folder: StateFolder = .current()) {
        self.folder = folder
        name = "seen-" + FNV1a.hash(storePath).hex
        keys = []
        guard case .bytes(let bytes) = folder.read(name, limit: Self.maximumBytes) else { return }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if let key = UInt64(line, radix: 16) { keys.insert(key) }
        }
    }

    public var path: String { folder.file(name) }

    public static func key(source: String, upstreamID: String) -> UInt64 {
        UInt64(bitPattern: Int64(FNV1a.hash(source + "\u{0}" + upstreamID).signed))
    }

    public func contains(_ quote: Quote) -> Bool { keys.contains(Self.key(source: quote.source, upstreamID: quote.upstreamID)) }

    public mutating func insert(_ quote: Quote) { keys.insert(Self.key(source: quote.source, upstreamID: quote.upstreamID)) }

    public mutating func remove(_ key: UInt64) { keys.remove(key) }

    /// Writes the state (0600, replaced whole: never half a file, not even after a crash). A
    /// history that cannot be written only means repeats come sooner: nothing is reported.
    public func save() {
        var text = ""
        text.reserveCapacity(keys.count * 17)
        for key in keys { text += String(key, radix: 16) + "\n" }
        try? folder.write(name, Array(text.utf8), durable: true)
    }
}
