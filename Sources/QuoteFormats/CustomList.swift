import QuoteBase
import QuoteModels
import QuoteText

/// The custom-list format (a GitHub Gist or a local file):
/// `[{"id": Int, "category": String, "text": String, "source": String}]`,
/// where `source` is the author. Shared by `quotectl import` and the sync engine.
///
/// quotectl's own JSON export reads back too: ids may be strings, and a record with an
/// `author` key is in the export's shape (`source` is then where the quote came from, not who
/// said it; `production` and `episode` are kept).
public enum CustomList {
    /// A list read as its bytes arrive (a sync's body): each record checked and handed over as a
    /// quote or a problem, one at a time. Duplicate ids are the store's to find (`ListMerge`).
    ///
    /// With a `ListFormat`, the list is where `items` points and its fields are where `fields`
    /// says (`FieldMapping`); without one, the top-level array in the Gist's (or export's) shape.
    public struct Reader: ListReader {
        private var stream: JSONItemsStream
        private let mapping: FieldMapping?
        public let source: String
        public var format: ListFormat.Kind? { .json }

        public init(source: String) {
            self.source = source
            self.stream = JSONItemsStream(pointer: .root)
            self.mapping = nil
        }

        /// The list `format` describes; a malformed `items` pointer is a `ListFailure` naming it.
        public init(source: String, format: ListFormat) throws(ListFailure) {
            let pointer: JSONPointer
            do throws(JSONPointer.Malformed) {
                pointer = try JSONPointer(format.items)
            } catch {
                throw ListFailure(tr("items: \(error)"))
            }
            self.source = source
            self.mapping = format.fields.isEmpty ? nil : FieldMapping(format.fields)
            // Where the configuration says how to read a list, a lone object is a list of one.
            self.stream = JSONItemsStream(pointer: pointer, loneObject: mapping != nil)
        }

        /// Reads `chunk`; throws `ListFailure` when the body is not a JSON array, or what `body` throws.
        public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (ListRecord) throws -> Void) throws {
            let source = self.source
            let mapping = self.mapping
            do {
                try stream.feed(chunk) { position, element in
                    let place = ListPlace.record(position + 1)
                    switch element {
                    case .tooLarge(let bytes):
                        try body(.problem(ListProblem(place: place, upstreamID: nil,
                                                      reason: tr("larger than \(JSONItemsStream.defaultMaximumElementBytes >> 20) MiB (\(bytes) bytes)"))))
                    case .repeatedMember(let error):
                        // Its id may be the member named twice: the record could be any stored quote.
                        try body(.problem(ListProblem(place: place, upstreamID: nil, reason: error.description)))
                    case .value(let record):
                        let read = mapping.map { $0.quote(from: record, source: source) }
                            ?? quote(from: record, source: source).map { ($0, derived: false) }
                        switch read {
                        case .success(let (quote, derived)): try body(.quote(ListEntry(quote, place: place, idIsDerived: derived)))
                        case .failure(let problem):
                            try body(.problem(ListProblem(place: place, upstreamID: problem.id, reason: problem.reason, couldBeStored: problem.couldBeStored)))
                        }
                    }
                }
            } catch let error as JSONSyntaxError {
                throw ListFailure(tr("not JSON: \(error)"))
            } catch let error as JSONItemsStream.NotAnArray {
                throw ListFailure(tr("not a JSON array of quotes (found \(error.found))"))
            } catch let error as JSONItemsStream.NotFound {
                throw ListFailure(tr("not at \(error)"))
            }
        }

        /// The body has ended: the array must be complete.
        public mutating func finish(_ body: (ListRecord) throws -> Void) throws {
            do {
                try stream.finish()
            } catch {
                throw ListFailure(tr("not JSON: \(error)"))
            }
        }
    }

    /// The longest id a list may give a quote (an integer, or a string such as "b42").
    public static let maximumIDLength = 256

    struct RecordProblem: Error {
        let id: String?
        let reason: String
        /// See `ListProblem.couldBeStored`.
        var couldBeStored = true
    }

    /// An id as a list gives it: an integer, or a string of at most `maximumIDLength` characters.
    static func upstreamID(_ value: JSONValue) -> String? {
        if let id = value.int { return String(id) }
        guard value.string != nil, let id = try? RecordText.optional(value, field: "id"), id.unicodeScalars.count <= maximumIDLength else { return nil }
        return id
    }

    static func quote(from record: JSONValue, source: String) -> Result<Quote, RecordProblem> {
        guard let object = record.object else {
            return .failure(RecordProblem(id: nil, reason: tr("expected an object, found \(record.kindName)")))
        }
        guard let idValue = object["id"] else { return .failure(RecordProblem(id: nil, reason: tr("missing \"id\""))) }
        guard let upstreamID = upstreamID(idValue) else {
            return .failure(RecordProblem(id: nil, reason: tr("\"id\" must be an integer or a short string, found \(idValue.kindName)")))
        }
        func fail(_ reason: String) -> Result<Quote, RecordProblem> {
            .failure(RecordProblem(id: upstreamID, reason: reason))
        }
        do throws(FieldProblem) {
            let text = try RecordText.required(object["text"], field: "text")
            let category = try RecordText.optional(object["category"], field: "category")
            // quotectl's export says `author` (and `source` is the quote's origin); a Gist says `source`.
            let exported = object["author"] != nil
            let author = exported ? try RecordText.optional(object["author"], field: "author")
                : try RecordText.optional(object["source"], field: "source")
            let production = exported ? try RecordText.optional(object["production"], field: "production") : nil
            let episode = exported ? object["episode"]?.int.flatMap { (1...10_000).contains($0) ? $0 : nil } : nil
            // quotectl's export and a hub's feed write a feed entry's date, which must read back; a
            // Gist's own `published` (any shape its author chose) was never read and is no reason
            // to refuse its quote: a date it gives that cannot be read is none.
            let read = publishedDate(object["published"])
            guard let published = read ?? (exported ? nil : .some(nil)) else {
                return fail(tr("\"published\" must be a date like 2026-12-01T00:00:00Z or Unix seconds"))
            }
            return .success(Quote(source: source, upstreamID: upstreamID, text: text, author: author, category: category,
                                  production: production, episode: episode, lang: LanguageGuess.guess(text),
                                  published: published))
        } catch {
            return fail(error.reason)
        }
    }

    /// `published`: "2026-12-01T00:00:00Z" (as quotectl and a hub write it) or Unix seconds; absent or null is none.
    /// Nil when it is neither.
    static func publishedDate(_ value: JSONValue?) -> Int?? {
        guard let value, !value.isNull else { return .some(nil) }
        if let seconds = value.int, UTCTimestamp.format(seconds) != nil { return seconds }
        if let text = value.string, let seconds = UTCTimestamp.parse(text) { return seconds }
        return nil
    }
}
