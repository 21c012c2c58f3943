import Foundation
import Testing
import TestSupport

/// quotectl's manual page is lint-clean roff, and its typos get a "did you mean", run in-process
/// (quoted's pages and the completions shells drive: ManualAndCompletionTests).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct QuotectlManualTests {
    let scratch = Scratch()
    let quotectl: InProcessQuotectl

    init() {
        quotectl = InProcessQuotectl(home: scratch.path)
    }

    @Test func theManualPageIsLintClean() throws {
        let page = try quotectl.run(["manual"])
        #expect(page.status == 0)
        #expect(page.stdout.hasPrefix(".TH "))
        let path = scratch.write("quotectl.1", page.stdout)
        let mandoc = "/usr/bin/mandoc"
        guard FileManager.default.isExecutableFile(atPath: mandoc) else {
            Issue.record("mandoc is missing: scripts/debian-packages.sh installs it")
            return
        }
        let lint = try BinaryRunner("mandoc", home: scratch.path, path: mandoc).run(["-Tlint", "-Wstyle", path])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.isEmpty && lint.stderr.isEmpty, "\(lint.stdout)\(lint.stderr)")
    }

    @Test func typosGetADidYouMean() throws {
        let subcommand = try quotectl.run(["randm"])
        #expect(subcommand.status == 64)
        #expect(subcommand.stderr.contains("unknown subcommand 'randm' (did you mean 'random'?)"), "\(subcommand.stderr)")
        let option = try quotectl.run(["random", "--jsn"])
        #expect(option.stderr.contains("unknown option '--jsn' (did you mean '--json'?)"), "\(option.stderr)")
        let flag = try quotectl.run(["random", "--json=true"])
        #expect(flag.status == 64)
        #expect(flag.stderr.contains("--json is a flag and takes no value"), "\(flag.stderr)")
        #expect(try quotectl.run(["-V"]).stdout == "quotectl 0.1.0\n")
    }
}
