import QuoteBase
import QuoteModels
import QuoteSystem

/// Which quotes this user has been shown (`random --unseen`): each matching quote once before
/// any repeats. Kept per user and per store under $XDG_STATE_HOME/quoted (never in the store:
/// readers may not write it), as one key per line — a hash of its source and upstream id in
/// hexadecimal, so it stays right when the store is rebuilt or a list is re-imported. A draw adds
/// its quotes' keys to the end (`StateHistory`); only a new round, which takes the round's keys
/// out, rewrites the file (once a round), as does a file grown past `maximumBytes`.
public struct SeenQuotes {
    public let folder: StateFolder
    public let name: String
    public private(set) var keys: Set<UInt64>
    /// What `save` writes: the keys this draw added, and those a new round took out.
    private var added: Set<UInt64> = []
    private var removed: Set<UInt64> = []
    /// The file the keys were read from: a new round rewrites that one only.
    private let identity: AppendFile.Identity?
    /// The most of the file read (its newest keys: a history, not a keepsake); a file grown past
    /// it is rewritten to its keys, each once.
    public static let maximumBytes = 64 << 20

    public init(storePath: String, folder: StateFolder = .current()) {
        let name = "seen-" + FNV1a.hash(storePath).hex
        self.folder = folder
        self.name = name
        let read = Self.history(name, folder).bytesAndIdentity()
        keys = Self.keys(in: read.bytes)
        identity = read.identity
    }

    public var path: String { folder.file(name) }

    public static func key(source: String, upstreamID: String) -> UInt64 {
        UInt64(bitPattern: Int64(FNV1a.hash(source + "\u{0}" + upstreamID).signed))
    }

    public func contains(_ quote: Quote) -> Bool { keys.contains(Self.key(source: quote.source, upstreamID: quote.upstreamID)) }

    public mutating func insert(_ quote: Quote) {
        let key = Self.key(source: quote.source, upstreamID: quote.upstreamID)
        if keys.insert(key).inserted { added.insert(key) }
    }

    public mutating func remove(_ key: UInt64) {
        if keys.remove(key) != nil { removed.insert(key) }
        added.remove(key)
    }

    /// Writes what changed: the keys added, at the end of the file (a line each, 0600); after a
    /// new round, the file read rewritten without the round's keys, what others added to it since
    /// kept. When another process rewrote it since (its own new round came first), the keys
    /// added alone: that round counts them. A history that cannot be written only means repeats
    /// come sooner: nothing is reported.
    public func save() {
        let file = Self.history(name, folder)
        if !removed.isEmpty, let identity,
           file.rewrite(expecting: identity, { Self.text(Self.keys(in: $0).subtracting(removed).union(added)) }) { return }
        let lines = added.map { key in
            var line: [UInt8] = []
            Self.appendHex(key, to: &line)
            return line
        }
        try? file.add(lines) { Self.text(Self.keys(in: $0)) }
    }

    private static func history(_ name: String, _ folder: StateFolder) -> StateHistory {
        StateHistory(folder: folder, name: name, readLimit: maximumBytes, compactionBytes: maximumBytes)
    }

    /// The keys of `bytes`' lines: 1 to 16 hexadecimal digits each (leading zeros aside); any
    /// other line is no key, and skipped.
    static func keys(in bytes: [UInt8]) -> Set<UInt64> {
        var keys = Set<UInt64>(minimumCapacity: bytes.count / 17)
        var value: UInt64 = 0, digits = 0, significant = 0, valid = true
        for byte in bytes {
            if byte == StateHistory.newline {
                if valid, digits > 0 { keys.insert(value) }
                (value, digits, significant, valid) = (0, 0, 0, true)
                continue
            }
            guard valid, let digit = hexDigit(byte) else {
                valid = false
                continue
            }
            digits += 1
            if value != 0 || digit != 0 { significant += 1 }
            if significant > 16 { valid = false }
            value = value << 4 | UInt64(digit)
        }
        return keys
    }

    /// One key a line, as the file has always held them (`String(key, radix: 16)`).
    static func text(_ keys: Set<UInt64>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(keys.count * 17)
        for key in keys {
            appendHex(key, to: &bytes)
            bytes.append(StateHistory.newline)
        }
        return bytes
    }

    /// `key` in lowercase hexadecimal with no leading zeros, as `String(key, radix: 16)` writes it.
    static func appendHex(_ key: UInt64, to bytes: inout [UInt8]) {
        let digits = max(1, (64 - key.leadingZeroBitCount + 3) / 4)
        for place in stride(from: digits - 1, through: 0, by: -1) {
            let nibble = UInt8(truncatingIfNeeded: key >> UInt64(place * 4)) & 0xF
            bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
