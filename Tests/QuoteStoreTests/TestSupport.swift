import Foundation
@_exported import TestSupport
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteText

/// Pearson's chi-square statistic of observed counts against a uniform expectation.
func chiSquare(_ counts: [Int]) -> Double {
    let total = Double(counts.reduce(0, +))
    let expected = total / Double(counts.count)
    return counts.reduce(0.0) { $0 + pow(Double($1) - expected, 2) / expected }
}

/// The chi-square value that a uniform sampler exceeds with probability 0.001
/// (Wilson–Hilferty approximation, accurate to a few percent for df >= 3).
func chiSquareCritical(degreesOfFreedom df: Int) -> Double {
    let k = Double(df)
    let z = 3.090  // the standard normal's 0.999 quantile
    return k * pow(1 - 2 / (9 * k) + z * (2 / (9 * k)).squareRoot(), 3)
}

/// A store with `count` quotes in the given shape, written through the real writer.
func makeStore(in folder: TemporaryFolder, quotes: [Quote]) throws -> Store {
    let store = try Store(path: folder.file("quotes.db"), access: .write, now: 1_000)
    try store.database.transaction { () throws(StoreError) in
        let writer = QuoteWriter(database: store.database)
        for source in Set(quotes.map(\.source)) {
            try writer.ensureSource(source, now: 1_000)
            try writer.apply(quotes.filter { $0.source == source }, to: source, removeMissing: false, now: 1_000)
        }
    }
    return store
}
