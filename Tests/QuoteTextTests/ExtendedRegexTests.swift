@testable import QuoteText
import Testing
import TestSupport

/// A feed's author_pattern, compiled and matched by glibc.
@Suite struct ExtendedRegexTests {
    @Test func groupsAreCountedAndMatched() throws {
        let regex = try ExtendedRegex("[-—~] *([^-—~]+)$")
        #expect(regex.groups == 1)
        #expect(regex.match("Be yourself. — Oscar Wilde")?[1] == "Oscar Wilde")
        #expect(regex.match("Be yourself. — Oscar Wilde")?[0] == "— Oscar Wilde")
        #expect(regex.match("no author here") == nil)
        #expect(try ExtendedRegex("(a)|(b)").match("b") == ["b", nil, "b"])
        // Characters, not bytes: a bracket holding a dash of three bytes matches it whole.
        #expect(try ExtendedRegex("^(.)").match("행복")?[1] == "행")
    }

    @Test(arguments: [("", "an empty pattern"), ("(a", "("), ("a{2,1}", "content"), ("[z-a]", "range"), ("a\u{0}", "NUL"),
                      (String(repeating: "a", count: 1_025), "longer than 1024 bytes")])
    func badPatternsAreRefusedWithAReason(pattern: String, reason: String) {
        let error = #expect(throws: ExtendedRegex.Invalid.self) { try ExtendedRegex(pattern) }
        #expect(error?.reason.isEmpty == false)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func aTextWithANULNeverMatches() throws {
        #expect(try ExtendedRegex("(a)").match("a\u{0}") == nil)
    }
}

/// One compiled pattern shared by threads (a configuration's, a reader's copies): every match is
/// the one a lone thread gets.
@Suite(.computing) struct SharedRegexTests {
    @Test func threadsMatchingOnePatternEachGetTheirOwnMatch() async throws {
        let regex = try ExtendedRegex("~ *([^~]+[^~ ]) *~$")
        let found = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<2_000).allSatisfy { round in
                        let name = "Author \(task)-\(round)"
                        return regex.match("text ~ \(name) ~")?[1] == name && regex.match("no author \(round)") == nil
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(found == Array(repeating: true, count: 8))
        #expect(regex.groups == 1)
    }
}
