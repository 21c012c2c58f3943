/// Source names, as used everywhere: `builtin`, `happiness`, `breakingbad`,
/// `upbit`, `weather`, and `custom.NAME` for each custom list.
public enum SourceName {
    public static let builtin = "builtin"
    public static let happiness = "happiness"
    public static let breakingbad = "breakingbad"
    public static let upbit = "upbit"
    public static let weather = "weather"
    public static let fixed = [builtin, happiness, breakingbad, upbit, weather]
    public static let customPrefix = "custom."

    /// `custom.NAME` for a list name, or nil if NAME is not a valid list name
    /// (letters, digits, '-', '_', '.', at most 64 characters).
    public static func custom(_ listName: String) -> String? {
        isValidListName(listName) ? customPrefix + listName : nil
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

    public static func isCustom(_ name: String) -> Bool {
        name.hasPrefix(customPrefix)
    }

    /// The `kind` column for a source name, or nil if the name is not a source.
    public static func kind(of name: String) -> String? {
        if fixed.contains(name) { return name }
        if isCustom(name), isValidListName(String(name.dropFirst(customPrefix.count))) { return "custom" }
        return nil
    }

    /// Whether `--source NAME` is acceptable: a source name, or `custom` for every custom list.
    public static func isValidFilter(_ name: String) -> Bool {
        name == "custom" || kind(of: name) != nil
    }
}
