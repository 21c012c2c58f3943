import QuoteBase
import QuoteText

/// A table for a person or a script: on a terminal, laid out in its whole width with a bold
/// header (TableLayout: rows wrap, never break; the least useful columns go first); piped, the
/// same aligned columns, whole, without the header unless `headerWhenPiped` — stable for scripts.
struct Table {
    let layout: TableLayout
    var rows: [[String]] = []

    init(_ columns: [TableLayout.Column], headerWhenPiped: Bool = false) {
        layout = TableLayout(columns, headerWhenPiped: headerWhenPiped)
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    func rendered(width: Int? = Terminal.isTerminal ? Terminal.columns : nil) -> TableLayout.Rendered {
        var rendered = layout.render(rows, width: width)
        rendered.header = rendered.header.map(Style.bold)
        return rendered
    }

    func lines() -> [String] { rendered().lines }
}

/// Prose on a terminal: wrapped between words at its width, later lines indented by `indent`
/// (a note under a table row, a character's details). Piped: as it is.
func wrappedForTerminal(_ text: String, indent: Int = 0) -> [String] {
    guard Terminal.isTerminal else { return [text] }
    let lead = String(text.prefix { $0 == " " })
    let body = String(text.dropFirst(lead.count))
    let width = max(20, Terminal.columns - lead.count)
    let lines = DisplayWidth.wrap(body, width: width)
    return lines.enumerated().map { index, line in
        lead + (index == 0 ? "" : String(repeating: " ", count: indent)) + line
    }
}

/// "1 quote", "2 quotes"; "1 observation", "0 observations".
func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    Plural.count(count, singular, plural: plural)
}
