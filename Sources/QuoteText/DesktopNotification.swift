import QuoteBase
/// A quote as a freedesktop desktop notification, and the command line of Debian's
/// `notify-send` (libnotify-bin) that shows it. Pure: the text in, the arguments out.
///
/// The body is markup to the servers that advertise "body-markup" (dunst, GNOME Shell,
/// KDE, mako): a quote's `<` or `&` must be escaped or it vanishes or breaks the body
/// (dunst #616). The summary is plain text by the specification, so it is not escaped
/// (dunst would show `&amp;`). Both are cleaned of control characters, bidi overrides and
/// NUL (which would end a C string: the rest of the quote lost) and capped, since a list's
/// quote can be far longer than any notification shows, and an argument over 128 KiB
/// would make exec fail.
public struct DesktopNotification: Equatable, Sendable {
    /// What the notification says when the quote has no author.
    public enum Occasion: Sendable {
        case quoteOfTheDay, randomQuote

        var untitled: String {
            switch self {
            case .quoteOfTheDay: return tr("Quote of the day")
            case .randomQuote: return tr("A quote")
            }
        }
    }

    /// The application name servers group and filter by (dunst's `appname`).
    public static let appName = "quoted"
    /// Characters kept of the body and of the summary; longer ones end with "…".
    public static let bodyLimit = 1_000
    public static let summaryLimit = 200
    /// The hint carrying the quote's language, for rules in the server (dunst's
    /// `[rule]`s match on it through scripts) and for a reader of the bus.
    public static let languageHint = "x-quoted-lang"

    public let summary: String
    /// Escaped for body markup.
    public let body: String
    /// A BCP 47-like tag (letters, digits, '-'), or nil when the quote has none or a malformed one.
    public let language: String?

    public init(text: String, author: String?, language: String?, occasion: Occasion) {
        let author = author.map { Self.capped(TerminalSanitizer.clean($0).flattened, to: Self.summaryLimit) } ?? ""
        let trimmed = author.trimmingSpaces
        summary = trimmed.isEmpty ? occasion.untitled : trimmed
        body = Markup.escape(Self.capped(TerminalSanitizer.clean(text), to: Self.bodyLimit))
        self.language = language.flatMap(Self.languageTag)
    }

    /// `notify-send`'s arguments after its name: `--` before the summary, so a quote or an
    /// author starting with '-' is never read as an option.
    public var notifySendArguments: [String] {
        var arguments = ["--app-name=\(Self.appName)", "--urgency=low"]
        if let language { arguments.append("--hint=string:\(Self.languageHint):\(language)") }
        return arguments + ["--", summary, body]
    }

    /// At most `limit` characters (grapheme clusters: a Hangul syllable or an emoji is never cut).
    static func capped(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    /// A language tag as a hint may carry it: letters, digits and '-', at most 35 (RFC 5646's
    /// longest useful tag); anything else is not passed on.
    static func languageTag(_ tag: String) -> String? {
        guard !tag.isEmpty, tag.utf8.count <= 35,
              tag.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D })
        else { return nil }
        return tag
    }
}

private extension String {
    /// One line: a summary is a title, and line breaks in it become spaces.
    var flattened: String { String(map { $0.isNewline || $0 == "\t" ? " " : $0 }) }

    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
