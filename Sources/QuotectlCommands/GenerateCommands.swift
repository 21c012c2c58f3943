import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteModels
import QuoteStore

/// `quotectl __complete KIND`: the words a shell offers — sources, lists, characters,
/// productions, categories — from the store alone (no network, never a new store). Hidden.
let completeSpec = CommandSpec(
    name: Subcommand.complete.rawValue, overview: "Print completion candidates (for the shell completions).",
    positionals: [Positional("KIND", help: "sources, lists, characters, productions or categories")], options: [], hidden: true)

let completeCommand = Command(completeSpec) { arguments, context in
    let kind = try arguments.positionals(for: completeSpec)[0]
    let kinds = ["sources", "lists", "characters", "productions", "categories"]
    guard kinds.contains(kind) else {
        throw UsageError(message: tr("unknown kind '\(kind)' (\(kinds.joined(separator: ", ")))"), command: "__complete")
    }
    // Only a store that is already there: completing a word must never create one.
    let store = (try? context.storePath()).flatMap { Path.exists($0) ? try? Store(path: $0, access: .read, creating: false) : nil }
    func ask(_ question: (Vocabulary) throws -> [String]) -> [String] {
        guard let store else { return [] }
        return (try? question(store.vocabulary)) ?? []
    }
    var words: [String]
    switch kind {
    case "sources":
        words = SourceName.fixed + ["custom"]
        if let store, let known = try? store.status.sourceNames() {
            words += known.filter { !words.contains($0) }
        }
    case "lists": words = ask { try $0.listNames() }
    case "characters": words = ask { try $0.characters() }
    case "productions": words = ask { try $0.productions() }
    default: words = ask { try $0.categories() }
    }
    // One per line, as the shells read them; a word is one line whatever an upstream put in it.
    for word in words { Output.line(QuoteLine.oneLine(word)) }
    return .success
}

/// `quotectl completion bash|zsh|fish`: the shell's completion script, for people with the
/// bare binary (the package installs them already).
let completionSpec = CommandSpec(
    name: Subcommand.completion.rawValue,
    overview: "Print the completion script for bash, zsh or fish: 'quotectl completion bash > ~/.local/share/bash-completion/completions/quotectl'.",
    positionals: [Positional("SHELL", completion: .choices(["bash", "zsh", "fish"]), help: "bash, zsh or fish.")], options: [])

let completionCommand = Command(completionSpec) { arguments, _ in
    let shell = try arguments.positionals(for: completionSpec)[0]
    switch shell {
    case "bash": Output.write(Completions.bash(program))
    case "zsh": Output.write(Completions.zsh(program))
    case "fish": Output.write(Completions.fish(program))
    default:
        throw UsageError(message: tr("unknown shell '\(shell)' (bash, zsh, fish)") + Suggestion.didYouMean(shell, among: ["bash", "zsh", "fish"]),
                         command: "completion")
    }
    return .success
}

/// `quotectl manual`: quotectl(1) in roff, for `quotectl manual | man -l -` where it is not installed.
let manualSpec = CommandSpec(
    name: Subcommand.manual.rawValue, overview: "Print the manual page quotectl(1) in roff: 'quotectl manual | man -l -'.", options: [])

let manualCommand = Command(manualSpec) { arguments, _ in
    _ = try arguments.positionals(for: manualSpec)
    Output.write(Manual.quotectl(program))
    return .success
}
