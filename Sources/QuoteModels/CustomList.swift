import QuoteBase
import QuoteText
import Glibc

/// The custom-list format (a GitHub Gist or a local file):
/// `[{"id": Int, "category": String, "text": String, "source": String}]`,
/// where `source` is the author. Shared by `quotectl import` and the sync engine.
///
/// quotectl's own JSON export reads back too: ids may be strings, and a record with an
/// `author` key is in the export's shape (`source` is then where the quote came from, not who
/// said it; `production` and `episode` are kept).
public enum CustomList {
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        /// 1-based position in the array.
        public let record: Int
        public let upstreamID: String?
        public let reason: String

        public init(record: Int, upstreamID: String?, reason: String) {
            self.record = record
            self.upstreamID = upstreamID
            self.reason = reason
        }

        public var description: String {
            "record \(record)" + (upstreamID.map { " (id \($0))" } ?? "") + ": " + reason
        }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case syntax(JSONSyntaxError)
        case notAList(found: String)

        public var description: String {
            switch self {
            case .syntax(let error): return "not JSON: \(error)"
            case .notAList(let found): return "not a JSON array of quotes (found \(found))"
            }
        }
    }

    /// A list read as its bytes arrive (a sync's body): each record checked and handed over as a
    /// quote or a problem, one at a time. Duplicate ids are the store's to find (`ListMerge`).
    public struct Reader: Sendable {
        public enum Record: Sendable {
            /// A good record, with its content hash (computed here, on the reading thread).
            case quote(Quote, hash: Int, record: Int)
            case problem(Problem)
        }

        private var stream = JSONArrayStream()
        public let source: String

        public init(source: String) {
            self.source = source
        }

        /// Reads `chunk`; throws `Failure` when the body is not a JSON array, or what `body` throws.
        public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Record) throws -> Void) throws {
            let source = self.source
            do {
                try stream.feed(chunk) { position, element in
                    switch element {
                    case .tooLarge(let bytes):
                        try body(.problem(Problem(record: position + 1, upstreamID: nil,
                                                  reason: "larger than \(JSONArrayStream.defaultMaximumElementBytes >> 20) MiB (\(bytes) bytes)")))
                    case .value(let record):
                        switch quote(from: record, source: source) {
                        case .success(let quote): try body(.quote(quote, hash: quote.contentHash, record: position + 1))
                        case .failure(let problem): try body(.problem(Problem(record: position + 1, upstreamID: problem.id, reason: problem.reason)))
                        }
                    }
                }
            } catch let error as JSONSyntaxError {
                throw Failure.syntax(error)
            } catch let error as JSONArrayStream.NotAnArray {
                throw Failure.notAList(found: error.found)
            }
        }

        /// The body has ended: the array must be complete.
        public func finish() throws(Failure) {
            do {
                try stream.finish()
            } catch {
                throw .syntax(error)
            }
        }
    }

    /// What was left out of a list, kept in a size that does not grow with it: how many, the
    /// first one (to name it), and whether any had no readable id.
    public struct ProblemLog: Sendable {
        public private(set) var count = 0
        public private(set) var first: Problem?
        /// A record whose id could not be read could be any stored quote: nothing is removed then.
        public private(set) var anyWithoutID = false

        public init() {}

        public mutating func add(_ problem: Problem) {
            count += 1
            if first == nil { first = problem }
            if problem.upstreamID == nil { anyWithoutID = true }
        }

        /// " (record 3 (id 7): …; and 2 more)", or "" when nothing was left out.
        public var summary: String {
            guard let first else { return "" }
            return " (" + first.description + (count > 1 ? "; and \(count - 1) more" : "") + ")"
        }
    }

    /// The longest id a list may give a quote (an integer, or a string such as "b42").
    public static let maximumIDLength = 256

    struct RecordProblem: Error {
        let id: String?
        let reason: String
    }

    static func quote(from record: JSONValue, source: String) -> Result<Quote, RecordProblem> {
        guard let object = record.object else {
            return .failure(RecordProblem(id: nil, reason: "expected an object, found \(record.kindName)"))
        }
        guard let idValue = object["id"] else { return .failure(RecordProblem(id: nil, reason: "missing \"id\"")) }
        let upstreamID: String
        if let id = idValue.int {
            upstreamID = String(id)
        } else if idValue.string != nil, let id = try? RecordText.optional(idValue, field: "id"), id.unicodeScalars.count <= maximumIDLength {
            upstreamID = id
        } else {
            return .failure(RecordProblem(id: nil, reason: "\"id\" must be an integer or a short string, found \(idValue.kindName)"))
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
            return .success(Quote(source: source, upstreamID: upstreamID, text: text, author: author, category: category,
                                  production: production, episode: episode, lang: LanguageGuess.guess(text)))
        } catch {
            return fail(error.reason)
        }
    }
}

/// Why one field of a record was refused.
public struct FieldProblem: Error, Equatable, Sendable {
    public let reason: String
}

/// The checks every upstream text field gets.
public enum RecordText {
    /// A required text: present, a valid UTF-8 string, not blank, at most 10,000 characters.
    public static func required(_ value: JSONValue?, field: String) throws(FieldProblem) -> String {
        guard let value, !value.isNull else { throw FieldProblem(reason: "missing \"\(field)\"") }
        guard let trimmed = try optional(value, field: field) else {
            throw FieldProblem(reason: "\"\(field)\" is empty")
        }
        return trimmed
    }

    /// An optional text: absent, null or blank is nil; anything but a valid string is a problem.
    public static func optional(_ value: JSONValue?, field: String) throws(FieldProblem) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.string else {
            throw FieldProblem(reason: "\"\(field)\" must be a string, found \(value.kindName)")
        }
        // SQLite's text functions (length(), the CHECK on a quote's length, full-text search) stop
        // at a NUL: such a text cannot be kept faithfully, so its record is refused, never cut short.
        if containsNUL(text) { throw FieldProblem(reason: "\"\(field)\" contains a NUL character (U+0000)") }
        let trimmed = trim(text)
        // Bytes bound code points from above: most texts are decided without counting.
        if trimmed.utf8.count > QuoteLength.maximumLength, QuoteLength.length(trimmed) > QuoteLength.maximumLength {
            throw FieldProblem(reason: "\"\(field)\" is longer than \(QuoteLength.maximumLength) characters")
        }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// An optional field that must be valid when present: `.some(nil)` when absent or
    /// blank, nil when invalid (so `guard let` reads as "skip the record").
    public static func validOptional(_ value: JSONValue?, field: String) -> String?? {
        do {
            return .some(try optional(value, field: field))
        } catch {
            return .none
        }
    }

    /// memchr over the text's bytes: `utf8.contains(0)` goes through generic code, a visible
    /// share of a big sync's profile (docs/benchmarks.md).
    static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
    }

    static func trim(_ text: String) -> String {
        // Most texts need no trimming: decide from the first and last byte alone.
        if let first = text.utf8.first, let last = text.utf8.last,
           first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return text
        }
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[first...last])
    }
}
