/// Measures how many lines a reader must see of each function, initializer, closure-bodied
/// property (a computed property, `= { … }()`) and command closure (`let xCommand = Command(spec) { … }`)
/// in a Swift source, from its keyword's line to its closing brace, with the lines of multi-line
/// string literals left out: help text and SQL read as data, not as steps.
///
/// Braces are matched on tokens, not characters: a brace inside a string, an interpolation's
/// string, a raw string or a comment is no brace of the code.
enum FunctionLengths {
    struct Declaration: Equatable, CustomStringConvertible {
        /// "func sync", "init", "var description", "let importCommand".
        var name: String
        /// The line of the declaring keyword, counted from 1.
        var line: Int
        var length: Int

        var description: String { "\(name) (line \(line)): \(length) lines" }
    }

    /// Every declaration of `source` that has a body, in the order they appear.
    static func declarations(in source: String) -> [Declaration] {
        var lexer = Lexer(Array(source.utf8))
        let scan = lexer.run()
        return Measurer(tokens: scan.tokens, excluded: scan.multiLineStrings).declarations()
    }

    // MARK: Tokens

    struct Token {
        enum Kind: Equatable { case word, punctuation, string, newline }
        var kind: Kind
        var text: String
        var line: Int
    }

    /// Splits a source into words, punctuation, whole string literals and newlines; drops comments
    /// and whitespace. Notes each multi-line string literal's first and last line.
    struct Lexer {
        let bytes: [UInt8]
        var position = 0
        var line = 1
        var tokens: [Token] = []
        var multiLineStrings: [(first: Int, last: Int)] = []

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func peek(_ offset: Int = 0) -> UInt8? {
            position + offset < bytes.count ? bytes[position + offset] : nil
        }

        mutating func advance() {
            if bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }

        mutating func run() -> (tokens: [Token], multiLineStrings: [(first: Int, last: Int)]) {
            lexCode(untilClosingParenthesis: false)
            return (tokens, multiLineStrings)
        }

        /// Code, to the end of the source or (in an interpolation) to its unmatched ")".
        mutating func lexCode(untilClosingParenthesis: Bool) {
            var parentheses = 0
            while let byte = peek() {
                let start = line
                switch byte {
                case UInt8(ascii: "\n"):
                    advance()
                    if !untilClosingParenthesis { tokens.append(Token(kind: .newline, text: "\n", line: start)) }
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    advance()
                case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                    while let next = peek(), next != UInt8(ascii: "\n") { advance() }
                case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                    skipBlockComment()
                case UInt8(ascii: "\""),
                     UInt8(ascii: "#") where startsString():
                    lexString()
                    if !untilClosingParenthesis { tokens.append(Token(kind: .string, text: "\"…\"", line: start)) }
                case _ where Self.isWordByte(byte):
                    var word: [UInt8] = []
                    while let next = peek(), Self.isWordByte(next) {
                        word.append(next)
                        advance()
                    }
                    if !untilClosingParenthesis { tokens.append(Token(kind: .word, text: String(decoding: word, as: UTF8.self), line: start)) }
                default:
                    if untilClosingParenthesis {
                        if byte == UInt8(ascii: "(") { parentheses += 1 }
                        if byte == UInt8(ascii: ")") {
                            if parentheses == 0 {
                                advance()
                                return
                            }
                            parentheses -= 1
                        }
                    } else {
                        tokens.append(Token(kind: .punctuation, text: String(UnicodeScalar(byte)), line: start))
                    }
                    advance()
                }
            }
        }

        static func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
                || byte == UInt8(ascii: "@") || byte >= 0x80
        }

        /// Whether the `#`s here open a raw string (and not `#if`, `#expect`, `#filePath`).
        func startsString() -> Bool {
            var offset = 0
            while peek(offset) == UInt8(ascii: "#") { offset += 1 }
            return peek(offset) == UInt8(ascii: "\"")
        }

        /// Comments nest in Swift.
        mutating func skipBlockComment() {
            var depth = 0
            while peek() != nil {
                if peek() == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                    depth += 1
                    advance(); advance()
                } else if peek() == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                    depth -= 1
                    advance(); advance()
                    if depth == 0 { return }
                } else {
                    advance()
                }
            }
        }

        func matches(_ text: String, at offset: Int = 0) -> Bool {
            for (index, byte) in text.utf8.enumerated() where peek(offset + index) != byte { return false }
            return true
        }

        /// A string literal: `"…"`, `"""…"""`, with any number of `#` around; escapes and
        /// interpolations (code, strings in it included) inside.
        mutating func lexString() {
            var hashes = 0
            while peek() == UInt8(ascii: "#") {
                hashes += 1
                advance()
            }
            let pounds = String(repeating: "#", count: hashes)
            let multiLine = matches("\"\"\"")
            let first = line
            let quote = multiLine ? "\"\"\"" : "\""
            for _ in quote.utf8 { advance() }
            while peek() != nil {
                if matches(quote + pounds) {
                    for _ in (quote + pounds).utf8 { advance() }
                    if multiLine { multiLineStrings.append((first, line)) }
                    return
                }
                if matches("\\" + pounds) {
                    for _ in ("\\" + pounds).utf8 { advance() }
                    if peek() == UInt8(ascii: "(") {
                        advance()
                        lexCode(untilClosingParenthesis: true)
                    } else if peek() != nil {
                        advance()
                    }
                    continue
                }
                advance()
            }
        }
    }

    // MARK: Declarations

    struct Measurer {
        let tokens: [Token]
        let excluded: [(first: Int, last: Int)]

        /// What begins another declaration: met before a body's brace, the declaration has none
        /// (a protocol's requirement).
        static let declarationWords: Set<String> = [
            "func", "init", "deinit", "subscript", "var", "let", "case", "typealias", "associatedtype",
            "struct", "class", "enum", "protocol", "extension", "actor", "import",
        ]
        /// What may stand between a statement's start and its `let`/`var`.
        static let modifiers: Set<String> = [
            "static", "class", "private", "fileprivate", "internal", "public", "package", "open", "final",
            "override", "lazy", "weak", "unowned", "nonisolated", "mutating", "dynamic",
        ]

        func declarations() -> [Declaration] {
            var found: [Declaration] = []
            for index in tokens.indices where tokens[index].kind == .word {
                let word = tokens[index].text
                let previous = index > 0 ? tokens[index - 1] : nil
                var body: Int?
                var name = word
                switch word {
                case "func":
                    name = "func " + (index + 1 < tokens.count ? tokens[index + 1].text : "")
                    body = signatureBody(after: index)
                case "init", "deinit", "subscript":
                    // `.init(…)`, `super.init(…)` call an initializer; they declare none.
                    guard previous?.text != "." else { continue }
                    body = signatureBody(after: index)
                case "var", "let":
                    guard startsStatement(index) else { continue }
                    name = word + " " + (index + 1 < tokens.count ? tokens[index + 1].text : "")
                    body = bindingBody(after: index)
                default:
                    continue
                }
                guard let body, let end = closingBrace(of: body) else { continue }
                let first = tokens[index].line, last = tokens[end].line
                found.append(Declaration(name: name, line: first, length: lines(from: first, to: last)))
            }
            return found
        }

        /// The lines `first...last` less those inside multi-line strings (each string's first
        /// line, where it opens, stays: code is on it).
        func lines(from first: Int, to last: Int) -> Int {
            var count = last - first + 1
            for string in excluded where string.first >= first && string.last <= last {
                count -= string.last - string.first
            }
            return count
        }

        /// The `{` that opens a function's body after its signature, if it has one.
        func signatureBody(after index: Int) -> Int? {
            var depth = 0
            var cursor = index + 1
            while cursor < tokens.count {
                let token = tokens[cursor]
                if token.kind == .punctuation {
                    switch token.text {
                    case "(", "[": depth += 1
                    case ")", "]": depth -= 1
                    case "{" where depth == 0: return cursor
                    case "}" where depth == 0: return nil
                    default: break
                    }
                } else if token.kind == .word, depth == 0, Self.declarationWords.contains(token.text),
                          cursor > 0, tokens[cursor - 1].text != "." {
                    return nil
                }
                cursor += 1
            }
            return nil
        }

        /// The `{` of a `let`/`var` whose line opens a closure or accessor block at its own level:
        /// `var x: T {`, `let x = { … }()`, `let xCommand = Command(spec) {`.
        func bindingBody(after index: Int) -> Int? {
            var depth = 0
            var cursor = index + 1
            while cursor < tokens.count {
                let token = tokens[cursor]
                switch (token.kind, token.text) {
                case (.newline, _) where depth == 0: return nil
                case (.punctuation, "("), (.punctuation, "["): depth += 1
                case (.punctuation, ")"), (.punctuation, "]"): depth -= 1
                case (.punctuation, "{") where depth == 0: return cursor
                case (.punctuation, "}") where depth == 0, (.punctuation, ";") where depth == 0: return nil
                default: break
                }
                cursor += 1
            }
            return nil
        }

        /// Whether the `let`/`var` at `index` begins a statement (not `if let`, `case let`, a tuple's `let`).
        func startsStatement(_ index: Int) -> Bool {
            var cursor = index - 1
            while cursor >= 0 {
                let token = tokens[cursor]
                if token.kind == .newline { return true }
                // `private(set)`, `@available(…)`: a modifier's or attribute's arguments.
                if token.kind == .punctuation, token.text == ")", let open = openingParenthesis(of: cursor) {
                    cursor = open - 1
                    continue
                }
                if token.kind == .punctuation { return token.text == "{" || token.text == ";" || token.text == "}" }
                if token.kind == .word, Self.modifiers.contains(token.text) || token.text.hasPrefix("@") {
                    cursor -= 1
                    continue
                }
                return false
            }
            return true
        }

        func openingParenthesis(of close: Int) -> Int? {
            var depth = 0
            for cursor in stride(from: close, through: 0, by: -1) where tokens[cursor].kind == .punctuation {
                if tokens[cursor].text == ")" { depth += 1 }
                if tokens[cursor].text == "(" {
                    depth -= 1
                    if depth == 0 { return cursor }
                }
            }
            return nil
        }

        func closingBrace(of open: Int) -> Int? {
            var depth = 0
            for cursor in open..<tokens.count where tokens[cursor].kind == .punctuation {
                if tokens[cursor].text == "{" { depth += 1 }
                if tokens[cursor].text == "}" {
                    depth -= 1
                    if depth == 0 { return cursor }
                }
            }
            return nil
        }
    }
}
