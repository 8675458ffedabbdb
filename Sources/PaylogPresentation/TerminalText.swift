/// Text observed on the wire, made safe to print on a terminal.
///
/// The log keeps every value byte for byte, and a decoded value can hold anything a provider or an attacker put in a
/// URL: `%1B[2K` (ESC) erases the line it is printed on, `%0D` (CR) returns to its start, `%0A` (LF) starts a line
/// that looks like paylog's own, and U+202E (RIGHT-TO-LEFT OVERRIDE) shows characters in another order than they are
/// stored. Printed raw, an auditor would read another value than the one recorded. Every text (not JSON) output of
/// the CLI passes wire-derived values through ``escaped(_:)``; JSON output escapes control characters itself.
public enum TerminalText {
    /// `text` with each control character (Unicode category Cc: C0, DEL, C1 — LF, CR and TAB included) and each
    /// bidirectional formatting character (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) written as
    /// `\u{XX}`, its scalar value in hex, and a backslash written `\\` so that an escape in the value itself
    /// cannot pass for one of these. Any other text is returned as it is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) || $0 == "\\" }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                out.append(contentsOf: "\\\\".unicodeScalars)
            } else if needsEscape(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `scalar` is a control or a bidirectional formatting character.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
