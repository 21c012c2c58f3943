import Foundation

/// A fresh folder under the temporary directory, removed with everything in it when the
/// value goes away: the one helper every test target uses for files of its own.
public final class TemporaryFolder: Sendable {
    public let path: String

    public init(_ label: String = "quoted-tests") {
        path = NSTemporaryDirectory() + label + "-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` in the folder and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        let target = file(name)
        try! Data(text.utf8).write(to: URL(fileURLWithPath: target))
        return target
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs a program to the end (signify-openbsd, the sqlite3 shell), its output discarded; its exit status.
@discardableResult
public func runTool(_ path: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
