import QuoteBase
import QuoteModels

/// CSV (RFC 4180) as its bytes arrive: quoted cells with `""` for a quote and line breaks
/// inside, CRLF or LF rows, a UTF-8 byte-order mark. The first row is the header naming the
/// columns (`CSVColumns`); a row holds one quote. Only the row being read is held, capped.
public struct CSVReader: ListReader {
    public let source: String
    public let mapping: [ListFormat.Field: String]
    public var format: ListFormat.Kind? { .csv }
    private var cells = CSVCells()
    private var bom = ByteOrderMark()
    private var columns: CSVColumns?

    public init(source: String, fields: [ListFormat.Field: String] = [:]) {
        self.source = source
        self.mapping = fields
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (ListRecord) throws -> Void) throws {
        var bom = self.bom
        var cells = self.cells.takeOut()
        defer {
            self.bom = bom
            self.cells = cells
        }
        try bom.strip(chunk) { bytes in
            try cells.feed(bytes) { row in try take(row, body) }
        }
    }

    public mutating func finish(_ body: (ListRecord) throws -> Void) throws {
        var bom = self.bom
        var cells = self.cells.takeOut()
        defer {
            self.bom = bom
            self.cells = cells
        }
        try bom.finish { bytes in
            try cells.feed(bytes) { row in try take(row, body) }
        }
        try cells.finish { row in try take(row, body) }
    }

    private mutating func take(_ row: CSVCells.Row, _ body: (ListRecord) throws -> Void) throws {
        let place = ListPlace.line(row.line)
        // The header names the columns: a header that cannot be read is no CSV list, never a skipped row.
        if columns == nil, row.droppedBytes > 0 || row.tooManyCells {
            throw ListFailure(row.tooManyCells
                ? tr("not CSV: line \(row.line): the header row is more than \(CSVCells.maximumCells) cells")
                : tr("not CSV: line \(row.line): the header row is longer than \(LineSplitter.defaultMaximumLineBytes >> 20) MiB"))
        }
        // Without an id column ids derive from the text: a row too long to read is no stored quote.
        let couldBeStored = columns?.index[.id] != nil
        if row.droppedBytes > 0 { return try body(RecordBytes.tooLong(row.droppedBytes, place: place, couldBeStored: couldBeStored)) }
        if row.tooManyCells {
            return try body(.problem(ListProblem(place: place, upstreamID: nil, reason: tr("more than \(CSVCells.maximumCells) cells"),
                                                 couldBeStored: couldBeStored)))
        }
        guard let columns else {
            columns = try CSVColumns(header: row, mapping: mapping)
            return
        }
        try body(columns.record(row, source: source, place: place))
    }
}

/// The rows of CSV bytes, cell by cell: the state of a quoted cell carries across chunks.
struct CSVCells: Sendable {
    /// These cells, moved out for the reader to work on (see `LineSplitter.takeOut`).
    mutating func takeOut() -> CSVCells {
        let moved = self
        self = CSVCells()
        return moved
    }

    struct Row {
        /// The row's bytes, its cells one after another; `ends` are where each cell ends.
        var bytes: [UInt8] = []
        var ends: [Int] = []
        var line = 1
        var droppedBytes = 0
        var tooManyCells = false

        var count: Int { ends.count }

        func cell(_ index: Int) -> ArraySlice<UInt8> {
            bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
        }
    }

    private enum State { case cellStart, unquoted, quoted, quoteInQuoted }

    static let maximumRowBytes = LineSplitter.defaultMaximumLineBytes
    static let maximumCells = 4096
    private var state = State.cellStart
    private var row = Row()
    private var line = 1
    private var pendingCR = false

    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (Row) throws -> Void) throws {
        for byte in bytes {
            if byte == 0x0A { line += 1 }
            switch state {
            case .quoted:
                // A CRLF inside a cell is a line break, as LF is; a lone CR stays.
                if pendingCR, byte != 0x0A { append(0x0D) }
                pendingCR = byte == 0x0D
                if byte == UInt8(ascii: "\"") {
                    state = .quoteInQuoted
                } else if byte != 0x0D {
                    append(byte)
                }
            case .quoteInQuoted:
                if byte == UInt8(ascii: "\"") {
                    append(byte)
                    state = .quoted
                } else {
                    state = .unquoted
                    try outside(byte, body)
                }
            case .cellStart where byte == UInt8(ascii: "\""):
                state = .quoted
            case .cellStart, .unquoted:
                try outside(byte, body)
            }
        }
    }

    /// The body has ended: a last row without a line end is still a row; an open quote is not CSV.
    mutating func finish(_ body: (Row) throws -> Void) throws {
        if state == .quoted {
            throw ListFailure(tr("not CSV: line \(row.line): a quoted cell is not closed"))
        }
        if state != .cellStart || row.count > 0 { try endRow(body) }
    }

    private mutating func outside(_ byte: UInt8, _ body: (Row) throws -> Void) throws {
        switch byte {
        case UInt8(ascii: ","):
            endCell()
        case 0x0A:
            try endRow(body)
        case 0x0D:
            // CRLF ends a row as LF does: the CR is dropped.
            break
        default:
            state = .unquoted
            append(byte)
        }
    }

    private mutating func append(_ byte: UInt8) {
        guard row.droppedBytes == 0, row.bytes.count < Self.maximumRowBytes else {
            row.droppedBytes += 1
            return
        }
        row.bytes.append(byte)
    }

    private mutating func endCell() {
        // A row of a million commas would hold a million cell ends: it is as good as too long.
        guard row.ends.count < Self.maximumCells else {
            row.tooManyCells = true
            state = .cellStart
            return
        }
        row.ends.append(row.bytes.count)
        state = .cellStart
    }

    private mutating func endRow(_ body: (Row) throws -> Void) throws {
        endCell()
        defer {
            row.bytes.removeAll(keepingCapacity: true)
            row.ends.removeAll(keepingCapacity: true)
            row.droppedBytes = 0
            row.tooManyCells = false
            row.line = line
        }
        // A blank line is no row.
        if row.count == 1, row.bytes.isEmpty { return }
        try body(row)
    }
}
