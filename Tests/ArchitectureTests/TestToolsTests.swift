import Foundation
import Testing

/// The README's test command (`scripts/debian-packages.sh && swift test`) sets a machine up by
/// itself: every program a test runs by path, and the Korean locale, come from the packages that
/// script installs for `swift test`. Suites that need a tool skip without it (so a contributor's
/// partial machine still runs the rest); this test is the one that fails, naming what is missing.
@Suite struct TestToolsTests {
    /// The programs the tests name by path (a string literal of /usr/bin/, /usr/sbin/, /bin/ or /sbin/ and a name), read from their sources.
    static func toolsTheTestsRun() throws -> [String: [String]] {
        let tests = SourceTree.root.appendingPathComponent("Tests")
        let files = (FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Fixtures/") }
        let literal = try NSRegularExpression(pattern: #""(/usr/s?bin|/s?bin)/([A-Za-z0-9_.+-]+)""#)
        var tools: [String: [String]] = [:]
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            for match in literal.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let name = Range(match.range(at: 2), in: text).map({ String(text[$0]) }) else { continue }
                tools[name, default: []].append(file)
            }
        }
        return tools
    }

    @Test func everyProgramATestRunsIsInstalledByTheTestPackages() throws {
        let tools = try Self.toolsTheTestsRun()
        #expect(tools.count > 20, "the scan found too few tools: \(tools.keys.sorted())")
        for (name, files) in tools.sorted(by: { $0.key < $1.key }) {
            let found = ["/usr/bin", "/usr/sbin", "/bin", "/sbin"].contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
            }
            #expect(found, "\(name) (run by \(Set(files).sorted().joined(separator: ", "))) is not installed: add its Debian package to test_packages in scripts/debian-packages.sh")
        }
    }

    @Test func theKoreanLocaleTheTestsRunUnderIsGenerated() throws {
        let locale = Process()
        locale.executableURL = URL(fileURLWithPath: "/usr/bin/locale")
        locale.arguments = ["-a"]
        let output = Pipe()
        locale.standardOutput = output
        try locale.run()
        let names = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        locale.waitUntilExit()
        #expect(names.split(separator: "\n").contains { $0.lowercased() == "ko_kr.utf8" },
                "ko_KR.UTF-8 is not generated: scripts/debian-packages.sh generates it (ensure_korean_locale)")
    }
}
