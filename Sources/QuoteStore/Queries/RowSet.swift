/// A set of row ids, as bits over the span they occupy (row ids are mostly dense: a million rows
/// cost 125 KB), with ids far outside it (a store whose ids SQLite began to pick at random) kept
/// one by one.
struct RowSet {
    private var base: Int?
    private var words: [UInt64] = []
    private var outliers: Set<Int> = []
    /// 2^28 ids: 32 MiB of bits at most.
    static let maximumSpan = 1 << 28

    /// An empty set whose bits begin at `lowest` (else at the first id inserted).
    init(from lowest: Int? = nil) {
        base = lowest.map { $0 & ~63 }
    }

    mutating func insert(_ id: Int) {
        if base == nil { base = id & ~63 }
        guard let bit = bit(of: id) else {
            outliers.insert(id)
            return
        }
        let word = bit >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: max(word + 1 - words.count, words.count / 2))) }
        words[word] |= 1 << UInt64(bit & 63)
    }

    /// Inserts `id`; whether it was not in the set before.
    mutating func insertNew(_ id: Int) -> Bool {
        guard !contains(id) else { return false }
        insert(id)
        return true
    }

    func contains(_ id: Int) -> Bool {
        guard let bit = bit(of: id) else { return outliers.contains(id) }
        let word = bit >> 6
        return word < words.count && words[word] & (1 << UInt64(bit & 63)) != 0
    }

    private func bit(of id: Int) -> Int? {
        guard let base else { return nil }
        let (offset, overflow) = id.subtractingReportingOverflow(base)
        return !overflow && offset >= 0 && offset < Self.maximumSpan ? offset : nil
    }
}

