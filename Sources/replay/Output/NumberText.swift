import ChangeLog

/// Numbers as the tool writes them for people: digits in groups of three, and a noun that
/// agrees with its count.
enum NumberText {
    /// `number` with its digits in groups of three, separated by commas: `1,234,567`, `-1,000`,
    /// `999`. The same in every locale, like the rest of the tool's output.
    static func grouped(_ number: some BinaryInteger) -> String {
        let digits = String(number.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.append(digits[start..<end])
            end = start
        }
        return (number < 0 ? "-" : "") + groups.reversed().joined(separator: ",")
    }

    /// `count` grouped, then `noun` when it is 1 and `plural` (by default `noun` + "s")
    /// otherwise: `1 section`, `2 sections`, `1,024 bytes`.
    static func counted(_ count: some BinaryInteger, _ noun: String, plural: String? = nil) -> String {
        grouped(count) + " " + (count == 1 ? noun : plural ?? noun + "s")
    }

    /// The operation counts as `LogChanges.Counts` describes them (`sections +1 -0 ~0 *0  items +3
    /// -1 ~2 *1`), each number grouped.
    static func operations(_ counts: LogChanges.Counts) -> String {
        "sections +\(grouped(counts.sectionsInserted)) -\(grouped(counts.sectionsDeleted)) "
            + "~\(grouped(counts.sectionsMoved)) *\(grouped(counts.sectionsUpdated))  items +\(grouped(counts.itemsInserted)) "
            + "-\(grouped(counts.itemsDeleted)) ~\(grouped(counts.itemsMoved)) *\(grouped(counts.itemsUpdated))"
    }
}
