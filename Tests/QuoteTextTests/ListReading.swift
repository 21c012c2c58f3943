@testable import QuoteText

/// The list at `pointer` in `bytes` as `JSONItemsStream` hands it over, fed in pieces cut at `cuts`
/// (with `emptyChunks`, an empty chunk before each piece and after the last): each element as
/// "position: JSON", then the error if there is one, as "error: …".
func readList(_ bytes: [UInt8], at pointer: String, cuts: [Int] = [], maximumElementBytes: Int = 64,
              loneObject: Bool = false, emptyChunks: Bool = false) -> [String] {
    var seen: [String] = []
    do {
        var stream = JSONItemsStream(pointer: try JSONPointer(pointer), maximumElementBytes: maximumElementBytes, loneObject: loneObject)
        func feed(_ piece: ArraySlice<UInt8>) throws {
            try piece.withUnsafeBytes { chunk in
                try stream.feed(chunk) { position, element in
                    switch element {
                    case .value(let value): seen.append("\(position): \(JSONWriter.serialize(value))")
                    case .tooLarge(let size): seen.append("\(position): too large (\(size))")
                    case .repeatedMember(let error): seen.append("\(position): refused (\(error))")
                    }
                }
            }
        }
        var start = 0
        for end in cuts.filter({ $0 > 0 && $0 < bytes.count }) + [bytes.count] where end >= start {
            if emptyChunks { try feed([]) }
            try feed(bytes[start..<end])
            start = end
        }
        if emptyChunks { try feed([]) }
        try stream.finish()
    } catch {
        seen.append("error: \(error)")
    }
    return seen
}
