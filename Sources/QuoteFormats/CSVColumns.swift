import QuoteBase
import QuoteModels

/// What a CSV header says: which column holds each part of a quote. Names are matched without
/// regard to case or surrounding blanks; a field not mapped takes its default name (`text` or
/// `quote`, `author`, `id`, `category`).
struct CSVColumns: Sendable {
    static let defaults: [ListFormat.Field: [String]] = [.text: ["text", "quote"], .author: ["author"], .id: ["id"], .category: ["category"]]
    /// quotectl's own export: its cells were made safe for spreadsheets with a leading `'`.
    static let exportHeader = ["source", "id", "text", "author", "category", "lang", "production", "episode"]

    let count: Int
    let index: [ListFormat.Field: Int]
    let isExport: Bool

    init(header: CSVCells.Row, mapping: [ListFormat.Field: String]) throws(ListFailure) {
        let names = (0..<header.count).map { RecordBytes.text(header.cell($0)).trimmingASCIIWhitespace().lowercased() }
        var index: [ListFormat.Field: Int] = [:]
        for field in ListFormat.Field.allCases {
            let wanted = mapping[field].map { [$0.trimmingASCIIWhitespace().lowercased()] } ?? Self.defaults[field] ?? []
            if let column = wanted.lazy.compactMap({ names.firstIndex(of: $0) }).first { index[field] = column }
        }
        guard index[.text] != nil else {
            let shown = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", …" : "")
            // The names as the header must write them, in every language: values, not words to translate.
            let textName = "\"text\"", quoteName = "\"quote\""
            guard let named = mapping[.text] else {
                throw ListFailure(tr("""
                    not CSV: line \(header.line): the header (\(shown)) has no \(textName) or \(quoteName) column (name the \
                    one that holds the text with --fields text:COLUMN, or fields = text:COLUMN in quoted.conf)
                    """))
            }
            let wanted = "\"\(named)\""
            throw ListFailure(tr("not CSV: line \(header.line): the header (\(shown)) has no \(wanted) column"))
        }
        self.count = names.count
        self.index = index
        self.isExport = names == Self.exportHeader
    }

    func record(_ row: CSVCells.Row, source: String, place: ListPlace) -> ListRecord {
        guard row.count == count else {
            return .problem(ListProblem(place: place, upstreamID: nil,
                                        reason: trn(row.count, "\(row.count) cell, the header has \(count)", "\(row.count) cells, the header has \(count)")))
        }
        func cell(_ field: ListFormat.Field) -> String? {
            guard let column = index[field] else { return nil }
            let text = RecordBytes.text(row.cell(column))
            return isExport ? Self.unneutralised(text) : text
        }
        var id: String?
        if index[.id] != nil {
            guard let given = cell(.id)?.trimmingASCIIWhitespace(), !given.isEmpty else {
                return .problem(ListProblem(place: place, upstreamID: nil, reason: tr("\"id\" is empty")))
            }
            guard given.unicodeScalars.count <= CustomList.maximumIDLength, !given.unicodeScalars.contains("\u{0}") else {
                return .problem(ListProblem(place: place, upstreamID: nil, reason: tr("\"id\" is longer than \(CustomList.maximumIDLength) characters")))
            }
            id = given
        }
        return RecordBytes.record(text: cell(.text) ?? "", author: cell(.author), category: cell(.category), id: id,
                                  source: source, place: place)
    }

    /// The export put a `'` before a cell a spreadsheet would take for a formula (`=`, `+`, `-`,
    /// `@`, tab, CR); reading the export back takes it off again, so the stored text returns.
    static func unneutralised(_ text: String) -> String {
        var scalars = text.unicodeScalars.makeIterator()
        guard scalars.next() == "'", let second = scalars.next(), "=+-@\t\r'".unicodeScalars.contains(second) else { return text }
        return String(text.dropFirst())
    }
}
