import Foundation
import Testing
import TestSupport

/// A quote where people show one: status bars and prompts read exactly one form each, and a
/// hostile quote (markup, a bar's own escapes, a newline, a terminal escape) reaches them as text
/// (the real i3blocks and tmux reading the binary: BarEndToEndTests).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct BarOutputTests {
    let scratch = Scratch()
    var quotectl: InProcessQuotectl
    /// One quote that tries every bar's escapes, by an author with markup in the name.
    static let hostile = "Half #[fg=red]red, 100%{F#f00} <b>bold</b> & more\nsecond line \u{1B}[31mend"

    init() throws {
        quotectl = InProcessQuotectl(home: scratch.path)
        let list = scratch.write("bar.json", try String(decoding: JSONSerialization.data(withJSONObject: [
            ["id": 1, "text": Self.hostile, "source": "A <N> & Other", "category": "bar"],
        ]), as: UTF8.self))
        quotectl.environment["QUOTED_DB"] = scratch.file("bar.db")
        let imported = try quotectl.run(["import", list, "--name", "bar"])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    func random(_ arguments: [String]) throws -> String {
        let result = try quotectl.run(["random", "--source", "custom.bar"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func onelineIsOneSanitisedLine() throws {
        let line = try random(["--oneline"])
        #expect(line == "Half #[fg=red]red, 100%{F#f00} <b>bold</b> & more second line end — A <N> & Other\n")
    }

    @Test func aTemplateFillsItsFieldsAndKeepsLiteralBraces() throws {
        #expect(try random(["--format", "{{{source}}} {author}: {category}"]) == "{custom.bar} A <N> & Other: bar\n")
        let unknown = try quotectl.run(["random", "--format", "{text} {autor}"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown field {autor}: the fields are {text}, {author}"), "\(unknown.stderr)")
    }

    @Test func maxWidthShortensAtAWord() throws {
        #expect(try random(["--oneline", "--max-width", "20"]) == "Half #[fg=red]red…\n")
        #expect(try random(["--format", "tmux", "--max-width", "12"]) == "Half…\n")
    }

    /// waybar's custom module with return-type json: one object per line, with text, tooltip,
    /// class and alt; text and tooltip are Pango markup, so markup in a quote is escaped.
    @Test func waybarGetsItsJSON() throws {
        let line = try random(["--format", "waybar"])
        #expect(line.hasSuffix("\n") && line.dropLast().split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["text"] as? String == "Half #[fg=red]red, 100%{F#f00} &lt;b&gt;bold&lt;/b&gt; &amp; more second line end — A &lt;N&gt; &amp; Other")
        #expect(object["tooltip"] as? String == "Half #[fg=red]red, 100%{F#f00} &lt;b&gt;bold&lt;/b&gt; &amp; more\nsecond line end\n— A &lt;N&gt; &amp; Other")
        #expect(object["class"] as? [String] == ["quote", "custom-bar"])
        #expect(object["alt"] as? String == "custom.bar")
    }

    /// polybar reads %{…} as format tags: every % is doubled.
    @Test func polybarGetsOneLineWithPercentsDoubled() throws {
        #expect(try random(["--format", "polybar"]) == "Half #[fg=red]red, 100%%{F#f00} <b>bold</b> & more second line end — A <N> & Other\n")
    }

    /// status speaks to bars too: a template per source, or the freshness of what syncs.
    @Test func statusHasTemplatesAndABarSummary() throws {
        let lines = try quotectl.run(["status", "--format", "{source}={state} {quotes}"])
        #expect(lines.status == 0, "\(lines.stderr)")
        #expect(lines.stdout.split(separator: "\n").contains("builtin=fresh 264"), "\(lines.stdout)")
        #expect(lines.stdout.split(separator: "\n").contains("custom.bar=never 1"), "\(lines.stdout)")
        let bar = try quotectl.run(["status", "--format", "waybar"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bar.stdout.utf8)) as? [String: Any], "\(bar.stdout)")
        #expect(object["text"] as? String == "quotes: 0/3 fresh")  // happiness, breakingbad, upbit: the default configuration
        #expect(object["class"] as? [String] == ["quoted-status", "stale"])
        #expect(try quotectl.run(["status", "--format", "{sauce}"]).status == 64)
    }
}
