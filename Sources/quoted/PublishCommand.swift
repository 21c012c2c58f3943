import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteDaemon
import QuoteFeed

/// `quoted publish [--config PATH] [--db PATH]`: writes the whole feed from the store now
/// (the first time, after a restore, from scripts). After that, every sync that changes a
/// source publishes that source.
enum PublishCommand {
    static func run(_ words: [String]) -> ExitCode {
        let arguments: Arguments
        do {
            arguments = try Arguments(words, options: publishSpec.options + Options.global, command: "publish")
            _ = try arguments.positionals(for: publishSpec)
        } catch {
            return usageFailure(error)
        }
        if arguments.has(Options.help) { printOut(HelpText.command(publishSpec, in: program, width: helpWidth)); return .success }
        guard let configuration = loadedConfiguration(option: arguments.value(Options.config)) else { return .configuration }
        guard let publish = configuration.publish else {
            let file = configuration.file ?? tr("the configuration")
            printError("quoted: " + tr("\(file) has no [publish] dir = PATH: nothing to publish to"))
            return .configuration
        }
        let storePath = Locations.store(option: arguments.value(Options.db), configured: configuration.storePath, writing: false)
        return self.publish(publish, configuration: configuration, storePath: storePath, only: nil, quiet: false)?.code ?? .success
    }

    /// Publishes; nil when it worked, else the exit code and the reason (printed as one line).
    /// With `logger` (the daemon's sync child), the line that says it worked is logged, quiet or not:
    /// the hub's one journal entry per publish.
    static func publish(_ settings: PublishSettings, configuration: Configuration, storePath: String, only: Set<String>?,
                        quiet: Bool, logger: Logger? = nil) -> (code: ExitCode, reason: String)? {
        // Files unnamed for two of the longest interval go.
        let retention = 2 * (configuration.enabledSources.map(\.interval).max() ?? 3_600)
        do {
            let outcome = try Publisher(settings: settings, storePath: storePath, retention: retention).publish(only: only)
            // English on purpose: the publish line is the hub's journal entry too (one line for the terminal and the journal); QuoteFeed's reasons are English by design
            let written = outcome.written.isEmpty ? "no file changed" : "wrote " + outcome.written.joined(separator: ", ")
            // English on purpose: the publish line is the hub's journal entry too (one line for the terminal and the journal); QuoteFeed's reasons are English by design
            let line = "publish: \(settings.dir): manifest serial \(outcome.manifest.serial), \(outcome.manifest.sources.count) sources, \(written)"
                // English on purpose: the publish line is the hub's journal entry too (one line for the terminal and the journal); QuoteFeed's reasons are English by design
                + (outcome.pruned > 0 ? ", pruned \(outcome.pruned) old files" : "")
            if let logger {
                logger.log(.info, line, event: .feedPublished, fields: [(name: "QUOTED_FEED_SERIAL", value: String(outcome.manifest.serial))])
            } else if !quiet {
                printError(line)
            }
            return nil
        } catch {
            // English on purpose: the publish line is the hub's journal entry too (one line for the terminal and the journal); QuoteFeed's reasons are English by design
            printError("quoted: publish: \(error)")
            return (error.exitCode, error.reason)
        }
    }
}
