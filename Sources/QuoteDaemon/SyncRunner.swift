import CSystem
import Glibc
import QuoteBase
import QuoteConfig
import QuoteStore
import Synchronization
import QuoteScheduling

/// How the daemon runs one source's sync.
public protocol SyncRunner: Sendable {
    /// Syncs one source of `configuration` (the one the daemon runs with); `progress` hears how
    /// it goes ("receiving 12 of 172 MB"), for clients that watch.
    func sync(_ settings: SourceSettings, configuration: Configuration,
              progress: @escaping @Sendable (String) -> Void) async -> SourceReport
}

/// Runs each sync as a child process, `quoted sync --once --source NAME --json --quiet --config -`,
/// handing it the daemon's configuration text on standard input (a file edited but not yet
/// reloaded, or a bad one a reload refused, never reaches a sync).
/// The daemon itself never loads the HTTP stack (libcurl and its TLS libraries: most of a sync's
/// resident memory), and whatever a big sync allocates goes back to the system when
/// the child exits instead of staying in a long-lived heap. Cancelling the task
/// sends the child SIGTERM: SQLite never commits its open transaction.
public struct ChildProcessRunner: SyncRunner {
    public let executable: String
    public let storePath: String

    public init(executable: String = ChildProcessRunner.ownExecutable(), storePath: String) {
        self.executable = executable
        self.storePath = storePath
    }

    public static func ownExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func sync(_ settings: SourceSettings, configuration: Configuration,
                     progress: @escaping @Sendable (String) -> Void) async -> SourceReport {
        let arguments = [executable, "sync", "--once", "--source", settings.name, "--json", "--quiet", "--progress",
                         "--db", storePath, "--config", "-", "--config-name", configuration.file ?? "(built-in defaults)"]
        let started = ContinuousClock.now
        // Progress lines come first on the child's stdout ("progress<TAB>SOURCE<TAB>TEXT"); the
        // JSON report is the last line.
        let child = ChildProcess(arguments: arguments, input: Array(configuration.text.utf8)) { line in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 3, fields[0] == "progress" { progress(String(fields[2])) }
        }
        let outcome = await withTaskCancellationHandler {
            await child.run()
        } onCancel: {
            child.terminate()
        }
        let seconds = Double((ContinuousClock.now - started).components.seconds)
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
    /// Lines of stdout that start with "progress\t", as they come; they are left out of the output.
    private let onProgressLine: @Sendable (String) -> Void
    /// The child's pid while it runs (0 before and after), and whether it was told to stop.
    private let state = Mutex<(pid: pid_t, terminated: Bool)>((0, false))
    /// How long a child told to stop (SIGTERM) has before it is killed (SIGKILL).
    static let stopGrace: Duration = .seconds(8)

    init(arguments: [String], input: [UInt8], onProgressLine: @escaping @Sendable (String) -> Void = { _ in }) {
        self.arguments = arguments
        self.input = input
        self.onProgressLine = onProgressLine
    }

    /// SIGTERM now (the child's transaction never commits), SIGKILL if it is still there
    /// after `stopGrace`: a stop of the daemon is bounded.
    func terminate() {
        let pid = state.withLock { state -> pid_t in
            state.terminated = true
            if state.pid > 0 { kill(state.pid, SIGTERM) }
            return state.pid
        }
        guard pid > 0 else { return }
        BackgroundThread.start { [self] in
            let deadline = ContinuousClock.now + Self.stopGrace
            while ContinuousClock.now < deadline {
                if state.withLock({ $0.pid != pid }) { return }
                usleep(50_000)
            }
            state.withLock { if $0.pid == pid { kill(pid, SIGKILL) } }
        }
    }

    func run() async -> Outcome {
        await BackgroundThread.run { self.spawnAndWait() }
    }

    private func spawnAndWait() -> Outcome {
        var pipe: [Int32] = [0, 0]
        var stdin: [Int32] = [0, 0]
        guard quoted_pipe_cloexec(&pipe) == 0 else { return .failedToStart(String(cString: strerror(errno))) }
        guard quoted_pipe_cloexec(&stdin) == 0 else {
            close(pipe[0]); close(pipe[1])
            return .failedToStart(String(cString: strerror(errno)))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
        // Signals the daemon ignores (SIGPIPE, and those it watches) must not stay ignored in the child.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGUSR1] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var argv = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = state.withLock { state -> Int32 in
            guard !state.terminated else { return ECANCELED }
            let result = posix_spawn(&child, arguments[0], &actions, &attributes, argv, environ)
            if result == 0 { state.pid = child }
            return result
        }
        close(pipe[1])
        close(stdin[0])
        guard spawned == 0 else {
            close(pipe[0])
            close(stdin[1])
            return .failedToStart(String(cString: strerror(spawned)))
        }
        // The child reads all of its input before it writes anything, so this cannot deadlock.
        var written = 0
        while written < input.count {
            let count = input[written...].withUnsafeBytes { write(stdin[1], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            written += count
        }
        close(stdin[1])
        var output: [UInt8] = []
        var pending: [UInt8] = []
        let marker = Array("progress\t".utf8)
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(pipe[0], &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending.append(contentsOf: chunk[0..<count])
            // Whole lines: progress ones go to the callback, the rest is the report.
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
        output += pending
        close(pipe[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        state.withLock { $0.pid = 0 }
        let exited = status & 0x7F == 0
        return .finished(exited ? (status >> 8) & 0xFF : -(status & 0x7F), output)
    }
}
