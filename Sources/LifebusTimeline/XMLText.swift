/// Text made safe for XML 1.0 content and attribute values, for every document Lifebus writes (the SVG timeline,
/// the JUnit report). Stateless.
///
/// Invariant: the result holds no raw `&`, `<`, `>`, `"` or `'`, and no character XML 1.0 cannot carry (controls
/// other than tab, newline and carriage return; U+FFFE, U+FFFF): those become U+FFFD, so app ids, event labels and
/// an app's own mark data can never break the document.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
