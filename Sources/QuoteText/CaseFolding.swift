/// Case-insensitive matching of names people type (`--author`, `--character`, `search`), the same
/// in every locale: Unicode's simple case folding, one scalar for one scalar, so "ΣΟΦΊΑ" finds
/// "σοφία" and "ς" matches "σ", "ß" stays "ß" (full folding's "ss" would change lengths). The one
/// addition: the Turkish dotted and dotless i are one letter with "i" and "I" — U+0130 İ and
/// U+0131 ı fold to "i" — since the locale-independent folding keeps ı apart and leaves İ as it
/// is, and "IŞIK ILGAZ" typed on any keyboard should find "Işık Ilgaz". SQLite's NOCASE and
/// lower() know ASCII only.
public enum CaseFolding {
    /// `text` folded; plain ASCII costs a byte-wise lowercase.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiLowercased(text) }
        var folded = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { folded.append(fold(scalar)) }
        return String(folded)
    }

    /// One scalar folded: the lowercase of its uppercase where each is a single scalar (that is
    /// simple folding for every letter whose case pair is one scalar each: ς → Σ → σ, ſ → S → s,
    /// K (Kelvin) → k), else its own lowercase when that is a single scalar, else itself.
    public static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x41...0x5A: return Unicode.Scalar(scalar.value | 0x20)!
        case 0x00...0x7F: return scalar
        case 0x130, 0x131: return "i"
        default: break
        }
        let properties = scalar.properties
        if let upper = single(properties.uppercaseMapping), let lower = single(upper.properties.lowercaseMapping),
           single(lower.properties.uppercaseMapping) == upper {
            return lower
        }
        return single(properties.lowercaseMapping) ?? scalar
    }

    /// The spellings of a folded word FTS5's tokenizer may have indexed: it folds case but keeps
    /// ı apart from i, so each i of the word stands for either (at most `limit` spellings; past
    /// that, the word as it is and with every i dotless).
    public static func dotlessSpellings(of word: String, limit: Int = 16) -> [String] {
        let scalars = Array(fold(word).unicodeScalars)
        let positions = scalars.indices.filter { scalars[$0] == "i" }
        guard !positions.isEmpty, word.unicodeScalars.contains(where: { $0.value == 0x130 || $0.value == 0x131 || $0 == "I" || $0 == "i" }) else {
            return [word]
        }
        func spelled(_ mask: Int) -> String {
            var copy = scalars
            for (bit, position) in positions.enumerated() where mask & (1 << bit) != 0 { copy[position] = "\u{131}" }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: copy)
            return String(view)
        }
        guard positions.count < 31, 1 << positions.count <= limit else { return [spelled(0), spelled(~0)] }
        return (0..<(1 << positions.count)).map(spelled)
    }

    private static func single(_ text: String) -> Unicode.Scalar? {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next(), scalars.next() == nil else { return nil }
        return first
    }

    private static func asciiLowercased(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
