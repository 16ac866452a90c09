import ListFormat

/// Reads the times `--since`, `--until`, `--at` and the server's `since` and `until` take: an
/// RFC 3339 time (`2026-11-20T10:42:00Z`, `2026-11-20T11:42:00.5+01:00`) or a time relative
/// to now (`-2h`, `-30m`, `-7d`; also `s` and `w`).
public enum TimeExpression {
    /// `text` as milliseconds since 1970, relative times counted back from `now` (milliseconds
    /// since 1970).
    ///
    /// - Throws: ``ChangeLogError/Code/invalidArgument`` saying what is accepted.
    public static func milliseconds(parsing text: String, now: Int64) throws(ChangeLogError) -> Int64 {
        if let relative = relative(text) {
            return now - relative
        }
        if let absolute = absolute(text) { return absolute }
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        throw ChangeLogError(
            code: .invalidArgument,
            message: "'\(shown)' is not a time: write an RFC 3339 time such as 2026-11-20T10:42:00Z or "
                + "2026-11-20T11:42:00+01:00, or a time before now such as -30m, -2h or -7d (units s, m, h, d, w)")
    }

    /// The current time in milliseconds since 1970.
    public static var now: Int64 { Timestamp.now() }

    /// `-N` and a unit, in milliseconds; `nil` when `text` is not that.
    private static func relative(_ text: String) -> Int64? {
        guard text.hasPrefix("-"), let unit = text.last, text.count >= 3 else { return nil }
        let digits = text.dropFirst().dropLast()
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let count = Int64(digits) else { return nil }
        let scale: Int64
        switch unit {
        case "s": scale = 1000
        case "m": scale = 60_000
        case "h": scale = 3_600_000
        case "d": scale = 86_400_000
        case "w": scale = 604_800_000
        default: return nil
        }
        let (product, overflow) = count.multipliedReportingOverflow(by: scale)
        return overflow || product > 1 << 50 ? nil : product
    }

    /// An RFC 3339 time: `Z` or a `±hh:mm` offset; `t`, `z` and a space for `T` accepted.
    private static func absolute(_ text: String) -> Int64? {
        var text = text
        if text.count > 10, text[text.index(text.startIndex, offsetBy: 10)] == " " || text.dropFirst(10).first == "t" {
            let index = text.index(text.startIndex, offsetBy: 10)
            text.replaceSubrange(index...index, with: "T")
        }
        if text.hasSuffix("z") { text = String(text.dropLast()) + "Z" }
        if text.hasSuffix("Z") { return Timestamp.milliseconds(parsing: text) }
        let offset = Array(text.utf8.suffix(6))
        guard offset.count == 6, offset[0] == UInt8(ascii: "+") || offset[0] == UInt8(ascii: "-"),
            offset[3] == UInt8(ascii: ":")
        else { return nil }
        let digits = [offset[1], offset[2], offset[4], offset[5]]
        guard digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let hours = Int64(digits[0] - 48) * 10 + Int64(digits[1] - 48)
        let minutes = Int64(digits[2] - 48) * 10 + Int64(digits[3] - 48)
        guard hours < 24, minutes < 60 else { return nil }
        guard let local = Timestamp.milliseconds(parsing: String(text.dropLast(6)) + "Z") else { return nil }
        let shift = (hours * 60 + minutes) * 60_000
        return offset[0] == UInt8(ascii: "+") ? local - shift : local + shift
    }
}
