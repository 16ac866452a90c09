import ListAdapter

// Text output of user values: what the tool and the log's text renderers print, escaped as
// ListAdapter's messages quote values (``ListAdapter/quoted(_:)``), so that a value never spans
// lines, moves the cursor or sends a terminal escape sequence.

/// UTF-8 bytes quoted as ``quoted(_:)`` quotes text, each byte that is not valid UTF-8 as `\xFF`,
/// so that text that is not UTF-8 reads unambiguously on one line: `"bad\xFFname"`. With a
/// `limit`, at most that many characters (a scalar, or a byte that is not UTF-8), then `...`.
package func quotedUTF8(_ bytes: some Collection<UInt8>, limit: Int = .max) -> String {
    var shown = "\""
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var rest = bytes[...]
    var count = 0
    while count < limit {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let encoded):
            rest = rest.dropFirst(encoded.count)
            appendEscaped(Unicode.UTF8.decode(encoded), to: &shown)
            count += 1
        case .error(let length):
            for byte in rest.prefix(length) {
                shown += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
            rest = rest.dropFirst(length)
            count += 1
        case .emptyInput:
            return shown + "\""
        }
    }
    return shown + (rest.isEmpty ? "\"" : "\"...")
}

/// `text` as ``printable(_:quotingSpaces:)`` shows it when it has at most `limit` Unicode scalars,
/// else as ``quotedExcerpt(_:limit:spellingOut:)`` cuts it: a key the user chose, named in a
/// path such as `meta.commit`, which a huge key must not turn into a huge message.
package func printableExcerpt(_ text: String, limit: Int = 60) -> String {
    text.unicodeScalars.dropFirst(limit).isEmpty ? printable(text) : quotedExcerpt(text, limit: limit)
}

/// `text` as it is when it is printable on one line, else ``quoted(_:)``: what the package's
/// text output uses for user values, so that a value never spans lines or sends terminal
/// escape sequences. With `quotingSpaces`, text holding a space, `"`, `=` or `\\` is quoted too
/// (for `key=value` lists).
package func printable(_ text: String, quotingSpaces: Bool = false) -> String {
    let needsQuotes = text.unicodeScalars.contains { scalar in
        if isEscapedInText(scalar) { return true }
        return quotingSpaces && (scalar == " " || scalar == "\"" || scalar == "=" || scalar == "\\")
    }
    return needsQuotes || (quotingSpaces && text.isEmpty) ? quoted(text) : text
}
