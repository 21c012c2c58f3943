import Foundation
import Glibc
import TestSupport
import Testing

/// A program installed under PREFIX/bin reads PREFIX/share/locale (as a package or install.sh
/// puts them). A damaged quoted.mo there must never crash or hang either program: glibc trusts a
/// catalog, so the programs check theirs first and speak English with one warning naming it.
@Suite(.offThePool, .timeLimit(.minutes(5)),
       .enabled(if: KoreanLocale.generated, "ko_KR.UTF-8 is not generated on this machine (locale-gen ko_KR.UTF-8)"))
struct DamagedCatalogTests {
    let folder = TemporaryFolder("damaged-catalog")

    /// PREFIX with both binaries copied into bin and `catalog` as the Korean quoted.mo.
    func prefix(catalog: [UInt8]) throws -> String {
        let bin = folder.file("prefix/bin"), messages = folder.file("prefix/share/locale/ko/LC_MESSAGES")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: messages, withIntermediateDirectories: true)
        for program in ["quotectl", "quoted"] where !FileManager.default.fileExists(atPath: "\(bin)/\(program)") {
            try Self.copyExecutable(BinaryRunner.productsFolder.appendingPathComponent(program).path, to: "\(bin)/\(program)")
        }
        try Data(catalog).write(to: URL(fileURLWithPath: "\(messages)/quoted.mo"))
        return bin
    }

    /// A hard link where it can be (nothing is ever open for writing, so no exec fails with
    /// ETXTBSY because a process another test spawned meanwhile inherited the descriptor), else a
    /// copy written through a close-on-exec descriptor. The program sees the link's path as its
    /// own (/proc/self/exe), so it reads the prefix's catalogs.
    static func copyExecutable(_ source: String, to target: String) throws {
        if link(source, target) == 0 { return }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }

    func run(_ program: String, in bin: String, _ arguments: [String]) throws -> BinaryRunner.Result {
        var runner = BinaryRunner(program, home: folder.path, path: "\(bin)/\(program)")
        runner.environment["LANG"] = "ko_KR.UTF-8"
        return try runner.run(arguments, timeout: 20)
    }

    /// The Korean catalog as msgfmt compiles it.
    func soundCatalog() throws -> [UInt8] {
        let output = folder.file("ko.mo")
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        msgfmt.arguments = ["-o", output, URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("po/ko.po").path]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    @Test func aSoundCatalogSpeaksKorean() throws {
        let bin = try prefix(catalog: try soundCatalog())
        let failed = try run("quotectl", in: bin, ["import", "/nonexistent", "--name", "x"])
        #expect(failed.status == 66)
        #expect(!failed.stderr.contains("warning"), "\(failed.stderr)")
        #expect(failed.stderr.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, "\(failed.stderr)")
    }

    /// Cuts that crashed both programs (SIGSEGV, SIGBUS), a hash table with no empty slot (a
    /// hang), a rule dividing by zero (SIGFPE): English, the exit code of the failure, one warning.
    @Test(arguments: ["cut-5660", "cut-13174", "cut-header", "full-hash", "plural-by-zero"])
    func aDamagedCatalogLeavesEnglish(damage: String) throws {
        var catalog = try soundCatalog()
        switch damage {
        case "cut-5660": catalog = Array(catalog.prefix(5660))
        case "cut-13174": catalog = Array(catalog.prefix(13174))
        case "cut-header": catalog = Array(catalog.prefix(20))
        case "full-hash":
            let read = { (offset: Int) in (0..<4).reduce(0) { $0 | Int(catalog[offset + $1]) << (8 * $1) } }
            let size = read(20), offset = read(24)
            for slot in 0..<size where read(offset + 4 * slot) == 0 { catalog[offset + 4 * slot] = 1 }
        default:
            // Of the same length, so no offset moves: "nplurals=1; plural=0;" becomes "…;plural=n/0".
            let rule = Array("; plural=0;".utf8), replacement = Array(";plural=n/0".utf8)
            let start = try #require(catalog.firstRange(of: rule)).lowerBound
            catalog.replaceSubrange(start..<(start + rule.count), with: replacement)
        }
        let bin = try prefix(catalog: catalog)
        let failed = try run("quotectl", in: bin, ["import", "/nonexistent", "--name", "x"])
        #expect(failed.status == 66, "\(damage): \(failed.status) \(failed.stderr)")
        #expect(failed.stderr.contains("warning: ignoring the damaged catalog"), "\(failed.stderr)")
        #expect(failed.stderr.contains("/nonexistent: no such file"), "glibc's words in English too: \(failed.stderr)")
        let status = try run("quotectl", in: bin, ["status"])
        #expect(status.status == 0, "\(damage): \(status.status) \(status.stderr)")
        #expect(status.stdout.contains("Store:"), "\(status.stdout)")
        let help = try run("quoted", in: bin, ["--help"])
        #expect(help.status == 0, "\(damage): \(help.status) \(help.stderr)")
        #expect(help.stdout.contains("USAGE"), "\(help.stdout.prefix(200))")
    }
}
