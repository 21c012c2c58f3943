import QuoteModels
import QuoteText
import Testing
import TestSupport

/// The head of a feed's manifest, read in one place (a spoke's `Manifest.parse` and a hub's
/// metrics alike): each refusal is a case of its own, whatever words a reader gives it.
@Suite struct ManifestHeaderTests {
    static let good = #"{"format":2,"name":"f","serial":7,"generated":1,"valid_until":9,"next_keys":[],"sources":[{"x":1}]}"#

    func parse(_ text: String) throws(ManifestHeader.Refusal) -> ManifestHeader.Parsed {
        try ManifestHeader.parse(Array(text.utf8))
    }

    @Test func theHeadIsReadAndTheRestLeftAsItStands() throws {
        let parsed = try parse(Self.good)
        #expect(parsed.header == ManifestHeader(name: "f", serial: 7, generated: 1, validUntil: 9))
        #expect(parsed.sources.count == 1 && parsed.sources.first?["x"]?.int == 1)
        #expect(parsed.document["next_keys"]?.array?.isEmpty == true)
    }

    static let refusals: [(String, ManifestHeader.Refusal)] = [
        (#"{"format":1,"name":"f","serial":7,"generated":1,"valid_until":9,"sources":[]}"#, .unknownFormat(found: .integer(1))),
        (#"{"name":"f","serial":7,"generated":1,"valid_until":9,"sources":[]}"#, .unknownFormat(found: nil)),
        (#"{"format":2,"name":"f","serial":-1,"generated":1,"valid_until":9,"sources":[]}"#, .missingOrOutOfRange),
        (#"{"format":2,"name":"f","serial":7,"generated":10,"valid_until":9,"sources":[]}"#, .missingOrOutOfRange),
        (#"{"format":2,"name":"f","serial":7,"generated":1,"valid_until":9}"#, .missingOrOutOfRange),
        (#"{"format":2,"serial":7,"generated":1,"valid_until":9,"sources":[]}"#, .badName),
        (#"{"format":2,"name":"a\u0007b","serial":7,"generated":1,"valid_until":9,"sources":[]}"#, .badName),
    ]

    @Test(arguments: Self.refusals)
    func eachRefusalIsItsOwnCase(text: String, refusal: ManifestHeader.Refusal) {
        #expect(throws: refusal) { try parse(text) }
    }

    @Test func textThatIsNoJSONOrNamesAMemberTwiceIsToldApart() {
        do {
            _ = try parse("{")
            Issue.record("accepted")
        } catch {
            guard case .notJSON = error else { Issue.record("\(error)"); return }
        }
        do {
            _ = try parse(#"{"format":2,"format":2}"#)
            Issue.record("accepted")
        } catch {
            guard case .ambiguous(let syntax) = error else { Issue.record("\(error)"); return }
            #expect(syntax.repeatedMember == "format")
        }
    }

    @Test func aManifestOverAMebibyteIsRefusedUnread() {
        #expect(throws: ManifestHeader.Refusal.tooLarge) {
            try ManifestHeader.parse([UInt8](repeating: 32, count: ManifestHeader.maximumBytes + 1))
        }
    }

    @Test func aFolderIsReadWithOrWithoutItsSlash() {
        let folder = TemporaryFolder("quoted-manifest-header")
        #expect(ManifestHeader.read(folder: folder.path) == nil, "nothing published yet")
        _ = folder.write(ManifestHeader.fileName, Self.good)
        #expect(ManifestHeader.read(folder: folder.path) == ManifestHeader(name: "f", serial: 7, generated: 1, validUntil: 9))
        #expect(ManifestHeader.read(folder: folder.path + "/") == ManifestHeader.read(folder: folder.path))
        _ = folder.write(ManifestHeader.fileName, "{\"name\": 1")
        #expect(ManifestHeader.read(folder: folder.path) == nil)
    }

    @Test func theHeadWritesItsMembersInTheManifestsOrder() throws {
        var object = JSONObjectBuilder()
        ManifestHeader(name: "f", serial: 7, generated: 1, validUntil: 9).write(to: &object)
        let text = object.result
        let order = ["\"format\"", "\"name\"", "\"serial\"", "\"generated\"", "\"valid_until\""].compactMap { text.firstRange(of: $0)?.lowerBound }
        #expect(order.count == 5 && order == order.sorted(), "\(text)")
        #expect(try ManifestHeader.parse(Array((String(text.dropLast()) + #","sources":[]}"#).utf8)).header
            == ManifestHeader(name: "f", serial: 7, generated: 1, validUntil: 9))
    }
}
