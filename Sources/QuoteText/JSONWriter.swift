/// Writes JSON text. Every Swift String is valid Unicode, so escaping quotes,
/// backslashes and control characters is all it takes to stay valid JSON; the controls
/// a terminal or a reader would act on are escaped too, so `--json | cat` is safe.
public enum JSONWriter {
    /// `text` as a JSON string. Read as UTF-8 bytes, the runs that need no escape copied as they
    /// are: a scalar at a time through `unicodeScalars` cost `quotectl random` a twentieth of its
    /// instructions, for the one line it adds to the shown history (docs/benchmarks.md).
    public static func quoted(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 2)
            out.append(UInt8(ascii: "\""))
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
                case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
                case 0x00..<0x20, 0x7F: appendEscape(UInt32(byte), to: &out)
                default:
                    guard let (scalar, width) = escapedScalar(bytes, at: index) else {
                        out.append(byte)
                        index += 1
                        continue
                    }
                    appendEscape(scalar, to: &out)
                    index += width
                    continue
                }
                index += 1
            }
            out.append(UInt8(ascii: "\""))
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The scalar starting at `index` when it is one escaped although printable JSON allows it,
    /// with its UTF-8 width: C1 controls (U+0080-U+009F; U+009B is a one-character CSI on many
    /// terminals), U+2028/2029 (valid JSON that ends lines in JavaScript and some line readers),
    /// and the bidi embeddings, overrides and isolates that reorder what a reader sees
    /// (U+202A-U+202E, U+2066-U+2069). Valid UTF-8 is given: a Swift String holds nothing else.
    private static func escapedScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        let byte = bytes[index]
        if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
            return (UInt32(bytes[index + 1]), 2)
        }
        guard byte == 0xE2, index + 2 < bytes.count else { return nil }
        let scalar = 0x2000 | (UInt32(bytes[index + 1] & 0x3F) << 6) | UInt32(bytes[index + 2] & 0x3F)
        return (0x2028...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar) ? (scalar, 3) : nil
    }

    /// `\u` and four lowercase hex digits.
    private static func appendEscape(_ scalar: UInt32, to out: inout [UInt8]) {
        out += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8((scalar >> UInt32(shift)) & 0xF)
            out.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
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
