import Foundation
import QuoteConfig
@testable import QuoteDaemon
import QuoteSync
import Synchronization
import Testing
import TestSupport

/// A reload and `[metrics] textfile`: the same path keeps its writer, another is checked and
/// written at once, a missing folder refuses the reload, and a removed key stops the writing.
@Suite(.offThePool) struct TextfileReloadTests {
    let temporary = TemporaryFolder("quoted-textfile-reload")
    var folder: String { temporary.path }

    func metrics(_ path: String?) throws -> Configuration {
        try Configuration.parse(path.map { "[metrics]\ntextfile = \($0)\n" } ?? "", file: folder + "/quoted.conf")
    }

    @Test func aReloadAppliesTheTextfileItNames() async throws {
        for name in ["a", "b"] { try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true) }
        let pathA = folder + "/a/quoted.prom", pathB = folder + "/b/quoted.prom", missing = folder + "/gone"
        let toB = try metrics(pathB), toMissing = try metrics(missing + "/quoted.prom"), without = try metrics(nil)
        let next = Mutex(try metrics(pathA))
        let original = MetricsTextfile(path: pathA)
        let storePath = folder + "/quotes.db"
        let daemon = Daemon(configuration: try metrics(pathA), storePath: storePath,
                            runner: EngineRunner(engine: SyncEngine(storePath: storePath)), logger: Logger(level: .error),
                            notifier: SystemdNotifier(socketPath: nil), loadConfiguration: { next.withLock { $0 } },
                            wallClock: { 1_900_000_000 }, textfile: original)
        try await daemon.prepare()
        #expect(FileManager.default.fileExists(atPath: pathA))

        guard case .success = await daemon.reload() else { Issue.record("the same file was refused"); return }
        #expect(await daemon.textfile === original, "the same path keeps its writer and its warning's state")

        next.withLock { $0 = toB }
        guard case .success = await daemon.reload() else { Issue.record("a writable folder was refused"); return }
        #expect(await daemon.textfile?.path == pathB)
        #expect(FileManager.default.fileExists(atPath: pathB), "written by the reload, before any sync")

        next.withLock { $0 = toMissing }
        guard case .failure(let error) = await daemon.reload() else { Issue.record("a missing folder was accepted"); return }
        #expect("\(error)" == "[metrics] textfile: the folder \(missing) does not exist (or is not a folder)")
        #expect(await daemon.textfile?.path == pathB, "a refused reload keeps the running textfile")

        next.withLock { $0 = without }
        guard case .success = await daemon.reload() else { Issue.record("a file without [metrics] was refused"); return }
        #expect(await daemon.textfile == nil)
        #expect(FileManager.default.fileExists(atPath: pathA) && FileManager.default.fileExists(atPath: pathB), "files left are left in place")
    }
}
