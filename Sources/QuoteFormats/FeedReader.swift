import QuoteBase
import CExpat
import QuoteModels

/// Atom 1.0 and RSS (2.0, and 1.0/RDF) feeds, read through libexpat as the bytes arrive: each
/// `entry` or `item` becomes a quote (its content, summary or description reduced to text, else
/// its title), or a problem naming `entry N`.
///
/// The reader serves both kinds whatever was configured: a list set to `rss` whose body turns
/// out to be Atom is read as Atom, and `format` says what was found (the sync's line names it).
/// A body that is neither is a `ListFailure`. Hostile XML is refused, not survived: any DTD
/// (entities could expand without bound, or name files), elements nested past `maximumDepth`,
/// markup that expat would have to hold past `maximumTokenBytes`; an entry past
/// `maximumEntryBytes` is a problem and skipped.
public struct FeedReader: ListReader {
    /// How deep elements may nest: a feed's entry text sits at depth 4 or 5, XHTML content a few more.
    public static let maximumDepth = 64
    /// One entry's text fields together.
    public static let maximumEntryBytes = 1 << 20
    /// What expat may hold unparsed: one tag with its attributes, a comment, an instruction.
    public static let maximumTokenBytes = 2 << 20
    /// expat takes an `int` length: a larger chunk is handed to it in pieces of this size.
    static let pieceBytes = 1 << 20

    private let parser: LockedFeedParser
    private var fed = 0
    private let configured: ListFormat.Kind

    public var format: ListFormat.Kind? {
        let found = try? parser.withLock { $0.kind }
        return found ?? (configured == .auto ? nil : configured)
    }

    /// `format`'s kind is the one configured (`atom`, `rss` or `auto`); its `authorPattern` is
    /// compiled here, once: a pattern that is not a POSIX ERE is a `ListFailure`.
    public init(source: String, format: ListFormat = ListFormat(kind: .atom)) throws(ListFailure) {
        let pattern = try format.authorPattern.map { pattern throws(ListFailure) in
            do throws(AuthorPattern.Invalid) {
                return try AuthorPattern(pattern)
            } catch .notARegex(let reason) {
                throw ListFailure(tr("author_pattern is not a POSIX extended regular expression: \(reason)"))
            } catch {
                throw ListFailure(error.message(for: "author_pattern"))
            }
        }
        parser = LockedFeedParser(source: source, pattern: pattern)
        configured = format.kind
        guard (try? parser.withLock({ $0.expat != nil })) == true else {
            throw ListFailure(tr("cannot read the feed: libexpat could not allocate its parser"))
        }
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (ListRecord) throws -> Void) throws {
        var rest = chunk[...]
        while !rest.isEmpty {
            let piece = UnsafeRawBufferPointer(rebasing: rest.prefix(Self.pieceBytes))
            rest = rest.dropFirst(piece.count)
            fed += piece.count
            let fed = self.fed
            try parser.withLock { parser in
                try Self.parse(parser, piece, final: false, body)
                if fed - parser.consumed > Self.maximumTokenBytes {
                    throw ListFailure(tr("not an Atom or RSS feed: line \(XML_GetCurrentLineNumber(parser.expat)): ")
                                      + tr("a tag, comment or other markup is longer than \(Self.maximumTokenBytes >> 20) MiB"))
                }
            }
        }
    }

    public mutating func finish(_ body: (ListRecord) throws -> Void) throws {
        try parser.withLock { parser in try Self.parse(parser, UnsafeRawBufferPointer(start: nil, count: 0), final: true, body) }
    }

    /// One `XML_Parse`, resumed after each entry once its record is handed over.
    private static func parse(_ parser: FeedParser, _ bytes: UnsafeRawBufferPointer, final: Bool,
                              _ body: (ListRecord) throws -> Void) throws {
        if let failure = parser.failure { throw failure }
        let start = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        var status = XML_Parse(parser.expat, start, Int32(bytes.count), final ? 1 : 0)
        while true {
            let records = parser.pending
            parser.pending = []
            for record in records { try body(record) }
            guard status == XML_STATUS_SUSPENDED else { break }
            status = XML_ResumeParser(parser.expat)
        }
        if status == XML_STATUS_ERROR { throw error(parser) }
    }

    private static func error(_ parser: FeedParser) -> ListFailure {
        if let failure = parser.failure { return failure }
        let code = XML_GetErrorCode(parser.expat)
        let message = XML_ErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
        return ListFailure(tr("not an Atom or RSS feed: line \(XML_GetCurrentLineNumber(parser.expat)): \(message)"))
    }
}
