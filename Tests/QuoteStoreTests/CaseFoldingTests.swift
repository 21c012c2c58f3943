import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteText
import TestSupport

/// Names match case-insensitively in every language, the same in every locale (`CaseFolding`).
@Suite struct CaseFoldingTests {
    @Test(arguments: [
        ("IŞIK ILGAZ", "Işık Ilgaz"), ("İstanbul", "istanbul"), ("ISTANBUL", "ıstanbul"),
        ("ΣΟΦΊΑ", "σοφία"), ("ὈΔΥΣΣΕΎΣ", "ὀδυσσεύς"), ("Straße", "STRAßE"), ("ǄEMAL", "ǆemal"),
        ("МАЯКОВСКИЙ", "маяковский"), ("ÉMILE ZOLA", "émile zola"), ("\u{212A}elvin", "kelvin"), ("ſun", "SUN"),
    ])
    func theseAreOneName(_ typed: String, _ stored: String) {
        #expect(CaseFolding.fold(typed) == CaseFolding.fold(stored), "\(CaseFolding.fold(typed)) vs \(CaseFolding.fold(stored))")
    }

    @Test func differentNamesStayDifferent() {
        #expect(CaseFolding.fold("Strasse") != CaseFolding.fold("Straße"))  // simple folding: ß is not ss
        #expect(CaseFolding.fold("Emile") != CaseFolding.fold("Émile"))      // accents are letters of their own here
        #expect(CaseFolding.fold("Mark Twain") == "mark twain")
        #expect(CaseFolding.fold("행복") == "행복")
        #expect(CaseFolding.fold("") == "")
    }

    @Test func eachIOfAWordStandsForBothSpellings() {
        #expect(Set(CaseFolding.dotlessSpellings(of: "IŞIK")) == ["işik", "ışik", "işık", "ışık"])
        #expect(CaseFolding.dotlessSpellings(of: "행복") == ["행복"])
        #expect(CaseFolding.dotlessSpellings(of: "iiiiiiiiiiii").count == 2)  // capped: as it is, and all dotless
    }

    func store(_ folder: TemporaryFolder) throws -> Store {
        try makeStore(in: folder, quotes: [
            Quote(source: "custom.tr", upstreamID: "1", text: "Güneş doğmadan neler doğar.", author: "Işık Ilgaz"),
            Quote(source: "custom.tr", upstreamID: "2", text: "Σοφία αρχή.", author: "Σωκράτης"),
            Quote(source: "custom.tr", upstreamID: "3", text: "Another.", author: "Quentin Quoteworthy"),
        ])
    }

    @Test func authorSearchAndCharacterMatchByFolding() throws {
        let folder = TemporaryFolder()
        let picker = QuotePicker(database: try store(folder).database)
        var generator = SeededGenerator(state: 1)
        for typed in ["IŞIK ILGAZ", "ışık ılgaz", "Işık Ilgaz", "ILGAZ"] {
            #expect(try picker.random(QuoteFilter(author: typed), using: &generator)?.upstreamID == "1", "\(typed)")
        }
        #expect(try picker.random(QuoteFilter(author: "ΣΩΚΡΆΤΗΣ"), using: &generator)?.upstreamID == "2")
        #expect(try picker.random(QuoteFilter(author: "QUENTIN quoteworthy"), using: &generator)?.upstreamID == "3")
        #expect(try picker.random(QuoteFilter(author: "Nobody"), using: &generator) == nil)
        #expect(try picker.search("IŞIK", limit: 5).map(\.upstreamID) == ["1"])
        #expect(try picker.search("GÜNEŞ", limit: 5).map(\.upstreamID) == ["1"])
        #expect(try picker.search("ΣΟΦΊΑ", limit: 5).map(\.upstreamID) == ["2"])
    }

    @Test func charactersMatchByFolding() throws {
        let folder = TemporaryFolder()
        let store = try store(folder)
        try store.database.execute("""
            INSERT INTO characters (character_id, name, full_name, first_seen, last_seen, content_hash)
                VALUES (1, 'Işık', 'Işık Ilgaz', 0, 0, 0);
            """)
        let listings = Listings(database: store.database)
        #expect(try listings.characters(matching: "IŞIK").map(\.name) == ["Işık"])
        #expect(try listings.characters(matching: "ılgaz").map(\.name) == ["Işık"])
        #expect(try listings.characters(matching: "Walter").isEmpty)
    }
}
