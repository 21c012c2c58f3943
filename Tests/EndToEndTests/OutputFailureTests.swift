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
}
