import QuoteBase
/// An INI-style file as systemd users know it: `[section]` headers, `key = value`
/// lines, and comments starting with `#` or `;` (at the start of a line, or after
/// white space inside one). Every piece remembers its line for error messages.
public struct INIFile: Sendable {
    public struct Entry: Sendable {
        public let key: String
        public let value: String
        public let line: Int
    }

    public struct Section: Sendable {
        public let name: String
        public let line: Int
        public var entries: [Entry]
    }

    public var sections: [Section]

    public struct SyntaxError: Error, Sendable {
        public let line: Int
        public let message: String
    }

    /// The file, or its first mistake.
    public init(parsing text: String) throws(SyntaxError) {
        var problems: [SyntaxError] = []
        self.init(parsing: text, problems: &problems)
        if let first = problems.first { throw first }
    }

    /// The file, each line it cannot take added to `problems` and passed over (with the entries
    /// of a section whose header is malformed or repeated), so that one reading names every one.
    public init(parsing text: String, problems: inout [SyntaxError]) {
        sections = []
        var lineNumber = 0
        // After a header that could not be taken, its entries have no section to go to.
        var skippingSection = false
        // Editors write a byte-order mark and CRLF line ends; Swift keeps "\r\n" as ONE
        // Character, so lines are split on both rather than on "\n" alone.
        let body = text.hasPrefix("\u{FEFF}") ? Substring(text.dropFirst()) : Substring(text)
        for rawLine in body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            let line = Self.stripComment(rawLine).trimmed
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                skippingSection = true
                guard line.hasSuffix("]"), line.count > 2 else {
                    problems.append(SyntaxError(line: lineNumber, message: tr("a section header looks like [name]")))
                    continue
                }
                let name = String(line.dropFirst().dropLast()).trimmed
                if sections.contains(where: { $0.name == name }) {
                    problems.append(SyntaxError(line: lineNumber, message: tr("section [\(name)] appears twice")))
                    continue
                }
                sections.append(Section(name: name, line: lineNumber, entries: []))
                skippingSection = false
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                problems.append(SyntaxError(line: lineNumber, message: tr("expected 'key = value', found '\(line)'")))
                continue
            }
            if skippingSection { continue }
            guard !sections.isEmpty else {
                problems.append(SyntaxError(line: lineNumber, message: tr("'\(line)' comes before any [section]")))
                continue
            }
            let key = String(line[..<equals]).trimmed
            var value = String(line[line.index(after: equals)...]).trimmed
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard !key.isEmpty else {
                problems.append(SyntaxError(line: lineNumber, message: tr("a key is missing before '='")))
                continue
            }
            if sections[sections.count - 1].entries.contains(where: { $0.key == key }) {
                problems.append(SyntaxError(line: lineNumber, message: tr("key '\(key)' appears twice in [\(sections[sections.count - 1].name)]")))
                continue
            }
            sections[sections.count - 1].entries.append(Entry(key: key, value: value, line: lineNumber))
        }
    }

    /// Removes `# ...` or `; ...` when the mark starts the line or follows white space,
    /// so URLs with `#` or `;` inside them survive.
    static func stripComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if (character == "#" || character == ";") && (previous == " " || previous == "\t") {
                return line[..<index]
            }
            previous = character
        }
        return line
    }
}

extension StringProtocol {
    var trimmed: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
