import Foundation
import Testing
import TestSupport

/// like, hide, unhide, liked, random --liked, export/import --liked and --once-per, run in-process
/// with the user's state in a temporary folder (likes from processes at once: KeepCommandsAtOnceTests).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct KeepCommandsTests {
    let scratch = Scratch()
    var quotectl: InProcessQuotectl
    var state: String { scratch.file("state/quoted") }

    init() throws {
        quotectl = InProcessQuotectl(home: scratch.path)
        quotectl.environment["XDG_STATE_HOME"] = scratch.file("state")
        quotectl.environment["QUOTED_DB"] = scratch.file("q.db")
        try importList(["1": "The first quote.", "2": "The second quote.", "3": "The third quote."])
    }

    func importList(_ quotes: [String: String], name: String = "t") throws {
        let list = quotes.sorted { $0.key < $1.key }.map { #"{"id": "\#($0.key)", "text": "\#($0.value)", "source": "Author \#($0.key)"}"# }
        let file = scratch.write(name + ".json", "[" + list.joined(separator: ",") + "]")
        let imported = try quotectl.run(["import", file, "--name", name])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    func ids(_ arguments: [String]) throws -> [String] {
        let result = try quotectl.run(arguments + ["--json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
        }
    }

    func liked() throws -> [[String: Any]] {
        let result = try quotectl.run(["liked", "--json"])
        return result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func likeWithNothingShownSaysWhatToDo() throws {
        for command in ["like", "hide"] {
            let result = try quotectl.run([command])
            #expect(result.status == 66 && result.stdout.isEmpty, "\(result.stdout)")
            #expect(result.stderr == "quotectl: no quote shown yet: run quotectl random (or today) first, or give an ID\n", "\(result.stderr)")
        }
        #expect(try quotectl.run(["liked"]).status == 66)
        #expect(try quotectl.run(["random", "--liked"]).status == 66)
    }

    @Test func likeTakesTheLastQuoteShownAndLikedListsIt() throws {
        let shown = try ids(["random", "--source", "custom.t"])
        #expect(shown.count == 1)
        let like = try quotectl.run(["like"])
        #expect(like.status == 0 && like.stdout.hasPrefix("liked: \"The "), "\(like.stdout) \(like.stderr)")
        #expect(try quotectl.run(["like"]).stdout.hasPrefix("already liked: "))
        let list = try liked()
        #expect(list.count == 1 && list[0]["id"] as? String == shown[0] && list[0]["key"] as? String == "custom.t:\(shown[0])")
        #expect(list[0]["in_store"] as? Bool == true && list[0]["author"] as? String == "Author \(shown[0])")
        // What liked --json prints is an ID like, hide and unhide take.
        #expect(try quotectl.run(["like", "custom.t:\(shown[0])"]).stdout.hasPrefix("already liked"))
        #expect(try ids(["random", "--liked"]) == [shown[0]])
    }

    /// A store of three quotes, two hidden: not one of 200 draws, on every path of the draw
    /// (a random pick, -n's shuffle, --unseen, a source's share), is a hidden one.
    @Test func hiddenQuotesAreNeverDrawn() throws {
        #expect(try quotectl.run(["hide", "1"]).stdout.hasPrefix("hidden: \"The first quote.\" — Author 1; quotectl unhide custom.t:1"))
        #expect(try quotectl.run(["hide", "custom.t:2"]).status == 0)
        var drawn: [String] = []
        for _ in 0..<80 { drawn += try ids(["random", "--source", "custom.t"]) }
        for _ in 0..<40 { drawn += try ids(["random", "--source", "custom.t", "-n", "3"]) }
        for _ in 0..<40 { drawn += try ids(["random", "--source", "custom.t", "--unseen"]) }
        for _ in 0..<40 { drawn += try ids(["random", "100%", "custom.t"]) }
        #expect(drawn.count == 200 && Set(drawn) == ["3"], "\(Set(drawn))")
        #expect(try quotectl.run(["hide", "3"]).status == 0)
        for command in ["random", "today"] {
            let none = try quotectl.run([command, "--source", "custom.t"])
            #expect(none.status == 66 && none.stdout.isEmpty)
            #expect(none.stderr == "quotectl: every quote that matches is one you hid (3 quotes hidden; quotectl unhide ID shows one again)\n",
                    "\(none.stderr)")
        }
        #expect(try quotectl.run(["unhide", "custom.t:1"]).stdout.hasPrefix("shown again: \"The first quote.\""))
        #expect(try ids(["random", "--source", "custom.t"]) == ["1"])
    }

    @Test func todayMovesPastAHiddenQuoteTheSameWayAllDay() throws {
        let first = try ids(["today", "--source", "custom.t"])
        #expect(try quotectl.run(["hide"]).status == 0)  // the quote just shown
        let next = try ids(["today", "--source", "custom.t"])
        #expect(next.count == 1 && next != first)
        for _ in 0..<5 { #expect(try ids(["today", "--source", "custom.t"]) == next) }
        #expect(try quotectl.run(["hide", next[0]]).status == 0)
        let third = try ids(["today", "--source", "custom.t"])
        #expect(third.count == 1 && !first.contains(third[0]) && !next.contains(third[0]))
        #expect(try quotectl.run(["unhide", first[0]]).status == 0)
        #expect(try ids(["today", "--source", "custom.t"]) == first)
    }

    /// Keyed by source and upstream id, kept with their text: a store rebuilt from scratch (other
    /// row ids) keeps them, and a quote removed upstream stays liked, marked so.
    @Test func likesSurviveARebuiltStoreAndTheirRemovalUpstream() throws {
        #expect(try quotectl.run(["like", "2"]).status == 0)
        for suffix in ["", "-wal", "-shm", "-lock"] { try? FileManager.default.removeItem(atPath: scratch.file("q.db") + suffix) }
        try importList(["a": "Another list first.", "b": "So the row ids move."], name: "other")
        try importList(["1": "The first quote.", "2": "The second quote.", "3": "The third quote."])
        #expect(try liked().first?["in_store"] as? Bool == true)
        #expect(try quotectl.run(["hide", "2"]).stdout.contains("(no longer liked)"))
        #expect(try quotectl.run(["like", "2"]).status == 0)  // and liking it again shows it again
        #expect(try ids(["random", "--source", "custom.t", "-n", "3"]).sorted() == ["1", "2", "3"])
        try importList(["1": "The first quote.", "3": "The third quote."])
        let gone = try liked()
        #expect(gone.count == 1 && gone[0]["in_store"] as? Bool == false && gone[0]["text"] as? String == "The second quote.")
        #expect(try quotectl.run(["liked"]).stdout.contains("(no longer in the store)"))
        #expect(try ids(["random", "--liked"]) == ["2"])
        #expect(try quotectl.run(["unhide", "custom.t:2"]).stdout.hasPrefix("not hidden"))
    }

    static let badIDs: [(String, Int32)] = [("0", 66), ("-1", 64), ("9223372036854775807", 66), ("abc", 66), ("builtin:nope", 66),
                                            ("", 64), (String(repeating: "9", count: 5_000), 64), ("a\u{1B}[2Jb", 64)]

    @Test(arguments: badIDs)
    func badIDsAreNamed(id: String, status: Int32) throws {
        for command in ["like", "hide", "unhide"] {
            let result = try quotectl.run([command, id])
            #expect(result.status == status && result.stdout.isEmpty, "\(command) \(id.prefix(20)): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("quotectl: ") && result.stderr.count < 300 && !result.stderr.contains("\u{1B}"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: state + "/liked"))
    }

    /// A liked file mangled, oversized or binary: one line naming it, what can be read is read,
    /// and like refuses to write over it (74) — the likes are not lost.
    @Test(arguments: ["mangled", "oversized", "binary"])
    func aBadLikedFileIsNamedAndKept(kind: String) throws {
        #expect(try quotectl.run(["like", "1"]).status == 0)
        let path = state + "/liked"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        switch kind {
        case "mangled": bytes += Data("{\"source\": 5}\n".utf8)
        case "oversized": bytes += Data(repeating: 0x20, count: 17 << 20)
        default: bytes += Data([0, 0xFF, 0xC3, 0x28, 10])
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        let list = try quotectl.run(["liked"])
        #expect(list.stderr.split(separator: "\n").count == 1 && list.stderr.contains(path), "\(list.stderr)")
        #expect(list.status == (kind == "oversized" ? 74 : 0))
        if kind != "oversized" { #expect(list.stdout.contains("The first quote.")) }
        let like = try quotectl.run(["like", "3"])
        #expect(like.status == 74 && like.stderr.contains(path) && like.stderr.contains("not writing over it"), "\(like.stderr)")
        #expect(try quotectl.run(["hide", "1"]).status == 74)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func oncePerDayBootAndSession() throws {
        #expect(try quotectl.run(["random", "--once-per", "day"]).stdout.count > 1)
        for period in ["day", "boot", "session"] {
            let again = try quotectl.run(["random", "--once-per", period])
            #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.isEmpty, "\(period): \(again.stdout)")
        }
        var otherSession = quotectl
        otherSession.environment["XDG_SESSION_ID"] = "c42"
        #expect(try otherSession.run(["random", "--once-per", "session"]).stdout.count > 1)
        #expect(try otherSession.run(["random", "--once-per", "session"]).stdout.isEmpty)
        // Greeted in another boot, or at a time ahead of the clock: not greeted in this period.
        let greeted = state + "/greeted"
        for line in [#"{"boot":"0b0b0b0b-0000-0000-0000-000000000000","session":"c42","source":"custom.t","id":"1","text":"x","author":null,"lang":null,"time":1000}"#,
                     #"{"boot":null,"session":null,"source":"custom.t","id":"1","text":"x","author":null,"lang":null,"time":4102444800}"#] {
            try (line + "\n").write(toFile: greeted, atomically: true, encoding: .utf8)
            let period = line.contains("4102444800") ? "day" : "boot"
            #expect(try otherSession.run(["random", "--once-per", period]).stdout.count > 1, "\(period)")
        }
        #expect(try quotectl.run(["random", "--once-per", "week"]).status == 64)
    }

    /// Only a greeting (what random --once-per printed) uses up the period: the quotes a bar, a
    /// plain random or today showed do not, though like takes the last of them.
    @Test func onlyAGreetingUsesUpThePeriod() throws {
        for arguments in [["random", "--format", "tmux"], ["random", "--format", "waybar"], ["random", "--format", "i3blocks"],
                          ["random", "--format", "polybar"], ["random", "--oneline"], ["random"], ["today"]] {
            let shown = try quotectl.run(arguments)
            #expect(shown.status == 0 && shown.stdout.count > 1, "\(arguments): \(shown.stderr)")
        }
        #expect(try quotectl.run(["like"]).status == 0)  // today's quote, the last shown
        let greeting = try quotectl.run(["random", "--once-per", "day"])
        #expect(greeting.status == 0 && greeting.stdout.count > 1, "a bar used up the day's greeting: \(greeting.stderr)")
        let again = try quotectl.run(["random", "--once-per", "day"])
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)")
        #expect(try quotectl.run(["random", "--format", "tmux"]).stdout.count > 1)
        #expect(FileManager.default.fileExists(atPath: state + "/greeted"))
    }

    @Test(arguments: ["json", "csv", "fortune"])
    func likedQuotesRoundTripThroughExportAndImport(format: String) throws {
        #expect(try quotectl.run(["like", "1"]).status == 0)
        #expect(try quotectl.run(["like", "3"]).status == 0)
        let exported = try quotectl.run(["export", "--liked", "--format", format])
        #expect(exported.status == 0 && exported.stdout.contains("The third quote."), "\(exported.stderr)")
        let file = scratch.write("liked." + format, exported.stdout)
        var elsewhere = quotectl
        elsewhere.environment["XDG_STATE_HOME"] = scratch.file("other-state")
        let imported = try elsewhere.run(["import", "--liked", "--format", format, file])
        #expect(imported.status == 0 && imported.stdout.hasPrefix("liked: 2 quotes added"), "\(imported.stdout) \(imported.stderr)")
        let keys = try elsewhere.run(["liked", "--json"]).stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["key"] as? String
        }
        #expect(keys == ["custom.t:1", "custom.t:3"])
        #expect(try elsewhere.run(["import", "--liked", "--format", format, file]).stdout.contains("0 quotes added"))
        #expect(try quotectl.run(["export", "--liked", "--format", format, "--source", "builtin"]).status == 64)
    }
}
