import Synchronization
import Foundation
import QuoteSystem

/// Runs a built product (quotectl, quoted) as a user would, or a tool (sh, script, strfile): a
/// real process with its own environment, capturing stdout, stderr and the exit status.
public struct BinaryRunner: Sendable {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// The folder holding the products: the test bundle is built beside them.
    public static let productsFolder: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        // XCTest bundles are folders on some platforms; climb until quotectl is beside us.
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("quotectl").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    /// Configuration lines that turn the fixed sources off: a test then syncs only what it lists.
    public static let fixedSourcesOff = ["happiness", "breakingbad", "upbit"].map { "[source.\($0)]\nenabled = false" }.joined(separator: "\n")

    /// A configuration that syncs one custom list into `store`, the fixed sources off; `settings`
    /// are more lines of the list's section.
    public static func oneListConfig(store: String, list: String, url: String, settings: String = "") -> String {
        "[store]\npath = \(store)\n[source.\(list)]\nurl = \(url)\n" + (settings.isEmpty ? "" : settings + "\n") + fixedSourcesOff + "\n"
    }

    public let name: String
    public var environment: [String: String]

    /// A program other than quoted's own (script(1), a shell) when `path` is given.
    private var explicitPath: String?

    public init(_ name: String, home: String, path: String? = nil) {
        self.name = name
        explicitPath = path
        // A clean environment: nothing from the developer's own store or config leaks in.
        environment = ["HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"]
    }

    public var path: String { explicitPath ?? Self.productsFolder.appendingPathComponent(name).path }

    /// Runs it to the end (or `timeout` seconds), feeding `stdin`. Started through QuoteSystem's
    /// Subprocess: an empty signal mask and default actions, as a shell would give it — the
    /// test runner's threads block signals, and a child must not inherit that (`timeout 2`
    /// in a login snippet could not stop a quotectl that blocks SIGTERM).
    @discardableResult
    public func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60, allowTimeout: Bool = false) throws -> Result {
        var started = try Subprocess.spawn(path, arguments: [name] + arguments, environment: environment,
                                           input: .pipe, output: .pipe, error: .pipe,
                                           defaultSignals: [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGWINCH, SIGUSR1, SIGUSR2, SIGALRM])
        let process = started.process
        guard let input = started.input.take(), let output = started.output.take(), let errors = started.error.take() else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(name): no pipes"])
        }
        // Read both pipes while the process runs, so a large output cannot block it.
        let outData = Collected(), errData = Collected()
        let group = DispatchGroup()
        for (descriptor, sink) in [(output.io, outData), (errors.io, errData)] {
            group.enter()
            BlockingWork.start {
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while let count = try? descriptor.read(into: &chunk), count > 0 { sink.bytes.withLock { $0 += chunk[0..<count] } }
                group.leave()
            }
        }
        if let stdin { try? input.io.writeAll(stdin) }
        input.close()
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.signal(SIGTERM)
            // A program that runs until stopped (a bar, a terminal session): what it wrote by then.
            guard allowTimeout, group.wait(timeout: .now() + 5) == .success else {
                process.signal(SIGKILL)
                _ = group.wait(timeout: .now() + 5)
                _ = process.wait()
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(name) \(arguments) timed out"])
            }
        }
        let termination = process.wait()
        output.close()
        errors.close()
        return Result(status: termination.code,
                      stdout: String(decoding: outData.bytes.withLock { $0 }, as: UTF8.self),
                      stderr: String(decoding: errData.bytes.withLock { $0 }, as: UTF8.self))
    }

    /// What one pipe brought, filled by its reading thread.
    final class Collected: Sendable {
        let bytes = Mutex([UInt8]())
    }
}

extension BinaryRunner {
    public struct Measured: Sendable {
        public let status: Int32
        public let stderr: String
        /// The child's own peak resident memory, in kB.
        public let peakKilobytes: Int
        public let seconds: Double
    }

    /// Runs the binary under GNU time (Debian package `time`), which forks a fresh process
    /// and reads its peak memory with wait4. Measuring the child directly from here would
    /// not do: posix_spawn shares this test process's memory until exec, and Linux carries
    /// that high-water mark over into the child's ru_maxrss. Standard output is discarded;
    /// standard error is kept (in a file, so it cannot block).
    public func runMeasured(_ arguments: [String], standardInput: String = "/dev/null") throws -> Measured {
        let errorFile = NSTemporaryDirectory() + "quoted-measured-" + UUID().uuidString
        let peakFile = errorFile + ".peak"
        defer { unlink(errorFile); unlink(peakFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let timeTool = "/usr/bin/time"
        let argv = ([timeTool, "-f", "%M", "-o", peakFile, path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let started = Date()
        guard posix_spawn(&pid, timeTool, &actions, nil, argv, envp) == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot start \(timeTool) (apt install time)"])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let stderr = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        let report = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
        // time writes "Command exited with non-zero status N" before the figure.
        let peak = report.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? Int.max
        let exited = status & 0x7F == 0
        return Measured(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), stderr: stderr,
                        peakKilobytes: peak, seconds: Date().timeIntervalSince(started))
    }
}

/// The end-to-end tests' scratch folder: the shared temporary folder.
public typealias Scratch = TemporaryFolder
