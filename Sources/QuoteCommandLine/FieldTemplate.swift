import QuoteBase
/// The names a template may use, as `{name}`.
public protocol TemplateField: RawRepresentable<String>, CaseIterable, Equatable, Sendable {}

/// A user's output template, such as `{text} — {author}`: literal text and `{field}`s, checked
/// when it is read (an unknown field is an error naming it and the fields there are). `{{`
/// and `}}` stand for a literal brace.
public struct FieldTemplate<Field: TemplateField>: Equatable, Sendable {
    public enum Part: Equatable, Sendable {
        case literal(String)
        case field(Field)
    }

    public let parts: [Part]

    public struct ParseError: Error, Equatable {
        public let message: String
    }

    public init(_ text: String) throws(ParseError) {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        func next(_ i: String.Index) -> Character? { i < text.endIndex ? text[i] : nil }
        while index < text.endIndex {
            let character = text[index]
            let after = text.index(after: index)
            switch character {
            case "{" where next(after) == "{", "}" where next(after) == "}":
                literal.append(character)
                index = text.index(after: after)
            case "{":
                guard let close = text[after...].firstIndex(of: "}") else {
                    throw ParseError(message: tr("a '{' with no '}' (write {{ for a literal brace)"))
                }
                let name = String(text[after..<close])
                guard let field = Field(rawValue: name) else {
                    throw ParseError(message: tr("unknown field {\(name)}: the fields are \(Self.fieldList)"))
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.field(field))
                index = text.index(after: close)
            case "}":
                throw ParseError(message: tr("a '}' with no '{' (write }} for a literal brace)"))
            default:
                literal.append(character)
                index = after
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// Every field, as the template writes it: "{text}, {author}, …".
    /// Inlined where it is used (quotectl's help texts, built at start): specialised there.
    @inlinable public static var fieldList: String { Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ") }

    public func render(_ value: (Field) -> String) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .field(let field): out += value(field)
            }
        }
        return out
    }
}
