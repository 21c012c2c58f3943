/// The text of a feed's HTML (an RSS description, an Atom `type="html"` content): what a reader
/// would see, not the markup. Tags go; the ones that break a line (`<br>`, `<p>`, `<div>`, `<li>`,
/// rows, headings) leave a line break; `<script>` and `<style>` go with their content; entities
/// are decoded; white space runs become one space and blank lines go.
///
/// Not an HTML parser: a quote is read out of a fragment, and anything this misreads still goes
/// through `RecordText` and the terminal's sanitiser like every upstream text.
enum HTMLText {
    static func text(_ html: String) -> String {
        var reducer = Reducer()
        var scalars = html.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "<": reducer.tag(&scalars)
            case "&": reducer.append(entity(&scalars))
            default: reducer.append(scalar)
            }
        }
        return reducer.finished.joined(separator: "\n")
    }

    /// Reads an entity after its `&`; one that is not well formed or not known stays as written.
    static func entity(_ scalars: inout Substring.UnicodeScalarView) -> String {
        // The longest entity name known is shorter than this: no unbounded look-ahead.
        guard let end = scalars.prefix(12).firstIndex(of: ";") else { return "&" }
        let name = String(scalars[scalars.startIndex..<end])
        guard let decoded = decode(name) else { return "&" }
        scalars = scalars[scalars.index(after: end)...]
        return decoded
    }

    static func decode(_ name: String) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            // NUL, surrogates and past U+10FFFF are what a hostile feed would send: the replacement character.
            guard let value else { return nil }
            guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
            return String(Character(scalar))
        }
        return named[name]
    }

    /// The entities feeds use; the rest of HTML's 2,231 are rare enough to stay as written.
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "sbquo": "‚",
        "ldquo": "“", "rdquo": "”", "bdquo": "„", "laquo": "«", "raquo": "»", "lsaquo": "‹", "rsaquo": "›",
        "middot": "·", "bull": "•", "copy": "©", "reg": "®", "trade": "™", "deg": "°", "times": "×",
        "shy": "", "zwj": "\u{200D}", "zwnj": "\u{200C}", "thinsp": "\u{2009}", "ensp": "\u{2002}", "emsp": "\u{2003}",
        "eacute": "é", "egrave": "è", "ecirc": "ê", "aacute": "á", "agrave": "à", "acirc": "â", "iacute": "í",
        "oacute": "ó", "ocirc": "ô", "uacute": "ú", "ccedil": "ç", "ntilde": "ñ", "auml": "ä", "ouml": "ö",
        "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß", "Eacute": "É", "iexcl": "¡", "iquest": "¿",
    ]

    /// Tags after which the text goes on on a new line.
    static let lineBreaking: Set<String> = [
        "br", "p", "div", "li", "tr", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6",
        "ul", "ol", "dl", "dt", "dd", "table", "hr", "pre", "section", "article", "header", "footer",
    ]

    /// Elements whose content is not text a reader sees.
    static let hidden: Set<String> = ["script", "style", "head", "title", "template", "noscript"]

    struct Reducer {
        var lines: [String] = []
        var line = ""
        var pendingSpace = false

        mutating func append(_ text: String) {
            for scalar in text.unicodeScalars { append(scalar) }
        }

        mutating func append(_ scalar: Unicode.Scalar) {
            if scalar.properties.isWhitespace {
                pendingSpace = !line.isEmpty
                return
            }
            if pendingSpace { line.append(" ") }
            pendingSpace = false
            line.unicodeScalars.append(scalar)
        }

        mutating func breakLine() {
            if !line.isEmpty { lines.append(line) }
            line = ""
            pendingSpace = false
        }

        /// Reads a tag after its `<` (a comment, a declaration, an element's start or end).
        mutating func tag(_ scalars: inout Substring.UnicodeScalarView) {
            guard let first = scalars.first, first.properties.isAlphabetic || first == "/" || first == "!" || first == "?" else {
                append("<")
                return
            }
            if first == "!", scalars.starts(with: "!--".unicodeScalars) {
                skip(past: "-->", in: &scalars)
                return
            }
            let name = HTMLText.tagName(scalars)
            skipTag(&scalars)
            if HTMLText.hidden.contains(name) {
                skip(past: "</" + name, in: &scalars)
                skipTag(&scalars)
            } else if HTMLText.lineBreaking.contains(name.hasPrefix("/") ? String(name.dropFirst()) : name) {
                breakLine()
            }
        }

        /// Past the `>` that ends a tag, stepping over quoted attribute values.
        func skipTag(_ scalars: inout Substring.UnicodeScalarView) {
            var quote: Unicode.Scalar?
            while let scalar = scalars.popFirst() {
                if let open = quote {
                    if scalar == open { quote = nil }
                } else if scalar == "\"" || scalar == "'" {
                    quote = scalar
                } else if scalar == ">" {
                    return
                }
            }
        }

        func skip(past marker: String, in scalars: inout Substring.UnicodeScalarView) {
            let marker = Array(marker.lowercased().unicodeScalars)
            while !scalars.isEmpty {
                if scalars.prefix(marker.count).map({ Unicode.Scalar(String($0).lowercased()) ?? $0 }) == marker {
                    scalars = scalars.dropFirst(marker.count)
                    return
                }
                scalars = scalars.dropFirst()
            }
        }
    }

    /// The tag's name, lowercased, with a leading `/` for an end tag (`br/` is `br`).
    static func tagName(_ scalars: Substring.UnicodeScalarView) -> String {
        var name = ""
        for scalar in scalars.prefix(16) {
            if scalar == "/" && name.isEmpty {
                name.append("/")
            } else if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                name.unicodeScalars.append(scalar)
            } else {
                break
            }
        }
        return name.lowercased()
    }
}

extension HTMLText.Reducer {
    /// The lines read, the last one included.
    var finished: [String] {
        var copy = self
        copy.breakLine()
        return copy.lines
    }
}
