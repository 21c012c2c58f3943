import QuoteBase

/// The one scanner of JSON bytes as they arrive. Chunks may be cut anywhere (inside a string, an
/// escape, a multi-byte character, the byte order mark); the document's line and column are kept
/// for errors; a value is followed to its end without being parsed or held. Its consumers:
/// `JSONItemsStream` (the list at a pointer, each element handed whole to the strict `JSONParser`)
/// and `skipValue` (a value on no path that is read).
///
/// A value the parser will read is only followed (`beginValue(checked: false)`): the parser says
/// what is wrong with it, at its own first mistake. A value passed over is checked for what can be
/// told without parsing it: its first byte, brackets closing in kind, nesting within
/// `maximumDepth`. The hot loop (`follow`) works on locals over the chunk's bytes: no allocation,
/// no call per byte.
struct JSONTokenizer: Sendable {
    /// How a value is followed: a string or container to its closing byte (`follow`), a number
    /// or a word (or, for the parser to refuse, any other byte) to the byte after it (`passBare`).
    enum Shape: Sendable, Equatable {
        case enclosed, bare
    }

    /// JSONParser's own limit on nesting, applied to a value passed over.
    static let maximumDepth = JSONParser.maximumDepth

    /// The document's offset of the current chunk's first byte.
    private var chunkStart = 0
    /// The current line (from 1), and the document's offset where it begins.
    private(set) var line = 1
    private var lineStart = 0
    /// Bytes of a byte order mark matched so far; nil once the document itself has begun.
    private var markMatched: Int? = 0

    // The value being followed: its open brackets, whether inside a string, after a backslash.
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var checksBrackets = false
    private var braces = BraceLevels()
    /// How the value `skipValue` passes over is followed, once its first byte was read.
    private var skipping: Shape?

    /// The column (from 1) of the byte at `index` of the current chunk.
    func column(at index: Int) -> Int {
        chunkStart + index - lineStart + 1
    }

    /// `reason` at the byte at `index` of the current chunk (0 after `finishChunk`: the end so far).
    func error(_ reason: String, at index: Int) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: column(at: index), reason: reason)
    }

    /// The current chunk, `count` bytes, has been read: the next one goes on with the document.
    mutating func finishChunk(of count: Int) {
        chunkStart += count
    }

    /// A UTF-8 byte order mark before the document, byte by byte: true once it has been passed
    /// (or there is none) and `index` is at the document's first byte, false at the end of the chunk.
    mutating func passByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws(JSONSyntaxError) -> Bool {
        while let matched = markMatched, index < bytes.count {
            let byte = bytes[index]
            let expected: UInt8 = matched == 0 ? 0xEF : (matched == 1 ? 0xBB : 0xBF)
            if byte == expected {
                index += 1
                markMatched = matched == 2 ? nil : matched + 1
            } else {
                guard matched == 0 else { throw error(tr("unexpected character '\(printable(byte))'"), at: index) }
                markMatched = nil
            }
        }
        return markMatched == nil
    }

    /// Passes white space: true with `index` at the next other byte, false at the end of the chunk.
    mutating func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A:
                index += 1
                line += 1
                lineStart = chunkStart + index
            case 0x20, 0x09, 0x0D:
                index += 1
            default:
                return true
            }
        }
        return false
    }

    /// Begins following the value whose first byte is at `index`, and reads that byte. `checked`:
    /// the value is passed over, so the byte must begin a value and its brackets are checked.
    mutating func beginValue(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, checked: Bool) throws(JSONSyntaxError) -> Shape {
        let byte = bytes[index]
        let shape: Shape
        (depth, inString, escaped, checksBrackets) = (0, false, false, checked)
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth = 1
            braces.set(0, brace: byte == UInt8(ascii: "{"))
            shape = .enclosed
        case UInt8(ascii: "\""):
            inString = true
            shape = .enclosed
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            shape = .bare
        case UInt8(ascii: "<") where checked:
            throw error(tr("found '<': this looks like HTML, not JSON"), at: index)
        default:
            guard !checked else { throw error(tr("unexpected character '\(printable(byte))'"), at: index) }
            shape = .bare
        }
        index += 1
        return shape
    }

    /// Follows an enclosed value from `index` to its closing byte: true with `index` past it, false
    /// at the end of the chunk. The one hot loop: locals only, written back once.
    mutating func follow(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws(JSONSyntaxError) -> Bool {
        var at = index
        var depth = self.depth, inString = self.inString, escaped = self.escaped
        var line = self.line, lineStart = self.lineStart, braces = self.braces
        let checked = checksBrackets, chunkStart = self.chunkStart, count = bytes.count
        var closed = false
        defer {
            index = at
            (self.depth, self.inString, self.escaped) = (depth, inString, escaped)
            (self.line, self.lineStart, self.braces) = (line, lineStart, braces)
        }
        scanning: while at < count {
            if inString, !escaped {
                // Most of a list's bytes are its strings': pass them to the next quote,
                // backslash or newline (the bytes the steps below look at) in a tight loop.
                while at < count, !Self.endsStringRun(bytes[at]) { at += 1 }
                if at == count { break scanning }
            }
            let byte = bytes[at]
            at += 1
            if byte == 0x0A {
                line += 1
                lineStart = chunkStart + at
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { closed = true; break scanning }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if checked {
                    guard depth < Self.maximumDepth else {
                        throw JSONSyntaxError(line: line, column: chunkStart + at - lineStart, reason: tr("nested too deeply"))
                    }
                    braces.set(depth, brace: byte == UInt8(ascii: "{"))
                }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if checked, braces.isBrace(depth - 1) != (byte == UInt8(ascii: "}")) {
                    throw JSONSyntaxError(line: line, column: chunkStart + at - lineStart, reason: tr("unexpected character '\(printable(byte))'"))
                }
                depth -= 1
                if depth == 0 { closed = true; break scanning }
            default:
                break
            }
        }
        return closed
    }

    @inline(__always)
    private static func endsStringRun(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x0A
    }

    /// Follows a number or a word from `index` to the byte after it (white space, ',', ']', and
    /// with `braceEnds` '}'), left unread: true once there, false at the end of the chunk. Such a
    /// value holds no newline.
    static func passBare(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, braceEnds: Bool) -> Bool {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"): return true
            case UInt8(ascii: "}") where braceEnds: return true
            default: index += 1
            }
        }
        return false
    }

    /// Skip a value: passes over the value at or after `index` (white space first), or goes on with
    /// the one an earlier chunk began. True once it has ended: `index` past it, or at the byte
    /// after a number or a word; false at the end of the chunk.
    mutating func skipValue(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws(JSONSyntaxError) -> Bool {
        if skipping == nil {
            guard skipWhitespace(bytes, &index) else { return false }
            skipping = try beginValue(bytes, &index, checked: true)
        }
        let ended: Bool
        if skipping == .bare {
            ended = Self.passBare(bytes, &index, braceEnds: true)
        } else {
            ended = try follow(bytes, &index)
        }
        if ended { skipping = nil }
        return ended
    }
}

/// A byte as a message shows it: itself when printable ASCII, else its hex code.
func printable(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
}

/// Which open brackets of a value passed over are braces: a bit per level, the tokenizer's
/// `maximumDepth` (256) levels in four words, so that following a value never allocates.
private struct BraceLevels: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    func isBrace(_ level: Int) -> Bool {
        let word: UInt64
        switch level >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return (word >> UInt64(level & 63)) & 1 == 1
    }

    mutating func set(_ level: Int, brace: Bool) {
        let bit = UInt64(1) << UInt64(level & 63)
        switch level >> 6 {
        case 0: words.0 = brace ? words.0 | bit : words.0 & ~bit
        case 1: words.1 = brace ? words.1 | bit : words.1 & ~bit
        case 2: words.2 = brace ? words.2 | bit : words.2 & ~bit
        default: words.3 = brace ? words.3 | bit : words.3 & ~bit
        }
    }
}
