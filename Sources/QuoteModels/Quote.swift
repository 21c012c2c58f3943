import QuoteBase
import QuoteText
/// A quote as stored: from any source, with what that source knows of it.
public struct Quote: Equatable, Sendable {
    public var id: Int
    public var source: String
    public var upstreamID: String
    public var text: String
    public var author: String?
    public var category: String?
    public var production: String?
    public var episode: Int?
    public var lang: String?
    /// When the upstream says the quote was published (a feed entry's date), in Unix seconds.
    public var published: Int?
    public var firstSeen: Int
    public var lastSeen: Int

    public init(id: Int = 0, source: String, upstreamID: String, text: String, author: String? = nil,
                category: String? = nil, production: String? = nil, episode: Int? = nil,
                lang: String? = nil, published: Int? = nil, firstSeen: Int = 0, lastSeen: Int = 0) {
        self.id = id
        self.source = source
        self.upstreamID = upstreamID
        self.text = text
        self.author = author
        self.category = category
        self.production = production
        self.episode = episode
        self.lang = lang
        self.published = published
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }

    /// What identifies a change worth writing: every field the upstream controls.
    public var contentHash: Int {
        var hasher = FNV1a()
        hasher.combine(text)
        hasher.combine(author)
        hasher.combine(category)
        hasher.combine(production)
        hasher.combine(episode)
        hasher.combine(lang)
        // Only when present: a quote without a date hashes as it did before dates were stored, so
        // its quote of the day and the merge's change detection stay as they were.
        if let published { hasher.combine(published) }
        return hasher.signed
    }

    /// Length in characters as QuoteLength counts them (the `length` column, `--max-length`).
    public var length: Int { QuoteLength.length(text) }

    /// One line of `--json` output.
    public var json: String {
        var object = JSONObjectBuilder()
        object.add("source", source)
        object.add("id", upstreamID)
        object.add("text", text)
        object.add("author", author)
        object.add("category", category)
        object.add("lang", lang)
        if production != nil || episode != nil {
            object.add("production", production)
            object.add("episode", episode)
        }
        if let published, let date = UTCTimestamp.format(published) { object.add("published", date) }
        return object.result
    }
}

/// Guesses a quote's language from its script: any Hangul makes it Korean (the
/// happiness source writes Korean followed by the English original); Latin
/// letters alone make it English. Anything else stays unknown.
public enum LanguageGuess {
    public static func guess(_ text: String) -> String? {
        // On the UTF-8 bytes: every Hangul block starts with a lead byte 0xE1 (jamo) or
        // 0xE3 (compatibility jamo) or 0xEA...0xED (syllables); most quotes are ASCII and never
        // pay for decoding scalars, a visible share of a big sync (docs/benchmarks.md).
        var text = text
        return text.withUTF8 { bytes -> String? in
            var latin = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    if (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A { latin = true }
                    index += 1
                    continue
                }
                if byte >= 0xE0, byte < 0xF0, index + 2 < bytes.count {
                    let scalar = (UInt32(byte & 0x0F) << 12) | (UInt32(bytes[index + 1] & 0x3F) << 6) | UInt32(bytes[index + 2] & 0x3F)
                    switch scalar {
                    case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F: return "ko"
                    default: break
                    }
                    index += 3
                    continue
                }
                index += byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            }
            return latin ? "en" : nil
        }
    }
}

/// THE definition of a quote's length, shared by the record check, the table's CHECK
/// (`length(text) BETWEEN 1 AND 10000` in Migrations/0001), the `length` column and
/// `--max-length`: Unicode code points, which is what SQLite's length() counts. Counting
/// graphemes instead let "e" + U+0301 x 6,000 pass the check and then fail the CHECK,
/// taking its whole list down with it.
public enum QuoteLength {
    public static let maximumLength = 10_000

    public static func length(_ text: String) -> Int {
        // Code points are the UTF-8 bytes that do not continue a sequence.
        var text = text
        return text.withUTF8 { bytes in
            var count = 0
            for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
            return count
        }
    }
}
