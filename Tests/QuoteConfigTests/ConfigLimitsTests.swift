import Foundation
import QuoteBase
@testable import QuoteConfig
import QuoteModels
import Testing
import TestSupport

/// Every numeric setting at its extremes: refused with the file, the line and exit 78's
/// ConfigError, never a trap, never accepted out of range.
@Suite struct ConfigLimitsTests {
    static let extremes = ["0", "-1", "9223372036854775807", "18446744073709551616", "99999999999999999999999"]

    func error(_ section: String, _ key: String, _ value: String) -> ConfigError? {
        let text = "[\(section)]\n\(key) = \(value)\n"
        do {
            _ = try Configuration.parse(text, file: "quoted.conf")
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: extremes + ["9223372036854775807s", "106751991167301d", "46116860184273s", "31d", "59s"])
    func interval(value: String) {
        let problem = error("source.upbit", "interval", value)
        #expect(problem?.line == 2, "interval = \(value) was accepted")
        #expect(problem?.description.hasPrefix("quoted.conf:2: ") == true)
    }

    @Test(arguments: extremes + ["9223372036854775807s", "11m", "0s"])
    func timeout(value: String) {
        #expect(error("source.upbit", "timeout", value)?.line == 2, "timeout = \(value) was accepted")
    }

    @Test(arguments: extremes + ["8589934592G", "9223372036854775807K", "17G", "16385M", "1023", "1B", "-1K", "1.5M", "K", "32MB!"])
    func maxBytes(value: String) {
        #expect(error("source.upbit", "max_bytes", value)?.line == 2, "max_bytes = \(value) was accepted")
    }

    @Test(arguments: ["-1", "9223372036854775807ms", "18446744073709551616ms", "46116860184273s", "100000h", "61s", "2m", "ms", "1.5s"])
    func pause(value: String) {
        #expect(error("source.breakingbad", "pause", value)?.line == 2, "pause = \(value) was accepted")
    }

    @Test(arguments: extremes + ["10001", "+5", " 5x"])
    func counts(value: String) {
        #expect(error("source.breakingbad", "known_streak", value)?.line == 2, "known_streak = \(value) was accepted")
        #expect(error("source.breakingbad", "request_budget", value)?.line == 2, "request_budget = \(value) was accepted")
    }

    @Test func theLimitsThemselvesAreAccepted() throws {
        let configuration = try Configuration.parse("""
            [source.upbit]
            interval = 30d
            timeout = 10m
            max_bytes = 1G
            [source.breakingbad]
            interval = 1m
            timeout = 1s
            max_bytes = 1K
            pause = 1m
            known_streak = 10000
            request_budget = 1
            """, file: "quoted.conf")
        #expect(configuration.source(named: "upbit")?.maxBytes == 1 << 30)
        #expect(configuration.source(named: "upbit")?.interval == 30 * 86_400)
        #expect(configuration.source(named: "breakingbad")?.pauseMilliseconds == 60_000)
        #expect(configuration.source(named: "breakingbad")?.maxBytes == 1_024)
    }

    @Test func parsersNeverOverflow() {
        #expect(ConfigValue.size("8589934592G") == nil)
        #expect(ConfigValue.duration("9223372036854775807d") == nil)
        #expect(ConfigValue.duration("9223372036854775807s9223372036854775807s") == nil)
        #expect(ConfigValue.milliseconds("9223372036854775807s") == nil)
        #expect(ConfigValue.count("18446744073709551616") == nil)
    }

    @Test func credentialsInAURLAreRefusedAndNeverPrinted() {
        let problem = error("source.custom.x", "url", "http://alice:s3cretPW@127.0.0.1/list.json")
        #expect(problem?.message.contains("credentials do not belong in a URL") == true)
        #expect(problem?.description.contains("s3cretPW") == false)
        #expect(URLText.redacted("https://alice:pw@host/x?k=1") == "https://***@host/x")
    }

    @Test func editorsLineEndsAndByteOrderMarkAreAccepted() throws {
        let text = "\u{FEFF}[source.upbit]\r\ninterval = 2h\r\n\r\n; comment\r\n[source.happiness]\r\nenabled = false\r\n"
        let configuration = try Configuration.parse(text, file: "quoted.conf")
        #expect(configuration.source(named: "upbit")?.interval == 7_200)
        #expect(configuration.source(named: "happiness")?.enabled == false)
        // A lone CR (old Mac files) ends lines too, and errors still name the right line.
        let problem = error("source.upbit", "interval = 1h\r\nintervall", "1h")
        #expect(problem?.line == 3)
    }

    /// A FIFO is refused without waiting for a writer (the time limit catches a hang).
    @Test(.timeLimit(.minutes(1))) func onlyRegularFilesOfReasonableSizeAreRead() throws {
        let temporary = TemporaryFolder("quoted-limits")
        let folder = temporary.path
        let fifo = folder + "/fifo.conf"
        #expect(mkfifo(fifo, 0o600) == 0)
        let fifoError = #expect(throws: ConfigError.self) { try Configuration.load(path: fifo) }
        #expect(fifoError?.message.contains("not a regular file") == true)
        let big = folder + "/big.conf"
        try Data(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1).write(to: URL(fileURLWithPath: big))
        let bigError = #expect(throws: ConfigError.self) { try Configuration.load(path: big) }
        #expect(bigError?.message == "1048577 bytes (1.0 MB): larger than the 1 MiB a configuration file may be", "\(String(describing: bigError))")
        #expect(throws: ConfigError.self) { try Configuration.load(path: folder) }
        #expect(throws: ConfigError.self) { try Configuration.load(path: "/dev/zero") }
    }

    /// A configuration that is not UTF-8 is refused at its first bad byte, by line and column.
    @Test(arguments: [
        (Array("[store]\npath = /tmp/caf".utf8) + [0xE9] + Array("\n".utf8), 2, 16, "0xE9"),
        ([0xFF] + Array("[store]\n".utf8), 1, 1, "0xFF"),
        (Array("# ok\n# ok\nx = ".utf8) + [0xC3, 0x28], 3, 5, "0xC3"),  // a lead byte without its tail
        (Array("a = ".utf8) + [0xED, 0xA0, 0x80], 1, 5, "0xED"),         // a surrogate
        (Array("a = ".utf8) + [0xF0, 0x9F, 0x98], 1, 5, "0xF0"),         // cut short at the end
        (Array("a = ".utf8) + [0xC0, 0xAF], 1, 5, "0xC0"),               // overlong
    ])
    func aConfigurationThatIsNotUTF8IsRefusedWhereItGoesWrong(bytes: [UInt8], line: Int, column: Int, byte: String) throws {
        let temporary = TemporaryFolder("quoted-utf8")
        let path = temporary.path + "/bad.conf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ConfigError.self) { try Configuration.load(path: path) }
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.description == "\(path):\(line): column \(column): byte \(byte) is not UTF-8 (a configuration is UTF-8 text)")
        #expect(UTF8Position.firstInvalid(in: Array("plain, and 행복 too".utf8)) == nil)
    }

    @Test func theSocketPathMayOnlyBeASocket() throws {
        let temporary = TemporaryFolder("quoted-socket")
        let folder = temporary.path
        let store = folder + "/quotes.db"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: store))
        let same = #expect(throws: ConfigError.self) {
            try Configuration.parse("[store]\npath = \(store)\n[daemon]\nsocket = \(store)\n", file: "quoted.conf")
        }
        #expect(same?.line == 4)
        #expect(same?.message.contains("not a socket") == true)
        let long = "/tmp/" + String(repeating: "s", count: 120) + ".sock"
        let tooLong = #expect(throws: ConfigError.self) { try Configuration.parse("[daemon]\nsocket = \(long)\n", file: "quoted.conf") }
        #expect(tooLong?.message.contains("at most 107") == true)
        #expect(try Configuration.parse("[daemon]\nsocket = \(folder)/control.sock\n", file: "q").socketPath == folder + "/control.sock")
    }

    @Test func otherTextSettingsAreBounded() {
        #expect(error("source.weather", "lang", "en&appid=x") != nil)
        #expect(error("source.upbit", "url", "https://" + String(repeating: "a", count: 3_000) + ".com/") != nil)
        #expect(error("source.upbit", "url", "https://example.com/a b") != nil)
        #expect(error("source.breakingbad", "productions", Array(repeating: "P", count: 30).joined(separator: ",")) != nil)
    }
}
