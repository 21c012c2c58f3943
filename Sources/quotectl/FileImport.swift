import QuoteBase
import QuoteFormats
import QuoteModels
import QuoteStore

/// What `quotectl import` does with a file, apart from printing: reads it, tells its format
/// when not told, and writes it as the list custom.NAME — or says why nothing was imported.
/// A JSON list streams into the store as it is read; the other formats (small) are read whole.
struct FileImport {
    enum Outcome {
        /// Written: what changed, and how many quotes the list holds.
        case imported(ChangeCounts, quotes: Int)
        case nothingImported(NothingImported)
    }

    private(set) var file: String
    let name: String
    let source: String
    private(set) var kind: QuoteFile.Kind
    let limit: Int

    init(file: String, name: String, source: String, kind: QuoteFile.Kind, limit: Int) {
        self.file = file
        self.name = name
        self.source = source
        self.kind = kind
        self.limit = limit
        // strfile's index names the fortune file it indexes: read that one.
        if file.hasSuffix(".dat"), FileReader.size(String(file.dropLast(4))) != nil {
            self.file = String(file.dropLast(4))
            if kind == .auto { self.kind = .fortune }
        }
    }

    /// Reads the file and writes the list; `openStore` is asked only once the file looks like one.
    func run(openStore: () throws -> Store) throws -> Outcome {
        var kind = self.kind
        // Read a chunk at a time: a JSON list streams into the store as it is read; the other
        // formats (small, read whole) are told from the JSON by their first bytes.
        let chunks: FileReader.Chunks
        var head: [UInt8] = []
        do throws(FileError) {
            chunks = try FileReader.Chunks(file, limit: limit)
            // Only the new chunk is looked at; leading white space is held as any whole file is.
            while kind == .auto || kind == .json, let chunk = try chunks.next() {
                head.append(contentsOf: chunk)
                if kind == .json || QuoteFile.firstSignificantByte(chunk) != nil { break }
                guard head.count <= importWholeFileLimit else { throw FileReader.tooLarge(file, importWholeFileLimit) }
            }
        } catch {
            return .nothingImported(NothingImported(error))
        }
        if kind == .auto, QuoteFile.firstSignificantByte(head) == UInt8(ascii: "[") { kind = .json }
        if kind == .json { return try streamList(chunks, head: head, into: openStore()) }
        return try readWhole(chunks, head: head, kind: kind, openStore: openStore)
    }

    /// A JSON list, merged record by record in one transaction as its chunks arrive.
    private func streamList(_ chunks: FileReader.Chunks, head: [UInt8], into store: Store) throws -> Outcome {
        var pending: ArraySlice<UInt8>? = head[...]
        let outcome: ListImport.Outcome
        do {
            var reader = CustomList.Reader(source: source)
            outcome = try ListImport.run(into: store.database, source: source, now: UnixTime.now()) { record in
                while let chunk = try pending ?? chunks.next() {
                    pending = nil
                    try chunk.withUnsafeBytes { try reader.feed($0, record) }
                }
                try reader.finish(record)
            }
        } catch let error as FileError {
            return .nothingImported(NothingImported(error))
        } catch let error as ListFailure {
            return .nothingImported(NothingImported(file, "\(error)"))
        }
        switch outcome {
        case .imported(let changes, let quotes):
            return .imported(changes, quotes: quotes)
        case .refused(let problems):
            let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
            return .nothingImported(NothingImported(file, "\(problems.first.map(String.init(describing:)) ?? "a bad record")\(more)"))
        case .empty:
            return .nothingImported(NothingImported(file, "the list is empty", removing: name))
        }
    }

    /// A fortune or text file: read whole, every quote checked, then written in one transaction.
    private func readWhole(_ chunks: FileReader.Chunks, head: [UInt8], kind given: QuoteFile.Kind,
                           openStore: () throws -> Store) throws -> Outcome {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try chunks.rest(after: head, cap: importWholeFileLimit)
        } catch {
            return .nothingImported(NothingImported(error))
        }
        let kind = given == .auto ? QuoteFile.detect(bytes) : given
        let quotes: [Quote]
        do {
            quotes = kind == .fortune ? try QuoteFile.fortune(bytes, source: source) : try QuoteFile.text(bytes, source: source)
        } catch {
            return .nothingImported(NothingImported(file, "\(error)"))
        }
        if let problem = quotes.lazy.compactMap({ QuoteFile.problem(with: $0) }).first {
            return .nothingImported(NothingImported(file, problem))
        }
        guard !quotes.isEmpty else { return .nothingImported(NothingImported(file, "no quotes in it", removing: name)) }
        let counts = try write(to: source, in: openStore()) { visit throws(StoreError) in for quote in quotes { try visit(quote) } }
        return .imported(counts, quotes: quotes.count)
    }
}

/// Why an import wrote nothing, worded in one place: "FILE: REASON; nothing imported".
struct NothingImported {
    let message: String
    let exitCode: ExitCode

    /// The file could not be read: the error names the file itself.
    init(_ error: FileError) {
        message = "\(error); nothing imported"
        exitCode = error.exitCode
    }

    /// The file is no list; `removing` a list's name when the user may have meant to empty it.
    init(_ file: String, _ reason: String, removing name: String? = nil) {
        message = "\(file): \(reason); nothing imported" + (name.map { " (quotectl forget \($0) removes a list)" } ?? "")
        exitCode = .dataError
    }
}

/// The whole list in one transaction: what is missing from it goes.
private func write(to source: String, in store: Store,
                   _ quotes: ((Quote) throws(StoreError) -> Void) throws(StoreError) -> Void) throws(StoreError) -> ChangeCounts {
    let now = UnixTime.now()
    return try store.database.transaction { () throws(StoreError) in
        let writer = QuoteWriter(database: store.database)
        try writer.ensureSource(source, now: now)
        return try writer.apply(to: source, removeMissing: true, now: now, quotes)
    }
}

/// The largest file `import` reads unless told otherwise (--max-bytes raises it): a guard
/// against the wrong file. A JSON list streams into the store, so memory does not follow it.
let importDefaultLimit = 64 << 20

/// Fortune and text files are read whole (held in memory while they are checked): never more.
let importWholeFileLimit = 1 << 30
