import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteStore

/// `quotectl __complete sources`: the source names a shell offers, from the store alone
/// (no network, no configuration parse beyond finding the store). Hidden.
let completeSpec = CommandSpec(
    name: "__complete", overview: "Print completion candidates (for the shell completions).",
    positionals: [Positional("KIND", help: "sources")], options: [], hidden: true)

let completeCommand = Command(completeSpec) { arguments, context in
    let kind = try arguments.positionals(for: completeSpec)[0]
    guard kind == "sources" else { throw UsageError(message: "unknown kind '\(kind)' (sources)", command: "__complete") }
    var names = SourceName.fixed + ["custom"]
    // Only a store that is already there: completing a word must never create one.
    if let path = try? context.storePath(), Path.exists(path), let store = try? Store(path: path, access: .read),
       let known = try? store.withStoreErrors({ try StatusQuery(database: store.database).sourceNames() }) {
        names += known.filter { !names.contains($0) }
    }
    for name in names { Output.line(name) }
    return .success
}

/// `quotectl __generate man|bash|zsh|fish`: the manual and the completions, from the specs
/// (scripts/install.sh writes them; a test checks them). Hidden.
let generateSpec = CommandSpec(
    name: "__generate", overview: "Print the manual page or a shell's completion script.",
    positionals: [Positional("WHAT", help: "man, bash, zsh or fish")], options: [], hidden: true)

let generateCommand = Command(generateSpec) { arguments, _ in
    let what = try arguments.positionals(for: generateSpec)[0]
    switch what {
    case "man": Output.write(Manual.quotectl(program))
    case "bash": Output.write(Completions.bash(program))
    case "zsh": Output.write(Completions.zsh(program))
    case "fish": Output.write(Completions.fish(program))
    default: throw UsageError(message: "unknown kind '\(what)' (man, bash, zsh, fish)", command: "__generate")
    }
    return .success
}
