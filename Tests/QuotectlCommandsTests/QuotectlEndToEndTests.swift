import Foundation
@testable import QuoteStore
import QuoteModels
import QuoteText
import Testing
import TestSupport

/// quotectl as a user runs it, its commands run in-process: a fresh HOME, real files.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct QuotectlEndToEndTests {
    let scratch = Scratch()
    var quotectl: InProcessQuotectl

    init() {
        quotectl = InProcessQuotectl(home: scratch.path)
    }

    var defaultStore: String { scratch.path + "/.local/share/quoted/quotes.db" }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func aFreshMachinePrintsAQuoteFromTheStarterSet() throws {
        let result = try quotectl.run(["random"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
        #expect(FileManager.default.fileExists(atPath: defaultStore))
    }

    @Test func randomJSONHasTheDocumentedKeys() throws {
        let result = try quotectl.run(["random", "--lang", "ko", "--json"])
        #expect(result.status == 0)
        let object = try #require(try jsonLines(result.stdout).first)
        for key in ["source", "id", "text", "author", "category", "lang"] { #expect(object.keys.contains(key), "\(key)") }
        #expect(object["lang"] as? String == "ko")
        #expect(object["source"] as? String == "builtin")
    }

    /// --db, then $QUOTED_DB, then XDG. A store named by --db or $QUOTED_DB must exist for a
    /// reading command (a typo never makes a new store); the default location is created.
    @Test func theStoreIsFoundThroughDbThenEnvironmentThenXDG() throws {
        let viaOption = scratch.file("a.db"), viaEnvironment = scratch.file("b.db")
        let typo = try quotectl.run(["--db", viaOption, "random"])
        #expect(typo.status == 66)
        #expect(typo.stderr.contains(viaOption) && typo.stderr.contains("never create a store"), "\(typo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: viaOption))
        #expect(try quotectl.run(["--db", viaOption, "import", scratch.write("one.json", #"[{"id": 1, "text": "x"}]"#), "--name", "one"]).status == 0)
        #expect(try quotectl.run(["--db", viaOption, "random"]).status == 0)
        var withEnvironment = quotectl
        withEnvironment.environment["QUOTED_DB"] = viaEnvironment
        #expect(try withEnvironment.run(["random"]).status == 66)
        #expect(!FileManager.default.fileExists(atPath: viaEnvironment))
        #expect(try withEnvironment.run(["import", scratch.file("one.json"), "--name", "one"]).status == 0)
        #expect(try withEnvironment.run(["random"]).status == 0)
        var withXDG = quotectl
        withXDG.environment["XDG_DATA_HOME"] = scratch.file("xdg")
        #expect(try withXDG.run(["random"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: scratch.file("xdg/quoted/quotes.db")))
    }

    @Test func helpIsOnStdoutInTheUsualLayout() throws {
        let top = try quotectl.run(["--help"])
        #expect(top.status == 0)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:"] { #expect(top.stdout.contains(section)) }
        for command in ["random", "today", "search", "characters", "deaths", "markets", "weather", "import", "export", "status"] {
            let help = try quotectl.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("OVERVIEW:"), "\(command)")
            #expect(help.stdout.contains("USAGE: quotectl \(command)"))
            #expect(help.stderr.isEmpty)
        }
    }

    @Test(arguments: [
        ["random", "--nope"], ["random", "--max-length", "x"], ["random", "--lang", "fr"], ["random", "--source", "bogus"],
        ["frobnicate"], ["import"], ["import", "f.json"], ["export"], ["export", "--format", "xml"], ["search"],
        ["markets", "--quote", "EUR"], ["random", "--author"], [],
    ])
    func usageErrorsExit64WithAMessageOnStderr(arguments: [String]) throws {
        let result = try quotectl.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("quotectl: "), "\(result.stderr)")
    }

    @Test func noMatchExits66() throws {
        let result = try quotectl.run(["random", "--author", "Nobody Whatsoever"])
        #expect(result.status == 66)
        #expect(result.stderr == "quotectl: no quote matches --author \"Nobody Whatsoever\"\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func importTwiceChangesNothingAndFiltersFindTheList() throws {
        let file = scratch.write("list.json", """
            [{"id": 1, "category": "dev", "text": "Talk is cheap. Show me the code.", "source": "Linus"},
             {"id": 2, "category": "dev", "text": "행복한 코드는 짧다", "source": "Linus"}]
            """)
        let first = try quotectl.run(["import", file, "--name", "mine"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("2 inserted"))
        let second = try quotectl.run(["import", file, "--name", "mine"])
        #expect(second.stdout.contains("0 inserted, 0 updated, 0 removed, 2 unchanged"))
        let picked = try quotectl.run(["random", "--source", "custom", "--author", "linus", "--json"])
        #expect(try jsonLines(picked.stdout).first?["source"] as? String == "custom.mine")
        let found = try quotectl.run(["search", "행복", "--json"])
        #expect(try jsonLines(found.stdout).contains { $0["source"] as? String == "custom.mine" })
    }

    /// A JSON list streams into the store as it is read (many chunks, the bulk path that drops
    /// and rebuilds indexes): a bad record at its very end still leaves the store byte for byte as
    /// it was, schema included; repeated ids are named and counted; the good list goes in whole.
    @Test func aBigListStreamsInAndABadLastRecordChangesNothing() throws {
        _ = try quotectl.run(["random"])
        let before = try Data(contentsOf: URL(fileURLWithPath: defaultStore))
        let records = (1...30_000).map { #"{"id": \#($0), "category": "c", "text": "streamed quote number \#($0) of many", "source": "A"}"# }
        let bad = scratch.write("bad.json", "[" + records.joined(separator: ",\n") + #",{"id": 30001, "text": 42}]"#)
        let refused = try quotectl.run(["import", bad, "--name", "big"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("bad.json: record 30001 (id 30001): \"text\" must be a string, found a number; nothing imported"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: defaultStore)) == before)

        let twice = scratch.write("twice.json", "[" + (records + records.prefix(3)).joined(separator: ",\n") + "]")
        let repeated = try quotectl.run(["import", twice, "--name", "big"])
        #expect(repeated.status == 65)
        #expect(repeated.stderr.contains("twice.json: record 30001 (id 1): duplicate id (and 2 more); nothing imported"), "\(repeated.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: defaultStore)) == before)

        let good = scratch.write("good.json", "[" + records.joined(separator: ",\n") + "]")
        #expect(try FileManager.default.attributesOfItem(atPath: good)[.size] as? Int ?? 0 > 2 << 20)
        let imported = try quotectl.run(["import", good, "--name", "big"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("custom.big: 30000 quotes (30000 inserted"), "\(imported.stdout)")
        let found = try quotectl.run(["search", "29999", "--json"])
        #expect(try jsonLines(found.stdout).map { $0["text"] as? String } == ["streamed quote number 29999 of many"])
        let piped = try quotectl.run(["import", "-", "--name", "big"], stdin: "[" + records.joined(separator: ",") + "]")
        #expect(piped.stdout.contains("0 inserted, 0 updated, 0 removed, 30000 unchanged"), "\(piped.stdout)")
    }

    /// A file's kind is told from its first non-blank byte, however many MiB of blanks come first.
    @Test func leadingBlanksOverManyChunksStillTellJSONFromText() throws {
        let blanks = String(repeating: " \n", count: 1_500_000)  // 3 MB: three chunks of blanks
        let json = scratch.write("blank.json", blanks + #"[{"id": 1, "text": "after the blanks"}]"#)
        let imported = try quotectl.run(["import", json, "--name", "blank"])
        #expect(imported.status == 0 && imported.stdout.contains("custom.blank: 1 quote"), "\(imported.stderr)")
        let text = scratch.write("blank.txt", blanks + "a line after the blanks\n")
        let lines = try quotectl.run(["import", text, "--name", "lines"])
        #expect(lines.status == 0 && lines.stdout.contains("custom.lines: 1 quote"), "\(lines.stderr)")
        let nothing = try quotectl.run(["import", scratch.write("blank", blanks), "--name", "none"])
        #expect(nothing.status == 65 && nothing.stderr.contains("no quotes in it"), "\(nothing.stderr)")
    }

    /// Whatever is pasted into a search, "no match" stays one short line.
    @Test func aSearchThatFindsNothingSaysSoOnOneShortLine() throws {
        let pasted = String(repeating: "zq", count: 5_000) + " " + String(repeating: "x ", count: 2_000)
        let result = try quotectl.run(["search", pasted])
        #expect(result.status == 66)
        #expect(result.stderr.hasPrefix("quotectl: no quote matches \"zqzq") && result.stderr.hasSuffix("…\"\n"), "\(result.stderr.prefix(200))")
        #expect(result.stderr.count < 120 && result.stderr.split(separator: "\n").count == 1)
    }

    @Test func aMalformedImportNamesTheRecordAndChangesNothing() throws {
        _ = try quotectl.run(["random"])
        let before = try Data(contentsOf: URL(fileURLWithPath: defaultStore))
        let bad = scratch.write("bad.json", #"[{"id": 1, "text": "fine"}, {"id": 2, "text": 42}]"#)
        let result = try quotectl.run(["import", bad, "--name", "bad"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("bad.json: record 2 (id 2): \"text\" must be a string"), "\(result.stderr)")
        let broken = scratch.write("broken.json", "[\n {\"id\": 1, \"text\": \"x\"},\n {\"id\": 2 \"text\": \"y\"}\n]")
        let syntax = try quotectl.run(["import", broken, "--name", "bad"])
        #expect(syntax.status == 65)
        #expect(syntax.stderr.contains("broken.json: not JSON: line 3"), "\(syntax.stderr)")
        let missing = try quotectl.run(["import", scratch.file("nope.json"), "--name", "bad"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nope.json"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: defaultStore)) == before)
        #expect(try quotectl.run(["random", "--source", "custom.bad"]).status == 66)
    }

    @Test func controlSequencesInQuotesAreStrippedWhenPrinted() throws {
        let file = scratch.write("evil.json", #"[{"id": 1, "text": "red \u001b[31malert\u001b[0m \u001b]0;owned\u0007done\r", "source": "\u009b2Jx"}]"#)
        #expect(try quotectl.run(["import", file, "--name", "evil"]).status == 0)
        let text = try quotectl.run(["random", "--source", "custom.evil"])
        #expect(text.stdout == "red alert done\n    — 2Jx\n".replacingOccurrences(of: "2Jx", with: "x"))
        #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 })
        let json = try quotectl.run(["random", "--source", "custom.evil", "--json"])
        let object = try #require(try jsonLines(json.stdout).first)
        #expect((object["text"] as? String)?.contains("\u{1B}[31m") == true)  // JSON keeps the data, escaped
        #expect(!json.stdout.unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test func jsonOutputEscapesEveryControl() throws {
        let list = scratch.write("list.json", #"[{"id": 1, "category": "c", "text": "csi\u009b2J osc\u009d0;x\u0007 rlo\u202etxt", "source": "A"}]"#)
        let db = scratch.file("j.db")
        #expect(try quotectl.run(["--db", db, "import", list, "--name", "j"]).status == 0)
        for arguments in [["random", "--source", "custom.j", "--json"], ["export", "--source", "custom.j", "--format", "json"]] {
            let output = try quotectl.run(["--db", db] + arguments).stdout
            #expect(output.contains(#"\u009b2J"#) && output.contains(#"\u009d0;x\u0007"#) && output.contains(#"\u202etxt"#), "\(output)")
            #expect(!output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        }
    }

    @Test func aCorruptStoreIsReportedWith74AndNeverOverwritten() throws {
        let path = scratch.write("corrupt.db", String(repeating: "not a database ", count: 500))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for arguments in [["random"], ["status"], ["import", scratch.write("l.json", #"[{"id":1,"text":"x"}]"#), "--name", "x"]] {
            let result = try quotectl.run(["--db", path] + arguments)
            #expect(result.status == 74, "\(arguments)")
            #expect(result.stderr.contains(path))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aStoreThatCannotBeCreatedIsNamed() throws {
        let result = try quotectl.run(["--db", "/dev/null/sub/quotes.db", "random"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/dev/null/sub/quotes.db"))
    }

    @Test func aStoreHeldInAWriteTransactionCanStillBeRead() throws {
        _ = try quotectl.run(["random"])
        let writer = try Database(path: defaultStore, mode: .readWrite)
        try writer.execute("BEGIN IMMEDIATE; DELETE FROM quotes WHERE source = 'builtin'")
        let result = try quotectl.run(["random"])
        #expect(result.status == 0, "\(result.stderr)")
        try writer.execute("ROLLBACK")
    }

    @Test func exportFortuneWorksWithStrfileAndFortune() throws {
        let file = scratch.write("f.json", #"[{"id": 1, "text": "first line\n%\nlast line", "source": "A"}, {"id": 2, "text": "second", "source": "B"}]"#)
        #expect(try quotectl.run(["import", file, "--name", "f"]).status == 0)
        let export = try quotectl.run(["export", "--source", "custom.f", "--format", "fortune"])
        #expect(export.status == 0)
        // A text's lines are the record's, as written; a line that is just "%" is written " %".
        #expect(export.stdout == "first line\n %\nlast line\n\t\t-- A\n%\nsecond\n\t\t-- B\n%\n")
        let strfile = ["/usr/bin/strfile", "/usr/sbin/strfile"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let fortune = "/usr/games/fortune"
        guard let strfile, FileManager.default.isExecutableFile(atPath: fortune) else {
            Issue.record("strfile and fortune are needed for this test (apt-get install fortune-mod)")
            return
        }
        let data = scratch.write("ours", export.stdout)
        let index = Process()
        index.executableURL = URL(fileURLWithPath: strfile)
        index.arguments = [data]
        index.standardOutput = FileHandle.nullDevice
        try index.run()
        index.waitUntilExit()
        #expect(index.terminationStatus == 0)
        let told = Process()
        let pipe = Pipe()
        told.executableURL = URL(fileURLWithPath: fortune)
        told.arguments = [data]
        told.standardOutput = pipe
        try told.run()
        told.waitUntilExit()
        let said = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said == "second\n\t\t-- B\n" || said == "first line\n %\nlast line\n\t\t-- A\n", "\(said)")
    }

    @Test func exportJSONAndCSVAreParseable() throws {
        let json = try quotectl.run(["export", "--format", "json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.count >= 200)
        let csv = try quotectl.run(["export", "--format", "csv"])
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == "source,id,text,author,category,lang,production,episode")
        #expect(lines.count == array.count + 1)
    }

    @Test func todayIsStableAndSearchFindsKorean() throws {
        let first = try quotectl.run(["today"])
        #expect(first.status == 0)
        #expect(try quotectl.run(["today"]).stdout == first.stdout)
        let found = try quotectl.run(["search", "배우고"])
        #expect(found.status == 0)
        #expect(found.stdout.contains("공자"))
    }

    /// Nothing to show is answered one way everywhere: exit 66, one line on stderr saying how to
    /// get some, nothing on stdout (so `--json` stays parseable).
    @Test func emptyListsAndEmptySourcesAnswerAlike() throws {
        for command in [["characters"], ["deaths"], ["markets"], ["weather"], ["random", "--source", "happiness"]] {
            for json in [false, true] {
                let result = try quotectl.run(command + (json ? ["--json"] : []))
                #expect(result.status == 66, "\(command)")
                #expect(result.stdout.isEmpty, "\(command): \(result.stdout)")
                #expect(result.stderr.hasPrefix("quotectl: no ") && result.stderr.split(separator: "\n").count == 1, "\(command): \(result.stderr)")
            }
        }
        let random = try quotectl.run(["random", "--source", "happiness"])
        #expect(random.stderr.contains("quotectl sync --now --source happiness"), "\(random.stderr)")
    }

    /// The table says why a source has no success (its header row kept when piped, as `ps` does),
    /// and `--json` calls neither a disabled source nor an imported list configured.
    @Test func statusTellsDisabledAndImportedFromNeverSynced() throws {
        let store = scratch.file("s.db")
        let list = scratch.write("mine.json", #"[{"id": 1, "text": "mine"}]"#)
        #expect(try quotectl.run(["--db", store, "import", list, "--name", "mine"]).status == 0)
        let config = scratch.write("quoted.conf", "[store]\npath = \(store)\n[source.upbit]\nenabled = false\n")
        let table = try quotectl.run(["--config", config, "status"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count > 2 && lines[1].hasPrefix("SOURCE ") && lines[1].contains("LAST SUCCESS"), "\(table.stdout)")
        func row(_ name: String) -> String { lines.first { $0.hasPrefix(name + " ") } ?? "" }
        #expect(row("upbit").contains(" disabled "), "\(table.stdout)")
        #expect(row("weather").contains(" disabled "), "\(table.stdout)")
        #expect(row("custom.mine").contains(" imported "), "\(table.stdout)")
        #expect(row("happiness").contains(" never "), "\(table.stdout)")
        #expect(!table.stdout.contains("no longer in the config"), "\(table.stdout)")
        let json = try jsonLines(try quotectl.run(["--config", config, "status", "--json"]).stdout)
        func object(_ name: String) -> [String: Any] { json.first { $0["source"] as? String == name } ?? [:] }
        #expect(object("custom.mine")["configured"] as? Bool == false)
        #expect(object("custom.mine")["imported"] as? Bool == true)
        #expect(object("upbit")["configured"] as? Bool == false)
        #expect(object("upbit")["disabled"] as? Bool == true)
        #expect(object("happiness")["configured"] as? Bool == true)
        #expect(object("happiness")["disabled"] == nil && object("happiness")["imported"] == nil)
        #expect(object("builtin")["configured"] as? Bool == true)
        // Imported, then named in the configuration: the configuration's list, before its first sync too.
        let named = scratch.write("named.conf", "[store]\npath = \(store)\n[source.custom.mine]\nurl = https://example.org/mine.json\n")
        let adopted = try jsonLines(try quotectl.run(["--config", named, "status", "--json"]).stdout)
        let mine = adopted.first { $0["source"] as? String == "custom.mine" } ?? [:]
        #expect(mine["configured"] as? Bool == true && mine["imported"] == nil, "\(mine)")
        #expect(!(try quotectl.run(["--config", named, "status"]).stdout.contains(" imported ")))
    }

    /// Nothing to export is exit 66 with nothing on stdout (no `[]`, header row or empty feed), and
    /// stderr names the list the store does not have.
    @Test func anExportThatFindsNothingPrintsNothing() throws {
        for format in ["json", "csv", "atom"] {
            let result = try quotectl.run(["export", "--source", "custom.nosuch", "--format", format])
            #expect(result.status == 66)
            #expect(result.stdout.isEmpty, "\(format): \(result.stdout)")
            #expect(result.stderr == "quotectl: the store has no list custom.nosuch\n", "\(result.stderr)")
        }
        let empty = try quotectl.run(["export", "--source", "happiness", "--format", "json"])
        #expect(empty.status == 66 && empty.stdout.isEmpty, "\(empty.stdout)")
        #expect(empty.stderr == "quotectl: no quotes from happiness to export\n", "\(empty.stderr)")
    }

    @Test func statusListsEverySource() throws {
        let result = try quotectl.run(["status", "--json"])
        #expect(result.status == 0)
        let lines = try jsonLines(result.stdout)
        let sources = lines.compactMap { $0["source"] as? String }
        #expect(sources == ["builtin", "happiness", "breakingbad", "upbit", "weather"])
        // Every line says what it describes, so `jq 'select(.kind == "source")'` needs no guessing.
        #expect(lines.map { $0["kind"] as? String } == Array(repeating: "source", count: 5) + ["daemon"])
        let text = try quotectl.run(["status"])
        #expect(text.stdout.contains("never"))
    }
}
