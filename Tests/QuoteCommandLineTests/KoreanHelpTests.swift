@testable import QuoteCommandLine
import QuoteBase
import QuoteText
import Testing

/// Help wraps by display width, not by characters: a Hangul syllable takes two columns, so a
/// Korean explanation counted in characters would run twice as far as the terminal is wide.
@Suite struct KoreanHelpTests {
    /// A Korean sentence of the kind the catalog gives: words of two to five syllables.
    let korean = "사용 중인 모든 출처(또는 지정한 출처)를 한 번 동기화하고 끝냅니다. 진행 상황은 출처마다 한 줄씩 표준 오류로 갑니다. "
        + "종료 상태: 모든 출처가 성공하면 0, 하나라도 실패하면(또는 저장소가 사용 중이면) 75, 저장소에 쓸 수 없으면 74, 설정 오류면 78."

    func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }

    @Test(arguments: [40, 60, 80, 200])
    func aKoreanExplanationStaysWithinTheWidth(width: Int) {
        let row = HelpText.row("--source NAME", korean, width: width)
        for line in lines(row) {
            #expect(DisplayWidth.of(line) <= width, "\(DisplayWidth.of(line)) columns: \(line)")
        }
        // Nothing lost or reordered: the words come back joined by single spaces.
        let words = row.split(whereSeparator: { $0 == " " || $0 == "\n" }).dropFirst(2).joined(separator: " ")
        #expect(words == korean)
    }

    @Test func aKoreanParagraphFillsTheLineByColumnsNotCharacters() {
        let text = HelpText.paragraph("개요: " + korean, width: 60, indent: 6)
        let widths = lines(text).map { DisplayWidth.of($0) }
        #expect(widths.allSatisfy { $0 <= 60 }, "\(widths)")
        // Filled, not merely short: every line but the last comes within a word of the edge.
        #expect(widths.dropLast().allSatisfy { $0 > 60 - 12 }, "\(widths)")
        // Counted in characters, the first line would have taken about 60 syllables: 100+ columns.
        #expect(lines(text)[0].count < 40)
    }

    /// "OVERVIEW: " hangs its later lines at column 10; the Korean label "개요: " at column 6.
    @Test func aLabelsLaterLinesHangUnderItsValueByDisplayWidth() {
        #expect(HelpText.indent("OVERVIEW: " + HelpText.mark) == 10)
        #expect(HelpText.indent("USAGE: " + HelpText.mark + " [<options>]") == 7)
        #expect(HelpText.indent("개요: " + HelpText.mark) == 6)
        #expect(HelpText.indent("사용법: " + HelpText.mark + " [<옵션>]") == 8)
    }

    /// A subcommand or option with a Korean word in it ("run (기본값)") pads its explanation to
    /// the same column as the others, counted in columns.
    @Test func rowsAlignTheirExplanationsByDisplayWidth() {
        let plain = HelpText.row("sync", "하나.", width: 80)
        let wide = HelpText.row("run (기본값)", "둘.", width: 80)
        let column = { (row: String) in DisplayWidth.of(row.prefix { $0 != "하" && $0 != "둘" }) }
        #expect(column(plain) == 26)
        #expect(column(wide) == 26)
    }

    @Test func aSyntaxAsWideAsTheColumnPutsTheExplanationUnderIt() {
        let row = HelpText.row("--한국어-옵션-이름-아주-긴-것 값", "설명.", width: 80)
        #expect(row == "  --한국어-옵션-이름-아주-긴-것 값\n                          설명.\n")
    }

    /// English wraps as it always did: one column per letter.
    @Test func englishWrapsAsBefore() {
        let row = HelpText.row("--count N", String(repeating: "word ", count: 40), width: 60)
        #expect(lines(row).allSatisfy { $0.count <= 60 })
        #expect(lines(row)[0] == "  --count N               " + Array(repeating: "word", count: 7).joined(separator: " "))
    }

    /// Completion scripts are generated at install time and must not take the installer's
    /// language: they take the English overview's first sentence.
    @Test func completionsUseTheEnglishSummary() {
        let command = CommandSpec(name: "sync", overview: "Sync every source once. Then exit.", options: [])
        #expect(command.englishSummary == "Sync every source once")
        let program = ProgramSpec(name: "tool", overview: "A tool.", globalOptions: [], commands: [command])
        #expect(Completions.zsh(program).contains("'sync:Sync every source once'"))
        #expect(Completions.fish(program).contains("-d 'Sync every source once'"))
    }

    /// An English page stays ASCII, byte for byte: no coding line, no adjustment requests.
    @Test func anEnglishManualPageHasNoCodingLine() {
        let page = ManPage(name: "tool", section: 1, summary: "A tool", description: ["Does things."]).rendered
        #expect(page.hasPrefix(".TH TOOL 1 "))
        #expect(!page.contains(".nh"))
        #expect(page.contains(".SH NAME\n"))
        #expect(page.contains(".SH DESCRIPTION\n"))
    }

    /// A translated page (here: a section title in Hangul) says it is UTF-8 for man-db and
    /// groff, and keeps the title as text for lexgrog.
    @Test func aTranslatedManualPageSaysItIsUTF8() {
        var page = ManPage(name: "tool", section: 1, summary: "A tool", description: ["Does things."])
        page.sections = [("예", ".EX\ntool\n.EE\n")]
        let rendered = page.rendered
        #expect(rendered.hasPrefix("'\\\" -*- coding: UTF-8 -*-\n.TH TOOL 1 "))
        #expect(rendered.contains("\n.ad l\n.nh\n.SH NAME\n"))
        #expect(rendered.contains("\n.SH 예\n"))
    }

    /// In a UTF-8 page the text is UTF-8 too (lexgrog reads the NAME line as written); roff's
    /// own escapes stay.
    @Test func aTranslatedPageWritesItsCharactersAsThemselves() {
        var page = ManPage(name: "tool", section: 1, summary: "명언 도구", description: ["\\fB굵게\\fR \\- 행복—"])
        page.sections = [("예", ManPage.escape("quotectl search 행복 --limit 3"))]
        let rendered = page.rendered
        // No catalog is open in the test process: the section names are English here (the Korean
        // ones are QuotedLanguageTests' and the package end-to-end's).
        #expect(rendered.contains("\n.SH NAME\n"))
        #expect(rendered.contains("tool \\- 명언 도구\n"))
        #expect(rendered.contains("quotectl search 행복 \\-\\-limit 3"))
        #expect(!rendered.contains("\\[u"))
        #expect(ManPage.unescapingCharacters("a\\[uD589]\\-b\\[u41]\\e") == "a행\\-b\\[u41]\\e")
    }
}
