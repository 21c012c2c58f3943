import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteStore

/// `--follow` and `--every` as a command reads them: the interval when following (nil when
/// not), with `--every` alone and a follower whose output is not lines refused.
func followInterval(_ arguments: Arguments, _ every: TypedOption<Int>, command: String, lines: Bool) throws(UsageError) -> Duration? {
    guard arguments.has(Options.follow) else {
        if arguments.has(every) { throw UsageError(message: tr("--every needs --follow"), command: command) }
        return nil
    }
    guard lines else {
        throw UsageError(message: command == "random" ? tr("--follow writes a line per update: add --oneline, --format or --json")
                         : tr("--follow writes a line per update: add --format or --json"), command: command)
    }
    return .seconds(try arguments.value(every))
}

/// `random --follow`: a new quote per update, drawn as `random` draws (its filters, shares and
/// `--unseen`); i3blocks in persist mode takes each line as the block's full text, so only that.
func followRandom(_ request: RandomRequest, layout: QuoteLayout, maxWidth: Int?, interval: Duration, store: Store) throws -> ExitCode {
    let follower = Follower(store: store, interval: interval, registers: true) {
        // The hidden list is read again for each line: a click on "hide" then "next" takes effect at once.
        let hidden = UserStateUse.hidden()
        var draw = RandomDraw(store: store, hidden: hidden)
        guard let quote = try draw.quotes(for: request).first else {
            throw NoMatch(message: UserStateUse.everyMatchHidden(request.filter, store: store, hidden: hidden)
                          ?? nothingMatches(request.filter, store: store))
        }
        // What the bar shows is what `like` and `hide` take without an ID.
        UserStateUse.rememberShown([quote])
        switch layout {
        case .json: return [quote.json]
        case .bar(.i3blocks): return Array(layout.lines(for: quote, maxWidth: maxWidth).prefix(1))
        default: return layout.lines(for: quote, maxWidth: maxWidth)
        }
    }
    return try follower.run()
}
