import QuoteBase
/// A parsed JSON document. Strings whose bytes are not valid UTF-8 (or that hold
/// a lone surrogate escape) parse as `.invalidText` instead of failing the whole
/// document, so a validator can skip just the record that holds one.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case double(Double)
    case string(String)
    case invalidText
    case array([JSONValue])
    case object(JSONObject)

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// Integers, and doubles with no fractional part (some APIs write 60.0).
    public var int: Int? {
        switch self {
        case .integer(let value): return value
        case .double(let value) where value.rounded() == value && abs(value) < 9.0e15: return Int(value)
        default: return nil
        }
    }

    public var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var object: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// A short name of the kind, for messages ("expected a string, found a number").
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return tr("a boolean")
        case .integer, .double: return tr("a number")
        case .string: return tr("a string")
        case .invalidText: return tr("text that is not valid UTF-8")
        case .array: return tr("an array")
        case .object: return tr("an object")
        }
    }

    public subscript(key: String) -> JSONValue? {
        object?[key]
    }
}

/// Members in document order. Objects here are small, so a linear lookup beats hashing.
public struct JSONObject: Equatable, Sendable {
    public var members: [(key: String, value: JSONValue)]

    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    public subscript(key: String) -> JSONValue? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
