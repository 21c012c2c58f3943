extension RandomNumberGenerator {
    /// A uniform draw from 0..<`bound` (0 for a bound of 0), from `next()` alone: Lemire's
    /// multiply-and-reject, as the standard library's `next(upperBound:)` draws, with UInt64's
    /// arithmetic written here. Called from another module, that generic one looked up UInt64's
    /// integer conformances at run time on every `quotectl random` (docs/benchmarks.md).
    public mutating func draw(below bound: UInt64) -> UInt64 {
        guard bound > 0 else { return 0 }
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            // The low words below 2^64 mod bound would favour some results: draw again.
            let threshold = (0 &- bound) % bound
            while product.low < threshold { product = next().multipliedFullWidth(by: bound) }
        }
        return product.high
    }
}
