import QuoteBase
/// The list inside a JSON document at a JSON Pointer (`items = /results`), read as its bytes
/// arrive. What lies on the way to it and around it is scanned without being held (a 100 MB
/// member beside the list costs no memory; strings and brackets are followed, not parsed), and
/// the list's elements are handed over by `JSONArrayStream` exactly as a top-level array's.
/// An object at the pointer is a list of one (`{"data": {"id": 60, …}}`). The root pointer is a
/// top-level array read by `JSONArrayStream` alone, byte for byte as before.
public struct JSONItemsStream: Sendable {
    public typealias Element = JSONArrayStream.Element

    /// The pointer leads nowhere, or to what is no list; `found` says what was there.
    public struct NotFound: Error, Equatable, Sendable, CustomStringConvertible {
        public let pointer: String
        public let found: String
        public var description: String { tr("items \(pointer): found \(found)") }
    }

    private enum State: Equatable {
        case byteOrderMark(matched: Int)
        /// A value on the pointer's path comes next.
        case value
        case memberOrEnd(first: Bool)
        case key
        case colon
        case elementOrEnd(first: Bool)
        /// A value off the path: scanned, not held.
        case skipping
        /// After a member or element of a container on the path: ',' or its end.
        case afterValue
        /// The list itself, read by `items`.
        case items
        /// The document's value has ended: white space alone may follow.
        case end
    }

    /// A container on the pointer's path; `count`: the elements of an array begun so far.
    private struct Level {
        let isObject: Bool
        var count = 0
    }

    public let pointer: JSONPointer
    private let maximumElementBytes: Int
    private var items: JSONArrayStream?
    private var state = State.byteOrderMark(matched: 0)
    private var levels: [Level] = []
    /// The list has been read; a second member of a name on the path is then an error.
    private var found = false
    private var key: [UInt8] = []
    private var keyEscaped = false
    private var skip = JSONValueSkipper()
    private var position = JSONArrayStream.Position()

    /// A member name longer than this cannot name a token of a pointer (at most 1 KiB, each byte
    /// escaped in at most 6): it is scanned, not kept.
    private static let maximumKeyBytes = JSONPointer.maximumBytes * 6 + 2

    /// `loneObject` applies to the root pointer (at any other, an object is always a list of one).
    public init(pointer: JSONPointer, maximumElementBytes: Int = JSONArrayStream.defaultMaximumElementBytes, loneObject: Bool = false) {
        self.pointer = pointer
        self.maximumElementBytes = maximumElementBytes
        if pointer.isRoot {
            items = JSONArrayStream(maximumElementBytes: maximumElementBytes, loneObject: loneObject)
            state = .items
        }
    }

    /// Elements handed over so far.
    public var count: Int { items?.count ?? 0 }

    /// Reads `chunk`, calling `body` with each element of the list it completes (position from 0).
    /// Throws `JSONSyntaxError`, `JSONArrayStream.NotAnArray` (root pointer), `NotFound`, or what `body` throws.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Int, Element) throws -> Void) throws {
        if pointer.isRoot {
            try items!.feed(chunk, body)
            return
        }
        let bytes = chunk.bindMemory(to: UInt8.self)
        var index = 0
        while index < bytes.count {
            switch state {
            case .items:
                index += try items!.read(UnsafeRawBufferPointer(rebasing: chunk[index...]), body)
                if items!.isComplete { leaveItems() }
            case .skipping:
                if try skip.scan(bytes, &index, &position) { state = .afterValue }
            default:
                if try read(bytes[index]) { advance(over: bytes[index], &index) }
            }
        }
    }

    /// The body has ended: the document must be whole.
    public func finish() throws {
        if state == .items, let items {
            try items.finish()
            return
        }
        guard state == .end else { throw error(tr("unexpected end of input")) }
    }

    /// Reads one byte outside the list and off-path values; false leaves it for the next state.
    private mutating func read(_ byte: UInt8) throws -> Bool {
        if case .byteOrderMark(let matched) = state { return try readByteOrderMark(byte, matched: matched) }
        if state == .key { try readKey(byte); return true }
        if isWhitespace(byte) { return true }
        switch state {
        case .value:
            return try enterValue(byte)
        case .memberOrEnd(let first):
            if byte == UInt8(ascii: "\"") {
                key.removeAll(keepingCapacity: true)
                keyEscaped = false
                state = .key
            } else if byte == UInt8(ascii: "}"), first {
                try closeContainer()
            } else {
                throw error(tr("expected a member name in quotes"))
            }
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw error(tr("expected ':' after a member name")) }
            state = try memberMatches() ? .value : .skipping
        case .elementOrEnd(let first):
            if byte == UInt8(ascii: "]"), first { try closeContainer(); return true }
            let element = levels[levels.count - 1].count
            levels[levels.count - 1].count += 1
            state = !found && JSONPointer.index(pointer.tokens[levels.count - 1]) == element ? .value : .skipping
            return false
        case .afterValue:
            try readAfterValue(byte)
        default:
            throw error(tr("unexpected text after the JSON value"))
        }
        return true
    }

    private mutating func readByteOrderMark(_ byte: UInt8, matched: Int) throws(JSONSyntaxError) -> Bool {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        if byte == mark[matched] {
            state = matched == 2 ? .value : .byteOrderMark(matched: matched + 1)
            return true
        }
        guard matched == 0 else { throw error(tr("unexpected character '\(printable(byte))'")) }
        state = .value
        return false
    }

    /// A value on the path: the list itself, or a container to go into.
    private mutating func enterValue(_ byte: UInt8) throws -> Bool {
        let depth = levels.count
        if depth == pointer.tokens.count {
            guard byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") else { throw notFound(try kindOf(byte) + tr(", not an array or an object"), nil) }
            items = JSONArrayStream(at: position, maximumElementBytes: maximumElementBytes, loneObject: true)
            found = true
            state = .items
            return false
        }
        switch byte {
        case UInt8(ascii: "{"):
            levels.append(Level(isObject: true))
            state = .memberOrEnd(first: true)
        case UInt8(ascii: "["):
            guard JSONPointer.index(pointer.tokens[depth]) != nil else {
                throw notFound(tr("an array") + place(depth) + tr(", and \"\(pointer.tokens[depth])\" is no index"), nil)
            }
            levels.append(Level(isObject: false))
            state = .elementOrEnd(first: true)
        default:
            throw notFound(try kindOf(byte), depth)
        }
        return true
    }

    private mutating func readKey(_ byte: UInt8) throws {
        if keyEscaped {
            keyEscaped = false
        } else if byte == UInt8(ascii: "\\") {
            keyEscaped = true
        } else if byte == UInt8(ascii: "\"") {
            state = .colon
            return
        }
        if key.count <= Self.maximumKeyBytes { key.append(byte) }
    }

    /// Whether the member just named is the pointer's next token; a second one after the list was read is refused.
    private mutating func memberMatches() throws -> Bool {
        let depth = levels.count - 1
        let token = pointer.tokens[depth]
        let name: String
        if key.count > Self.maximumKeyBytes {
            return false
        } else if key.contains(UInt8(ascii: "\\")) {
            do throws(JSONSyntaxError) {
                guard let decoded = try JSONParser.parse([UInt8(ascii: "\"")] + key + [UInt8(ascii: "\"")]).string else { return false }
                name = decoded
            } catch {
                throw self.error(tr("a member name: \(error.reason)"))
            }
        } else {
            guard key.elementsEqual(token.utf8) else { return false }
            name = token
        }
        guard name == token else { return false }
        if found { throw notFound(tr("a second member \"\(token)\"") + place(depth), nil) }
        return true
    }

    private mutating func readAfterValue(_ byte: UInt8) throws {
        let isObject = levels[levels.count - 1].isObject
        if byte == UInt8(ascii: ",") {
            state = isObject ? .memberOrEnd(first: false) : .elementOrEnd(first: false)
        } else if byte == UInt8(ascii: isObject ? "}" : "]") {
            try closeContainer()
        } else {
            throw error(isObject ? tr("expected ',' or '}' in an object") : tr("expected ',' or ']' in an array"))
        }
    }

    /// A container on the path ends: where the list was not found, the pointer leads nowhere.
    private mutating func closeContainer() throws {
        let depth = levels.count - 1
        guard found else {
            let token = pointer.tokens[depth]
            let count = levels[depth].count
            let what = levels[depth].isObject ? tr("an object with no member \"\(token)\"")
                : tr("an array of \(count) elements, none numbered \(token)")
            throw notFound(what + place(depth), nil)
        }
        levels.removeLast()
        state = levels.isEmpty ? .end : .afterValue
    }

    private mutating func leaveItems() {
        position = items!.position
        items = nil
        state = levels.isEmpty ? .end : .afterValue
    }

    private mutating func advance(over byte: UInt8, _ index: inout Int) {
        index += 1
        position.offset += 1
        if byte == 0x0A {
            position.line += 1
            position.lineStart = position.offset
        }
    }

    /// " at /a/b": where on the path something was found (nothing for the document itself).
    private func place(_ depth: Int) -> String {
        guard depth > 0 else { return "" }
        let tokens = pointer.tokens.prefix(depth).map { $0.replacingTilde() }
        let path = "/" + tokens.joined(separator: "/")
        // TRANSLATORS: follows what was found in a JSON document, naming where (a JSON Pointer).
        return tr(" at \(path)")
    }

    private func notFound(_ found: String, _ depth: Int?) -> NotFound {
        NotFound(pointer: pointer.text, found: found + (depth.map(place) ?? ""))
    }

    /// What a value starting with `byte` is, or the syntax error it begins.
    private func kindOf(_ byte: UInt8) throws(JSONSyntaxError) -> String {
        switch byte {
        case UInt8(ascii: "\""): return tr("a string")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return tr("a number")
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return tr("a boolean")
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "<"): throw error(tr("found '<': this looks like HTML, not JSON"))
        default: throw error(tr("unexpected character '\(printable(byte))'"))
        }
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(line: position.line, column: position.offset - position.lineStart + 1, reason: reason)
    }
}

extension String {
    /// A reference token escaped back for a pointer's text (RFC 6901: `~` first, then `/`).
    fileprivate func replacingTilde() -> String {
        var result = ""
        for character in self {
            switch character {
            case "~": result += "~0"
            case "/": result += "~1"
            default: result.append(character)
            }
        }
        return result
    }
}

fileprivate func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}

fileprivate func printable(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
}
