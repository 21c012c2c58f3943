/// Columns laid out in a terminal's width, measured in display columns (a Hangul syllable
/// takes two). A row is never broken: when the table is too wide, the columns that may wrap
/// wrap between words onto more lines of the same row; if that is not enough, the least
/// useful columns go; if even that is not enough, each row is written as "HEADER value"
/// lines. A cell a person needs (a name, a count, an age) is never cut or wrapped.
public struct TableLayout {
    public struct Column: Sendable {
        public let header: String
        public let fit: Fit

        public init(_ header: String, _ fit: Fit = .keep) {
            self.header = header
            self.fit = fit
        }
    }

    public enum Fit: Sendable, Equatable {
        /// Never cut or wrapped.
        case keep
        /// May wrap between words.
        case wrap
        /// May wrap, and goes when even wrapping is not enough (rank 1 first).
        case optional(rank: Int)
    }

    /// The laid-out table: the header's line (when shown) and each row's lines.
    public struct Rendered: Equatable, Sendable {
        public var header: [String]
        public var rows: [[String]]
        public var lines: [String] { header + rows.flatMap { $0 } }
    }

    public let columns: [Column]
    public let gap = 2
    /// Whether a pipe gets the header row too, as `ps` and `systemctl list-units` give it: for a
    /// table whose readers find its columns by their names.
    public let headerWhenPiped: Bool

    public init(_ columns: [Column], headerWhenPiped: Bool = false) {
        self.columns = columns
        self.headerWhenPiped = headerWhenPiped
    }

    /// For a terminal `width` columns wide, with a header row; or (`width` nil: a pipe) every
    /// cell whole, columns aligned, the header row only when `headerWhenPiped` — stable for scripts.
    public func render(_ rows: [[String]], width: Int?) -> Rendered {
        guard let width else {
            let named = headerWhenPiped ? [columns.map(\.header)] + rows : rows
            let widths = columns.indices.map { column in named.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
            let header = headerWhenPiped ? [line(of: columns.map { [$0.header] }, widths: widths, row: 0, last: true)] : []
            return Rendered(header: header, rows: rows.map { [line(of: $0.map { [$0] }, widths: widths, row: 0, last: true)] })
        }
        var shown = Array(columns.indices)
        let ranks = columns.indices.compactMap { index -> (Int, Int)? in
            if case .optional(let rank) = columns[index].fit { return (rank, index) }
            return nil
        }.sorted { $0.0 < $1.0 }.map(\.1)
        var dropping = ranks[...]
        while true {
            if let widths = fitted(rows, in: shown, width: width) {
                let header = line(of: shown.map { [columns[$0].header] }, widths: widths, row: 0, last: false)
                let body = rows.map { row -> [String] in
                    let cells = shown.enumerated().map { position, column in
                        columns[column].fit == .keep ? [row[column]] : DisplayWidth.wrap(row[column], width: widths[position])
                    }
                    let height = cells.map(\.count).max() ?? 1
                    return (0..<height).map { line(of: cells, widths: widths, row: $0, last: false) }
                }
                return Rendered(header: [header], rows: body)
            }
            guard let next = dropping.popFirst() else { break }
            shown.removeAll { $0 == next }
        }
        // Not even the columns that must stay whole fit: a row per block, a field per line.
        let label = columns.map { DisplayWidth.of($0.header) }.max() ?? 0
        return Rendered(header: [], rows: rows.map { row in
            columns.indices.compactMap { column in
                row[column].isEmpty ? nil : DisplayWidth.padded(columns[column].header, to: label + 1) + row[column]
            }
        })
    }

    /// Widths for `shown` that fit `width`, wrapping what may wrap down to its longest word
    /// (widest first); nil when they cannot.
    func fitted(_ rows: [[String]], in shown: [Int], width: Int) -> [Int]? {
        var widths = naturalWidths(rows, in: shown)
        let minimums = shown.map { column -> Int in
            guard columns[column].fit != .keep else { return naturalWidths(rows, in: [column])[0] }
            let words = rows.flatMap { $0[column].split(separator: " ").map { DisplayWidth.of($0) } }
            return max(words.max() ?? 0, DisplayWidth.of(columns[column].header.split(separator: " ").max { $0.count < $1.count } ?? ""), 1)
        }
        func total() -> Int { widths.reduce(0, +) + gap * max(0, widths.count - 1) }
        while total() > width {
            let candidates = widths.indices.filter { widths[$0] > minimums[$0] }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { return nil }
            widths[widest] -= 1
        }
        return widths
    }

    func naturalWidths(_ rows: [[String]], in shown: [Int]) -> [Int] {
        shown.map { column in max(DisplayWidth.of(columns[column].header), rows.map { DisplayWidth.of($0[column]) }.max() ?? 0) }
    }

    /// Line `row` of a row whose cells are already wrapped: each cell padded to its width.
    func line(of cells: [[String]], widths: [Int], row: Int, last: Bool) -> String {
        var out = ""
        for (position, cell) in cells.enumerated() {
            let text = row < cell.count ? cell[row] : ""
            if position > 0 { out += String(repeating: " ", count: gap) }
            out += position == cells.count - 1 ? text : text + String(repeating: " ", count: max(0, widths[position] - DisplayWidth.of(text)))
        }
        while out.hasSuffix(" ") { out.removeLast() }
        return out
    }
}
