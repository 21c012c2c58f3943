@testable import QuoteText
import Testing

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
