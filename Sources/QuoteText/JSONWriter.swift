/// Writes JSON text. Every Swift String is valid Unicode, so escaping quotes,
/// backslashes and control characters is all it takes to stay valid JSON; the controls
/// a terminal or a reader would act on are escaped too, so `--json | cat` is safe.
public enum JSONWriter {
    public static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            // U+2028/2029 are valid JSON but end lines in JavaScript and some line readers.
            case "\u{2028}", "\u{2029}": out += scalar == "\u{2028}" ? "\\u2028" : "\\u2029"
            default:
                // C0, DEL, C1 (U+009B is a one-character CSI on many terminals) and the bidi
                // embeddings, overrides and isolates that reorder what a reader sees.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
        return out
    }

    public static func serialize(_ value: JSONValue) -> String {
        switch value {
        case .null, .invalidText: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .double(let number): return number.isFinite ? "\(number)" : "null"
        case .string(let text): return quoted(text)
        case .array(let elements): return "[" + elements.map(serialize).joined(separator: ",") + "]"
        case .object(let object):
            return "{" + object.members.map { quoted($0.key) + ":" + serialize($0.value) }.joined(separator: ",") + "}"
        }
    }
}

/// Builds one JSON object, member by member, for `--json` output (one object per line).
public struct JSONObjectBuilder {
    private var text = "{"
    private var empty = true

    public init() {}

    private mutating func key(_ name: String) {
        if !empty { text += "," }
        empty = false
        text += JSONWriter.quoted(name) + ":"
    }

    public mutating func add(_ name: String, _ value: String?) {
        key(name)
        text += value.map(JSONWriter.quoted) ?? "null"
    }

    public mutating func add(_ name: String, _ value: Int?) {
        key(name)
        text += value.map { String($0) } ?? "null"
    }

    public mutating func add(_ name: String, _ value: Double?) {
        key(name)
        text += value.map { $0.isFinite ? "\($0)" : "null" } ?? "null"
    }

    public mutating func add(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    /// A member whose value is already JSON text (a stored JSON array, a nested object).
    public mutating func addRaw(_ name: String, json: String) {
        key(name)
        text += json
    }

    public var result: String { text + "}" }
}
