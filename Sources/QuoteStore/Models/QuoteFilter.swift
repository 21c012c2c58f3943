/// What `quotectl random` (and `today`) may be narrowed by. Every field maps to an
/// indexed condition, so the cost of a pick grows with the number of matches only.
public struct QuoteFilter: Equatable, Sendable {
    public var source: String?
    public var author: String?
    public var category: String?
    public var lang: String?
    public var character: String?
    public var production: String?
    public var maxLength: Int?
    public var minLength: Int?

    public init(source: String? = nil, author: String? = nil, category: String? = nil, lang: String? = nil,
                character: String? = nil, production: String? = nil, maxLength: Int? = nil, minLength: Int? = nil) {
        self.minLength = minLength
        self.source = source
        self.author = author
        self.category = category
        self.lang = lang
        self.character = character
        self.production = production
        self.maxLength = maxLength
    }

    public var isEmpty: Bool { self == QuoteFilter() }

    /// Whether its statements call `quoted_fold` (`Database.defineCaseFolding`).
    var needsCaseFolding: Bool { character != nil }

    /// The WHERE clause (without "WHERE") and its values. `authorBySearch` swaps the
    /// exact author match for a full-text match on the author column.
    func whereClause(authorBySearch: Bool = false) -> (sql: String, values: [SQLValue]) {
        var conditions: [String] = []
        var values: [SQLValue] = []
        func add(_ condition: String, _ value: SQLValue) {
            values.append(value)
            conditions.append(condition.replacingPlaceholder(with: values.count))
        }
        if let source {
            if source == SourceKind.custom.rawValue {  // every custom list
                conditions.append("source >= 'custom.' AND source < 'custom/'")
            } else {
                add("source = ?", .text(source))
            }
        }
        if let author {
            if authorBySearch {
                add("id IN (SELECT rowid FROM quotes_fts WHERE quotes_fts MATCH ?)",
                    .text("author : " + FullTextQuery.make(author)))
            } else {
                add("author = ? COLLATE NOCASE", .text(author))
            }
        }
        if let category { add("category = ? COLLATE NOCASE", .text(category)) }
        if let lang { add("lang = ?", .text(lang)) }
        if let character {
            // As `quotectl characters NAME` finds them: any part of the name or the full name, any
            // case ("walter" finds Walter White). Breaking Bad's quotes only (the source index).
            add("""
                source = 'breakingbad' AND instr(quoted_fold(author || char(10) || coalesce((SELECT full_name FROM characters
                    WHERE characters.name = quotes.author COLLATE NOCASE), '')), ?) > 0
                """, .text(CaseFolding.fold(character)))
        }
        if let production { add("production = ? COLLATE NOCASE", .text(production)) }
        if let maxLength { add("length <= ?", .integer(maxLength)) }
        if let minLength { add("length >= ?", .integer(minLength)) }
        return (conditions.isEmpty ? "1" : conditions.joined(separator: " AND "), values)
    }
}

private extension String {
    /// Numbers the single "?" so values can be bound by position.
    func replacingPlaceholder(with number: Int) -> String {
        var out = ""
        for character in self {
            if character == "?" { out += "?\(number)" } else { out.append(character) }
        }
        return out
    }
}

/// Turns words into an FTS5 query: each word becomes a quoted prefix term ("행복"* matches
/// 행복은), so FTS5 syntax in the input is never interpreted. (`search` plans its query against
/// the index's terms: `SearchPlan`.)
public enum FullTextQuery {
    public static func make(_ text: String) -> String {
        let words = text.split(whereSeparator: { $0.isWhitespace })
        guard !words.isEmpty else { return "\"\"" }
        // A word with an i (dotted, dotless, either case) may be indexed with either: `CaseFolding`.
        let terms = words.map { word in
            let spellings = SearchPlan.isPlainASCII(String(word)) ? [String(word)] : CaseFolding.dotlessSpellings(of: String(word))
            return SearchPlan.Group(phrases: spellings.map { SearchPlan.quoted($0) + "*" }).query
        }
        let joined = terms.joined(separator: " AND ")
        return words.count > 1 ? "(" + joined + ")" : joined
    }
}
