import QuoteBase
import QuoteCommandLine
import QuoteStore
import QuoteText
import QuoteUserState

private let idPositional = Positional(
    "ID", optional: true,
    help: "The quote: its id as --json prints it (SOURCE:ID when several sources have that id, as liked --json prints it). Without it, the last quote this user was shown.")

let likeSpec = CommandSpec(
    name: Subcommand.like.rawValue,
    overview: "Keep a quote you like: the last one shown, or the one with ID. Liked quotes are kept with their text in your own state ($XDG_STATE_HOME/quoted), so they survive a rebuilt store and their removal upstream; quotectl liked lists them, random --liked draws among them.",
    positionals: [idPositional], options: [])

let likeCommand = Command(likeSpec) { arguments, context in
    let lock = try StateFolder.current().lock()
    defer { withExtendedLifetime(lock) {} }
    var liked = KeptList.liked(), hidden = KeptList.hidden()
    let chosen = try ChosenQuote.resolve(arguments, spec: likeSpec, context: &context, kept: [liked, hidden])
    guard liked.add(KeptQuote(key: chosen.key, text: chosen.text, author: chosen.author, lang: chosen.lang, time: Run.now())) else {
        Output.line(tr("already liked: \(ChosenQuote.describe(chosen))"))
        return .success
    }
    // Both lists written, or neither: a hidden list that cannot be written leaves the like unsaved.
    if hidden.contains(chosen.key) { try hidden.checkWritable() }
    try liked.save()
    // A quote liked is wanted again: it is hidden no longer.
    if hidden.remove(chosen.key) != nil { try hidden.save() }
    Output.line(tr("liked: \(ChosenQuote.describe(chosen))"))
    return .success
}

let hideSpec = CommandSpec(
    name: Subcommand.hide.rawValue,
    overview: "Never show a quote again: the last one shown, or the one with ID. random and today pass over hidden quotes (today takes the next of the day); quotectl unhide brings one back.",
    positionals: [idPositional], options: [])

let hideCommand = Command(hideSpec) { arguments, context in
    let lock = try StateFolder.current().lock()
    defer { withExtendedLifetime(lock) {} }
    var liked = KeptList.liked(), hidden = KeptList.hidden()
    let chosen = try ChosenQuote.resolve(arguments, spec: hideSpec, context: &context, kept: [liked, hidden])
    guard hidden.add(KeptQuote(key: chosen.key, text: chosen.text, author: chosen.author, lang: chosen.lang, time: Run.now())) else {
        Output.line(tr("already hidden: \(ChosenQuote.describe(chosen))"))
        return .success
    }
    // Liked and hidden exclude each other: the likes are written first, and a likes file that
    // could not be read whole stops the hiding before anything changed (it may hold this quote).
    try liked.checkWritable()
    let wasLiked = liked.remove(chosen.key) != nil
    if wasLiked { try liked.save() }
    try hidden.save()
    let described = ChosenQuote.describe(chosen), key = TerminalSanitizer.oneLine(chosen.key.description)
    Output.line(wasLiked ? tr("hidden: \(described) (no longer liked); quotectl unhide \(key) brings it back")
                : tr("hidden: \(described); quotectl unhide \(key) brings it back"))
    return .success
}

let unhideSpec = CommandSpec(
    name: Subcommand.unhide.rawValue,
    overview: "Show a hidden quote again: the one with ID (as quotectl hide printed it), or the last one shown.",
    positionals: [idPositional], options: [])

let unhideCommand = Command(unhideSpec) { arguments, context in
    let lock = try StateFolder.current().lock()
    defer { withExtendedLifetime(lock) {} }
    var hidden = KeptList.hidden()
    let chosen = try ChosenQuote.resolve(arguments, spec: unhideSpec, context: &context, kept: [hidden, KeptList.liked()])
    guard hidden.remove(chosen.key) != nil else {
        Output.line(tr("not hidden: \(ChosenQuote.describe(chosen))"))
        return .success
    }
    try hidden.save()
    Output.line(tr("shown again: \(ChosenQuote.describe(chosen))"))
    return .success
}

let likedSpec = CommandSpec(
    name: Subcommand.liked.rawValue,
    overview: "List the quotes you liked, oldest first, from your own state: those no longer in the store too (marked so).",
    options: [Options.json])

let likedCommand = Command(likedSpec, pages: true) { arguments, context in
    _ = try arguments.positionals(for: likedSpec)
    let liked = KeptList.liked()
    if let problem = liked.problem {
        Output.error(liked.isEmpty ? problem.message : tr("\(problem.message); showing what could be read"))
        if liked.isEmpty { return .ioError }
    }
    guard !liked.isEmpty else {
        Output.error(tr("no liked quotes yet: quotectl like keeps the last quote shown"))
        return .noInput
    }
    // Whether each is still in the store (unknown when there is no store to ask).
    let picker = (try? context.store()).map(\.quotes)
    let json = arguments.has(Options.json)
    for kept in liked.entries {
        let inStore = try picker.map { try !$0.quotes(upstreamID: kept.key.upstreamID, source: kept.key.source).isEmpty }
        if json {
            Output.line(likedJSON(kept, inStore: inStore))
        } else {
            Output.line("\(TerminalSanitizer.oneLine(kept.key.description))  " + ChosenQuote.describe(kept)
                        + (inStore == false ? Style.dim("  " + tr("(no longer in the store)")) : ""))
        }
    }
    return .success
}

/// One liked quote as `liked --json` prints it: the quote's --json members, its key, when it was
/// liked, and whether the store still has it (null: no store to ask).
func likedJSON(_ kept: KeptQuote, inStore: Bool?) -> String {
    var object = JSONObjectBuilder()
    object.add("source", kept.key.source)
    object.add("id", kept.key.upstreamID)
    object.add("key", kept.key.description)
    object.add("text", kept.text)
    object.add("author", kept.author)
    object.add("lang", kept.lang)
    object.add("liked", UTCTimestamp.format(kept.time))
    object.addRaw("in_store", json: inStore.map { $0 ? "true" : "false" } ?? "null")
    return object.result
}
