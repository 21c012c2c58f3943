import Glibc
import QuoteBase
import QuoteConfig
import QuoteScheduling
import QuoteText
import QuoteSystem
import QuoteSystemTasks
import Synchronization

/// How the daemon runs one source's sync.
public protocol SyncRunner: Sendable {
    /// Syncs one source of `configuration` (the one the daemon runs with); `progress` hears how
    /// it goes ("receiving 12 of 172 MB"), for clients that watch.
    func sync(_ settings: SourceSettings, configuration: Configuration,
              progress: @escaping @Sendable (String) -> Void) async -> SourceReport
}

/// Runs each sync as a child process, `quoted sync --once --source NAME --json --quiet --config -`,
/// handing it the daemon's configuration text on standard input (a file edited but not yet
/// reloaded, or a bad one a reload refused, never reaches a sync). The configuration's warnings
/// are the daemon's to log, once per load: the child (`--progress`) does not repeat them.
/// The daemon itself never loads the HTTP stack (libcurl and its TLS libraries: most of a sync's
/// resident memory), and whatever a big sync allocates goes back to the system when
/// the child exits instead of staying in a long-lived heap. Cancelling the task
/// sends the child SIGTERM: SQLite never commits its open transaction.
public struct ChildProcessRunner: SyncRunner {
    public let executable: String
    public let storePath: String
    /// The daemon's clock: a sync's duration and a stopping child's grace are read off it.
    public let clock: any SleepingClock

    public init(executable: String = ChildProcessRunner.ownExecutable(), storePath: String, clock: any SleepingClock = SystemClock()) {
        self.executable = executable
        self.storePath = storePath
        self.clock = clock
    }

    public static func ownExecutable() -> String {
        CurrentProcess.executablePath() ?? CommandLine.arguments[0]
    }

    public func sync(_ settings: SourceSettings, configuration: Configuration,
                     progress: @escaping @Sendable (String) -> Void) async -> SourceReport {
        let arguments = [executable, "sync", "--once", "--source", settings.name, "--json", "--quiet", "--progress",
                         "--db", storePath, "--config", "-", "--config-name", configuration.file ?? "(built-in defaults)"]
        let started = clock.now
        // Progress lines come first on the child's stdout ("progress<TAB>SOURCE<TAB>TEXT"); the
        // JSON report is the last line.
        let child = ChildProcess(arguments: arguments, input: Array(configuration.text.utf8), clock: clock) { line in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 3, fields[0] == "progress" { progress(String(fields[2])) }
        }
        let outcome = await withTaskCancellationHandler {
            await child.outcome()
        } onCancel: {
            child.terminate()
        }
        let seconds = Double((clock.now - started).components.seconds)
        switch outcome {
        case .failedToStart(let reason):
            return SourceReport(source: settings.name, ok: false, summary: "cannot start \(executable): \(reason)", seconds: seconds)
        case .finished(let status, let output):
            if let document = try? JSONParser.parse(output), let reports = document["sources"]?.array,
               let report = reports.compactMap(SourceReport.init(json:)).first(where: { $0.source == settings.name }) {
                return report
            }
            let reason = status == ExitCode.configuration.rawValue ? "configuration error (see the log)"
                : status < 0 ? "sync process killed by signal \(-status)" : "sync process exited with status \(status)"
            return SourceReport(source: settings.name, ok: false, summary: reason, seconds: seconds,
                                isConfigurationProblem: status == ExitCode.configuration.rawValue)
        }
    }
}

/// A child process with its stdout captured, spawned with posix_spawn (no Foundation
/// Process: the daemon stays small) and waited for on a thread of its own.
final class ChildProcess: Sendable {
    enum Outcome: Sendable {
        case failedToStart(String)
        /// Exit status (negative: killed by that signal) and everything written to stdout.
        case finished(Int32, [UInt8])
    }

    private let arguments: [String]
    private let input: [UInt8]
    private let clock: any SleepingClock
    /// Lines of stdout that start with "progress\t", as they come; they are left out of the output.
    private let onProgressLine: @Sendable (String) -> Void
    /// The child while it runs, and whether it was told to stop (perhaps before it started).
    private let state = Mutex<(process: Subprocess?, terminated: Bool)>((nil, false))
    /// How long a child told to stop (SIGTERM) has before it is killed (SIGKILL).
    static let stopGrace: Duration = .seconds(8)

    init(arguments: [String], input: [UInt8], clock: any SleepingClock = SystemClock(),
         onProgressLine: @escaping @Sendable (String) -> Void = { _ in }) {
        self.arguments = arguments
        self.input = input
        self.clock = clock
        self.onProgressLine = onProgressLine
    }

    /// SIGTERM now (the child's transaction never commits), SIGKILL if it is still there
    /// after `stopGrace`: a stop of the daemon is bounded.
    func terminate() {
        let process = state.withLock { state in
            state.terminated = true
            return state.process
        }
        process?.terminate(grace: Self.stopGrace, clock: clock)
    }

    /// Spawns the child, feeds it its input, collects its report and waits for it to end.
    func outcome() async -> Outcome {
        await BlockingWork.perform { self.spawnAndWait() }
    }

    private func spawnAndWait() -> Outcome {
        // Spawned under the lock, so a `terminate` that came first stops it from starting at all.
        let spawned = state.withLock { state -> Result<Subprocess.Started, Errno> in
            guard !state.terminated else { return .failure(Errno(ECANCELED)) }
            // Signals the daemon ignores (SIGPIPE) or watches must not stay so in the child.
            do throws(Errno) {
                let started = try Subprocess.spawn(arguments[0], arguments: arguments, input: .pipe, output: .pipe,
                                                   defaultSignals: [SIGPIPE] + Signals.watched)
                state.process = started.process
                return .success(started)
            } catch {
                return .failure(error)
            }
        }
        var started: Subprocess.Started
        switch consume spawned {
        case .failure(let error): return .failedToStart(error.description)
        case .success(let child): started = child
        }
        // The child reads all of its input before it writes anything, so this cannot deadlock.
        if let input = started.input.take() {
            try? input.io.writeAll(self.input)
            input.close()
        }
        var output: [UInt8] = []
        if let reader = started.output.take() {
            output = readReport(from: reader.io)
            reader.close()
        }
        let termination = started.process.wait()
        state.withLock { $0.process = nil }
        return .finished(termination.code, output)
    }

    /// Reads the child's stdout to its end: whole lines that are progress go to the callback,
    /// the rest is the report.
    private func readReport(from reader: Descriptor) -> [UInt8] {
        var output: [UInt8] = []
        var pending: [UInt8] = []
        let marker = Array("progress\t".utf8)
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while let count = try? reader.read(into: &chunk), count > 0 {
            pending.append(contentsOf: chunk[0..<count])
            while let newline = pending.firstIndex(of: 10) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if line.starts(with: marker) {
                    onProgressLine(String(decoding: line, as: UTF8.self))
                } else {
                    output += line + [10]
                }
            }
        }
        return output + pending
    }
}
