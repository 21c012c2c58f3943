/// Text inside the markup GMarkup and Pango read (a notification server's body, waybar's text
/// and tooltip): `&`, `<` and `>` as entities, which the parser reads back as the characters.
public enum Markup {
    /// An `&amp;` already in a quote is text, and becomes `&amp;amp;`.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
