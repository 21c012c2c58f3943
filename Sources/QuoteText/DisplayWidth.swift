/// How many terminal columns text takes: East Asian wide and fullwidth characters (Hangul,
/// CJK, fullwidth forms) and emoji take 2, combining marks and other zero-width characters 0,
/// everything else 1 — what wcwidth(3) answers, without the C locale machinery.
public enum DisplayWidth {
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let value = first.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if isWide(value) || first.properties.isEmojiPresentation
            || character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) {
            return 2
        }
        return 1
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
             0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
             0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` in lines of at most `width` columns, broken between words (a word wider than a
    /// line is broken between characters). Existing line breaks are kept.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var word = Substring(word)
                var wordWidth = of(word)
                if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
                    line += " " + word
                    lineWidth += 1 + wordWidth
                    continue
                }
                if lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                // A word longer than the line: as many characters as fit, then the rest.
                while wordWidth > width {
                    var piece = ""
                    var pieceWidth = 0
                    var index = word.startIndex
                    while index < word.endIndex, pieceWidth + of(word[index]) <= width {
                        piece.append(word[index])
                        pieceWidth += of(word[index])
                        index = word.index(after: index)
                    }
                    if piece.isEmpty { break }
                    lines.append(piece)
                    word = word[index...]
                    // What is left, without measuring it again: once per piece, that was quadratic in the word.
                    wordWidth -= pieceWidth
                }
                line = String(word)
                lineWidth = wordWidth
            }
            lines.append(line)
        }
        return lines
    }

    /// `text` in at most `width` columns: whole if it fits, else cut after the last whole word
    /// that leaves room for "…" (between characters when one word alone is too wide, as in a
    /// long URL or a run of Han characters). A bar never shows half a word.
    public static func shortened(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var kept = ""
        var keptWidth = 0
        var lastBreak: String.Index?
        var endsAtABreak = false
        for character in text {
            let next = of(character)
            if keptWidth + next > width - 1 {
                endsAtABreak = character == " "  // what fits ends with a whole word
                break
            }
            if character == " " { lastBreak = kept.endIndex }
            kept.append(character)
            keptWidth += next
        }
        if !endsAtABreak, let lastBreak, lastBreak > kept.startIndex { kept = String(kept[..<lastBreak]) }
        while kept.last == " " || kept.last.map({ ".,;:-–—".contains($0) }) == true { kept.removeLast() }
        return kept + "…"
    }

    /// `text` followed by spaces up to `width` columns (never cut; at least one space after it).
    public static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - of(text)))
    }

    /// `text` padded with spaces to `width` columns (or cut to fit, with "…").
    public static func pad(_ text: String, to width: Int) -> String {
        let current = of(text)
        if current <= width { return text + String(repeating: " ", count: width - current) }
        var out = ""
        var used = 0
        for character in text {
            let next = of(character)
            if used + next > width - 1 { break }
            out.append(character)
            used += next
        }
        return out + "…" + String(repeating: " ", count: max(0, width - 1 - used))
    }
}
