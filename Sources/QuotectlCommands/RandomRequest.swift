import QuoteBase
import QuoteCommandLine
import QuoteModels
import QuoteUserState

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
    /// `--liked`: among the quotes this user liked, from the user's state.
    let liked: Bool
    /// `--once-per`: nothing at all when this user was greeted in this period.
    let oncePer: OncePeriod?
    /// What this request prints is a greeting: what `--once-per` counts, and nothing else is.
    var greets: Bool { oncePer != nil }

    /// The arguments' mistakes are found in the order the command has always named them.
    init(_ arguments: Arguments) throws(UsageError) {
        let lang = try arguments.value(Options.lang)?.rawValue
        if arguments.has(Options.short), arguments.has(Options.long) {
            throw UsageError(message: tr("--short and --long exclude each other"), command: "random")
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
            throw UsageError(message: tr("give sources either as --source or as [N%] SOURCE words, not both"), command: "random")
        }
        equal = arguments.has(Options.equal)
        count = try arguments.value(Options.count)
        unseen = arguments.has(Options.unseen)
        liked = arguments.has(Options.randomLiked)
        oncePer = try arguments.value(Options.oncePer)
        if liked, let filterOption = Self.storeOnlyOptions.first(where: { arguments.has($0) }) {
            throw UsageError(message: tr("--liked draws among your liked quotes alone: \(filterOption.spelling) does not apply"), command: "random")
        }
        if liked, !shares.isEmpty { throw UsageError(message: tr("--liked draws among your liked quotes alone: no sources apply"), command: "random") }
    }

    /// What picks among the store's quotes, and so has no meaning with `--liked`.
    static let storeOnlyOptions = [Options.source.option, Options.author.option, Options.category.option, Options.lang.option,
                                   Options.character.option, Options.production.option, Options.maxLength.option, Options.short,
                                   Options.long, Options.equal, Options.unseen]
}

/// fortune's short/long threshold, in characters.
let shortQuoteLength = 160
