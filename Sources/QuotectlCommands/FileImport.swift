import QuoteBase
import QuoteFormats
import QuoteModels
import QuoteStore

/// What `quotectl import` does with a file, apart from printing: reads it through the reader
/// a sync of the same format uses (`ListReaders`), and writes it as the list custom.NAME — or
/// says why nothing was imported. Every format streams into the store as it is read.
struct FileImport {
    enum Outcome {
        /// Written: what changed, and how many quotes the list holds.
        case imported(ChangeCounts, quotes: Int)
        case nothingImported(NothingImported)
    }

    private(set) var file: String
    let name: String
    let source: String
    private(set) var format: ListFormat
    let limit: Int

    init(file: String, name: String, source: String, format: ListFormat, limit: Int) {
        self.file = file
        self.name = name
        self.source = source
        self.format = format
        self.limit = limit
        // strfile's index names the fortune file it indexes: read that one.
        if file.hasSuffix(".dat"), FileReader.size(String(file.dropLast(4))) != nil {
            self.file = String(file.dropLast(4))
            if format.kind == .auto { self.format.kind = .fortune }
        }
    }

    /// Reads the file and writes the list, record by record in one transaction as its chunks
    /// arrive; `openStore` is asked only once the file could be opened.
    func run(openStore: () throws -> Store) throws -> Outcome {
        let chunks: FileReader.Chunks
        var reader: any ListReader
        do throws(FileError) {
            chunks = try inputChunks(of: file, limit: limit)
        } catch {
            return .nothingImported(NothingImported(error))
        }
        do throws(ListFailure) {
            reader = try ListReaders.reader(for: format, source: source, name: file == "-" ? nil : file)
        } catch {
            return .nothingImported(NothingImported(file, "\(error)"))
        }
        let store = try openStore()
        let outcome: ListImport.Outcome
        do {
            // A feed keeps what it no longer has; whether this one is a feed is known once read.
            outcome = try ListImport.run(into: store, source: source, now: Run.now(),
                                         archive: format.keepsArchive(decided: reader.format)) { record in
                while let chunk = try chunks.next() {
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
            let first = problems.first.map(String.init(describing:)) ?? tr("a bad record")
            let reason = problems.count > 1 ? tr("\(first) (and \(problems.count - 1) more)") : first
            return .nothingImported(NothingImported(file, reason))
        case .empty:
            return .nothingImported(NothingImported(file, tr("no quotes in it"), removing: name))
        }
    }
}

/// Why an import wrote nothing, worded in one place: "FILE: REASON; nothing imported".
struct NothingImported {
    let message: String
    let exitCode: ExitCode

    /// The file could not be read: the error names the file itself.
    init(_ error: FileError) {
        message = tr("\(error); nothing imported")
        exitCode = error.exitCode
    }

    /// The file is no list; `removing` a list's name when the user may have meant to empty it.
    init(_ file: String, _ reason: String, removing name: String? = nil) {
        message = name.map { tr("\(file): \(reason); nothing imported (quotectl forget \($0) removes a list)") }
            ?? tr("\(file): \(reason); nothing imported")
        exitCode = .dataError
    }
}

/// The largest file `import` reads unless told otherwise (--max-bytes raises it): a guard
/// against the wrong file. Every format streams into the store, so memory does not follow it.
let importDefaultLimit = 64 << 20
