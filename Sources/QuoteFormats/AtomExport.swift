import QuoteBase
import QuoteModels

/// `quotectl export --format atom`: the quotes as an Atom 1.0 feed, one entry a quote, which
/// `FeedReader` reads back (text, author, category, date; the id is the quote's source and id).
/// Everything from the store is XML-escaped, and the characters XML 1.0 cannot carry at all
/// (control characters, U+FFFE, U+FFFF) become U+FFFD: a feed reader stops at the first one.
enum AtomExport {
    /// The feed's start; `now` is its `updated`.
    static func header(source: String?, now: Int) -> String {
        // English on purpose: the Atom export is machine output
        """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
          <id>quoted:export/\(escaped(iri(source ?? "all")))</id>
          <title>\(escaped("quotes" + (source.map { " from " + $0 } ?? "")))</title>
          <generator>quotectl</generator>
          <updated>\(date(now))</updated>

        """
    }

    static let footer = "</feed>\n"

    static func entry(_ quote: Quote) -> String {
        var entry = "  <entry>\n"
        entry += "    <id>quoted:\(escaped(iri(quote.source)))/\(escaped(iri(quote.upstreamID)))</id>\n"
        entry += "    <title>\(escaped(title(quote.text)))</title>\n"
        entry += "    <updated>\(date(max(quote.firstSeen, quote.lastSeen)))</updated>\n"
        if let published = quote.published { entry += "    <published>\(date(published))</published>\n" }
        if let author = quote.author { entry += "    <author><name>\(escaped(author))</name></author>\n" }
        // English on purpose: the Atom export is machine output
        if let category = quote.category { entry += "    <category term=\"\(escaped(category))\"/>\n" }
        // English on purpose: the Atom export is machine output
        entry += "    <content type=\"text\">\(escaped(quote.text))</content>\n"
        return entry + "  </entry>\n"
    }

    /// The text's first line, shortened: what a feed reader lists.
    static func title(_ text: String) -> String {
        let line = text.prefix(while: { $0 != "\n" && $0 != "\r\n" })
        return line.count > 80 ? String(line.prefix(79)) + "…" : String(line)
    }

    /// RFC 3339, as Atom requires.
    static func date(_ seconds: Int) -> String {
        UnixTime.rfc3339(seconds)
    }

    /// An id part with everything but RFC 3986's unreserved characters percent-encoded.
    static func iri(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // A literal CR is read back as LF (XML's line-end rule): written as a reference, it stays a CR.
            case "\r": out += "&#xD;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
