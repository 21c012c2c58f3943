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

@Suite struct HelpWidthTests {
    let spec = CommandSpec(
        name: "import",
        overview: "Load a local file as the list custom.NAME: the custom-list JSON, quotectl's own JSON export, a fortune file or plain text.",
        positionals: [Positional("FILE", help: "The file to read (a regular file, or - for standard input).")],
        options: [Option.value("max-bytes", "SIZE", help: "Refuse a file larger than this (default 64M, at most 1G): reading stops at the cap.")])

    /// --help fits the terminal it is shown on, wrapping between words, at any width.
    @Test(arguments: [40, 60, 80, 120])
    func helpWrapsAtTheTerminalsWidth(width: Int) {
        let program = ProgramSpec(name: "quotectl", overview: "Read the store.", globalOptions: [], commands: [spec], defaultCommand: nil)
        let text = HelpText.command(spec, in: program, width: width) + HelpText.program(program, width: width)
        for line in text.split(separator: "\n") { #expect(line.count <= width, "\(line)") }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        #expect(words.contains("quotectl's") && words.contains("(default") && words.contains("standard"))
    }
}
