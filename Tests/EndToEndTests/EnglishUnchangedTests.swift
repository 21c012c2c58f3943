import Foundation
import Testing
import TestSupport

/// English is today's English, byte for byte, under every locale that has no catalog: the help
/// of each command, the manual pages and a few failures (with their exit statuses) from the
/// current binaries against golden files recorded from the binaries before gettext came in
/// (commit 4f4b4ee; Tests/Fixtures/english/record.sh, cases.txt lists what is run).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct EnglishUnchangedTests {
    /// C and POSIX never ask gettext; C.UTF-8 asks and finds no catalog; en_US.UTF-8 is English
    /// whether or not the machine has it, and a locale no machine has falls back to English.
    static let locales: [(name: String, environment: [String: String])] = [
        ("LC_ALL=C", ["LC_ALL": "C"]),
        ("LANG=C.UTF-8", ["LANG": "C.UTF-8"]),
        ("LANG=en_US.UTF-8", ["LANG": "en_US.UTF-8"]),
        ("LANG=xx_XX.UTF-8 (no such locale)", ["LANG": "xx_XX.UTF-8"]),
    ]

    static let folder = Fixtures.folder.appendingPathComponent("english")

    /// cases.txt's commands, numbered as record.sh numbers their files.
    static let cases: [(file: String, words: [String])] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("cases.txt"), encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        return lines.enumerated().map { (String(format: "%02d.out", $0.offset + 1), $0.element.split(separator: " ").map(String.init)) }
    }()

    let scratch = Scratch()

    @Test func theGoldenFilesAreThere() {
        #expect(Self.cases.count >= 40)
        for entry in Self.cases {
            #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(entry.file).path), "\(entry.file) missing: run record.sh")
        }
    }

    @Test(arguments: Self.locales.map(\.name))
    func everyCaseIsTodaysEnglish(locale: String) throws {
        let environment = Self.locales.first { $0.name == locale }!.environment
        let version = try BinaryRunner("quoted", home: scratch.path).run(["--version"]).stdout
            .dropFirst("quoted ".count).trimmingCharacters(in: .whitespacesAndNewlines)
        for entry in Self.cases {
            var runner = BinaryRunner(entry.words[0], home: scratch.path)
            runner.environment.merge(environment) { $1 }
            let result = try runner.run(Array(entry.words.dropFirst()))
            let shown = Self.normalised(Self.rendered(entry.words, result), home: scratch.path, version: version)
            let golden = try String(contentsOf: Self.folder.appendingPathComponent(entry.file), encoding: .utf8)
            #expect(shown == golden, "\(locale): '\(entry.words.joined(separator: " "))' differs from \(entry.file): \(Self.firstDifference(shown, golden))")
        }
    }

    /// What record.sh writes for one run.
    static func rendered(_ words: [String], _ result: BinaryRunner.Result) -> String {
        "$ \(words.joined(separator: " "))\nexit \(result.status)\n--- stdout\n\(result.stdout)--- stderr\n\(result.stderr)"
    }

    /// The parts that are not the program's English: the home folder, the version, the manual's date.
    static func normalised(_ text: String, home: String, version: String) -> String {
        let lines = text.replacingOccurrences(of: home, with: "@HOME@")
            .replacingOccurrences(of: "quoted \(version)", with: "quoted @VERSION@")
            .split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { line in
            var fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard line.hasPrefix(".TH "), fields.count > 3 else { return String(line) }
            fields[3] = "@DATE@"
            return fields.joined(separator: " ")
        }.joined(separator: "\n")
    }

    static func firstDifference(_ shown: String, _ golden: String) -> String {
        let a = shown.split(separator: "\n", omittingEmptySubsequences: false)
        let b = golden.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(a.count, b.count) {
            let left = index < a.count ? String(a[index]) : "(end)"
            let right = index < b.count ? String(b[index]) : "(end)"
            if left != right { return "line \(index + 1): got '\(left)', expected '\(right)'" }
        }
        return "same lines"
    }
}
