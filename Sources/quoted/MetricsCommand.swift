import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteDaemon
import QuoteHealth
import QuoteScheduling
import QuoteStore
import QuoteSystem

/// `quoted metrics --write PATH [--repeat N]` (hidden): what the daemon does after each sync —
/// one reading of the store's health and the textfile written — N times, with the mean time of
/// one; for scripts/bench/metrics.sh.
enum MetricsCommand {
    static func run(_ words: [String]) -> ExitCode {
        let arguments: Arguments
        let target: String, repeats: Int
        do {
            arguments = try Arguments(words, options: metricsSpec.options + Options.global, command: "metrics")
            _ = try arguments.positionals(for: metricsSpec)
            target = try arguments.value(Options.metricsWrite)
            repeats = try arguments.value(Options.repeats)
        } catch {
            return usageFailure(error)
        }
        guard let configuration = loadedConfiguration(option: arguments.value(Options.config)) else { return .configuration }
        let textfile = MetricsTextfile(path: target)
        do {
            try textfile.checkFolder()
        } catch {
            printError("quoted: \(error)")
            return .configuration
        }
        let storePath = Locations.store(option: arguments.value(Options.db), configured: configuration.storePath, writing: false)
        let clock = SystemClock()
        do {
            let opening = clock.now
            let store = try Store(path: storePath, access: .read, creating: false)
            let opened = clock.now - opening
            let logger = Logger(level: .warning)
            let reading = HealthReading(scope: HealthScope(configuration), daemon: DaemonHealth(startTime: UnixTime.now(), syncsTotal: 0),
                                        textfile: textfile, logger: logger)
            let start = clock.now
            for _ in 0..<repeats where reading.take(from: store) == nil {
                printError("quoted: " + tr("the store \(storePath) could not be read"))
                return .ioError
            }
            let each = (clock.now - start) / repeats
            // English on purpose: a measurement's figures, compared across runs and machines
            printOut("store open: \(microseconds(opened)) us; snapshot + write: \(microseconds(each)) us each (mean of \(repeats))")
            return .success
        } catch {
            printError("quoted: \(error)")
            return error.exitCode
        }
    }

    private static func microseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1_000_000 + Int(duration.components.attoseconds / 1_000_000_000_000)
    }
}
