import QuoteStore

/// Columns aligned by display width (a Hangul syllable takes two columns). On a terminal:
/// a bold header row, and the widest column cut (with "…") until the table fits `width`.
/// Off a terminal: the same aligned columns without the header — stable for scripts.
struct Table {
    let headers: [String]
    var rows: [[String]] = []

    init(_ headers: [String]) {
        self.headers = headers
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    func lines(terminal: Bool = Terminal.isTerminal, width: Int = 80) -> [String] {
        let all = terminal ? [headers] + rows : rows
        guard !all.isEmpty else { return [] }
        let gap = 2
        var widths = headers.indices.map { column in all.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        if terminal {
            // Shrink the widest column, a column at a time, until the table fits.
            while widths.reduce(0, +) + gap * (widths.count - 1) > width,
                  let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 8 {
                widths[widest] -= 1
            }
        }
        return all.enumerated().map { index, row in
            var line = ""
            for column in row.indices {
                let last = column == row.count - 1
                let cell = terminal || !last ? DisplayWidth.pad(row[column], to: widths[column]) : row[column]
                line += (column > 0 ? String(repeating: " ", count: gap) : "") + cell
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return terminal && index == 0 ? Style.bold(line) : line
        }
    }
}

/// "1 quote", "2 quotes"; "1 observation", "0 observations".
func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
