import Foundation

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

    let name: String
    var environment: [String: String]

    init(_ name: String, home: String) {
        self.name = name
        // A clean environment: nothing from the developer's own store or config leaks in.
        environment = ["HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"]
    }

    var path: String { Self.productsFolder.appendingPathComponent(name).path }

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60) throws -> Result {
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
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(name) \(arguments) timed out"])
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A fresh folder under /tmp, removed when the value goes away.
final class Scratch {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "quotectl-e2e-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ name: String, _ text: String) -> String {
        let target = file(name)
        try! Data(text.utf8).write(to: URL(fileURLWithPath: target))
        return target
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
