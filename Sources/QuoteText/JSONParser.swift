import QuoteBase

/// A JSON syntax error with the line and column where parsing stopped.
public struct JSONSyntaxError: Error, CustomStringConvertible, Equatable {
    public let line: Int
    public let column: Int
    public let reason: String
    /// The member an object names twice, when that is the error: the document is well-formed,
    /// but which of the two values is meant cannot be told, so a reader of many records may
    /// refuse the one record instead of the whole body.
    public internal(set) var repeatedMember: String? = nil

    public var description: String { tr("line \(line), column \(column): \(reason)") }
}

/// A strict RFC 8259 parser over UTF-8 bytes, written for speed on large arrays
/// (a million-quote list) and for Foundation-free binaries. An object that names a member
/// twice is refused (`repeatedMember`): taking either value would be a guess.
public struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// The first member named twice: said once the document has proved well-formed, so a
    /// broken document is still refused as broken.
    private var firstRepeat: JSONSyntaxError?
    /// The nesting any JSON may have here, parsed whole or followed in pieces (`JSONTokenizer`).
    static let maximumDepth = 256

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            try parse(buffer)
        }
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: buffer)
        // A UTF-8 byte order mark is tolerated at the very start.
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.error(tr("unexpected text after the JSON value")) }
        if let repeated = parser.firstRepeat { throw repeated }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error(tr("unexpected end of input")) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            guard let text = try parseString() else { return .invalidText }
            return .string(text)
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "<"): throw error(tr("found '<': this looks like HTML, not JSON"))
        default: throw error(tr("unexpected character '\(printable(bytes[index]))'"))
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var names = MemberNames()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; depth -= 1; return .object(JSONObject(members)) }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error(tr("expected a member name in quotes")) }
            let keyStart = index
            // An invalid key cannot name anything we read; keep it under a name no field has
            // (a second one repeats it: no object parsed here holds a name twice).
            let key = try parseString() ?? "\u{FFFD}"
            if !names.insert(key, besides: members), firstRepeat == nil { firstRepeat = repeated(key, at: keyStart) }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error(tr("expected ':' after a member name")) }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; break }
            throw error(tr("expected ',' or '}' in an object"))
        }
        depth -= 1
        return .object(JSONObject(members))
    }

    /// A member named twice, at its second name: refused, naming it (cut short and cleaned, as
    /// it may be anything).
    private func repeated(_ key: String, at position: Int) -> JSONSyntaxError {
        let shown = TerminalSanitizer.oneLine(key.count > 64 ? String(key.prefix(64)) + "…" : key)
        var failure = error(tr("member \"\(shown)\" appears twice in one object"), at: position)
        failure.repeatedMember = key
        return failure
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; depth -= 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; break }
            throw error(tr("expected ',' or ']' in an array"))
        }
        depth -= 1
        return .array(elements)
    }

    /// Returns nil for a well-formed string whose content is not valid Unicode.
    private mutating func parseString() throws(JSONSyntaxError) -> String? {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes, so the bytes are the text. Plain ASCII (every byte below 0x80:
        // most keys and many values) is UTF-8 as it stands; only other text is checked.
        var seen: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return seen < 0x80 ? String(decoding: slice, as: UTF8.self) : String.validatingUTF8(slice)
            }
            seen |= byte
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(tr("control character inside a string (must be escaped)")) }
            index += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        var valid = true
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return valid ? String.validatingUTF8(buffer) : nil
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    if let scalar = try parseUnicodeEscape() {
                        buffer.append(contentsOf: String(Character(scalar)).utf8)
                    } else {
                        valid = false
                    }
                default:
                    index -= 1
                    throw error(tr("unknown escape '\\\(printable(escape))'"))
                }
            default:
                if byte < 0x20 { throw error(tr("control character inside a string (must be escaped)")) }
                buffer.append(byte)
                index += 1
            }
        }
        throw error(tr("unterminated string"))
    }

    /// Reads XXXX after "\u" (and a following low surrogate); nil for a lone surrogate.
    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar? {
        let high = try hex4()
        if (0xD800...0xDBFF).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { return nil }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        return Unicode.Scalar(high)
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error(tr("truncated \\u escape")) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(tr("bad hex digit in \\u escape"))
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var isInteger = true
        if peek(UInt8(ascii: "-")) { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error(tr("expected a digit")) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(tr("expected a digit after '.'")) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error(tr("expected a digit in the exponent")) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int(text) { return .integer(value) }
        guard let value = Double(text) else { throw error(tr("number out of range")) }
        return .double(value)
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error(tr("unexpected end of input")) }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error(tr("unexpected character '\(printable(bytes[index + offset]))'"))
        }
        index += count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error(tr("nested more than \(Self.maximumDepth) levels deep")) }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The error at `position` (where the parser is, unless said).
    private func error(_ reason: String, at position: Int? = nil) -> JSONSyntaxError {
        let at = position ?? index
        // Running out of input is the real reason whatever was expected (a truncated body).
        let reason = at >= bytes.count ? tr("unexpected end of input") : reason
        var line = 1
        var lineStart = 0
        for offset in 0..<min(at, bytes.count) where bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        return JSONSyntaxError(line: line, column: at - lineStart + 1, reason: reason)
    }
}

/// The member names an object has given so far, to refuse one given twice. Most objects are
/// small and a scan of their members beats hashing (no allocation per record); past 16 members
/// a set takes over, so an object of 100,000 members costs 100,000 lookups, not 5 billion
/// comparisons.
private struct MemberNames {
    private static let scanned = 16
    private var set: Set<String> = []

    /// False when `key` is among `members` (or was given before them): a repeated name.
    mutating func insert(_ key: String, besides members: [(key: String, value: JSONValue)]) -> Bool {
        if members.count < Self.scanned { return !members.contains { $0.key == key } }
        if set.isEmpty { set = Set(members.map(\.key)) }
        return set.insert(key).inserted
    }
}
