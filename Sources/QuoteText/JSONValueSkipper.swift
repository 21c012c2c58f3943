import QuoteBase
/// A JSON value passed over as its bytes arrive, never held: strings and escapes are followed
/// so that brackets inside them do not count, brackets must close in kind, and depth is capped.
/// What the value says is not parsed — it is on no path that is read (`JSONItemsStream`).
struct JSONValueSkipper: Sendable {
    private var started = false
    private var bare = false
    private var inString = false
    private var escaped = false
    /// The closing brackets the value still owes, innermost last.
    private var closers: [UInt8] = []

    /// JSONParser's own limit on nesting.
    static let maximumDepth = 256

    /// Scans from `index`: true once the value has ended (`index` past it, or at the delimiter
    /// after a number or word), and the skipper is ready for the next value.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int,
                       _ position: inout JSONArrayStream.Position) throws(JSONSyntaxError) -> Bool {
        while index < bytes.count {
            let byte = bytes[index]
            if !started {
                if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { Self.advance(over: byte, &index, &position); continue }
                try start(with: byte, position)
                Self.advance(over: byte, &index, &position)
                if closers.isEmpty, !inString { continue }
                if try follow(bytes, &index, &position) { self = JSONValueSkipper(); return true }
            } else if bare {
                if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == UInt8(ascii: ",")
                    || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    self = JSONValueSkipper()
                    return true
                }
                Self.advance(over: byte, &index, &position)
            } else if try follow(bytes, &index, &position) {
                self = JSONValueSkipper()
                return true
            }
        }
        return false
    }

    private mutating func start(with byte: UInt8, _ position: JSONArrayStream.Position) throws(JSONSyntaxError) {
        started = true
        switch byte {
        case UInt8(ascii: "{"): closers = [UInt8(ascii: "}")]
        case UInt8(ascii: "["): closers = [UInt8(ascii: "]")]
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): bare = true
        case UInt8(ascii: "<"): throw Self.error(tr("found '<': this looks like HTML, not JSON"), position)
        default: throw Self.error(tr("unexpected character '\((0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16))'"), position)
        }
    }

    /// Follows a string or container from `index` to its end (true, `index` past it) or to the
    /// end of the chunk (false). The one hot loop: locals only, as JSONArrayStream's.
    private mutating func follow(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int,
                                 _ position: inout JSONArrayStream.Position) throws(JSONSyntaxError) -> Bool {
        var at = index, inString = self.inString, escaped = self.escaped
        var line = position.line, lineStart = position.lineStart
        let base = position.offset - index  // the document's offset of bytes[0]
        var closed = false
        defer {
            self.inString = inString
            self.escaped = escaped
            position = JSONArrayStream.Position(line: line, lineStart: lineStart, offset: base + at)
            index = at
        }
        scanning: while at < bytes.count {
            let byte = bytes[at]
            if inString {
                at += 1
                if byte == 0x0A { line += 1; lineStart = base + at }
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if closers.isEmpty { closed = true; break scanning }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard closers.count < Self.maximumDepth else {
                    throw Self.error(tr("nested too deeply"), JSONArrayStream.Position(line: line, lineStart: lineStart, offset: base + at))
                }
                closers.append(byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard closers.last == byte else {
                    throw Self.error(tr("unexpected character '\(UnicodeScalar(byte))'"), JSONArrayStream.Position(line: line, lineStart: lineStart, offset: base + at))
                }
                closers.removeLast()
                if closers.isEmpty { at += 1; closed = true; break scanning }
            case 0x0A:
                line += 1
                lineStart = base + at + 1
            default:
                break
            }
            at += 1
        }
        return closed
    }

    private static func advance(over byte: UInt8, _ index: inout Int, _ position: inout JSONArrayStream.Position) {
        index += 1
        position.offset += 1
        if byte == 0x0A {
            position.line += 1
            position.lineStart = position.offset
        }
    }

    private static func error(_ reason: String, _ position: JSONArrayStream.Position) -> JSONSyntaxError {
        JSONSyntaxError(line: position.line, column: position.offset - position.lineStart + 1, reason: reason)
    }
}
