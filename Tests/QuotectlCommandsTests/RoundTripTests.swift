import Foundation
import Testing
import TestSupport

/// What quotectl writes, quotectl reads back: `export | import` of every source gives the same
/// quotes, in each format that can carry them.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct RoundTripTests {
    let scratch = Scratch()
    var quotectl: InProcessQuotectl

    /// Quotes that try each format: a line break, a line that is just "%", a dash in the text,
    /// a formula, Korean, a category, an author with a dash, quotes and commas.
    nonisolated(unsafe) static let tricky: [[String: Any]] = [
        ["id": 1, "text": "First paragraph.\nSecond paragraph.", "source": "Two Lines", "category": "form"],
        ["id": 2, "text": "100 %\n%\nthe line above is a lone percent", "source": "Percent"],
        ["id": 3, "text": "=cmd|' /C calc'!A0", "source": "@SUM(1+1)"],
        ["id": 4, "text": "행복은 내면에서 오지 않고 사이에서 온다.", "source": "Jonathan Haidt"],
        ["id": 5, "text": "A long one, longer than the seventy-two columns fortune files are wrapped at, which export never rewraps.",
         "source": "Jean-Paul Sartre", "category": "long"],
        ["id": "b42", "text": "An id that is a string", "source": "Strings"],
        ["id": 7, "text": "She said \"yes, then no\", twice — and left", "source": "Doe, Jane", "category": "a, b"],
        ["id": 8, "text": "'=' is assignment, '==' is comparison", "source": "'Quoted' Author", "category": "'"],
    ]

    init() throws {
        quotectl = InProcessQuotectl(home: scratch.path)
        quotectl.environment["QUOTED_DB"] = scratch.file("trip.db")
        let list = scratch.write("tricky.json", String(decoding: try JSONSerialization.data(withJSONObject: Self.tricky), as: UTF8.self))
        let imported = try quotectl.run(["import", list, "--name", "tricky"])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    /// A source's quotes as (text, author, category), from quotectl's own JSON.
    func quotes(_ source: String, withCategory: Bool = true, oneLine: Bool = false) throws -> [String] {
        let result = try quotectl.run(["export", "--source", source, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return array.map { object in
            var text = object["text"] as? String ?? ""
            if oneLine { text = text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            return [text, object["author"] as? String ?? "-", withCategory ? object["category"] as? String ?? "-" : ""]
                .joined(separator: " | ")
        }.sorted()
    }

    @Test(arguments: ["json", "csv", "fortune", "text", "atom"], ["builtin", "custom.tricky"])
    func exportThenImportGivesTheSameQuotes(format: String, source: String) throws {
        let exported = try quotectl.run(["export", "--source", source, "--format", format])
        #expect(exported.status == 0, "\(exported.stderr)")
        let copy = "copy-\(format)"
        let imported = try quotectl.run(["import", "-", "--name", copy], stdin: exported.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        // JSON and CSV carry every field (CSV's formula guard is taken off again); fortune the
        // text (its lines as written) and its author; text the same on one line per quote.
        let withCategory = format == "json" || format == "csv" || format == "atom", oneLine = format == "text"
        #expect(try quotes("custom.\(copy)", withCategory: withCategory, oneLine: oneLine)
                == quotes(source, withCategory: withCategory, oneLine: oneLine))
        // And again: nothing changes.
        let again = try quotectl.run(["import", "-", "--name", copy, "--format", format], stdin: exported.stdout)
        #expect(again.stdout.contains("(0 inserted, 0 updated, 0 removed,"), "\(again.stdout)")
    }

    /// strfile's index names its fortune file: importing either reads the fortune file.
    @Test func aFortuneFileReadsWithOrWithoutItsDat() throws {
        let file = scratch.write("q", try quotectl.run(["export", "--source", "custom.tricky", "--format", "fortune"]).stdout)
        let strfile = try BinaryRunner("strfile", home: scratch.path, path: "/usr/bin/strfile").run([file])
        #expect(strfile.status == 0, "\(strfile.stderr)")
        let viaDat = try quotectl.run(["import", file + ".dat", "--name", "dat"])
        #expect(viaDat.status == 0, "\(viaDat.stderr)")
        #expect(try quotes("custom.dat", withCategory: false) == quotes("custom.tricky", withCategory: false))
    }

    /// quotectl's JSON export of Breaking Bad quotes keeps who said them and where.
    @Test func theExportsShapeKeepsAuthorProductionAndEpisode() throws {
        let file = scratch.write("bb.json", """
            [{"source": "breakingbad", "id": "7", "text": "Say my name.", "author": "Walter White", "category": null,
              "lang": "en", "production": "Breaking Bad", "episode": 7}]
            """)
        #expect(try quotectl.run(["import", file, "--name", "bb"]).status == 0)
        let line = try quotectl.run(["random", "--source", "custom.bb", "--json"]).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["author"] as? String == "Walter White")
        #expect(object["production"] as? String == "Breaking Bad")
        #expect(object["episode"] as? Int == 7)
        #expect(object["id"] as? String == "7")
    }

    /// A quote's date shows in --json, in --format's {published} and in the JSON export, and reads back.
    @Test func aDateShowsAndReadsBack() throws {
        let file = scratch.write("dated.json", #"[{"id": 1, "text": "Dated.", "source": "A", "published": "2026-12-01T00:00:00Z"}]"#)
        #expect(try quotectl.run(["import", file, "--name", "dated"]).status == 0)
        let line = try quotectl.run(["random", "--source", "custom.dated", "--json"]).stdout
        #expect(line.contains(#""published":"2026-12-01T00:00:00Z""#), "\(line)")
        #expect(try quotectl.run(["random", "--source", "custom.dated", "--format", "{text} {published}"]).stdout == "Dated. 2026-12-01T00:00:00Z\n")
        let export = scratch.write("dated-export.json", try quotectl.run(["export", "--source", "custom.dated", "--format", "json"]).stdout)
        #expect(try quotectl.run(["import", export, "--name", "again"]).status == 0)
        #expect(try quotectl.run(["random", "--source", "custom.again", "--format", "{published}"]).stdout == "2026-12-01T00:00:00Z\n")
    }

    /// OWASP's CSV injection rule: a cell a spreadsheet would run as a formula starts with '.
    @Test func csvNeutralisesFormulas() throws {
        let csv = try quotectl.run(["export", "--source", "custom.tricky", "--format", "csv"]).stdout
        #expect(csv.contains("custom.tricky,3,'=cmd|' /C calc'!A0,'@SUM(1+1),"), "\(csv)")
        for line in csv.split(separator: "\n") {
            for cell in line.split(separator: ",", omittingEmptySubsequences: false) {
                #expect(!["=", "+", "@"].contains(cell.first.map(String.init) ?? ""), "\(line)")
            }
        }
    }

    @Test func plainTextIsAQuotePerLine() throws {
        let file = scratch.write("lines.txt", "Be yourself. — Oscar Wilde\n\n  Plain, no author.  \r\nAnother -- With Dashes\n")
        let imported = try quotectl.run(["import", file, "--name", "lines"])
        #expect(imported.stdout.contains("custom.lines: 3 quotes"), "\(imported.stdout) \(imported.stderr)")
        #expect(try quotes("custom.lines", withCategory: false) == ["Another | With Dashes | ", "Be yourself. | Oscar Wilde | ",
                                                                    "Plain, no author. | - | "])
    }
}
