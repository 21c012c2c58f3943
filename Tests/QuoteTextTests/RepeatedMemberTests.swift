@testable import QuoteText
import Testing

/// An object that names a member twice is refused, naming the member and where (the first value
/// was taken silently); a document broken as well is refused as broken.
@Suite struct RepeatedMemberTests {
    @Test func aMemberNamedTwiceIsRefusedNamingIt() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(#"{"a": 1, "a": 2}"#) }
        #expect(error.description == #"line 1, column 10: member "a" appears twice in one object"#)
        #expect(error.repeatedMember == "a")
        let nested = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse("[{\"x\": {\"id\": 1,\n\"id\": 2}}]") }
        #expect(nested.line == 2 && nested.column == 1 && nested.repeatedMember == "id", "\(nested)")
        // One name in two objects is no repeat, nor a name that only begins as another does.
        #expect(try JSONParser.parse(#"[{"a": 1}, {"a": 2, "b": {"a": 3}}]"#).array?.count == 2)
        #expect(try JSONParser.parse(#"{"a": 1, "\u0061b": 2}"#)["ab"]?.int == 2)
        // The same name escaped is the same name.
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(#"{"a": 1, "\u0061": 2}"#) }
    }

    @Test func aBrokenDocumentIsRefusedAsBroken() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(#"{"a": 1, "a": 2"#) }
        #expect(error.reason == "unexpected end of input" && error.repeatedMember == nil)
        let later = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(#"[{"a": 1, "a": 2}, tru]"#) }
        #expect(later.reason == "unexpected character ']'" && later.repeatedMember == nil, "\(later)")
    }

    @Test func theNameIsShownCleanAndShort() throws {
        let long = String(repeating: "k", count: 100)
        let error = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(#"{"\#(long)": 1, "\#(long)": 2}"#) }
        #expect(error.reason == "member \"\(String(repeating: "k", count: 64))…\" appears twice in one object")
        #expect(error.repeatedMember == long)
        let control = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(#"{"a\u0007b": 1, "a\u0007b": 2}"#) }
        #expect(control.reason == #"member "ab" appears twice in one object"#)
    }

    /// Past its first members an object's names are looked up, not scanned: 100,000 of them
    /// parse, and a repeat of the first among them is still found.
    @Test func aLargeObjectIsCheckedWhole() throws {
        let members = (0..<100_000).map { #""m\#($0)": \#($0)"# }
        let object = try JSONParser.parse("{" + members.joined(separator: ",") + "}")
        #expect(object.object?.members.count == 100_000)
        let repeated = try #require(throws: JSONSyntaxError.self) {
            try JSONParser.parse("{" + members.joined(separator: ",") + #", "m0": 1}"#)
        }
        #expect(repeated.repeatedMember == "m0")
        let early = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(#"{"b": 1, "c": 2, "b": 3, "d": 4}"#) }
        #expect(early.repeatedMember == "b")
    }
}
