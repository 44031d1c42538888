/// Escapes text for SVG (XML 1.0): titles and labels come from users and data ("R&D <test>"),
/// and one unescaped `&` or `<` makes the whole file unreadable to a browser.
public enum SVGEscaping {
    /// Character data: `&`, `<` and `>` become entities; characters XML 1.0 forbids (C0 controls
    /// other than tab, line feed and carriage return) are dropped.
    public static func text(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// An attribute value in double quotes: as `text`, and `"` and `'` become entities too.
    public static func attribute(_ s: String) -> String {
        text(s).replacingQuotes()
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var out = ""
        for c in self {
            switch c {
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}
