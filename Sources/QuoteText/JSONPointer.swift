import QuoteBase
/// A JSON Pointer (RFC 6901): "" is the whole document, "/results" a member of it, "/a~1b/0"
/// the first element of the member "a/b". Where a list's items are (`items =`) and where a
/// mapped field is inside an item (`author:/author/name`).
public struct JSONPointer: Sendable, Equatable, CustomStringConvertible {
    /// The reference tokens, unescaped (`~1` is "/", `~0` is "~").
    public let tokens: [String]
    /// The pointer as written.
    public let text: String

    /// Why a text is not a JSON Pointer; the message names it.
    public struct Malformed: Error, Equatable, Sendable, CustomStringConvertible {
        public let pointer: String
        public let reason: String
        public var description: String { tr("\"\(pointer)\" is not a JSON Pointer: \(reason)") }
    }

    /// The longest pointer read: a configuration value, not a document.
    public static let maximumBytes = 1_024

    public init(_ text: String) throws(Malformed) {
        self.text = text
        guard text.utf8.count <= Self.maximumBytes else {
            throw Malformed(pointer: String(text.prefix(40)) + "…", reason: tr("longer than \(Self.maximumBytes) bytes"))
        }
        guard !text.isEmpty else { tokens = []; return }
        guard text.hasPrefix("/") else { throw Malformed(pointer: text, reason: tr("it must start with '/' (or be empty: the whole document)")) }
        var tokens: [String] = []
        for part in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            tokens.append(try Self.unescape(part, in: text))
        }
        self.tokens = tokens
    }

    /// The whole document.
    public static let root = try! JSONPointer("")

    public var isRoot: Bool { tokens.isEmpty }
    public var description: String { text }

    /// `~0` → "~", `~1` → "/"; any other `~` is an error (RFC 6901, section 4).
    private static func unescape(_ part: Substring, in text: String) throws(Malformed) -> String {
        guard part.contains("~") else { return String(part) }
        var result = ""
        var tilde = false
        for character in part {
            if tilde {
                switch character {
                case "0": result.append("~")
                case "1": result.append("/")
                default: throw Malformed(pointer: text, reason: tr("'~' must be followed by 0 or 1"))
                }
                tilde = false
            } else if character == "~" {
                tilde = true
            } else {
                result.append(character)
            }
        }
        guard !tilde else { throw Malformed(pointer: text, reason: tr("'~' must be followed by 0 or 1")) }
        return result
    }

    /// A token as an array index: digits without a leading zero (RFC 6901, section 4); one too
    /// large for an Int can be in no array, so it is `Int.max`. Nil when it is no index ("-", "a").
    public static func index(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        guard token == "0" || token.utf8.first != UInt8(ascii: "0") else { return nil }
        return Int(token) ?? Int.max
    }

    /// The value this pointer names inside `value`, or nil when it leads nowhere.
    public func resolve(in value: JSONValue) -> JSONValue? {
        var current = value
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                guard let index = Self.index(token), index < array.count else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }
}

extension JSONPointer {
    /// " at /a/b": where on the path, `depth` tokens in, something was found (nothing for the
    /// document itself).
    func place(_ depth: Int) -> String {
        guard depth > 0 else { return "" }
        let path = "/" + tokens.prefix(depth).map { $0.replacingTilde() }.joined(separator: "/")
        // TRANSLATORS: follows what was found in a JSON document, naming where (a JSON Pointer).
        return tr(" at \(path)")
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
