import Foundation
import QuoteBase
import QuoteModels
import QuoteStore
import QuoteText
import Testing
import TestSupport

/// Whether glibc can switch to Korean here: `locale -a` lists ko_KR.utf8 (CI generates it; a
/// machine without it skips these tests, saying so).
enum KoreanLocale {
    static let generated: Bool = {
        guard let output = try? BinaryRunner("locale", home: NSTemporaryDirectory(), path: "/usr/bin/locale").run(["-a"]).stdout
        else { return false }
        return output.split(separator: "\n").contains { $0.lowercased() == "ko_kr.utf8" }
    }()
}

/// quotectl in Korean through gettext (issue 31): the environments that ask for Korean get it,
/// those that must not (C, an unknown locale) keep today's English byte for byte, and what
/// scripts read (--json, --format, exports, the Nagios line) never changes with the locale.
@Suite(.offThePool, .timeLimit(.minutes(10)),
       .enabled(if: KoreanLocale.generated, "ko_KR.UTF-8 is not generated on this machine (locale-gen ko_KR.UTF-8): Korean not tested"))
struct KoreanEndToEndTests {
    let folder = TemporaryFolder("korean")
    let now = UnixTime.now()
    var storePath: String { folder.file("q.db") }

    /// The environments of the issue, and whether each speaks Korean.
    enum Setting: String, CaseIterable, CustomTestStringConvertible {
        case koreanLang, languageKo, cWithLanguageKo, unknownLocale

        var variables: [String: String] {
            switch self {
            case .koreanLang: return ["LANG": "ko_KR.UTF-8"]
            case .languageKo: return ["LANG": "C.UTF-8", "LANGUAGE": "ko"]
            // gettext ignores LANGUAGE under the C locale: English.
            case .cWithLanguageKo: return ["LC_ALL": "C", "LANGUAGE": "ko"]
            // A locale that is not there: English, and no warning about it.
            case .unknownLocale: return ["LANG": "xx_YY.UTF-8"]
            }
        }

        var korean: Bool { self == .koreanLang || self == .languageKo }
        var testDescription: String { rawValue }
    }

    func quotectl(_ variables: [String: String] = [:]) -> BinaryRunner {
        var runner = BinaryRunner("quotectl", home: folder.path)
        for (name, value) in variables { runner.environment[name] = value }
        return runner
    }

    /// A store with a list of two quotes and the built-in set, its list synced two minutes ago.
    func smallStore() throws -> String {
        let list = folder.write("list.txt", "Hello world — Someone\n행복은 습관이다 — 누군가\n")
        let imported = try quotectl().run(["--db", storePath, "import", "--name", "a", list])
        #expect(imported.status == 0, "\(imported.stderr)")
        let store = try Store(path: storePath, access: .write)
        let time = now - 120
        try store.write { (transaction) throws(StoreError) in
            try transaction.syncState.recordSuccess(
                source: "custom.a", url: "https://example.org/a.json", validators: [],
                outcome: .init(ok: true, httpStatus: 200, counts: ChangeCounts(inserted: 2), message: "2 quotes", started: time,
                               finished: time, fetchedBytes: 100, durationMilliseconds: 20),
                // An hour and a half: both runs of a comparison read "in 1 h", whichever second each starts in.
                nextDue: now + 5_400)
        }
        return storePath
    }

    /// What a person sees, under `setting` and under plain C.UTF-8 (today's English).
    func both(_ setting: Setting, _ arguments: [String]) throws -> (shown: BinaryRunner.Result, english: BinaryRunner.Result) {
        (try quotectl(setting.variables).run(arguments), try quotectl().run(arguments))
    }

    @Test(arguments: Setting.allCases) func aUsageError(_ setting: Setting) throws {
        let (shown, english) = try both(setting, ["bogus"])
        #expect(shown.status == 64 && english.status == 64)
        #expect(english.stderr.hasPrefix("quotectl: unknown subcommand 'bogus'"), "\(english.stderr)")
        if setting.korean {
            #expect(shown.stderr.contains("알 수 없는 하위 명령 'bogus'"), "\(shown.stderr)")
        } else {
            #expect(shown.stderr == english.stderr)
        }
    }

    @Test(arguments: Setting.allCases) func aMissingStore(_ setting: Setting) throws {
        let missing = folder.file("typo.db")
        let (shown, english) = try both(setting, ["--db", missing, "status"])
        #expect(shown.status == 66 && english.status == 66)
        #expect(english.stderr.contains("no such file; reading commands never create a store"), "\(english.stderr)")
        if setting.korean {
            #expect(shown.stderr.contains("그런 파일 없음"), "\(shown.stderr)")
            #expect(shown.stderr.contains(missing))
        } else {
            #expect(shown.stderr == english.stderr)
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test(arguments: Setting.allCases) func statusOfASmallStore(_ setting: Setting) throws {
        let store = try smallStore()
        let (shown, english) = try both(setting, ["--db", store, "status"])
        #expect(shown.status == 0 && english.status == 0, "\(shown.stderr)")
        #expect(english.stdout.contains("\ncustom.a     2 quotes "), "\(english.stdout)")
        #expect(english.stdout.contains("(2 min ago)"), "\(english.stdout)")
        if setting.korean {
            #expect(shown.stdout.hasPrefix("저장소: \(store)\n"), "\(shown.stdout)")
            #expect(shown.stdout.contains("명언 2개"))
            #expect(shown.stdout.contains("동기화한 적 없음"))
            #expect(shown.stdout.contains("(2분 전)"))
            #expect(shown.stdout.contains("1시간 후"))
            // The date as Korean writes it: "2026년 12월 2일 14:05 UTC".
            #expect(shown.stdout.range(of: #"\d{4}년 \d{1,2}월 \d{1,2}일 \d{2}:\d{2} UTC"#, options: .regularExpression) != nil,
                    "\(shown.stdout)")
            #expect(shown.stdout.contains("데몬: 실행 중 아님"))
        } else {
            #expect(shown.stdout == english.stdout)
        }
        #expect(shown.stderr.isEmpty, "no locale warning: \(shown.stderr)")
    }

    @Test(arguments: Setting.allCases) func theHelpOfACommand(_ setting: Setting) throws {
        let (shown, english) = try both(setting, ["random", "--help"])
        #expect(shown.status == 0 && english.status == 0)
        #expect(english.stdout.contains("Only Korean or English quotes."))
        if setting.korean {
            #expect(shown.stdout.contains("한국어 또는 영어 명언만."), "\(shown.stdout)")
            #expect(!shown.stdout.contains("Only Korean or English quotes."))
        } else {
            #expect(shown.stdout == english.stdout)
        }
        #expect(shown.stderr.isEmpty)
    }

    /// What scripts and bars read is the same bytes in Korean as in C.
    @Test func machineOutputDoesNotFollowTheLocale() throws {
        let store = try smallStore()
        // 2h: the stored next-due time (in an hour and a half) is within what the schedule could
        // have made, so no run recomputes it from its own second.
        let config = folder.write("quoted.conf", "[store]\npath = \(store)\n[source.custom.a]\nurl = https://example.org/a.json\ninterval = 2h\n"
                                  + BinaryRunner.fixedSourcesOff + "\n")
        let commands: [[String]] = [
            ["today", "--json"], ["today", "--oneline"], ["today", "--format", "{text} ({author}) {source}"],
            ["today", "--format", "waybar"], ["today", "--format", "i3blocks"],
            ["random", "--source", "custom.a", "--json", "-n", "5"],
            ["status", "--json"], ["status", "--format", "{source} {quotes} {state} {last_success} {next_due}"],
            ["status", "--format", "waybar"], ["status", "--format", "tmux"], ["status", "--format", "prometheus"],
            ["export", "--format", "csv"], ["export", "--format", "fortune"], ["export", "--format", "text"],
            ["export", "--format", "json"], ["liked", "--json"], ["check"],
            // A Nagios plugin's usage error is its UNKNOWN line: English too.
            ["check", "--critical-after", "1s"], ["check", "--bogus"],
            ["completion", "bash"], ["__complete", "sources"],
        ]
        for command in commands {
            let arguments = ["--config", config] + command
            let korean = try quotectl(["LANG": "ko_KR.UTF-8"]).run(arguments)
            let english = try quotectl(["LANG": "C"]).run(arguments)
            var sorted: (String) -> String = { $0 }
            // random draws anew each run: the same quotes, in any order.
            if command.first == "random" { sorted = { $0.split(separator: "\n").sorted().joined(separator: "\n") } }
            #expect(sorted(korean.stdout) == sorted(english.stdout), "\(command)")
            #expect(korean.status == english.status, "\(command)")
            if command.first == "check" { #expect(korean.stderr == english.stderr, "\(command)") }
            if command.first != "random" && command.first != "liked" { #expect(!english.stdout.isEmpty, "\(command)") }
        }
    }

    /// A duration in running text reads in the language ("1시간 30분마다", not "1h30m마다"); the
    /// English keeps "every 1h 30m" (issue 38).
    @Test func anIntervalReadsInHoursAndMinutes() throws {
        let config = folder.write("quoted.conf", "[store]\npath = \(storePath)\n[source.custom.a]\nurl = https://example.org/a.json\n"
                                  + "interval = 1h30m\n" + BinaryRunner.fixedSourcesOff + "\n")
        let (shown, english) = try both(.koreanLang, ["--config", config, "config", "check"])
        #expect(shown.status == 0 && english.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("1시간 30분마다"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("1h 30m") && !shown.stdout.contains("1h30m"), "\(shown.stdout)")
        #expect(english.stdout.contains("every 1h 30m"), "\(english.stdout)")
    }

    /// The CSV header the Korean help of import names is one the importer takes: a column's name
    /// is what a program matches, literal in every language, or a file written as the help says
    /// is refused (65) (issue 38).
    @Test func aCSVWithTheHeaderTheKoreanHelpNamesImports() throws {
        let korean = quotectl(["LANG": "ko_KR.UTF-8"])
        let help = try korean.run(["import", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        // The help is wrapped to the width: read it as one line.
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let opening = try #require(text.range(of: "csv("), "\(text)")
        let closing = try #require(text.range(of: " 열", range: opening.upperBound..<text.endIndex), "\(text)")
        let names = String(text[opening.upperBound..<closing.lowerBound])
            .replacingOccurrences(of: " 또는 ", with: ", ").components(separatedBy: ", ")
        #expect(names.count >= 4, "\(names)")
        let row = names.indices.map { "\"행복은 습관이다 \($0)\"" }.joined(separator: ",")
        let csv = folder.write("named.csv", names.joined(separator: ",") + "\n" + row + "\n")
        let imported = try korean.run(["--db", storePath, "import", "--name", "named", csv])
        #expect(imported.status == 0, "\(names): \(imported.stderr)")
        #expect(imported.stdout.contains("custom.named: 명언 1개"), "\(imported.stdout)")
        // A header that names none of them is refused naming the columns as a header writes them.
        let other = folder.write("other.csv", "본문,저자\n행복,누군가\n")
        let refused = try korean.run(["--db", storePath, "import", "--name", "other", other])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("\"text\" 또는 \"quote\" 열이 없음"), "\(refused.stderr)")
    }

    // MARK: Tables in Korean keep their columns (a Hangul syllable is two columns wide).

    /// The lines quotectl draws on a terminal `columns` wide (a pty made by script(1)).
    func onTerminal(columns: Int, _ arguments: [String]) throws -> [String] {
        var script = BinaryRunner("script", home: folder.path, path: "/usr/bin/script")
        script.environment["LANG"] = "ko_KR.UTF-8"
        let binary = quotectl().path
        let command = "stty cols \(columns); \(binary) --color never --no-pager " + arguments.map { "'\($0)'" }.joined(separator: " ")
        let result = try script.run(["-qc", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stdout)")
        return result.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init).filter { !$0.isEmpty }
    }

    /// The display columns at which a table line's cells start: after a run of two spaces or more.
    func cellStarts(_ line: String) -> [Int] {
        var starts = [0], spaces = 0, column = 0
        for character in line {
            if character == " " {
                spaces += 1
            } else {
                if spaces >= 2 { starts.append(column) }
                spaces = 0
            }
            column += DisplayWidth.of(String(character))
        }
        return starts
    }

    func checkTable(_ lines: [String], header: String, rows: [String], columns: Int) throws {
        // The table's lines (the store's path above it is a path: it is never cut).
        for line in lines where !line.hasPrefix("저장소: ") {
            #expect(DisplayWidth.of(line) <= columns, "wider than \(columns): \(line)")
        }
        let headerLine = try #require(lines.first { $0.hasPrefix(header) }, "\(lines)")
        let starts = cellStarts(headerLine)
        #expect(starts.count >= 4, "\(headerLine)")
        for name in rows {
            let row = try #require(lines.first { $0.hasPrefix(name + " ") }, "no row \(name): \(lines)")
            let rowStarts = cellStarts(row)
            #expect(Set(rowStarts).isSubset(of: Set(starts)), "\(row) against \(headerLine)")
            // Wide enough for every cell on one line: every column in its place.
            if columns >= 200 { #expect(rowStarts == starts, "\(row) against \(headerLine)") }
        }
    }

    @Test(arguments: [60, 200]) func theStatusTableKeepsItsColumns(columns: Int) throws {
        let store = try smallStore()
        let lines = try onTerminal(columns: columns, ["--db", store, "status"])
        #expect(lines.contains("저장소: \(store)"), "\(lines)")
        let header = try #require(lines.first { $0.hasPrefix("출처") })
        for heading in ["출처", "보유", "마지막 성공", "다음 예정"] { #expect(header.contains(heading), "\(header)") }
        try checkTable(lines, header: "출처", rows: ["builtin", "happiness", "upbit", "custom.a"], columns: columns)
    }

    @Test(arguments: [60, 200]) func theConfigurationsTableKeepsItsColumns(columns: Int) throws {
        let config = folder.write("quoted.conf", """
            [store]
            path = \(storePath)
            [source.custom.a]
            url = https://example.org/a-rather-long-address/of/a/list/of/quotes.json
            interval = 1h
            [source.upbit]
            enabled = false
            """)
        let lines = try onTerminal(columns: columns, ["--config", config, "config", "check"])
        #expect(lines.contains("\(config): 정상"), "\(lines)")
        let table = lines.filter { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
        let headings = ["출처", "상태", "주기", "가져오는 곳"]
        if columns >= 200 {
            let header = try #require(table.first { $0.hasPrefix("출처") }, "\(lines)")
            for heading in headings { #expect(header.contains(heading), "\(header)") }
            #expect(table.contains { $0.hasPrefix("custom.a") && $0.contains("켜짐") && $0.contains("1시간마다") }, "\(lines)")
            #expect(table.contains { $0.hasPrefix("upbit") && $0.contains("꺼짐") }, "\(lines)")
            try checkTable(table, header: "출처", rows: ["happiness", "breakingbad", "upbit", "custom.a"], columns: columns - 2)
        } else {
            // Too narrow for the addresses, which never break: a record per source, a heading
            // per line, every value starting in the same display column.
            #expect(table.contains("출처        custom.a"), "\(table)")
            #expect(table.contains("상태        꺼짐"), "\(table)")
            var valueColumns = Set<Int>()
            for line in table {
                let heading = try #require(headings.first { line.hasPrefix($0 + " ") }, "\(line)")
                let gap = line.dropFirst(heading.count).prefix { $0 == " " }.count
                valueColumns.insert(DisplayWidth.of(heading) + gap)
            }
            #expect(valueColumns == [12], "\(table)")
        }
    }
}
