/// URL facts the configuration and the HTTP client both need, without Foundation.
public enum URLText {
    /// "https" / "http" and the host of an absolute URL, or nil.
    public static func schemeAndHost(_ url: String) -> (scheme: String, host: String)? {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        let scheme = url[..<colon].lowercased()
        var rest = url[url.index(colon, offsetBy: 3)...]
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        var host: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
        } else {
            host = rest
            if let port = rest.lastIndex(of: ":") { host = rest[..<port] }
        }
        guard !host.isEmpty, scheme == "http" || scheme == "https" else { return nil }
        return (scheme, host.lowercased())
    }

    /// Whether the URL carries user information (`user:password@`) before its host.
    public static func hasUserInfo(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return false }
        let authority = url[url.index(colon, offsetBy: 3)...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.contains("@")
    }

    /// 127.0.0.0/8, ::1 and localhost: the only hosts allowed plain http without `allow_http`.
    public static func isLoopback(host: String) -> Bool {
        if host == "localhost" || host == "::1" || host.hasSuffix(".localhost") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The URL without user information, query and fragment, for messages and the store:
    /// queries can hold secrets (appid=), and so can `user:password@`.
    public static func redacted(_ url: String) -> String {
        var text = url
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<end]) }
        if hasUserInfo(text), let colon = text.firstIndex(of: ":") {
            let start = text.index(colon, offsetBy: 3)
            let authorityEnd = text[start...].firstIndex(of: "/") ?? text.endIndex
            if let at = text[start..<authorityEnd].lastIndex(of: "@") {
                text = String(text[..<start]) + "***" + String(text[at...])
            }
        }
        return text
    }

    /// Percent-encodes everything but ASCII letters, digits and "-._~" (RFC 3986's
    /// unreserved characters), for a value in a query.
    public static func queryEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var out = String.UnicodeScalarView()
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Unicode.Scalar(byte))
            default:
                out.append("%")
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return String(out)
    }

    /// `url` with `parameters` added to its query (after any it has), in order.
    public static func adding(_ parameters: [(String, String)], to url: String) -> String {
        let fragmentStart = url.firstIndex(of: "#") ?? url.endIndex
        let base = String(url[..<fragmentStart])
        let query = parameters.map { queryEncoded($0.0) + "=" + queryEncoded($0.1) }.joined(separator: "&")
        guard !query.isEmpty else { return url }
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + query + url[fragmentStart...]
    }
}
