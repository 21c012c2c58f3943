import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteFormats
import QuoteModels
import QuoteStore

let importSpec = CommandSpec(
    name: Subcommand.import.rawValue,
    overview: "Load a local file as the list custom.NAME: the custom-list JSON ([{id, category, text, source}]), quotectl's own JSON or CSV export, a fortune file (with or without its .dat), plain text (a quote per line), CSV with a header row, or an Atom or RSS feed. Bytes that are not UTF-8 are read as Latin-1 (as old fortune files are written). The file is the whole list: importing it again changes nothing; quotes missing from a new version are removed. A malformed file changes nothing.",
    positionals: [Positional("FILE", completion: .file, help: "The file to read (a regular file, or - for standard input).")],
    options: [Options.name.option, Options.importFormat.option, Options.items.option, Options.fields.option, Options.split.option,
              Options.authorPattern.option, Options.maxBytes.option, Options.importLiked])

let importCommand = Command(importSpec) { arguments, context in
        let file = try arguments.positionals(for: importSpec)[0]
        if arguments.has(Options.importLiked) {
            if arguments.has(Options.name) { throw UsageError(message: tr("--liked adds to your liked quotes: --name does not apply"), command: "import") }
            return try LikedTransfer.importFile(file, format: try ImportFormat.from(arguments), limit: try arguments.value(Options.maxBytes),
                                                context: &context)
        }
        let name = try arguments.value(Options.name)
        guard let source = SourceName.custom(name) else {
            throw UsageError(message: tr("'\(name)' is not a valid list name (letters, digits, '-', '_', '.'; at most 64)"),
                             command: "import")
        }
        let format = try ImportFormat.from(arguments)
        let limit = try arguments.value(Options.maxBytes)
        let fileImport = FileImport(file: file, name: name, source: source, format: format, limit: limit)
        switch try fileImport.run(openStore: { try context.store(.write) }) {
        case .imported(let counts, let total):
            Output.line(trn(total, """
                \(source): \(total) quote (\(counts.inserted) inserted, \(counts.updated) updated, \
                \(counts.removed) removed, \(counts.unchanged) unchanged)
                """, """
                \(source): \(total) quotes (\(counts.inserted) inserted, \(counts.updated) updated, \
                \(counts.removed) removed, \(counts.unchanged) unchanged)
                """))
            return .success
        case .nothingImported(let refusal):
            Output.error(refusal.message)
            return refusal.exitCode
        }
}

let exportSpec = CommandSpec(
    name: Subcommand.export.rawValue,
    overview: "Write the store's quotes for other tools. fortune writes strfile's input: `quotectl export --format fortune > q && strfile q && fortune q`. When no quote matches (nothing stored, or a list the store does not have), it writes nothing, not even an empty array or feed, and exits 66.",
    options: [Options.exportSource.option, Options.format.option, Options.exportLiked])

let exportCommand = Command(exportSpec) { arguments, context in
        _ = try arguments.positionals(for: exportSpec)
        let format = try arguments.value(Options.format)
        if arguments.has(Options.exportLiked) {
            if arguments.has(Options.exportSource) { throw UsageError(message: tr("--liked exports your liked quotes: --source does not apply"), command: "export") }
            return LikedTransfer.export(format: format)
        }
        let source = try sourceOption(arguments, Options.exportSource)
        let store = try context.store()
        var export = QuoteExport(format: format, name: source, now: Run.now(), write: Output.write)
        try store.quotes.forEach(source: source) { export.add($0) }
        export.finish()
        if export.count == 0 {
            Output.flush()
            Output.error(nothingToExport(source, store: store))
            return .noInput
        }
        return .success
}

/// Why an export wrote nothing: a list the store does not have is named as `forget` names it.
private func nothingToExport(_ source: String?, store: Store) -> String {
    guard let source else { return tr("no quotes to export") }
    let known = (try? store.status.hasSource(source)) ?? true
    return SourceName.listName(of: source) != nil && !known ? tr("the store has no list \(source)") : tr("no quotes from \(source) to export")
}

let statusSpec = CommandSpec(
    name: Subcommand.status.rawValue,
    overview: "Show what the store holds per source and what is known of each source's last sync. Piped, the table keeps its header row. With --json, a line per source, then one for the daemon: a source's configured is true when quoted syncs it (the built-in set too), and false for a disabled source (disabled: true), a list only imported (imported: true) or a list gone from the configuration.",
    options: [Options.json, Options.statusFormat.option, Options.maxWidth.option, Options.follow, Options.statusEvery.option])

/// `status --format`: a template per source, or a bar's summary.
enum StatusFormat {
    case template(FieldTemplate<StatusField>)
    case bar(QuoteLayout.Bar)
    case prometheus

    static func from(_ arguments: Arguments) throws(UsageError) -> StatusFormat? {
        guard let format = arguments.value(Options.statusFormat) else {
            if arguments.has(Options.maxWidth) { throw UsageError(message: tr("--max-width needs --format"), command: "status") }
            return nil
        }
        if arguments.has(Options.json) { throw UsageError(message: tr("--json and --format exclude each other"), command: "status") }
        if let bar = QuoteLayout.Bar(rawValue: format) { return .bar(bar) }
        if format == "prometheus" {
            if arguments.has(Options.maxWidth) { throw UsageError(message: tr("--max-width does not apply to --format prometheus"), command: "status") }
            return .prometheus
        }
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
        let maxWidth = try arguments.value(Options.maxWidth)
        let json = arguments.has(Options.json)
        let interval = try followInterval(arguments, Options.statusEvery, command: "status", lines: format != nil || json)
        if case .prometheus? = format, interval != nil {
            throw UsageError(message: tr("--follow does not apply to --format prometheus (a collector reads the daemon's textfile)"), command: "status")
        }
        let store = try context.store()
        let configuration = try context.configuration()
        if case .prometheus? = format {
            try printMetrics(store: store, configuration: configuration)
            return .success
        }
        guard format != nil || json else {
            try StatusReport(store: store, configuration: configuration, now: Run.now()).printTable()
            return .success
        }
        let lines = {
            try statusLines(StatusReport(store: store, configuration: configuration, now: Run.now()), format: format, maxWidth: maxWidth)
        }
        if let interval {
            // i3blocks in persist mode takes every line as the block's full text: the short text would replace it.
            var persist = false
            if case .bar(.i3blocks)? = format { persist = true }
            let render = { persist ? Array(try lines().prefix(1)) : try lines() }
            return try Follower(store: store, interval: interval, registers: false, render: render).run()
        }
        for line in try lines() { Output.line(line) }
        return .success
}

/// `status --json` or `--format` (not prometheus): the report's lines.
func statusLines(_ report: StatusReport, format: StatusFormat?, maxWidth: Int?) -> [String] {
    let now = report.now
    switch format {
    case .template(let template)?:
        return report.sources.map { StatusLayout.line(template, source: $0, now: now) }
    case .bar(let bar)?:
        let syncing = Set((report.configuration ?? .defaults).enabledSources.map(\.name))
        return StatusLayout.bar(bar, sources: report.sources, syncing: syncing, now: now, maxWidth: maxWidth)
    case .prometheus?, nil:
        return report.sources.map { $0.json(now: now) } + [report.daemon.json]
    }
}
