import QuoteCommandLine
import QuoteModels

/// What `quotectl random` is asked for, read from its arguments once: which quotes match, how
/// the sources are weighed, how many are wanted, and whether seen ones are left out.
struct RandomRequest {
    var filter: QuoteFilter
    /// fortune's "30% happiness 70% custom.stoics" (empty: no shares given).
    let shares: SourceShares
    /// `-e`: every matching source weighs the same.
    let equal: Bool
    /// `-n N`: how many different quotes.
    let count: Int
    /// `-u`: each matching quote once before any repeats.
    let unseen: Bool

    /// The arguments' mistakes are found in the order the command has always named them.
    init(_ arguments: Arguments) throws(UsageError) {
        let lang = try arguments.value(Options.lang)?.rawValue
        if arguments.has(Options.short), arguments.has(Options.long) {
            throw UsageError(message: "--short and --long exclude each other", command: "random")
        }
        filter = QuoteFilter(
            source: try sourceOption(arguments, Options.source), author: arguments.value(Options.author),
            category: arguments.value(Options.category), lang: lang, character: arguments.value(Options.character),
            production: arguments.value(Options.production), maxLength: try arguments.value(Options.maxLength))
        if arguments.has(Options.short) { filter.maxLength = filter.maxLength ?? shortQuoteLength }
        if arguments.has(Options.long) {
            filter.minLength = (filter.maxLength ?? shortQuoteLength) + 1
            filter.maxLength = nil
        }
        shares = try SourceShares.parse(arguments.positionals)
        if !shares.isEmpty, filter.source != nil {
            throw UsageError(message: "give sources either as --source or as [N%] SOURCE words, not both", command: "random")
        }
        equal = arguments.has(Options.equal)
        count = try arguments.value(Options.count)
        unseen = arguments.has(Options.unseen)
    }
}

/// fortune's short/long threshold, in characters.
let shortQuoteLength = 160
