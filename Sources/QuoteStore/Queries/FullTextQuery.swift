import QuoteText
import QuoteText

/// Turns words into an FTS5 query: each word becomes a quoted prefix term ("행복"* matches
/// 행복은), so FTS5 syntax in the input is never interpreted. (`search` plans its query against
/// the index's terms: `SearchPlan`.)
enum FullTextQuery {
    static func make(_ text: String) -> String {
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
