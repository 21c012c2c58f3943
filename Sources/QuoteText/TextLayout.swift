/// How a quote's text is laid out for a reader at a terminal: wrapped when it flows, as written
/// when its writer laid it out. Wrapping is the display's business, done here at display time;
/// the stored text is never rewrapped.
public enum TextLayout {
    /// Whether `text` was laid out by its writer — ASCII art, verse, dialogue, a fortune as its
    /// file holds it: it holds a line break, a tab or a run of two spaces. Those are what wrapping
    /// would lose (it joins words with one space and breaks lines where it likes), so a text
    /// without any of them loses nothing by being wrapped, and one with them is never rewrapped.
    public static func isPreformatted(_ text: String) -> Bool {
        var afterSpace = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t":
                return true
            case " ":
                if afterSpace { return true }
                afterSpace = true
            default:
                afterSpace = false
            }
        }
        return false
    }

    /// `text` in lines for a reader `width` columns wide: between words at most `width` display
    /// columns each when it flows; its own lines, as written, when it is preformatted.
    public static func lines(_ text: String, width: Int) -> [String] {
        guard isPreformatted(text) else { return DisplayWidth.wrap(text, width: width) }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    }
}
