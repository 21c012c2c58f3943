import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteScheduling
import QuoteStore

let importSpec = CommandSpec(
    name: Subcommand.import.rawValue,
    overview: "Load a local file as the list custom.NAME: the custom-list JSON ([{id, category, text, source}]), quotectl's own JSON export, a fortune file (with or without its .dat) or plain text (a quote per line). The file is the whole list: importing it again changes nothing; quotes missing from a new version are removed. A malformed file changes nothing.",
    positionals: [Positional("FILE", completion: .file, help: "The file to read (a regular file, or - for standard input).")],
    options: [Options.name, Options.importFormat, Options.maxBytes])

let importCommand = Command(importSpec) { arguments, context in
        var file = try arguments.positionals(for: importSpec)[0]
        let name = try arguments.required(Options.name)
        guard let source = SourceName.custom(name) else {
            throw UsageError(message: "'\(name)' is not a valid list name (letters, digits, '-', '_', '.'; at most 64)",
                             command: "import")
        }
        var kind = try arguments.value(Options.importFormat, as: QuoteFile.Kind.self) ?? .auto
        var limit = importDefaultLimit
        if let text = arguments.value(Options.maxBytes) {
            guard let size = ConfigValue.size(text), ConfigLimits.maxBytes.contains(size) else {
                throw UsageError(message: "--max-bytes takes a size from \(ConfigText.sizes(ConfigLimits.maxBytes)) (such as 64M), not '\(text)'",
                                 command: "import")
            }
            limit = size
        }
        // strfile's index names the fortune file it indexes: read that one.
        if file.hasSuffix(".dat"), FileReader.size(String(file.dropLast(4))) != nil {
            file = String(file.dropLast(4))
            if kind == .auto { kind = .fortune }
        }
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
            Output.error("\(error); nothing imported")
            return error.exitCode
        }
        if kind == .auto, QuoteFile.firstSignificantByte(head) == UInt8(ascii: "[") { kind = .json }
        let store: Store
        let counts: ChangeCounts
        let total: Int
        if kind == .json {
            store = try context.store(.write)
            var pending: ArraySlice<UInt8>? = head[...]
            let outcome: ListImport.Outcome
            do {
                outcome = try ListImport.run(into: store.database, source: source, now: UnixTime.now()) {
                    if let first = pending {
                        pending = nil
                        return first
                    }
                    return try chunks.next()
                }
            } catch let error as FileError {
                Output.error("\(error); nothing imported")
                return error.exitCode
            } catch let error as CustomList.Failure {
                Output.error("\(file): \(error); nothing imported")
                return .dataError
            }
            switch outcome {
            case .imported(let changes, let quotes):
                counts = changes
                total = quotes
            case .refused(let problems):
                let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
                Output.error("\(file): \(problems.first.map(String.init(describing:)) ?? "a bad record")\(more); nothing imported")
                return .dataError
            case .empty:
                Output.error("\(file): the list is empty; nothing imported (quotectl forget \(name) removes a list)")
                return .dataError
            }
        } else {
            let bytes: [UInt8]
            do throws(FileError) {
                bytes = try chunks.rest(after: head, cap: importWholeFileLimit)
            } catch {
                Output.error("\(error); nothing imported")
                return error.exitCode
            }
            if kind == .auto { kind = QuoteFile.detect(bytes) }
            let quotes: [Quote]
            do {
                quotes = kind == .fortune ? try QuoteFile.fortune(bytes, source: source) : try QuoteFile.text(bytes, source: source)
            } catch {
                Output.error("\(file): \(error); nothing imported")
                return .dataError
            }
            if let problem = quotes.lazy.compactMap({ QuoteFile.problem(with: $0) }).first {
                Output.error("\(file): \(problem); nothing imported")
                return .dataError
            }
            guard !quotes.isEmpty else {
                Output.error("\(file): no quotes in it; nothing imported (quotectl forget \(name) removes a list)")
                return .dataError
            }
            store = try context.store(.write)
            counts = try write(to: source, in: store) { visit throws(StoreError) in for quote in quotes { try visit(quote) } }
            total = quotes.count
        }
        Output.line("\(source): \(Plural.count(total, "quote")) (\(counts.inserted) inserted, \(counts.updated) updated, "
                    + "\(counts.removed) removed, \(counts.unchanged) unchanged)")
        return .success
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

let exportSpec = CommandSpec(
    name: Subcommand.export.rawValue,
    overview: "Write the store's quotes for other tools. fortune writes strfile's input: `quotectl export --format fortune > q && strfile q && fortune q`.",
    options: [Options.exportSource, Options.format])

let exportCommand = Command(exportSpec) { arguments, context in
        _ = try arguments.positionals(for: exportSpec)
        guard let format = try arguments.value(Options.format, as: ExportFormat.self) else {
            throw UsageError(message: "missing --format \(ExportFormat.placeholder)", command: "export")
        }
        let source = try sourceOption(arguments, Options.exportSource)
        let store = try context.store()
        let count = try Exporter(database: store.database).export(source: source, format: format, write: Output.write)
        if count == 0 {
            Output.flush()
            Output.error("no quotes" + (source.map { " from \($0)" } ?? "") + " to export")
            return .noInput
        }
        return .success
}

let statusSpec = CommandSpec(
    name: Subcommand.status.rawValue,
    overview: "Show what the store holds per source and what is known of each source's last sync.",
    options: [Options.json, Options.statusFormat, Options.maxWidth])

/// `status --format`: a template per source, or a bar's summary.
enum StatusFormat {
    case template(FieldTemplate<StatusField>)
    case bar(QuoteLayout.Bar)

    static func from(_ arguments: Arguments) throws(UsageError) -> StatusFormat? {
        guard let format = arguments.value(Options.statusFormat) else {
            if arguments.has(Options.maxWidth) { throw UsageError(message: "--max-width needs --format", command: "status") }
            return nil
        }
        if arguments.has(Options.json) { throw UsageError(message: "--json and --format exclude each other", command: "status") }
        if let bar = QuoteLayout.Bar(rawValue: format) { return .bar(bar) }
        do {
            return .template(try FieldTemplate<StatusField>(format))
        } catch {
            throw UsageError(message: "--format: \(error.message)", command: "status")
        }
    }
}

let statusCommand = Command(statusSpec, pages: true) { arguments, context in
        _ = try arguments.positionals(for: statusSpec)
        let format = try StatusFormat.from(arguments)
        let maxWidth = try arguments.positiveInt(Options.maxWidth)
        let store = try context.store()
        let now = UnixTime.now()
        let configuration = try context.configuration()
        let daemon = DaemonStatus.query(configured: configuration?.socketPath)
        // With no daemon to ask, a time stored under a wrong clock is shown as the daemon will treat it.
        func nextDue(_ source: SourceStatus) -> Int? {
            if let planned = daemon.nextDue[source.name] { return planned }
            guard let stored = source.nextDue, let settings = configuration?.source(named: source.name) else { return source.nextDue }
            return Schedule().trusted(stored, of: settings, now: now, blocked: source.retryAfter == stored)
        }
        // On a spoke: which sources came from the hub, and how old its feed is.
        let fleet = configuration?.fleet
        let feed = try fleet.map { fleet in
            let trusted = FeedTrustRepository(database: store.database)
            return try fleet.name.map { try trusted.trust(name: $0) } ?? trusted.feeds().first
        } ?? nil
        let fed = Set(try fleet.map { fleet in
            try FeedStateRepository(database: store.database).fedSources(manifestURL: fleet.manifestURL).map(\.name)
        } ?? [])
        let sources = try StatusQuery(database: store.database).sources().map { source in
            var shown = source
            shown.nextDue = nextDue(source)
            shown.fromHub = fed.contains(source.name)
            shown.feedGenerated = shown.fromHub ? feed?.generated : nil
            shown.feedValidUntil = shown.fromHub ? feed?.validUntil : nil
            return shown
        }
        if arguments.has(Options.json) {
            for source in sources { Output.line(source.json(now: now)) }
            Output.line(daemon.json)
            return .success
        }
        switch format {
        case .template(let template)?:
            for source in sources { Output.line(StatusLayout.line(template, source: source, now: now)) }
            return .success
        case .bar(let bar)?:
            let syncing = Set((configuration ?? .defaults).enabledSources.map(\.name))
            for line in StatusLayout.bar(bar, sources: sources, syncing: syncing, now: now, maxWidth: maxWidth) { Output.line(line) }
            return .success
        case nil:
            break
        }
        Output.safeLine("Store: \(store.path)")
        var table = Table([.init("SOURCE"), .init("HOLDS", .wrap), .init("LAST SUCCESS", .wrap), .init("NEXT DUE")])
        var details: [String: [String]] = [:]
        for source in sources {
            // Upbit and weather bring no quotes: show what they do bring, even when it is 0.
            let quoteless = source.name == SourceName.upbit || source.name == SourceName.weather
            var parts = quoteless ? [] : [counted(source.quotes, "quote")]
            for other in source.otherRows where other.count > 0 || parts.isEmpty {
                parts.append(counted(other.count, String(other.label.dropLast()), plural: other.label))
            }
            let success = source.lastSuccess.map { "\(UnixTime.localTimestamp($0)) (\(UnixTime.relative($0, now: now)))" }
            let next = source.nextDue.map { UnixTime.relative($0, now: now) } ?? "-"
            table.add([source.name, parts.joined(separator: ", "),
                       success ?? (source.name == SourceName.builtin ? "built in" : "never"), next])
            var notes: [String] = []
            if source.fromHub, let fleet {
                notes.append("from the hub \(URLText.redacted(fleet.hub))" + (source.feedGenerated.map {
                    ", feed written \(UnixTime.localTimestamp($0)) (\(UnixTime.relative($0, now: now)))" } ?? ""))
                if source.feedExpired(now: now), let until = source.feedValidUntil {
                    notes.append(Style.yellow("the feed's manifest expired \(UnixTime.relative(until, now: now)) (valid until \(UnixTime.localTimestamp(until))): its data is stale, however the server answers"))
                }
            }
            if let pool = source.poolText, let observed = source.poolEstimate?.observed {
                notes.append("sampled: \(counted(observed, "quote")), \(pool)")
            }
            if let attempt = source.lastAttempt, attempt != source.lastSuccess {
                notes.append("last attempt: \(UnixTime.localTimestamp(attempt)) (\(UnixTime.relative(attempt, now: now)))")
            }
            if let error = source.lastError {
                var detail = "last error: \(TerminalSanitizer.clean(error))"
                if source.consecutiveFailures > 1 { detail += " (\(source.consecutiveFailures) failures in a row)" }
                if let retry = source.retryAfter, retry > now { detail += "; upstream asked to wait until \(UnixTime.localTimestamp(retry))" }
                notes.append(Style.yellow(detail))
            }
            if !source.configured && !source.fromHub {
                notes.append("no longer in the config: kept until 'quotectl forget \(SourceName.listName(of: source.name) ?? source.name)'")
            }
            // On a spoke, a source that would come from the hub but never has: its feed does not hold it.
            if let fleet, !source.fromHub, source.lastAttempt == nil, feed != nil,
               let settings = configuration?.source(named: source.name), settings.enabled, !settings.urlIsOwn {
                notes.append("not in the hub's feed \(URLText.redacted(fleet.hub)): not synced here (never fetched from its upstream)")
            }
            details[source.name] = notes
        }
        // Each source's row, then its notes indented beneath it (wrapped at the terminal's width).
        let rendered = table.rendered()
        for line in rendered.header { Output.line(line) }
        for (index, lines) in rendered.rows.enumerated() {
            for line in lines { Output.line(line) }
            for note in details[sources[index].name] ?? [] {
                for line in wrappedForTerminal("    " + note, indent: 2) { Output.line(line) }
            }
        }
        Output.safeLine(daemon.summary)
        return .success
}
