import Foundation
import Glibc
import Testing
import TestSupport

/// What a draw writes of the user's state: one line added to a history, in place — no file
/// made, none renamed — and what `like` and `--once-per` need still recorded.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct DrawWritesTests {
    let scratch = Scratch()
    var quotectl: InProcessQuotectl
    var state: String { scratch.file("state/quoted") }

    init() throws {
        quotectl = InProcessQuotectl(home: scratch.path)
        quotectl.environment["XDG_STATE_HOME"] = scratch.file("state")
        quotectl.environment["QUOTED_DB"] = scratch.file("q.db")
        let list = (1...40).map { #"{"id": "\#($0)", "text": "Quote number \#($0).", "source": "Author \#($0)"}"# }
        let imported = try quotectl.run(["import", scratch.write("t.json", "[" + list.joined(separator: ",") + "]"), "--name", "t"])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    /// The state folder's names with their inodes: a file made or renamed shows as a change.
    func listing() throws -> [String: UInt64] {
        var found: [String: UInt64] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: state) {
            var status = stat()
            #expect(lstat(state + "/" + name, &status) == 0)
            found[name] = UInt64(status.st_ino)
        }
        return found
    }

    func lines(_ name: String) throws -> [String] {
        try String(contentsOfFile: state + "/" + name, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aDrawAddsALineAndRenamesNothing() throws {
        // The first draws make the files; from then on the folder keeps the same ones.
        #expect(try quotectl.run(["random"]).status == 0)
        #expect(try quotectl.run(["random", "--unseen"]).status == 0)
        let before = try listing()
        #expect(Set(before.keys).count == 2 && before["shown"] != nil, "\(before)")
        let shownBefore = try lines("shown").count, seen = try #require(before.keys.first { $0.hasPrefix("seen-") })
        for arguments in [["random"], ["random", "--oneline"], ["random", "-n", "3"], ["today"], ["random", "--unseen"],
                          ["random", "--unseen", "-n", "2"], ["random", "--format", "tmux"]] {
            let drawn = try quotectl.run(arguments)
            #expect(drawn.status == 0 && drawn.stderr.isEmpty, "\(arguments): \(drawn.stderr)")
        }
        #expect(try listing() == before, "a draw made or renamed a file in the state folder")
        #expect(try lines("shown").count == shownBefore + 10)
        #expect(try lines(seen).count == 1 + 3)
    }

    /// A plain draw records the session $XDG_SESSION_ID names and no boot (no /proc read);
    /// `like` takes that quote, and a greeting still records the boot `--once-per boot` asks.
    @Test func whatADrawRecordsIsWhatLikeAndOncePerNeed() throws {
        var session = quotectl
        session.environment["XDG_SESSION_ID"] = "c7"
        let drawn = try session.run(["random", "--json"])
        #expect(drawn.status == 0)
        let last = try #require(try lines("shown").last)
        #expect(last.hasPrefix(#"{"boot":null,"session":"c7","#), "\(last)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(drawn.stdout.utf8)) as? [String: Any])
        // The starter set's quotes are drawn too: `like` names the one drawn, whichever it was.
        let text = try #require(object["text"] as? String)
        let liked = try quotectl.run(["like"])
        // Its start: a long text may be wrapped on the way out.
        #expect(liked.stdout.hasPrefix("liked: \"" + text.prefix(24)), "\(liked.stdout) \(liked.stderr)")
        #expect(try session.run(["random", "--once-per", "boot"]).stdout.count > 1)
        let greeting = try #require(try lines("greeted").last)
        let greeted = try #require(try JSONSerialization.jsonObject(with: Data(greeting.utf8)) as? [String: Any])
        #expect((greeted["boot"] as? String)?.count == 36, "\(greeting)")
        #expect(try session.run(["random", "--once-per", "boot"]).stdout.isEmpty)
    }
}
