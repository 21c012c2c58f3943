import Foundation
import QuoteBase
@testable import QuoteConfig
import QuoteModels
import Testing
import TestSupport

/// `[source.custom.NAME]`'s list keys: each value read into `listFormat`, each wrong value and
/// each key its format does not take refused with the file, the line and the key (exit 78).
@Suite struct ListConfigurationTests {
    func list(_ keys: String) throws -> ListFormat {
        let configuration = try Configuration.parse("[source.custom.x]\nurl = https://example.com/q\n" + keys, file: "quoted.conf")
        return try #require(configuration.source(named: "custom.x")).listFormat
    }

    func error(_ keys: String) -> ConfigError? {
        #expect(throws: ConfigError.self) { try list(keys) }
    }

    @Test func theKeysFillTheListsFormat() throws {
        #expect(try list("") == .json)
        let mapped = try list("items = /results\nfields = id:_id, text:content, author:author, category:tags\narchive = yes\n")
        #expect(mapped.kind == .json)
        #expect(mapped.items == "/results")
        #expect(mapped.fields == [.id: "_id", .text: "content", .author: "author", .category: "tags"])
        #expect(mapped.archive == true)
        #expect(try list("format = text\nsplit = paragraph\n").split == .paragraph)
        #expect(try list("format = atom\nauthor_pattern = [-—] (.+)$\n").authorPattern == "[-—] (.+)$")
        #expect(try list("format = csv\nfields = text:Quote\n").fields == [.text: "Quote"])
        #expect(try list("format = auto\nitems = /a\nauthor_pattern = (x)\n").kind == .auto)
        #expect(try list("items =\n").items == "")
        for kind in ListFormat.Kind.allCases {
            #expect(try list("format = \(kind.rawValue)\narchive = false\n").kind == kind)
        }
    }

    @Test(arguments: [
        ("format = xml\n", 3, "format = 'xml' in [source.custom.x]: expected auto, json, fortune, text, csv, atom, rss"),
        ("format = JSON\n", 3, "format = 'JSON'"), ("format =\n", 3, "format = ''"),
        ("items = results\n", 3, #"items in [source.custom.x]: "results" is not a JSON Pointer: it must start with '/'"#),
        ("items = /a~2\n", 3, "'~' must be followed by 0 or 1"),
        ("items = /" + String(repeating: "a", count: 2_000) + "\n", 3, "longer than 1024 bytes"),
        ("items = /a\u{0}b\n", 3, "without control characters"),
        ("fields =\n", 3, "fields in [source.custom.x]: names no field"),
        ("fields = text:q, text:r\n", 3, "fields in [source.custom.x]: text is named twice"),
        ("fields = body:q\n", 3, "'body' is no field"),
        ("fields = " + String(repeating: "text:q,", count: 1_000) + "\n", 3, "longer than 4096 bytes"),
        ("format = text\nsplit = sentence\n", 4, "split = 'sentence' in [source.custom.x]: expected line or paragraph"),
        ("archive = maybe\n", 3, "archive = 'maybe' in [source.custom.x]: expected true or false"),
        ("archive = 2\n", 3, "expected true or false"),
        ("format = atom\nauthor_pattern = (unclosed\n", 4, "author_pattern in [source.custom.x]: "),
        ("format = atom\nauthor_pattern = no group\n", 4, "author_pattern in [source.custom.x] has no group"),
        ("format = atom\nauthor_pattern =\n", 4, "an empty pattern"),
        ("format = rss\nauthor_pattern = (" + String(repeating: "a", count: 2_000) + ")\n", 4, "longer than 1024 bytes"),
        ("format = rss\nauthor_pattern = (a\u{0})\n", 4, "NUL"),
        ("split = paragraph\n", 3, "split in [source.custom.x] applies only to format = text (this list's format is json)"),
        ("split = line\nformat = csv\n", 3, "split in [source.custom.x] applies only to format = text (this list's format is csv)"),
        ("author_pattern = (.+)\n", 3, "author_pattern in [source.custom.x] applies only to format = auto, atom, rss"),
        ("format = fortune\nitems = /a\n", 4, "items in [source.custom.x] applies only to format = auto, json"),
        ("format = rss\nfields = text:q\n", 4, "fields in [source.custom.x] applies only to format = auto, json, csv"),
        ("format = json\nformat = csv\n", 4, "key 'format' appears twice"),
    ])
    func wrongValuesAndKeysThatDoNotApplyAreNamed(keys: String, line: Int, message: String) {
        let error = error(keys)
        #expect(error?.file == "quoted.conf")
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
        #expect(error?.description.contains("\n") == false)
    }

    /// regcomp's own words name what is wrong with a pattern.
    @Test func aPatternGlibcRefusesIsNamedByRegcomp() {
        let error = error("format = atom\nauthor_pattern = (a\n")
        #expect(error?.message.contains("parenthes") == true || error?.message.contains("(") == true, "\(String(describing: error))")
        #expect(error?.message.hasSuffix("(a POSIX extended regular expression)") == true)
    }

    @Test(arguments: ["format", "items", "fields", "split", "author_pattern", "archive"])
    func theListKeysBelongToCustomListsAlone(key: String) {
        for section in ["source.happiness", "source.upbit", "source.breakingbad", "store"] {
            let error = #expect(throws: ConfigError.self) { try Configuration.parse("[\(section)]\n\(key) = json\n", file: "quoted.conf") }
            #expect(error?.message.contains("unknown key '\(key)'") == true, "\(String(describing: error))")
            #expect(error?.line == 2)
        }
    }

}
