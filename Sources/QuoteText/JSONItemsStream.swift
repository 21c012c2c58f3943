import QuoteBase
/// The list inside a JSON document at a JSON Pointer (`items = /results`; the root pointer: a
/// top-level array), read as its bytes arrive: the chunks can be cut anywhere, and memory holds
/// one element at a time, never the body. Each element is parsed by the strict `JSONParser`; the
/// list's own punctuation is checked here, with the same messages and the document's own line and
/// column. What lies on the way to the list and around it is passed over by the tokenizer without
/// being held (a 100 MB member beside the list costs no memory). An object at the pointer is a
/// list of one (`{"data": {"id": 60, …}}`); at the root only with `loneObject`.
///
///     var stream = JSONItemsStream(pointer: pointer)
///     for chunk in chunks { try stream.feed(chunk) { position, element in … } }
///     try stream.finish()
public struct JSONItemsStream: Sendable {
    /// What the stream hands over for each element of the list.
    public enum Element {
        case value(JSONValue)
        /// An element larger than `maximumElementBytes`: skipped without being held.
        case tooLarge(bytes: Int)
        /// An element holding an object that names a member twice (`JSONSyntaxError.repeatedMember`),
        /// where in the document: the one record is refused, the list read on.
        case repeatedMember(JSONSyntaxError)
    }

    /// The root pointer's document is JSON but not an array.
    public struct NotAnArray: Error, Equatable {
        public let found: String
    }

    /// The pointer leads nowhere, or to what is no list; `found` says what was there.
    public struct NotFound: Error, Equatable, Sendable, CustomStringConvertible {
        public let pointer: String
        public let found: String
        public var description: String { tr("items \(pointer): found \(found)") }
    }

    /// The largest element kept by default: a quote is at most 10,000 characters, so a record
    /// of 4 MiB is no quote list's.
    public static let defaultMaximumElementBytes = 4 << 20

    private enum State: Equatable {
        /// Between values: a byte of the document's structure comes next (white space passed).
        case next(Expected)
        /// A member name of a container on the path, followed by the tokenizer.
        case name
        /// A value off the path: skipped, not held.
        case skipping
        /// An element of the list, followed by the tokenizer and read whole when it ends.
        case item(JSONTokenizer.Shape)
    }

    private enum Expected: Equatable {
        /// A value on the pointer's path, or the list itself.
        case value
        case memberOrEnd(first: Bool)
        case colon
        case elementOrEnd(first: Bool)
        /// After a member or element of a container on the path: ',' or its end.
        case afterValue
        /// In the list: an element, or (`first`) the list's end.
        case itemOrEnd(first: Bool)
        case afterItem
        /// The document's value has ended: white space alone may follow.
        case end
    }

    /// A container on the pointer's path; `count`: the elements of an array begun so far.
    private struct Level {
        let isObject: Bool
        var count = 0
    }

    /// What the member name just read means, said when its ':' is read.
    private enum NameVerdict: Equatable {
        case onPath, offPath, again, undecodable(reason: String)
    }

    public let pointer: JSONPointer
    public let maximumElementBytes: Int
    /// Elements of the list handed over so far.
    public private(set) var count = 0

    private var tokenizer = JSONTokenizer()
    private var state = State.next(.value)
    private var levels: [Level] = []
    /// An object where the list was expected is a list of one.
    private let acceptsLoneObject: Bool
    private var lone = false
    /// The list has begun; a second member of a name on the path is then an error.
    private var found = false
    private var item: JSONValueBytes
    private var itemLine = 1
    private var itemColumn = 1
    private var name = JSONValueBytes(limit: JSONItemsStream.maximumNameBytes + 2)
    private var nameVerdict = NameVerdict.offPath

    /// A member name longer than this cannot name a token of a pointer (at most 1 KiB, each byte
    /// escaped in at most 6): it is measured, not kept.
    private static let maximumNameBytes = JSONPointer.maximumBytes * 6 + 2

    /// `loneObject` applies to the root pointer (at any other, an object is always a list of one).
    public init(pointer: JSONPointer, maximumElementBytes: Int = Self.defaultMaximumElementBytes, loneObject: Bool = false) {
        self.pointer = pointer
        self.maximumElementBytes = maximumElementBytes
        self.acceptsLoneObject = loneObject || !pointer.isRoot
        self.item = JSONValueBytes(limit: maximumElementBytes)
    }

    /// Reads `chunk`, calling `body` with each element of the list it completes (position from 0).
    /// Throws `JSONSyntaxError`, `NotAnArray` (root pointer), `NotFound`, or what `body` throws.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Int, Element) throws -> Void) throws {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var index = 0
        defer { tokenizer.finishChunk(of: bytes.count) }
        guard try tokenizer.passByteOrderMark(bytes, &index) else { return }
        while index < bytes.count {
            switch state {
            case .item(let shape):
                let ended: Bool
                if shape == .bare {
                    ended = JSONTokenizer.passBare(bytes, &index, braceEnds: false)
                } else {
                    ended = try tokenizer.follow(bytes, &index)
                }
                if ended { try completeItem(bytes, endingAt: index, body) }
            case .name:
                if try tokenizer.follow(bytes, &index) {
                    nameVerdict = readName(bytes, endingAt: index)
                    state = .next(.colon)
                }
            case .skipping:
                if try tokenizer.skipValue(bytes, &index) { state = .next(.afterValue) }
            case .next(let expected):
                if tokenizer.skipWhitespace(bytes, &index) { try readExpected(bytes, &index, expecting: expected) }
            }
        }
        // A value still open keeps what this chunk held of it.
        if case .item = state { item.keep(bytes) }
        if state == .name { name.keep(bytes) }
    }

    /// The body has ended: the document must be whole.
    public func finish() throws(JSONSyntaxError) {
        guard state == .next(.end) else { throw tokenizer.error(tr("unexpected end of input"), at: 0) }
    }

    /// Reads the byte at `index` of the document's structure, which is `expected` there.
    private mutating func readExpected(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, expecting expected: Expected) throws {
        let byte = bytes[index]
        switch expected {
        case .value:
            try enterValue(bytes, &index)
            return
        case .memberOrEnd(let first):
            if byte == UInt8(ascii: "\"") {
                name.begin(at: index)
                _ = try tokenizer.beginValue(bytes, &index, checked: false)
                state = .name
                return
            }
            guard byte == UInt8(ascii: "}"), first else { throw tokenizer.error(tr("expected a member name in quotes"), at: index) }
            try closeContainer()
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw tokenizer.error(tr("expected ':' after a member name"), at: index) }
            state = try takeMember(at: index) ? .next(.value) : .skipping
        case .elementOrEnd(let first):
            if byte == UInt8(ascii: "]"), first { try closeContainer(); break }
            let element = levels[levels.count - 1].count
            levels[levels.count - 1].count += 1
            state = !found && JSONPointer.index(pointer.tokens[levels.count - 1]) == element ? .next(.value) : .skipping
            return  // the byte begins the element
        case .afterValue:
            try readAfterValue(byte, at: index)
        case .itemOrEnd(let first):
            guard byte == UInt8(ascii: "]") else { try beginItem(bytes, &index); return }
            guard first else { throw tokenizer.error(tr("unexpected character ']'"), at: index) }
            leaveList()
        case .afterItem:
            if byte == UInt8(ascii: ",") {
                state = .next(.itemOrEnd(first: false))
            } else if byte == UInt8(ascii: "]") {
                leaveList()
            } else {
                throw tokenizer.error(tr("expected ',' or ']' in an array"), at: index)
            }
        case .end:
            throw tokenizer.error(tr("unexpected text after the JSON value"), at: index)
        }
        index += 1
    }

    /// A value on the path: the list itself, or a container to go into.
    private mutating func enterValue(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws {
        let byte = bytes[index]
        let depth = levels.count
        if depth == pointer.tokens.count {
            if byte == UInt8(ascii: "{"), acceptsLoneObject {
                found = true
                lone = true
                try beginItem(bytes, &index)
                return
            }
            guard byte == UInt8(ascii: "[") else { throw notAList(byte, at: index) }
            found = true
            state = .next(.itemOrEnd(first: true))
        } else {
            switch byte {
            case UInt8(ascii: "{"):
                levels.append(Level(isObject: true))
                state = .next(.memberOrEnd(first: true))
            case UInt8(ascii: "["):
                guard JSONPointer.index(pointer.tokens[depth]) != nil else {
                    throw notFound(tr("an array") + pointer.place(depth) + tr(", and \"\(pointer.tokens[depth])\" is no index"), nil)
                }
                levels.append(Level(isObject: false))
                state = .next(.elementOrEnd(first: true))
            default:
                throw notFound(try kind(of: byte, at: index), depth)
            }
        }
        index += 1
    }

    /// An element of the list begins at `index`: the tokenizer follows it, its bytes kept.
    private mutating func beginItem(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws(JSONSyntaxError) {
        item.begin(at: index)
        (itemLine, itemColumn) = (tokenizer.line, tokenizer.column(at: index))
        let shape = try tokenizer.beginValue(bytes, &index, checked: false)
        state = .item(shape)
    }

    /// Parses the element that ended at `end` of `bytes` and hands it over.
    private mutating func completeItem(_ bytes: UnsafeBufferPointer<UInt8>, endingAt end: Int,
                                       _ body: (Int, Element) throws -> Void) throws {
        let position = count
        count += 1
        if lone { leaveList() } else { state = .next(.afterItem) }
        let length = item.length(endingAt: end)
        guard length <= maximumElementBytes else {
            try body(position, .tooLarge(bytes: length))
            return
        }
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try item.read(endingAt: end, of: bytes) { element throws(JSONSyntaxError) in try JSONParser.parse(element) }
        } catch {
            // The element's own line 1 starts at the element's column in the document.
            let located = JSONSyntaxError(line: itemLine + error.line - 1,
                                          column: error.line == 1 ? itemColumn + error.column - 1 : error.column,
                                          reason: error.reason, repeatedMember: error.repeatedMember)
            guard located.repeatedMember != nil else { throw located }
            try body(position, .repeatedMember(located))
            return
        }
        try body(position, .value(value))
    }

    /// The list has ended (its ']', or the lone object's '}').
    private mutating func leaveList() {
        state = .next(levels.isEmpty ? .end : .afterValue)
    }

    /// What the member name that ended at `end` of `bytes` means for the path.
    private mutating func readName(_ bytes: UnsafeBufferPointer<UInt8>, endingAt end: Int) -> NameVerdict {
        guard name.length(endingAt: end) - 2 <= Self.maximumNameBytes else { return .offPath }
        let token = pointer.tokens[levels.count - 1]
        let found = self.found
        return name.read(endingAt: end, of: bytes) { quoted -> NameVerdict in
            let text = UnsafeBufferPointer(rebasing: quoted[1..<quoted.count - 1])
            let matches: Bool
            if text.contains(UInt8(ascii: "\\")) {
                do throws(JSONSyntaxError) {
                    matches = try JSONParser.parse(quoted).string == token
                } catch {
                    return .undecodable(reason: error.reason)
                }
            } else {
                matches = text.elementsEqual(token.utf8)
            }
            return !matches ? .offPath : found ? .again : .onPath
        }
    }

    /// The ':' after a member name of a container on the path: whether its value is on the path.
    private func takeMember(at index: Int) throws -> Bool {
        switch nameVerdict {
        case .onPath: return true
        case .offPath: return false
        case .again: throw notFound(tr("a second member \"\(pointer.tokens[levels.count - 1])\"") + pointer.place(levels.count - 1), nil)
        case .undecodable(let reason): throw tokenizer.error(tr("a member name: \(reason)"), at: index)
        }
    }

    private mutating func readAfterValue(_ byte: UInt8, at index: Int) throws {
        let isObject = levels[levels.count - 1].isObject
        if byte == UInt8(ascii: ",") {
            state = .next(isObject ? .memberOrEnd(first: false) : .elementOrEnd(first: false))
        } else if byte == UInt8(ascii: isObject ? "}" : "]") {
            try closeContainer()
        } else {
            throw tokenizer.error(isObject ? tr("expected ',' or '}' in an object") : tr("expected ',' or ']' in an array"), at: index)
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
            throw notFound(what + pointer.place(depth), nil)
        }
        levels.removeLast()
        state = .next(levels.isEmpty ? .end : .afterValue)
    }

    private func notFound(_ found: String, _ depth: Int?) -> NotFound {
        NotFound(pointer: pointer.text, found: found + (depth.map { pointer.place($0) } ?? ""))
    }

    /// What is where the list should be: at the root, a value that is no array; elsewhere, one
    /// that is neither an array nor an object; or the syntax error it begins.
    private func notAList(_ byte: UInt8, at index: Int) -> any Error {
        let what: String
        do throws(JSONSyntaxError) {
            what = try kind(of: byte, at: index)
        } catch {
            return error
        }
        return pointer.isRoot ? NotAnArray(found: what) : notFound(what + tr(", not an array or an object"), nil)
    }

    /// What a value starting with `byte` is, or the syntax error it begins.
    private func kind(of byte: UInt8, at index: Int) throws(JSONSyntaxError) -> String {
        switch byte {
        case UInt8(ascii: "{"): return tr("an object")
        case UInt8(ascii: "\""): return tr("a string")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return tr("a number")
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return tr("a boolean")
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "<"): throw tokenizer.error(tr("found '<': this looks like HTML, not JSON"), at: index)
        default: throw tokenizer.error(tr("unexpected character '\(printable(byte))'"), at: index)
        }
    }
}
