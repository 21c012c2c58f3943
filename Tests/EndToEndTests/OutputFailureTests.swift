import Foundation
import Testing
import TestSupport

/// Output that cannot be written is an error, for quoted as for quotectl: a summary lost to a
/// full disk is exit 74 with a message, not a silent 0.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct OutputFailureTests {
    @Test(arguments: [["sync", "--once", "--json"], ["--version"]])
    func quotedReportsAFullDisk(arguments: [String]) throws {
        let scratch = Scratch()
        let server = try TestUpstream { _ in .json(#"[{"id": 1, "text": "one"}]"#) }
        defer { server.stop() }
        let config = scratch.write("quoted.conf", BinaryRunner.oneListConfig(store: scratch.file("q.db"), list: "custom.x", url: "\(server.baseURL)/l"))
        let quoted = BinaryRunner.productsFolder.appendingPathComponent("quoted").path
        let shell = BinaryRunner("sh", home: scratch.path, path: "/bin/sh")
        let words = arguments.first == "sync" ? arguments + ["--config", config] : arguments
        let result = try shell.run(["-c", #"exec "$0" "$@" > /dev/full"#, quoted] + words)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("quoted: cannot write to standard output: No space left on device"), "\(result.stderr)")
        // A reader that leaves early is no error (as for cat).
        let piped = try shell.run(["-c", #""$0" "$@" | true; exit ${PIPESTATUS:-0}"#, quoted] + words)
        #expect(!piped.stderr.contains("cannot write"), "\(piped.stderr)")
    }

    /// quotectl's standard output is the program's own (a run in-process writes to memory): a full
    /// disk is exit 74 with a message, a reader that leaves early ends it quietly, as cat.
    @Test func quotectlReportsAFullDisk() throws {
        let scratch = Scratch()
        let quotectl = BinaryRunner.productsFolder.appendingPathComponent("quotectl").path
        let shell = BinaryRunner("sh", home: scratch.path, path: "/bin/sh")
        // The starter set's export (the store made at this HOME's default place).
        let words = ["export", "--format", "json"]
        let full = try shell.run(["-c", #"exec "$0" "$@" > /dev/full"#, quotectl] + words)
        #expect(full.status == 74, "\(full.stderr)")
        #expect(full.stderr == "quotectl: cannot write to standard output: No space left on device\n", "\(full.stderr)")
        let piped = try shell.run(["-c", #""$0" "$@" | head -c 10 > /dev/null"#, quotectl] + words)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.status) \(piped.stderr)")
    }
}
