import Foundation

/// Exact conversions between milliseconds since 1970 and `YYYY-MM-DDTHH:MM:SS.sssZ` (years
/// outside 0...9999 expanded: `-0001-…`, `+10000-…`), on integers so that no rounding creeps in:
/// the revision line's `time`.
package enum Timestamp {
    /// The current time in whole milliseconds since 1970 (rounded down).
    package static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The `Date` of `milliseconds` since 1970.
    package static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC. A year before 0 or after 9999 takes ISO 8601's
    /// expanded form: a sign, then at least four digits (`-0001-12-31T…`, `+10000-01-01T…`).
    package static func iso8601(milliseconds: Int64) -> String {
        let (days, millisecondOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000
        let yearText = (0...9999).contains(year) ? pad(year, 4) : (year < 0 ? "-" : "+") + pad(year.magnitude, 4)
        return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))."
            + "\(pad(millisecond, 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, or with an expanded year (a sign, then four
    /// digits or more); fractions beyond milliseconds are cut off.
    package static func milliseconds(parsing text: String) -> Int64? {
        var bytes = Array(text.utf8)
        // An expanded year becomes a four-digit placeholder, parsed on its own.
        var expandedYear: Int64?
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            let digits = bytes.dropFirst().prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard (4...18).contains(digits.count) else { return nil }
            let magnitude = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            expandedYear = sign == UInt8(ascii: "-") ? -magnitude : magnitude
            bytes = Array("0000".utf8) + bytes.dropFirst(1 + digits.count)
        }
        return milliseconds(parsing: bytes, year: expandedYear)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z` from `bytes`, with `year` in place of the four
    /// digits of the year when given; `nil` when out of Int64's range.
    private static func milliseconds(parsing bytes: [UInt8], year expandedYear: Int64?) -> Int64? {
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ offset: Int, is character: Unicode.Scalar) -> Bool {
            offset < bytes.count && bytes[offset] == UInt8(ascii: character)
        }
        guard bytes.count >= 20, byte(4, is: "-"), byte(7, is: "-"), byte(10, is: "T"), byte(13, is: ":"),
            byte(16, is: ":"), let fourDigits = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var offset = 19
        var millisecond: Int64 = 0
        if byte(offset, is: ".") {
            offset += 1
            var digits = 0
            while offset < bytes.count, let digit = number(offset..<(offset + 1)) {
                if digits < 3 { millisecond = millisecond * 10 + digit }
                digits += 1
                offset += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { millisecond *= 10 }
        }
        guard offset == bytes.count - 1, byte(offset, is: "Z") else { return nil }
        let year = expandedYear ?? fourDigits
        // Years beyond what 64-bit milliseconds hold (about 292 million) are refused.
        guard year.magnitude < 300_000_000 else { return nil }
        // A day the month does not have (February 30, April 31) is refused, not moved on.
        guard day <= daysInMonth(month, of: year) else { return nil }
        let days = Int128(days(fromCivil: year, month, day))
        let total = ((days * 24 + Int128(hour)) * 60 + Int128(minute)) * 60_000 + Int128(second * 1000 + millisecond)
        return Int64(exactly: total)
    }

    /// The number of days of `month` (1 to 12) in `year` of the proleptic Gregorian calendar.
    private static func daysInMonth(_ month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    // Howard Hinnant's days_from_civil and civil_from_days (proleptic Gregorian calendar).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
