import Synchronization
import Foundation
import TestSupport

/// Runs a built product (quotectl, quoted) as a user would: a real process with
/// its own environment, capturing stdout, stderr and the exit status.
struct BinaryRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The folder holding the products: the test bundle is built beside them.
    static let productsFolder: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        // XCTest bundles are folders on some platforms; climb until quotectl is beside us.
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("quotectl").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    /// Configuration lines that turn the fixed sources off: a test then syncs only what it lists.
    static let fixedSourcesOff = ["happiness", "breakingbad", "upbit"].map { "[source.\($0)]\nenabled = false" }.joined(separator: "\n")

    let name: String
    var environment: [String: String]

    /// A program other than quoted's own (script(1), a shell) when `path` is given.
    private var explicitPath: String?

    init(_ name: String, home: String, path: String? = nil) {
        self.name = name
        explicitPath = path
        // A clean environment: nothing from the developer's own store or config leaks in.
        environment = ["HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"]
    }

    var path: String { explicitPath ?? Self.productsFolder.appendingPathComponent(name).path }

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60, allowTimeout: Bool = false) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes while the process runs, so a large output cannot block it.
        let outData = Mutex(Data()), errData = Mutex(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = out.fileHandleForReading.readDataToEndOfFile()
            outData.withLock { $0 = data }
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            group.leave()
        }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            // A program that runs until stopped (a bar, a terminal session): what it wrote by then.
            guard allowTimeout, group.wait(timeout: .now() + 5) == .success else {
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(name) \(arguments) timed out"])
            }
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData.withLock { $0 }, as: UTF8.self),
                      stderr: String(decoding: errData.withLock { $0 }, as: UTF8.self))
    }
}

extension BinaryRunner {
    struct Measured {
        let status: Int32
        let stderr: String
        /// The child's own peak resident memory, in kB.
        let peakKilobytes: Int
        let seconds: Double
    }

    /// Runs the binary under GNU time (Debian package `time`), which forks a fresh process
    /// and reads its peak memory with wait4. Measuring the child directly from here would
    /// not do: posix_spawn shares this test process's memory until exec, and Linux carries
    /// that high-water mark over into the child's ru_maxrss. Standard output is discarded;
    /// standard error is kept (in a file, so it cannot block).
    func runMeasured(_ arguments: [String], standardInput: String = "/dev/null") throws -> Measured {
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
typealias Scratch = TemporaryFolder
