/// Quotes a user value for an error message, escaping quotes and control characters: the C0
/// controls, DEL and the C1 controls (U+0080–U+009F, among them U+009B, the 8-bit CSI), so that
/// a quoted value never moves the cursor or starts a terminal escape sequence.
package func quoted(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
        appendEscaped(scalar, to: &result)
    }
    return result + "\""
}

/// ``quoted(_:)`` for a value of at most `limit` Unicode scalars; a longer one is cut there,
/// with `...` and its length after the quotes, so that a huge value does not make a huge
/// message.
/// With `spellingOut`, every character past ASCII is written as its Unicode scalar
/// (`"cafe\u{301}"`).
package func quotedExcerpt(_ value: String, limit: Int = 60, spellingOut: Bool = false) -> String {
    let scalars = value.unicodeScalars
    var result = "\""
    for scalar in scalars.prefix(limit) {
        if spellingOut, !scalar.isASCII {
            appendScalarEscape(scalar, to: &result)
        } else {
            appendEscaped(scalar, to: &result)
        }
    }
    guard scalars.count > limit else { return result + "\"" }
    return result + "\"... (\(value.utf8.count) bytes)"
}

/// Two values that differ, for a message that sets them side by side: each as
/// ``quotedExcerpt(_:limit:spellingOut:)`` quotes it, with the characters past ASCII spelled out
/// when the two would otherwise read the same (spellings of one text in other Unicode
/// normalizations, which Swift's `==` on strings takes as equal).
package func quotedApart(_ first: String, _ second: String, limit: Int = 60) -> (String, String) {
    let spellingOut = first == second
    return (
        quotedExcerpt(first, limit: limit, spellingOut: spellingOut),
        quotedExcerpt(second, limit: limit, spellingOut: spellingOut)
    )
}

/// Appends `scalar` to `result` as ``quoted(_:)`` writes it between its quotes.
package func appendEscaped(_ scalar: Unicode.Scalar, to result: inout String) {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    default: appendEscapingControl(scalar, to: &result)
    }
}

/// Whether messages and text output escape `scalar`: the control characters (C0, DEL, C1), the
/// line and paragraph separators (U+2028, U+2029: line breaks to some tools), the bidirectional
/// controls (U+202A–U+202E, U+2066–U+2069: they reorder the rest of a line as shown) and the
/// byte order mark (U+FEFF, invisible). A value shown never spans lines, moves the cursor,
/// sends a terminal escape sequence or hides a character.
package func isEscapedInText(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    // Printable ASCII, most text, answered without a look-up of Unicode's tables.
    case 0x20...0x7E: return false
    case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: return true
    default: return scalar.properties.generalCategory == .control
    }
}

/// Appends `scalar` to `result`, escaped as `\n`, `\t`, `\r` or `\u{1b}` where
/// ``isEscapedInText(_:)``: the escaping of ``appendEscaped(_:to:)`` without the quotes' own.
package func appendEscapingControl(_ scalar: Unicode.Scalar, to result: inout String) {
    switch scalar {
    case "\n": result += "\\n"
    case "\t": result += "\\t"
    case "\r": result += "\\r"
    default:
        if isEscapedInText(scalar) {
            appendScalarEscape(scalar, to: &result)
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
}

/// Appends `scalar` as Swift writes a Unicode scalar escape: `\u{1b}`.
private func appendScalarEscape(_ scalar: Unicode.Scalar, to result: inout String) {
    result += "\\u{\(String(scalar.value, radix: 16))}"
}
