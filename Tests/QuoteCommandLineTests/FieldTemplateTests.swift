@testable import QuoteCommandLine
import Testing

enum Part: String, TemplateField { case text, author }

@Suite struct FieldTemplateTests {
    func render(_ template: String) throws -> String {
        try FieldTemplate<Part>(template).render { $0 == .text ? "T" : "A" }
    }

    @Test func fieldsAndLiteralsRenderInOrder() throws {
        #expect(try render("{text} — {author}") == "T — A")
        #expect(try render("") == "")
        #expect(try render("plain") == "plain")
        #expect(try render("{author}{author}") == "AA")
    }

    @Test func doubledBracesAreLiteral() throws {
        #expect(try render("{{{text}}}") == "{T}")
        #expect(try render("{{text}}") == "{text}")
        #expect(try render("}}{{") == "}{")
    }

    @Test(arguments: [("{nope}", "unknown field {nope}: the fields are {text}, {author}"), ("{text", "a '{' with no '}'"),
                      ("text}", "a '}' with no '{'"), ("{}", "unknown field {}"), ("{TEXT}", "unknown field {TEXT}")])
    func mistakesAreNamed(template: String, message: String) {
        let error = #expect(throws: FieldTemplate<Part>.ParseError.self) { try FieldTemplate<Part>(template) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }
}
