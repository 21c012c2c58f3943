extension StringProtocol {
    /// Without white space at either end (no Foundation's trimmingCharacters).
    public func trimmingASCIIWhitespace() -> String {
        var slice = self[...]
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
