import QuoteText
/// What a user typed to `search`, as FTS5 runs it.
///
/// The text is read as words and "quoted phrases"; every one must match. A word matches as a
/// prefix (행복 finds 행복은), a phrase as its words side by side. Each becomes a *group* of FTS5
/// phrases that stands for it:
///
/// - a plain ASCII word is written as the OR of the indexed terms that start with it (`time` →
///   `"time" OR "times"`), when there are at most `expansionLimit`: FTS5 reads an OR of terms
///   lazily, one row at a time, where a prefix query first merges every matching term's doclist
///   (docs/benchmarks.md);
/// - any other word (not plain ASCII: the tokenizer folds it), or one that starts more terms, stays
///   a prefix query (`"행복"*`);
/// - a phrase is an FTS5 phrase of exact words (`"light ocean"`).
///
/// The rows found are the prefix query's, and `FullTextRank` ranks a group as the one phrase it
/// stands for, so the order is bm25's over the prefix query.
struct SearchPlan {
    /// The FTS5 phrases standing for one word or phrase of the text.
    struct Group: Equatable {
        var phrases: [String]

        /// The group alone, as an FTS5 query.
        var query: String { phrases.count == 1 ? phrases[0] : "(" + phrases.joined(separator: " OR ") + ")" }
    }

    /// A word that starts more indexed terms than this is left a prefix query.
    static let expansionLimit = 128

    let groups: [Group]

    /// Every group must match.
    var query: String {
        groups.isEmpty ? "\"\"" : groups.map(\.query).joined(separator: " AND ")
    }

    init(groups: [Group]) {
        self.groups = groups
    }

    /// Plans `text`, asking `terms(prefix, limit)` for up to `limit` indexed terms starting with a
    /// lowercased plain ASCII word, in order.
    init<Failure: Error>(_ text: String, terms: (String, Int) throws(Failure) -> [String]) throws(Failure) {
        var groups: [Group] = []
        for piece in Self.pieces(of: text) {
            switch piece {
            case .phrase(let words):
                groups.append(Group(phrases: [Self.quoted(words)]))
            case .word(let word) where Self.isPlainASCII(word):
                let found = try terms(word.lowercased(), Self.expansionLimit + 1)
                if found.isEmpty {
                    groups.append(Group(phrases: [Self.quoted(word)]))  // matches nothing, cheaply
                } else if found.count <= Self.expansionLimit {
                    groups.append(Group(phrases: found.map(Self.quoted)))
                } else {
                    groups.append(Group(phrases: [Self.quoted(word) + "*"]))
                }
            case .word(let word):
                // The tokenizer folds case but keeps ı apart from i: each spelling (`CaseFolding`).
                groups.append(Group(phrases: CaseFolding.dotlessSpellings(of: word).map { Self.quoted($0) + "*" }))
            }
        }
        self.groups = groups
    }

    enum Piece: Equatable {
        case word(String)
        /// The words between a pair of double quotes, joined by single spaces.
        case phrase(String)
    }

    /// The words and phrases of `text`. A double quote at the start of a word opens a phrase and
    /// the next double quote closes it (an unclosed one runs to the end); a double quote inside a
    /// word is part of it. An empty phrase is no piece.
    static func pieces(of text: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            guard let first = rest.first else { break }
            if first == "\"" {
                let inside = rest.dropFirst()
                let end = inside.firstIndex(of: "\"") ?? inside.endIndex
                let words = inside[..<end].split(whereSeparator: \.isWhitespace).joined(separator: " ")
                if !words.isEmpty { pieces.append(.phrase(words)) }
                rest = end < inside.endIndex ? inside[inside.index(after: end)...] : inside[end...]
            } else {
                let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
                pieces.append(.word(String(rest[..<end])))
                rest = rest[end...]
            }
        }
        return pieces
    }

    /// Letters and digits of ASCII only: the tokenizer lowercases such a word and changes nothing
    /// else, so the index's terms can be asked for it directly.
    static func isPlainASCII(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.allSatisfy { byte in
            byte < 0x80 && ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte >= 0x30 && byte <= 0x39)
        }
    }

    /// `text` as an FTS5 string: quoted, so FTS5's syntax in it is never interpreted.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
