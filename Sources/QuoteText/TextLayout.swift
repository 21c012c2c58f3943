/// How a quote's text is laid out for a reader at a terminal: wrapped when it flows, as written
/// when its writer laid it out. Wrapping is the display's business, done here at display time;
/// the stored text is never rewrapped.
public enum TextLayout {
    /// Whether `text` was laid out by its writer — ASCII art, verse, dialogue, a fortune as its
    /// file holds it: it holds a line break or a tab, which wrapping would lose. A text of one
    /// line flows, even with two spaces after a full stop (as typists wrote it): a stored text
    /// of one line has no indentation, so wrapping loses nothing a reader needs.
    public static func isPreformatted(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// `text` in lines for a reader `width` columns wide: between words at most `width` display
    /// columns each when it flows; its own lines, as written, when it is preformatted.
    public static func lines(_ text: String, width: Int) -> [String] {
        guard isPreformatted(text) else { return DisplayWidth.wrap(text, width: width) }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    }
}
