/// A list of columns written once, as an enum: the SELECT's column list and the position
/// each column is read from both come from it, so they cannot drift apart. A row read from
/// a later position (after other columns) passes that offset.
protocol ColumnList: CaseIterable, RawRepresentable, Equatable where RawValue == String, AllCases: RandomAccessCollection {}

extension ColumnList {
    /// "a, b, c", or "t.a, t.b, t.c" for a table alias.
    static func sql(table alias: String? = nil) -> String {
        allCases.map { (alias.map { $0 + "." } ?? "") + $0.rawValue }.joined(separator: ", ")
    }

    /// The column's position in `sql()`: its index among `allCases` (declaration order). A
    /// search over a dozen cases, which costs a big export a few percent against hand-written
    /// positions (docs/benchmarks.md) and keeps one list of columns.
    var position: Int32 {
        var index: Int32 = 0
        for column in Self.allCases {
            if column == self { return index }
            index += 1
        }
        return index
    }
}

extension Statement {
    func int<C: ColumnList>(_ column: C, after offset: Int32 = 0) -> Int { int(offset + column.position) }
    func optionalInt<C: ColumnList>(_ column: C, after offset: Int32 = 0) -> Int? { optionalInt(offset + column.position) }
    func string<C: ColumnList>(_ column: C, after offset: Int32 = 0) -> String { string(offset + column.position) }
    func optionalString<C: ColumnList>(_ column: C, after offset: Int32 = 0) -> String? { optionalString(offset + column.position) }
    func double<C: ColumnList>(_ column: C, after offset: Int32 = 0) -> Double { double(offset + column.position) }
    func optionalDouble<C: ColumnList>(_ column: C, after offset: Int32 = 0) -> Double? { optionalDouble(offset + column.position) }
    func isNull<C: ColumnList>(_ column: C, after offset: Int32 = 0) -> Bool { isNull(offset + column.position) }
}
