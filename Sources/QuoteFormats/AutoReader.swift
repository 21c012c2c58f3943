import QuoteModels

/// `format = auto`: holds the first bytes (at most `maximumHeldBytes`) until the format can be
/// told, then hands them and the rest to that format's reader from `ListReaders`. The
/// Content-Type decides first, then a file name's ending, then the bytes (`FormatSniffer`).
public struct AutoReader: ListReader {
    public static let maximumHeldBytes = 64 << 10

    let settings: ListFormat
    let source: String
    let contentType: String?
    let name: String?
    private var held: [UInt8] = []
    private var triedAt = 0
    private var skippedLines = 0
    private var decided: (any ListReader)?

    public var format: ListFormat.Kind? { decided?.format }

    public init(settings: ListFormat, source: String, contentType: String?, name: String?) {
        self.settings = settings
        self.source = source
        self.contentType = contentType
        self.name = name
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (ListRecord) throws -> Void) throws {
        var rest = chunk[...]
        while decided == nil, !rest.isEmpty {
            let taken = rest.prefix(Self.maximumHeldBytes - held.count)
            held.append(contentsOf: taken)
            rest = rest[taken.endIndex...]
            let full = held.count >= Self.maximumHeldBytes
            if full, FormatSniffer.skipBlank(held, from: 0) == held.count {
                // Only blanks so far, however many MiB: counted by their line ends (so lines keep
                // their numbers), not held.
                skippedLines += held.count { $0 == 0x0A }
                held.removeAll(keepingCapacity: true)
                triedAt = 0
                continue
            }
            // Looked at again only when what is held has doubled: bytes arriving one at a time
            // cost no more than the held bytes once over.
            guard full || held.count >= triedAt * 2 else { return }
            triedAt = held.count
            guard let kind = FormatSniffer.decide(contentType: contentType, name: name, head: held, complete: full) else { return }
            try start(kind, body)
        }
        guard decided != nil, !rest.isEmpty else { return }
        try decided!.feed(UnsafeRawBufferPointer(rebasing: rest), body)
    }

    public mutating func finish(_ body: (ListRecord) throws -> Void) throws {
        if decided == nil {
            let kind = FormatSniffer.decide(contentType: contentType, name: name, head: held, complete: true) ?? .text
            try start(kind, body)
        }
        try decided!.finish(body)
    }

    private mutating func start(_ kind: ListFormat.Kind, _ body: (ListRecord) throws -> Void) throws {
        var settings = self.settings
        settings.kind = kind
        var reader = try ListReaders.reader(for: settings, source: source, contentType: contentType, name: name)
        let newlines = [UInt8](repeating: 0x0A, count: min(skippedLines, Self.maximumHeldBytes))
        var left = skippedLines
        while left > 0 {
            let count = min(left, newlines.count)
            try newlines[..<count].withUnsafeBytes { try reader.feed($0, body) }
            left -= count
        }
        let held = self.held
        self.held = []
        try held.withUnsafeBytes { try reader.feed($0, body) }
        decided = reader
    }
}

/// How `auto` tells a list's format.
enum FormatSniffer {
    /// The format, or nil while the bytes seen (`head`) cannot tell yet and more may come.
    static func decide(contentType: String?, name: String?, head: [UInt8], complete: Bool) -> ListFormat.Kind? {
        if let kind = byMediaType(contentType) { return kind }
        if let kind = byName(name) { return kind }
        return byBytes(head, complete: complete)
    }

    static func byMediaType(_ contentType: String?) -> ListFormat.Kind? {
        guard let contentType else { return nil }
        let media = contentType.split(separator: ";").first.map { String($0).trimmingASCIIWhitespace().lowercased() } ?? ""
        switch media {
        case "application/json": return .json
        case "text/csv": return .csv
        case "application/atom+xml": return .atom
        case "application/rss+xml", "application/rdf+xml": return .rss
        default: return media.hasSuffix("+json") ? .json : nil
        }
    }

    static func byName(_ name: String?) -> ListFormat.Kind? {
        guard let name else { return nil }
        // A URL's path: what follows `?` or `#` is not part of the name.
        let path = name.split(separator: "?", maxSplits: 1).first?.split(separator: "#", maxSplits: 1).first ?? ""
        let lowered = path.lowercased()
        if lowered.hasSuffix(".csv") { return .csv }
        if lowered.hasSuffix(".fortune") || lowered.hasSuffix(".dat") { return .fortune }
        if lowered.hasSuffix(".atom") { return .atom }
        if lowered.hasSuffix(".rss") { return .rss }
        return nil
    }

    /// `[`/`{` is JSON, `<` a feed (Atom's `<feed`, RSS's `<rss` or `<rdf:RDF`), quotectl's CSV
    /// export header CSV, a lone `%` line a fortune file, anything else text.
    static func byBytes(_ head: [UInt8], complete: Bool) -> ListFormat.Kind? {
        var index = skipBlank(head, from: 0)
        guard index < head.count else { return complete ? .text : nil }
        switch head[index] {
        case UInt8(ascii: "["), UInt8(ascii: "{"): return .json
        case UInt8(ascii: "<"):
            index = skipProlog(head, from: index)
            guard index < head.count else { return complete ? .atom : nil }
            if starts(head, at: index, with: "<feed") { return .atom }
            if starts(head, at: index, with: "<rss") || starts(head, at: index, with: "<rdf:RDF") { return .rss }
            // Too few bytes yet to tell `<rdf:RDF` from another element.
            return complete || head.count - index >= "<rdf:RDF".utf8.count ? .atom : nil
        default:
            // quotectl's own CSV export says what it is; another CSV needs its name or Content-Type.
            if starts(head, at: index, with: CSVColumns.exportHeader.joined(separator: ",")) { return .csv }
            return hasLonePercentLine(head, complete: complete) ? .fortune : (complete ? .text : nil)
        }
    }

    static func skipBlank(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
        return index
    }

    /// White space, or a byte of a UTF-8 byte-order mark (a switch: an array literal here would
    /// be made for every byte of a body of blanks).
    private static func isBlank(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF: return true
        default: return false
        }
    }

    /// Past `<?xml …?>`, `<!-- … -->` and `<!DOCTYPE …>`: to the document's first element
    /// (or to the end when what was seen does not reach it yet).
    static func skipProlog(_ bytes: [UInt8], from start: Int) -> Int {
        var index = skipBlank(bytes, from: start)
        while index < bytes.count {
            let close: String
            if starts(bytes, at: index, with: "<?") { close = "?>" }
            else if starts(bytes, at: index, with: "<!--") { close = "-->" }
            else if starts(bytes, at: index, with: "<!") { close = ">" }
            else { return index }
            guard let end = find(close, in: bytes, from: index + 2) else { return bytes.count }
            index = skipBlank(bytes, from: end)
        }
        return index
    }

    static func hasLonePercentLine(_ bytes: [UInt8], complete: Bool) -> Bool {
        var lineStart = true
        for (index, byte) in bytes.enumerated() {
            if lineStart, byte == UInt8(ascii: "%") {
                let next: UInt8? = index + 1 < bytes.count ? bytes[index + 1] : (complete ? 0x0A : nil)
                if next == 0x0A || next == 0x0D { return true }
            }
            lineStart = byte == 0x0A
        }
        return false
    }

    static func starts(_ bytes: [UInt8], at index: Int, with prefix: String) -> Bool {
        let prefix = Array(prefix.utf8)
        return bytes.count - index >= prefix.count && bytes[index..<index + prefix.count].elementsEqual(prefix)
    }

    /// The index just past `needle`'s first occurrence at or after `start`.
    static func find(_ needle: String, in bytes: [UInt8], from start: Int) -> Int? {
        let needle = Array(needle.utf8)
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<index + needle.count].elementsEqual(needle) { return index + needle.count }
            index += 1
        }
        return nil
    }
}
