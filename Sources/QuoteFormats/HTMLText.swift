/// The text of a feed's HTML (an RSS description, an Atom `type="html"` content): what a reader
/// would see, not the markup. Tags go; the ones that break a line (`<br>`, `<p>`, `<div>`, `<li>`,
/// rows, headings) leave a line break; `<script>` and `<style>` go with their content; entities
/// are decoded; white space runs become one space and blank lines go.
///
/// Not an HTML parser: a quote is read out of a fragment, and anything this misreads still goes
/// through `RecordText` and the terminal's sanitiser like every upstream text.
enum HTMLText {
    static func text(_ html: String) -> String {
        var html = html
        // Bytes, not scalars: every character markup uses is ASCII, and a feed's HTML is read at
        // the speed of its bytes (docs/benchmarks.md, "Feeds").
        return html.withUTF8 { bytes in
            var reducer = Reducer()
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "<"): index = reducer.tag(bytes, after: index)
                case UInt8(ascii: "&"): index = reducer.entity(bytes, after: index)
                default:
                    reducer.append(bytes[index])
                    index += 1
                }
            }
            return reducer.finished
        }
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
        var out: [UInt8] = []
        var lineHasText = false
        var pendingSpace = false

        mutating func append(_ byte: UInt8) {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                pendingSpace = lineHasText
                return
            }
            if pendingSpace { out.append(0x20) }
            pendingSpace = false
            lineHasText = true
            out.append(byte)
        }

        mutating func breakLine() {
            if lineHasText { out.append(0x0A) }
            lineHasText = false
            pendingSpace = false
        }

        var finished: String {
            String(decoding: out.last == 0x0A ? out.dropLast() : out[...], as: UTF8.self)
        }

        /// Reads an entity after the `&` at `index`; one that is not well formed or not known
        /// stays as written. Returns where reading goes on.
        mutating func entity(_ bytes: UnsafeBufferPointer<UInt8>, after index: Int) -> Int {
            let start = index + 1
            // The longest entity name known is shorter than this: no unbounded look-ahead.
            let end = min(bytes.count, start + 12)
            guard let semicolon = bytes[start..<end].firstIndex(of: UInt8(ascii: ";")),
                  let decoded = HTMLText.decode(String(decoding: bytes[start..<semicolon], as: UTF8.self)) else {
                append(UInt8(ascii: "&"))
                return start
            }
            for byte in decoded.utf8 { append(byte) }
            return semicolon + 1
        }

        /// Reads a tag after the `<` at `index` (a comment, a declaration, an element's start or
        /// end). Returns where reading goes on.
        mutating func tag(_ bytes: UnsafeBufferPointer<UInt8>, after index: Int) -> Int {
            let start = index + 1
            guard start < bytes.count, Self.startsTag(bytes[start]) else {
                append(UInt8(ascii: "<"))
                return start
            }
            if Self.matches(bytes, at: start, "!--") { return Self.skip(past: "-->", in: bytes, from: start) }
            let name = Self.tagName(bytes, at: start)
            var next = Self.skipTag(bytes, from: start)
            if HTMLText.hidden.contains(name) {
                next = Self.skip(past: "</" + name, in: bytes, from: next)
                next = Self.skipTag(bytes, from: next)
            } else if HTMLText.lineBreaking.contains(name.hasPrefix("/") ? String(name.dropFirst()) : name) {
                breakLine()
            }
            return next
        }

        static func startsTag(_ byte: UInt8) -> Bool {
            let lower = byte | 0x20
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower) || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
        }

        /// The tag's name, lowercased, with a leading `/` for an end tag (`br/` is `br`).
        static func tagName(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> String {
            var name: [UInt8] = []
            for byte in bytes[start..<min(bytes.count, start + 16)] {
                let lower = byte | 0x20
                if byte == UInt8(ascii: "/") && name.isEmpty {
                    name.append(byte)
                } else if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower) {
                    name.append(lower)
                } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    name.append(byte)
                } else {
                    break
                }
            }
            return String(decoding: name, as: UTF8.self)
        }

        /// Past the `>` that ends a tag, stepping over quoted attribute values.
        static func skipTag(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            var quote: UInt8?
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                }
            }
            return index
        }

        /// Past `marker` (ASCII letters matched in either case), or the end.
        static func skip(past marker: String, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            let count = marker.utf8.count
            var index = start
            while index < bytes.count {
                if matches(bytes, at: index, marker) { return index + count }
                index += 1
            }
            return bytes.count
        }

        static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ marker: String) -> Bool {
            guard start + marker.utf8.count <= bytes.count else { return false }
            return zip(bytes[start...], marker.utf8).allSatisfy { lowercased($0) == lowercased($1) }
        }

        static func lowercased(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
    }
}
