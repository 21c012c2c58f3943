import QuoteBase
/// A top-level JSON array read as its bytes arrive, element by element: the chunks can be cut
/// anywhere (inside a string, an escape or a multi-byte character), and memory holds one element
/// at a time, never the body. Each element is parsed by the strict `JSONParser`; the array's own
/// punctuation is checked here, with the same messages and the document's own line and column.
///
///     var stream = JSONArrayStream()
///     for chunk in chunks { try stream.feed(chunk) { position, element in … } }
///     try stream.finish()
public struct JSONArrayStream: Sendable {
    /// What the stream hands over for each element of the array.
    public enum Element {
        case value(JSONValue)
        /// An element larger than `maximumElementBytes`: skipped without being held.
        case tooLarge(bytes: Int)
        /// An element holding an object that names a member twice (`JSONSyntaxError.repeatedMember`),
        /// where in the document: the one record is refused, the array read on.
        case repeatedMember(JSONSyntaxError)
    }

    /// The body is JSON but not an array.
    public struct NotAnArray: Error, Equatable {
        public let found: String
    }

    public let maximumElementBytes: Int
    /// Elements handed over so far.
    public private(set) var count = 0

    private enum State: Equatable {
        case byteOrderMark(matched: Int)
        case beforeArray
        case firstElementOrEnd
        case element
        case afterElement
        case elementExpected
        case afterArray
    }

    private enum ElementKind {
        case container, string, bare
    }

    private var state = State.byteOrderMark(matched: 0)
    private var kind = ElementKind.bare
    /// Nesting inside a container element; whether the scan is inside a string, after a backslash.
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The element's bytes when it spans chunks (else it is parsed where it lies).
    private var pending: [UInt8] = []
    private var elementBytes = 0
    /// Where in the document the current element began, for its errors.
    private var elementLine = 1
    private var elementColumn = 1
    private var line = 1
    /// Bytes before the current line, and bytes consumed so far.
    private var lineStart = 0
    private var offset = 0
    /// Inside a larger document (`JSONItemsStream`): the stream stops after the array's `]`.
    private var stopsAfterArray = false
    /// An object where the array was expected is a list of one (`items =` naming one object).
    private let acceptsLoneObject: Bool
    private var lone = false

    /// The largest element kept by default: a quote is at most 10,000 characters, so a record
    /// of 4 MiB is no quote list's.
    public static let defaultMaximumElementBytes = 4 << 20

    /// With `loneObject`, a top-level object is read as an array holding it alone.
    public init(maximumElementBytes: Int = Self.defaultMaximumElementBytes, loneObject: Bool = false) {
        self.maximumElementBytes = maximumElementBytes
        self.acceptsLoneObject = loneObject
    }

    /// The array (or lone object) that starts at `position` of an enclosing document: line and
    /// column stay the document's, and `feed` returns where the array ended.
    init(at position: Position, maximumElementBytes: Int, loneObject: Bool) {
        self.init(maximumElementBytes: maximumElementBytes, loneObject: loneObject)
        state = .beforeArray
        stopsAfterArray = true
        (line, lineStart, offset) = (position.line, position.lineStart, position.offset)
    }

    /// Where the scan is in the document, for an enclosing stream to carry on from.
    struct Position {
        var line = 1
        var lineStart = 0
        var offset = 0
    }

    var position: Position { Position(line: line, lineStart: lineStart, offset: offset) }

    /// The array has been closed (or the lone object read).
    public var isComplete: Bool { state == .afterArray }

    /// Reads `chunk`, calling `body` with each element it completes (position from 0).
    /// Throws `JSONSyntaxError`, `NotAnArray`, or what `body` throws.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Int, Element) throws -> Void) throws {
        _ = try read(chunk, body)
    }

    /// `feed`, returning how many of the chunk's bytes were read (all but what follows an enclosed array).
    mutating func read(_ chunk: UnsafeRawBufferPointer, _ body: (Int, Element) throws -> Void) throws -> Int {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var index = 0
        // Where the current element began inside this chunk (nil: in an earlier one, or not yet).
        var elementStart: Int?
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .byteOrderMark(let matched):
                try readByteOrderMark(byte, matched: matched, &index)
            case .beforeArray:
                if isWhitespace(byte) { advance(over: byte, &index); continue }
                if try openArray(with: byte) { elementStart = index }
                advance(over: byte, &index)
            case .firstElementOrEnd, .elementExpected:
                if isWhitespace(byte) { advance(over: byte, &index); continue }
                if byte == UInt8(ascii: "]") {
                    guard state == .firstElementOrEnd else { throw error(tr("unexpected character ']'")) }
                    state = .afterArray
                    advance(over: byte, &index)
                    continue
                }
                begin(with: byte)
                elementStart = index
                state = .element
                advance(over: byte, &index)
            case .element:
                if kind == .bare {
                    if isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") {
                        try complete(bytes, from: elementStart, to: index, body)
                        elementStart = nil
                        state = .afterElement
                        continue  // the delimiter is read by .afterElement
                    }
                    advance(over: byte, &index)
                    continue
                }
                if scanToEnd(bytes, &index) {
                    try complete(bytes, from: elementStart, to: index, body)
                    elementStart = nil
                    state = lone ? .afterArray : .afterElement
                }
            case .afterElement:
                if isWhitespace(byte) { advance(over: byte, &index); continue }
                if byte == UInt8(ascii: ",") { state = .elementExpected; advance(over: byte, &index); continue }
                if byte == UInt8(ascii: "]") { state = .afterArray; advance(over: byte, &index); continue }
                throw error(tr("expected ',' or ']' in an array"))
            case .afterArray:
                if stopsAfterArray { return index }
                guard isWhitespace(byte) else { throw error(tr("unexpected text after the JSON value")) }
                advance(over: byte, &index)
            }
        }
        // An element still open keeps what this chunk held of it.
        if state == .element { keep(UnsafeBufferPointer(rebasing: bytes[(elementStart ?? 0)..<bytes.count])) }
        return bytes.count
    }

    /// The array's `[` (true: a lone object's `{`, which begins its one element), or what is not one.
    private mutating func openArray(with byte: UInt8) throws -> Bool {
        if byte == UInt8(ascii: "{"), acceptsLoneObject {
            begin(with: byte)
            lone = true
            state = .element
            return true
        }
        guard byte == UInt8(ascii: "[") else { throw notAnArray(startingWith: byte) }
        state = .firstElementOrEnd
        return false
    }

    /// A UTF-8 byte order mark, byte by byte (it may straddle chunks), or none before the array.
    private mutating func readByteOrderMark(_ byte: UInt8, matched: Int, _ index: inout Int) throws(JSONSyntaxError) {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        if byte == mark[matched] {
            state = matched == 2 ? .beforeArray : .byteOrderMark(matched: matched + 1)
            advance(over: byte, &index)
            return
        }
        guard matched == 0 else { throw error(tr("unexpected character '\(printable(byte))'")) }
        state = .beforeArray
    }

    /// The body has ended: the array must have been closed.
    public func finish() throws(JSONSyntaxError) {
        guard state == .afterArray else { throw error(tr("unexpected end of input")) }
    }

    private mutating func begin(with byte: UInt8) {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["): kind = .container; depth = 0
        case UInt8(ascii: "\""): kind = .string
        default: kind = .bare
        }
        inString = false
        escaped = false
        elementBytes = 0
        pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
        elementLine = line
        elementColumn = offset - lineStart + 1
        depth = kind == .container ? 1 : 0
        inString = kind == .string
    }

    /// Follows a container or string element from `index` to its closing byte (true, with
    /// `index` past it) or to the end of the chunk (false). The one hot loop: locals only.
    private mutating func scanToEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        let start = index
        var at = index, depth = self.depth, inString = self.inString, escaped = self.escaped
        var closed = false
        let isString = kind == .string
        scanning: while at < bytes.count {
            let byte = bytes[at]
            at += 1
            if byte == 0x0A {
                line += 1
                lineStart = offset + (at - start)
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if isString { closed = true; break scanning }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { closed = true; break scanning }
            default: break
            }
        }
        offset += at - start
        elementBytes += at - start
        index = at
        self.depth = depth
        self.inString = inString
        self.escaped = escaped
        return closed
    }

    private mutating func advance(over byte: UInt8, _ index: inout Int) {
        index += 1
        offset += 1
        if byte == 0x0A {
            line += 1
            lineStart = offset
        }
        if state == .element { elementBytes += 1 }
    }

    /// Keeps part of an element that continues in the next chunk, unless it is already too large.
    private mutating func keep(_ part: UnsafeBufferPointer<UInt8>) {
        guard elementBytes <= maximumElementBytes else {
            pending.removeAll()
            return
        }
        pending.append(contentsOf: part)
    }

    /// Parses the element that ended at `end` in `bytes` (from `start` there, or from what was kept).
    private mutating func complete(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int?, to end: Int,
                                   _ body: (Int, Element) throws -> Void) throws {
        let position = count
        count += 1
        if elementBytes > maximumElementBytes {
            pending.removeAll()
            try body(position, .tooLarge(bytes: elementBytes))
            return
        }
        let value: JSONValue
        do throws(JSONSyntaxError) {
            if let start, pending.isEmpty {
                value = try JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            } else {
                if let base = bytes.baseAddress, end > 0 { pending.append(contentsOf: UnsafeBufferPointer(start: base, count: end)) }
                value = try pending.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in try JSONParser.parse(buffer) }
                pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
            }
        } catch {
            // The element's own line 1 starts at the element's column in the document.
            let located = JSONSyntaxError(line: elementLine + error.line - 1,
                                          column: error.line == 1 ? elementColumn + error.column - 1 : error.column,
                                          reason: error.reason, repeatedMember: error.repeatedMember)
            guard located.repeatedMember != nil else { throw located }
            pending.removeAll(keepingCapacity: pending.capacity <= 1 << 20)
            try body(position, .repeatedMember(located))
            return
        }
        try body(position, .value(value))
    }

    private func notAnArray(startingWith byte: UInt8) -> Error {
        switch byte {
        case UInt8(ascii: "{"): return NotAnArray(found: tr("an object"))
        case UInt8(ascii: "\""): return NotAnArray(found: tr("a string"))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return NotAnArray(found: tr("a number"))
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return NotAnArray(found: tr("a boolean"))
        case UInt8(ascii: "n"): return NotAnArray(found: "null")
        case UInt8(ascii: "<"): return error(tr("found '<': this looks like HTML, not JSON"))
        default: return error(tr("unexpected character '\(printable(byte))'"))
        }
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private func printable(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: offset - lineStart + 1, reason: reason)
    }
}
