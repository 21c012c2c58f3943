import Foundation
import Testing
import TestSupport

/// `quotectl import` reads every list format through the reader a sync uses: the format told by
/// the file's name or first bytes (or `--format`), a bad record named by its line.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct ImportFormatsTests {
    let scratch = Scratch()
    var quotectl: InProcessQuotectl

    init() {
        quotectl = InProcessQuotectl(home: scratch.path)
        quotectl.environment["QUOTED_DB"] = scratch.file("formats.db")
    }

    func copy(_ fixture: String, as name: String, dropping: String? = nil) throws -> String {
        var bytes = try Data(contentsOf: Fixtures.folder.appendingPathComponent(fixture))
        if let dropping, let range = bytes.range(of: Data(dropping.utf8)) { bytes.removeSubrange(range) }
        let target = scratch.file(name)
        try bytes.write(to: URL(fileURLWithPath: target))
        return target
    }

    @Test func theFortuneFixtureImportsByItsName() throws {
        let imported = try quotectl.run(["import", try copy("lists/oddities.fortune", as: "odd.fortune"), "--name", "odd"])
        #expect(imported.status == 0 && imported.stdout.contains("custom.odd: 6 quotes"), "\(imported.stdout) \(imported.stderr)")
        let found = try quotectl.run(["search", "Leben"])
        #expect(found.stdout.contains("Das Leben ist schön"), "\(found.stdout) \(found.stderr)")
    }

    @Test func theExcelFixtureIsRefusedNamingItsBadRowThenImportsWithoutIt() throws {
        let refused = try quotectl.run(["import", try copy("lists/excel.csv", as: "excel.csv"), "--name", "xl"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("excel.csv: line 9: 2 cells, the header has 4; nothing imported"), "\(refused.stderr)")
        let fixed = try copy("lists/excel.csv", as: "sheet", dropping: "Too,few\r\n")
        let imported = try quotectl.run(["import", fixed, "--name", "xl", "--format", "csv"])
        #expect(imported.status == 0 && imported.stdout.contains("custom.xl: 6 quotes"), "\(imported.stdout) \(imported.stderr)")
    }

    @Test func aBadRecordIsNamedByItsLine() throws {
        let text = scratch.write("q.txt", "fine\n\nbad \u{0} one\n")
        let refused = try quotectl.run(["import", text, "--name", "t"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("q.txt: line 3: \"text\" contains a NUL character (U+0000); nothing imported"), "\(refused.stderr)")
        let csv = scratch.write("q.csv", "author,quote\nA,\n")
        let empty = try quotectl.run(["import", csv, "--name", "c"])
        #expect(empty.stderr.contains("q.csv: line 2: \"text\" is empty; nothing imported"), "\(empty.stderr)")
        let header = try quotectl.run(["import", scratch.write("h.csv", "a,b\n1,2\n"), "--name", "c"])
        #expect(header.status == 65 && header.stderr.contains("h.csv: not CSV: line 1: the header (a, b) has no"), "\(header.stderr)")
        #expect(header.stderr.contains("with --fields text:COLUMN"), "\(header.stderr)")
    }

    @Test func paragraphsAndLatin1() throws {
        let file = scratch.file("latin1.txt")
        try Data([0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: file))
        #expect(try quotectl.run(["import", file, "--name", "l"]).status == 0)
        #expect(try quotectl.run(["random", "--source", "custom.l"]).stdout.contains("café"))
    }
}

/// `import`'s mapping options take the values (and refuse the mistakes) a list's section in
/// quoted.conf takes.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct ImportMappingTests {
    let scratch = Scratch()
    var quotectl: InProcessQuotectl

    init() {
        quotectl = InProcessQuotectl(home: scratch.path)
        quotectl.environment["QUOTED_DB"] = scratch.file("mapping.db")
    }

    func fixture(_ name: String) -> String { Fixtures.folder.appendingPathComponent(name).path }

    @Test func anAPIsShapeImportsByItsMapping() throws {
        let imported = try quotectl.run(["import", fixture("imitated/quotable.json"), "--name", "q", "--items", "/results",
                                         "--fields", "id:_id, text:content, author:author, category:tags"])
        #expect(imported.status == 0 && imported.stdout.contains("custom.q: 3 quotes"), "\(imported.stdout) \(imported.stderr)")
        let shown = try quotectl.run(["search", "Knowing yourself", "--json"])
        #expect(shown.stdout.contains("\"category\":\"Famous Quotes, Wisdom\""), "\(shown.stdout) \(shown.stderr)")
        // Without the mapping the same file is no list of quotes.
        let unmapped = try quotectl.run(["import", fixture("imitated/quotable.json"), "--name", "q2"])
        #expect(unmapped.status == 65, "\(unmapped.stderr)")
    }

    @Test func aFeedsAuthorComesFromThePattern() throws {
        let imported = try quotectl.run(["import", fixture("feeds/wikiquote-qotd.atom"), "--name", "wq", "--author-pattern", "~ *([^~]+[^~ ]) *~"])
        #expect(imported.status == 0 && imported.stdout.contains("custom.wq: 3 quotes"), "\(imported.stdout) \(imported.stderr)")
        let shown = try quotectl.run(["random", "--source", "custom.wq", "--author", "William Blake", "--json"])
        #expect(shown.status == 0 && !shown.stdout.contains("~"), "\(shown.stdout) \(shown.stderr)")
    }

    @Test func paragraphsSplitAText() throws {
        let file = scratch.write("p.txt", "one line\nand its second\n\nanother — Someone\n")
        let imported = try quotectl.run(["import", file, "--name", "p", "--format", "text", "--split", "paragraph"])
        #expect(imported.status == 0 && imported.stdout.contains("custom.p: 2 quotes"), "\(imported.stdout) \(imported.stderr)")
    }

    @Test(arguments: [
        (["--items", "results"], "--items:"),
        (["--fields", "text:q, text:a"], "--fields:"),
        (["--fields", ""], "--fields:"),
        (["--author-pattern", "(unclosed"], "--author-pattern:"),
        (["--author-pattern", "no group"], "--author-pattern has no group"),
        (["--format", "json", "--split", "paragraph"], "--split applies only to --format text (not json)"),
        (["--format", "fortune", "--fields", "text:q"], "--fields applies only to --format auto, json, csv (not fortune)"),
        (["--format", "csv", "--items", "/a"], "--items applies only to --format auto, json (not csv)"),
    ])
    func mistakesAreUsageErrors(options: [String], message: String) throws {
        let file = scratch.write("l.json", #"[{"id": 1, "text": "a"}]"#)
        let run = try quotectl.run(["import", file, "--name", "l"] + options)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("mapping.db")))
    }
}

/// Every configuration the README shows is one `quotectl config check` accepts, as pasted.
@Suite(.offThePool) struct ReadmeConfigurationTests {
    @Test func theREADMEsConfigurationsAreValid() throws {
        let readme = Fixtures.folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let blocks = text.components(separatedBy: "```ini\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        #expect(blocks.count >= 2, "the README's ini blocks: \(blocks.count)")
        #expect(blocks.contains { $0.contains("format = atom") && $0.contains("author_pattern") })
        let scratch = Scratch()
        let quotectl = InProcessQuotectl(home: scratch.path)
        for (index, block) in blocks.enumerated() {
            let file = scratch.write("readme-\(index).conf", block + "\n")
            let check = try quotectl.run(["config", "check", "--config", file])
            #expect(check.status == 0, "README block \(index + 1): \(check.stderr)\n\(block)")
        }
    }
}
