import QuoteBase

/// A manual page in man(7) roff, rendered from a program's spec plus its own prose sections.
/// Output is checked with `mandoc -Tlint` in the tests.
public struct ManPage {
    public let name: String
    public let section: Int
    public let summary: String
    public var synopsis: [String]
    public var description: [String]
    public var sections: [(title: String, body: String)] = []
    /// The release's date and version (not the day the page was generated: builds repeat).
    public var date = QuotedVersion.date
    public var version = QuotedVersion.current

    public init(name: String, section: Int, summary: String, synopsis: [String] = [], description: [String] = []) {
        self.name = name
        self.section = section
        self.summary = summary
        self.synopsis = synopsis
        self.description = description
    }

    /// The page for a program: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, COMMANDS (each with its
    /// arguments and options), then the extra sections in order.
    public static func forProgram(_ program: ProgramSpec, section: Int, description: [String],
                                  extra: [(title: String, body: String)]) -> ManPage {
        var page = ManPage(name: program.name, section: section, summary: program.overview.text,
                           synopsis: [tr("[options] command [arguments]")], description: description)
        var options = ""
        for option in program.globalOptions where !option.hidden { options += item(option) }
        // TRANSLATORS: a manual page's section title, as man pages in your language name it (Korean: 옵션).
        page.sections.append((tr("OPTIONS"), options))
        var commands = ""
        for command in program.visibleCommands {
            commands += ".SS \(escape(command.name))\n"
            commands += ".B \(escape(program.name)) \(escape(command.usage))\n.PP\n\(escape(command.overview.text))\n"
            for positional in command.positionals {
                commands += ".TP\n.I \(escape(positional.name))\n\(escape(positional.help.text))\n"
            }
            for option in command.options where !option.hidden { commands += item(option) }
        }
        // TRANSLATORS: a manual page's section title (Korean: 명령).
        page.sections.append((tr("COMMANDS"), commands))
        page.sections += extra
        return page
    }

    /// `.TP` with the tag on one line: "\fB\-n\fR, \fB\-\-count\fR \fIN\fR".
    static func item(_ option: Option) -> String {
        var tag = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
        tag += "\\fB\\-\\-\(escape(option.long))\\fR"
        if let value = option.valueName { tag += " \\fI\(escape(value))\\fR" }
        return ".TP\n" + tag + "\n" + escape(option.help.text + (option.repeatable ? " " + tr("May be given more than once.") : "")) + "\n"
    }

    public var rendered: String {
        var text = ".TH \(name.uppercased()) \(section) \(date) \"quoted \(version)\" \"quoted\"\n"
        // TRANSLATORS: a manual page's section title (Korean: 이름; man-db's lexgrog knows it).
        text += ".SH " + ManPage.title(tr("NAME")) + "\n"
        text += "\(ManPage.escape(name)) \\- \(ManPage.escape(summary.first.map { String($0).lowercased() + summary.dropFirst() } ?? summary))\n"
        if !synopsis.isEmpty {
            // TRANSLATORS: a manual page's section title (Korean: 요약).
            text += ".SH " + ManPage.title(tr("SYNOPSIS")) + "\n"
            text += synopsis.map { ".B \(ManPage.escape(name))\n\(ManPage.escape($0))\n" }.joined(separator: ".br\n")
        }
        if !description.isEmpty {
            // TRANSLATORS: a manual page's section title (Korean: 설명).
            text += ".SH " + ManPage.title(tr("DESCRIPTION")) + "\n" + description.map(ManPage.escape).joined(separator: "\n.PP\n") + "\n"
        }
        for (title, body) in sections { text += ".SH " + ManPage.title(title) + "\n" + body + (body.hasSuffix("\n") ? "" : "\n") }
        // A translated page holds UTF-8 (its section titles): say so, for man-db's manconv and
        // groff's preconv, which would otherwise guess the language's legacy charset (EUC-KR).
        // An English page is ASCII and stays byte for byte what it was.
        // Hangul mixed with Latin words (paths, keys, options) reads best left-aligned and
        // unhyphenated: justified, it gets wide gaps, and "manifest.json" broke as "mani-fest".
        // Its text is UTF-8 too, not \[uXXXX] escapes: lexgrog reads the NAME line into whatis
        // as it is written, and a translator can read the page's source.
        if !text.utf8.allSatisfy({ $0 < 0x80 }), let endOfTitle = text.firstIndex(of: "\n") {
            let afterTitle = text.index(after: endOfTitle)
            text = "'\\\" -*- coding: UTF-8 -*-\n" + text[..<afterTitle] + ".ad l\n.nh\n" + ManPage.unescapingCharacters(text[afterTitle...])
        }
        return text
    }

    /// A section title as .SH takes it: the rest of the line. A translated title stays UTF-8
    /// text, not \[uXXXX] escapes: man-db's lexgrog finds a page's NAME section (이름 in Korean)
    /// by its words when mandb indexes it for whatis and apropos.
    static func title(_ title: String) -> String {
        title.unicodeScalars.contains { $0.value < 0x20 } ? String(title.unicodeScalars.filter { $0.value >= 0x20 }) : title
    }

    /// Text safe in roff: backslashes and hyphens escaped, no line starting with a control
    /// character, no blank lines.
    public static func escape(_ text: String) -> String {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            // Source lines of at most 78 bytes (roff fills them anyway), broken between words.
            var current = ""
            for word in line.split(separator: " ") {
                let escaped = roff(word)
                if !current.isEmpty, current.utf8.count + 1 + escaped.utf8.count > 78 {
                    lines.append(current)
                    current = escaped
                } else {
                    current += (current.isEmpty ? "" : " ") + escaped
                }
            }
            if !current.isEmpty { lines.append(current) }
        }
        return lines.map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0 }.joined(separator: "\n")
    }

    /// One word in roff: backslash as \e, hyphen as \-, anything beyond ASCII as \[uXXXX].
    static func roff(_ word: Substring) -> String {
        var out = ""
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.value > 0x7E:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` with each `\[uXXXX]` written as its character (for a page that is UTF-8 anyway).
    static func unescapingCharacters(_ text: Substring) -> String {
        var out = ""
        var rest = text
        while let backslash = rest.firstIndex(of: "\\") {
            out += rest[..<backslash]
            let escape = rest[backslash...]
            if escape.hasPrefix("\\[u") {
                let digits = escape.dropFirst(3).prefix { $0.isHexDigit }
                let after = escape.dropFirst(3 + digits.count)
                if after.first == "]", let value = UInt32(digits, radix: 16), value > 0x7E, let scalar = Unicode.Scalar(value) {
                    out.unicodeScalars.append(scalar)
                    rest = after.dropFirst()
                    continue
                }
            }
            // Any other escape (\-, \e, \fB) stays: copy the backslash and the character after it.
            out += escape.prefix(2)
            rest = escape.dropFirst(2)
        }
        return out + rest
    }

    /// A table of rows as .TP items: the first column bold, the rest its text.
    public static func list(_ rows: [(String, String)]) -> String {
        rows.map { ".TP\n.B \(escape($0.0))\n\(escape($0.1))\n" }.joined()
    }
}

/// Replacing one character everywhere, without Foundation.
extension StringProtocol {
    public func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
