import Foundation
import Testing
import TestSupport

/// `sync --now` with no daemon hands over to `quoted sync --once`: the program becomes quoted, and
/// a run in-process hands it to a child instead, with what the child said in the run's streams.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct SyncHandOverTests {
    @Test func withNoDaemonARunInProcessSyncsThroughAChild() throws {
        let scratch = Scratch()
        let server = try TestUpstream { _ in .json(#"[{"id": 1, "text": "one"}, {"id": 2, "text": "two"}]"#) }
        defer { server.stop() }
        let config = scratch.write("quoted.conf", BinaryRunner.oneListConfig(store: scratch.file("q.db"), list: "custom.e2e",
                                                                             url: "\(server.baseURL)/l"))
        var quotectl = InProcessQuotectl(home: scratch.path)
        quotectl.environment["QUOTED_CONFIG"] = config
        // quoted from the products, whether or not the test bundle is built beside it.
        quotectl.environment["PATH"] = BinaryRunner.productsFolder.path + ":/usr/bin:/bin"
        let result = try quotectl.run(["sync", "--now"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("daemon not running; syncing with"), "\(result.stderr)")
        #expect(result.stderr.contains("custom.e2e: 2 quotes, 2 changed"), "\(result.stderr)")
        #expect(try quotectl.run(["random", "--source", "custom.e2e"]).status == 0)
    }
}
