import Foundation
@testable import QuoteConfig
import Testing
import TestSupport

/// Random and mutated configuration files through the whole parser (INI, then every
/// section and value reader): each either parses or fails with a ConfigError naming a
/// line in the file; none traps, none takes long. A fixed seed makes a failure repeatable.
@Suite(.computing) struct ConfigFuzzTests {
    static let seeds = [
        "[store]\npath = /var/lib/quoted/quotes.db\n[daemon]\nlog_level = debug\n",
        "[source.custom.x]\nurl = https://example.com/list.json\ninterval = 1h30m\nallow_shrink = yes\nmax_bytes = 512K\n",
        "[source.breakingbad]\nproductions = Breaking Bad, El Camino\nknown_streak = 20\nrequest_budget = 200\npause = 250ms\n",
        "[source.weather]\nenabled = true\napi_key = k\nlat = 37.5\nlon = 126.9\nunits = metric\nlang = kr\ntimeout = 10s\n",
        "[source.upbit]\nurl = http://127.0.0.1:8080/v1/market/all ; local\ninterval = 10s\n",
        "[source.custom.y]\nurl = https://example.com/q\nformat = json\nitems = /results/0\nfields = text:q, author:/a/b, id:_id, category:tags\narchive = no\n",
        "[source.custom.z]\nurl = https://example.com/feed\nformat = atom\nauthor_pattern = [-~] *([^~]+)$\n[source.custom.t]\nurl = https://example.com/t\nformat = text\nsplit = paragraph\n",
    ]
    static let cases = 20_000
    static let alphabet = Array("[]=;#\" \t\r\n.abcdefghijklmnopqrstuvwxyz0123456789KMGsmhd-_/:@?&%é한\u{FEFF}\u{202E}\u{0}".unicodeScalars)

    @Test func randomAndMutatedFilesNeverTrap() {
        var random = SeededGenerator(state: 0x51A7_0C0F)
        var parsed = 0, refused = 0
        for round in 0..<Self.cases {
            let text: String
            if round % 3 == 0 {
                var scalars = String.UnicodeScalarView()
                for _ in 0..<Int.random(in: 0...200, using: &random) { scalars.append(Self.alphabet.randomElement(using: &random)!) }
                text = String(scalars)
            } else {
                text = mutate(Self.seeds.randomElement(using: &random)!, using: &random)
            }
            do {
                _ = try Configuration.parse(text, file: "fuzz.conf")
                parsed += 1
            } catch {
                refused += 1
                let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).count
                #expect(error.line >= 0 && error.line <= lines, "line \(error.line) of \(lines): \(error)")
                #expect(!error.description.contains("\n"), "a message of several lines: \(error)")
            }
        }
        #expect(parsed + refused == Self.cases)
        #expect(parsed > 100 && refused > 100, "\(parsed) parsed, \(refused) refused: the mutations are too timid or too wild")
    }

    /// Replaces, inserts, deletes or duplicates a few characters, or splices in a number from the extremes.
    func mutate(_ seed: String, using random: inout SeededGenerator) -> String {
        var scalars = Array(seed.unicodeScalars)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let index = scalars.isEmpty ? 0 : Int.random(in: 0..<scalars.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !scalars.isEmpty: scalars[index] = Self.alphabet.randomElement(using: &random)!
            case 1: scalars.insert(Self.alphabet.randomElement(using: &random)!, at: index)
            case 2 where !scalars.isEmpty: scalars.remove(at: index)
            case 3:
                let number = ["0", "-1", "9223372036854775807", "18446744073709551616", "99999999999G", "1e308"].randomElement(using: &random)!
                scalars.insert(contentsOf: number.unicodeScalars, at: index)
            default:
                let end = min(scalars.count, index + Int.random(in: 0...20, using: &random))
                scalars.insert(contentsOf: scalars[index..<end], at: index)
            }
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
