import Foundation
import Testing
import TestSupport

/// quoted speaks Korean only where a person reads it (help, usage mistakes, the manual pages);
/// the daemon's and `sync --once`'s lines are the journal's and sync_log's, English under any
/// locale, and so are the completion scripts an installer generates.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct QuotedLanguageTests {
    let scratch = Scratch()
    var korean: BinaryRunner

    init() {
        korean = BinaryRunner("quoted", home: scratch.path)
        korean.environment["LANG"] = "ko_KR.UTF-8"
        korean.environment["LANGUAGE"] = "ko"
    }

    static func hasHangul(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
    }

    @Test func syncOnceStaysEnglishUnderAKoreanLocale() throws {
        let server = try TestUpstream { request in
            switch request.path {
            case "/broken.json": return .json(#"[{"id": 1, "text": "unclosed"#)
            case "/gone.json": return .status(404)
            default: return .json(#"[{"id": 1, "text": "Talk is cheap.", "source": "Linus Torvalds"}]"#)
            }
        }
        let config = scratch.write("quoted.conf", """
            [store]
            path = \(scratch.file("quotes.db"))
            [source.custom.good]
            url = \(server.baseURL)/good.json
            [source.custom.broken]
            url = \(server.baseURL)/broken.json
            [source.custom.gone]
            url = \(server.baseURL)/gone.json
            \(BinaryRunner.fixedSourcesOff)
            """)
        let sync = try korean.run(["sync", "--once", "--config", config, "--json"])
        #expect(sync.status == 75, "\(sync.stderr)")
        #expect(sync.stderr.contains("custom.broken: "), "\(sync.stderr)")
        #expect(!Self.hasHangul(sync.stderr), "\(sync.stderr)")
        #expect(!Self.hasHangul(sync.stdout), "\(sync.stdout)")
        // sync never opens the catalog: even its usage mistakes stay English.
        let status = try korean.run(["sync", "--once", "--config", config, "--source", "custom.nothing"])
        #expect(status.status == 64)
        #expect(status.stderr.contains("unknown source 'custom.nothing'"), "\(status.stderr)")
    }

    @Test func helpUsageMistakesAndManualPagesSpeakKorean() throws {
        let help = try korean.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("사용법: quoted"), "\(help.stdout)")
        let mistake = try korean.run(["bogus"])
        #expect(mistake.status == 64)
        #expect(mistake.stderr.contains("알 수 없는 하위 명령 'bogus'"), "\(mistake.stderr)")
        for page in [["manual"], ["manual", "conf"]] {
            let manual = try korean.run(page)
            #expect(manual.status == 0)
            #expect(manual.stdout.contains("\n.SH 이름\n"), "\(page)")
            #expect(manual.stdout.contains("\n.SH 종료 상태\n") || page.last == "conf", "\(page)")
        }
    }

    /// An installer generates them once, for every user: never in the installer's language.
    @Test(arguments: ["quoted", "quotectl"])
    func completionScriptsStayEnglish(program: String) throws {
        let english = BinaryRunner(program, home: scratch.path)
        var runner = english
        runner.environment = korean.environment
        for shell in ["bash", "zsh", "fish"] {
            let script = try runner.run(["completion", shell])
            #expect(script.status == 0)
            #expect(script.stdout == (try english.run(["completion", shell]).stdout), "\(program) \(shell)")
        }
    }

    /// The C locale, and a locale this machine does not have, are today's English.
    @Test(arguments: ["C", "xx_YY.UTF-8"])
    func otherLocalesAreEnglish(locale: String) throws {
        var runner = BinaryRunner("quoted", home: scratch.path)
        runner.environment["LANG"] = locale
        let help = try runner.run(["--help"])
        #expect(help.stdout.hasPrefix("OVERVIEW: "), "\(help.stdout)")
        #expect(help.stderr.isEmpty, "\(help.stderr)")
    }
}
