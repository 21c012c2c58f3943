/// Makes untrusted text safe to print on a terminal: removes escape sequences
/// (CSI, OSC, DCS and the rest), every other C0/C1 control character except
/// newline and tab, and the bidirectional overrides that can reorder what a reader
/// sees. Printable text, Korean and emoji included, passes unchanged.
public enum TerminalSanitizer {
    /// `clean`, on one line: every run of white space (a newline, a tab) made one space — for a
    /// status bar, a template, a text export.
    public static func oneLine(_ text: String) -> String {
        clean(text).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    public static func clean(_ text: String) -> String {
        // The common case costs one scan and no copy.
        guard text.unicodeScalars.contains(where: needsWork) else { return text }
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:  // ESC: drop the whole sequence it starts
                skipEscapeSequence(after: &scalars)
            case 0x9B:  // C1 CSI
                skipControlSequence(&scalars)
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F:  // C1 OSC, DCS, SOS, PM, APC
                skipString(&scalars)
            default:
                if !needsWork(scalar) { out.append(scalar) }
            }
        }
        return String(out)
    }

    private static func needsWork(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidi embeddings, overrides, isolates
        default: return false
        }
    }

    private static func skipEscapeSequence(after scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        switch next {
        case "[": skipControlSequence(&scalars)
        case "]", "P", "X", "^", "_": skipString(&scalars)
        case " "..."/":  // intermediate bytes, then one final byte
            while let more = scalars.next(), (0x20...0x2F).contains(more.value) {}
        default: return  // a two-character sequence: ESC and this one
        }
    }

    /// CSI: parameter and intermediate bytes up to a final byte in 0x40...0x7E.
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) || !(0x20...0x3F).contains(scalar.value) { return }
        }
    }

    /// OSC/DCS/...: everything up to BEL or the string terminator (ESC \ or U+009C).
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                _ = scalars.next()
                return
            default: continue
            }
        }
    }
}
