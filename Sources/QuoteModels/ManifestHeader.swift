import QuoteBase
import QuoteText

/// The head of a feed's `manifest.json` — its format, the feed's name, its serial, when it was
/// written and until when it is valid — read and written here alone. QuoteFeed's `Manifest`
/// builds on it (the sources and the next keys are its own); a hub's metrics read no more than
/// this. It lives below both so that quotectl, which must not link QuoteFeed's libsodium,
/// libcrypto and zlib, reads a hub's manifest through the same parser as a spoke.
public struct ManifestHeader: Equatable, Sendable {
    /// The manifest's name in the feed folder (and at the feed's URL).
    public static let fileName = "manifest.json"
    /// 2: name, valid_until and next_keys, signed inline.
    public static let format = 2
    /// A manifest is small; anything bigger is not one.
    public static let maximumBytes = 1 << 20
    /// The times a manifest may name: 1970 to the end of 9999 (the hub's word, never trusted further).
    public static let times = 0...253_402_300_799
    /// The largest serial a manifest may hold: one below Int.max, so that adding one never overflows.
    public static let largestSerial = Int.max - 1
    /// The longest feed name, in UTF-8 bytes.
    public static let longestName = 200

    public var name: String
    /// The milliseconds since 1970 when it was written, or more; seconds from an older hub.
    public var serial: Int
    /// Unix seconds: when the hub wrote it.
    public var generated: Int
    /// Unix seconds after which no spoke applies it.
    public var validUntil: Int

    public init(name: String, serial: Int, generated: Int, validUntil: Int) {
        self.name = name
        self.serial = serial
        self.generated = generated
        self.validUntil = validUntil
    }

    /// Why some bytes are no manifest, as far as its head tells. The words are the reader's
    /// (QuoteFeed's, for the hub's journal and a spoke's sync log): here each is a case, so that
    /// no reader recognises one by its wording.
    public enum Refusal: Error, Equatable {
        /// More than `maximumBytes`, refused unread.
        case tooLarge
        /// A member named twice: taking either value would be a guess.
        case ambiguous(JSONSyntaxError)
        case notJSON(JSONSyntaxError)
        /// The `format` member, when there is one, is not `format`.
        case unknownFormat(found: JSONValue?)
        /// serial, generated, valid_until or sources missing, or one out of range.
        case missingOrOutOfRange
        /// No feed name, or not as printable text of at most `longestName` bytes.
        case badName
    }

    /// A manifest whose head is read: the rest is left to its reader.
    public struct Parsed: Sendable {
        public let header: ManifestHeader
        /// The whole document, for the members the head does not hold.
        public let document: JSONValue
        /// The `sources` list, each entry as the document holds it.
        public let sources: [JSONValue]
    }

    /// Reads `bytes` as a manifest as far as its head, checked in the order a reader's message
    /// names the first problem: size, JSON, format, serial and times (and the sources list), name.
    public static func parse(_ bytes: [UInt8]) throws(Refusal) -> Parsed {
        guard bytes.count <= maximumBytes else { throw .tooLarge }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch where error.repeatedMember != nil {
            throw .ambiguous(error)
        } catch {
            throw .notJSON(error)
        }
        guard document["format"]?.int == format else { throw .unknownFormat(found: document["format"]) }
        guard let serial = document["serial"]?.int, (0...largestSerial).contains(serial), let generated = document["generated"]?.int,
              times.contains(generated), let validUntil = document["valid_until"]?.int, times.contains(validUntil),
              validUntil >= generated, let sources = document["sources"]?.array else {
            throw .missingOrOutOfRange
        }
        guard let name = document["name"]?.string, (1...longestName).contains(name.utf8.count),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .badName
        }
        let header = ManifestHeader(name: name, serial: serial, generated: generated, validUntil: validUntil)
        return Parsed(header: header, document: document, sources: sources)
    }

    /// The bytes of the manifest in `folder`, or nil when there is none (or none that could be
    /// one: a file over `maximumBytes`, a link to a FIFO…).
    public static func bytes(inFolder folder: String) -> [UInt8]? {
        try? FileReader.read(Path.join(folder, fileName), limit: maximumBytes)
    }

    /// The head of the manifest in `folder`; nil when there is none yet, or it is not a manifest.
    public static func read(folder: String) -> ManifestHeader? {
        guard let bytes = bytes(inFolder: folder) else { return nil }
        return try? parse(bytes).header
    }

    /// The head's members, in the manifest's order, added to `object`: a manifest's first members.
    public func write(to object: inout JSONObjectBuilder) {
        object.add("format", Self.format)
        object.add("name", name)
        object.add("serial", serial)
        object.add("generated", generated)
        object.add("valid_until", validUntil)
    }
}
