import QuoteBase
/// The kinds of source: THE vocabulary, shared by the store (`sources.kind`), the
/// configuration (`[source.KIND]`) and the sync engine.
public enum SourceKind: String, Sendable, CaseIterable {
    case builtin, custom, happiness, breakingbad, upbit, weather

    /// The kinds that are one source each, named after the kind (all but custom lists).
    public static let fixed: [SourceKind] = [.builtin, .happiness, .breakingbad, .upbit, .weather]
}

/// Source names, as used everywhere: `builtin`, `happiness`, `breakingbad`,
/// `upbit`, `weather`, and `custom.NAME` for each custom list.
public enum SourceName {
    public static let builtin = SourceKind.builtin.rawValue
    public static let happiness = SourceKind.happiness.rawValue
    public static let breakingbad = SourceKind.breakingbad.rawValue
    public static let upbit = SourceKind.upbit.rawValue
    public static let weather = SourceKind.weather.rawValue
    public static let fixed = SourceKind.fixed.map(\.rawValue)
    static let customPrefix = SourceKind.custom.rawValue + "."

    /// `custom.NAME` for a list name, or nil if NAME is not a valid list name
    /// (letters, digits, '-', '_', '.', at most 64 characters).
    public static func custom(_ listName: String) -> String? {
        isValidListName(listName) ? customPrefix + listName : nil
    }

    /// NAME of `custom.NAME`, or nil for any other source name.
    public static func listName(of name: String) -> String? {
        guard name.hasPrefix(customPrefix) else { return nil }
        let list = String(name.dropFirst(customPrefix.count))
        return isValidListName(list) ? list : nil
    }

    /// A list named either way: `stoics` or `custom.stoics`.
    public static func custom(named given: String) -> String? {
        custom(listName(of: given) ?? given)
    }

    public static func isValidListName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
    }

    /// The kind of a source name, or nil if the name is not a source.
    public static func kind(of name: String) -> SourceKind? {
        if let kind = SourceKind(rawValue: name), kind != .custom { return kind }
        return listName(of: name) != nil ? .custom : nil
    }

    /// Whether `--source NAME` is acceptable: a source name, or `custom` for every custom list.
    public static func isValidFilter(_ name: String) -> Bool {
        name == SourceKind.custom.rawValue || kind(of: name) != nil
    }
}
