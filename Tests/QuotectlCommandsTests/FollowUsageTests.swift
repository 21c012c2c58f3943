import Foundation
import Testing
import TestSupport

/// What `--follow`, `--every` and `quotectl next` refuse or clean up before any follower runs,
/// in-process (followers themselves, their signals and pipes: FollowTests).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct FollowUsageTests {
    let scratch = Scratch()
    var quotectl: InProcessQuotectl

    init() throws {
        quotectl = InProcessQuotectl(home: scratch.path)
        try FileManager.default.createDirectory(atPath: scratch.file("run"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        quotectl.environment["XDG_RUNTIME_DIR"] = scratch.file("run")
        quotectl.environment["QUOTED_DB"] = scratch.file("follow.db")
        let list = scratch.write("first.json", #"[{"id": 1, "text": "Work is love made visible.", "source": "Someone"}]"#)
        let imported = try quotectl.run(["import", list, "--name", "first"])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    @Test(arguments: ["0", "-1", "1000000d", "abc", "0s", "2d"])
    func aBadEveryIsAUsageError(every: String) throws {
        let result = try quotectl.run(["random", "--follow", "--every", every, "--oneline"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--every takes a duration from 1s to 1d"), "\(result.stderr)")
    }

    @Test func everyNeedsFollowAndFollowNeedsLines() throws {
        let alone = try quotectl.run(["random", "--every", "5m", "--oneline"])
        #expect(alone.status == 64 && alone.stderr.contains("--every needs --follow"), "\(alone.stderr)")
        let plain = try quotectl.run(["status", "--follow"])
        #expect(plain.status == 64 && plain.stderr.contains("add --format or --json"), "\(plain.stderr)")
        let many = try quotectl.run(["random", "--follow", "-n", "2", "--oneline"])
        #expect(many.status == 64 && many.stderr.contains("not with --count"), "\(many.stderr)")
    }

    /// Entries of followers that are gone (a dead pid, a pid now another program's) are not
    /// signalled, and are removed; a file that is no follower's entry is left alone.
    @Test func quotectlNextIgnoresAndRemovesStaleEntries() throws {
        let folder = scratch.file("run/quoted/followers")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let reused = ProcessInfo.processInfo.processIdentifier  // alive, but it never registered: another start time
        scratch.write("run/quoted/followers/\(reused)", "\(reused) 1\n")
        scratch.write("run/quoted/followers/4194302", "4194302 12345\n")
        scratch.write("run/quoted/followers/notes", "not an entry\n")
        let next = try quotectl.run(["next"])
        #expect(next.status == 69, "\(next.stdout)\(next.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["notes"])
    }
}
