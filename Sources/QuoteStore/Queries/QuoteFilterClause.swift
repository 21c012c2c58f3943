import QuoteModels
import QuoteText

/// A filter as SQL: the WHERE clause every query that honours `QuoteFilter` shares.
extension QuoteFilter {
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
                // English on purpose: SQL
                conditions.append("source >= 'custom.' AND source < 'custom/'")
            } else {
                add("source = ?", .text(source))
            }
        }
        if let author {
            if authorBySearch {
                // English on purpose: SQL
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
            // English on purpose: SQL
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

extension QuoteFilter {
    /// Whether the whole filter is one exact condition (`exactConditions`): a count of its
    /// matches walks that condition's index alone, reading no row.
    func isOneExactCondition(authorBySearch: Bool = false) -> Bool {
        exactConditions(authorBySearch: authorBySearch).count == 1 && whereClause(authorBySearch: authorBySearch).values.count == 1
            && source == nil
    }

    /// The filter's conditions that match one value exactly through an index whose entries end
    /// in the row id (so that the lowest and highest id they match are one seek each), as SQL
    /// with one placeholder, "?" (`replacingPlaceholder(with:)` numbers it), and its value.
    func exactConditions(authorBySearch: Bool = false) -> [(sql: String, value: SQLValue)] {
        var conditions: [(sql: String, value: SQLValue)] = []
        // English on purpose: SQL
        if let author, !authorBySearch { conditions.append(("author = ? COLLATE NOCASE", .text(author))) }
        if let category { conditions.append(("category = ? COLLATE NOCASE", .text(category))) }
        if let lang { conditions.append(("lang = ?", .text(lang))) }
        if let production { conditions.append(("production = ? COLLATE NOCASE", .text(production))) }
        return conditions
    }
}

extension String {
    /// Numbers the single "?" so values can be bound by position.
    func replacingPlaceholder(with number: Int) -> String {
        var out = ""
        for character in self {
            if character == "?" { out += "?\(number)" } else { out.append(character) }
        }
        return out
    }
}
