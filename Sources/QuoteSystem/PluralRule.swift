/// A catalog header's plural rule (`Plural-Forms: nplurals=2; plural=n != 1;`), read as glibc
/// reads it, to learn whether evaluating it can trap: glibc divides with C's unsigned `/` and `%`,
/// so a divisor that is zero, or that depends on n (`n/0`, `n%(n-5)`), kills the process with
/// SIGFPE. Real rules divide only by constants (`n%10`, `n%100`); one that does otherwise, or
/// that this grammar (gettext's: ?:, ||, &&, == !=, < > <= >=, + -, * / %, !, n, numbers,
/// parentheses) does not read, keeps the catalog unused.
enum PluralRule {
    /// Deeper than any real rule; a deeper one is refused before it can exhaust a stack.
    static let depthLimit = 64

    /// Why the rule in `header` must not be evaluated, or nil when it may (or the header has
    /// none, and glibc uses its own `n != 1`).
    static func refusal(ofHeader header: [UInt8]) -> String? {
        // glibc looks for both anywhere in the header, and falls back to its default without either.
        guard let start = header.end(ofFirst: Array("plural=".utf8)),
              header.end(ofFirst: Array("nplurals=".utf8)) != nil else { return nil }
        var parser = Parser(bytes: header, position: start)
        do {
            try parser.conditional(depth: 0)
            guard parser.atEnd() else { return "its plural rule does not read past byte \(parser.position)" }
            return nil
        } catch {
            return "its plural rule \(error.reason)"
        }
    }

    struct Refusal: Error { let reason: String }

    /// What an expression is: does it read n, and (when it does not) its value.
    struct Term { let readsN: Bool; let value: UInt64 }

    /// A recursive-descent reader of the rule, from gettext's grammar, lowest precedence first.
    struct Parser {
        let bytes: [UInt8]
        var position: Int

        @discardableResult
        mutating func conditional(depth: Int) throws(Refusal) -> Term {
            guard depth < PluralRule.depthLimit else { throw Refusal(reason: "nests deeper than \(PluralRule.depthLimit)") }
            let test = try binary(level: 0, depth: depth + 1)
            guard take("?") else { return test }
            let yes = try conditional(depth: depth + 1)
            guard take(":") else { throw Refusal(reason: "has a '?' without its ':'") }
            let no = try conditional(depth: depth + 1)
            let readsN = test.readsN || yes.readsN || no.readsN
            return Term(readsN: readsN, value: readsN ? 0 : (test.value != 0 ? yes.value : no.value))
        }

        /// The binary operators by level, loosest first, each level left-associative.
        static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"], ["*", "/", "%"]]

        mutating func binary(level: Int, depth: Int) throws(Refusal) -> Term {
            guard level < Self.levels.count else { return try unary(depth: depth) }
            var left = try binary(level: level + 1, depth: depth)
            while let symbol = Self.levels[level].first(where: { take($0) }) {
                let right = try binary(level: level + 1, depth: depth)
                left = try Self.combine(left, symbol, right)
            }
            return left
        }

        static func combine(_ left: Term, _ symbol: String, _ right: Term) throws(Refusal) -> Term {
            if symbol == "/" || symbol == "%" {
                guard !right.readsN else { throw Refusal(reason: "divides by an expression of n (a zero would kill the program)") }
                guard right.value != 0 else { throw Refusal(reason: "divides by zero") }
            }
            guard !left.readsN, !right.readsN else { return Term(readsN: true, value: 0) }
            let (a, b) = (left.value, right.value)
            let value: UInt64
            switch symbol {
            case "||": value = a != 0 || b != 0 ? 1 : 0
            case "&&": value = a != 0 && b != 0 ? 1 : 0
            case "==": value = a == b ? 1 : 0
            case "!=": value = a != b ? 1 : 0
            case "<=": value = a <= b ? 1 : 0
            case ">=": value = a >= b ? 1 : 0
            case "<": value = a < b ? 1 : 0
            case ">": value = a > b ? 1 : 0
            case "+": value = a &+ b
            case "-": value = a &- b
            case "*": value = a &* b
            case "/": value = a / b
            default: value = a % b
            }
            return Term(readsN: false, value: value)
        }

        mutating func unary(depth: Int) throws(Refusal) -> Term {
            if take("!") {
                let operand = try unaryDeeper(depth)
                return Term(readsN: operand.readsN, value: operand.value == 0 ? 1 : 0)
            }
            if take("(") {
                let inner = try conditional(depth: depth + 1)
                guard take(")") else { throw Refusal(reason: "has a '(' without its ')'") }
                return inner
            }
            if take("n") { return Term(readsN: true, value: 0) }
            return Term(readsN: false, value: try number())
        }

        mutating func unaryDeeper(_ depth: Int) throws(Refusal) -> Term {
            guard depth < PluralRule.depthLimit else { throw Refusal(reason: "nests deeper than \(PluralRule.depthLimit)") }
            return try unary(depth: depth + 1)
        }

        mutating func number() throws(Refusal) -> UInt64 {
            skipBlanks()
            var value: UInt64 = 0, digits = 0
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                // strtoul saturates; a rule has no use for numbers this large anyway.
                let (times, over) = value.multipliedReportingOverflow(by: 10)
                let (sum, past) = times.addingReportingOverflow(UInt64(bytes[position] - UInt8(ascii: "0")))
                guard !over, !past else { throw Refusal(reason: "has a number too large") }
                value = sum
                position += 1
                digits += 1
            }
            guard digits > 0 else { throw Refusal(reason: "has something unreadable at byte \(position)") }
            return value
        }

        /// Takes `symbol` if it comes next (after blanks), keeping `<` from taking the start of `<=`.
        mutating func take(_ symbol: String) -> Bool {
            skipBlanks()
            let wanted = Array(symbol.utf8)
            guard position + wanted.count <= bytes.count, Array(bytes[position..<(position + wanted.count)]) == wanted else { return false }
            let next = position + wanted.count < bytes.count ? bytes[position + wanted.count] : 0
            if wanted.count == 1, "<>=!".utf8.contains(wanted[0]), next == UInt8(ascii: "=") { return false }
            if wanted == Array("|".utf8) || wanted == Array("&".utf8) { return false }
            position += wanted.count
            return true
        }

        mutating func skipBlanks() {
            while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") { position += 1 }
        }

        /// glibc's reader stops at ';', a line's end or the string's end.
        mutating func atEnd() -> Bool {
            skipBlanks()
            return position >= bytes.count || [UInt8(ascii: ";"), UInt8(ascii: "\n"), 0].contains(bytes[position])
        }
    }
}
