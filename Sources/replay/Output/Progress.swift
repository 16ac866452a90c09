import Foundation

/// Progress of long work on standard error, only when standard error is a terminal: a piped
/// or redirected run prints nothing extra.
///
/// A progress line names the work, its phase when it has several, the steps done, the total
/// when known, and the rate once a second has passed:
/// `importing, checking: 12000 of 50000 lines (24%), 8000 lines/s`.
struct Progress {
    /// What a step counts.
    enum Unit: Equatable {
        /// Steps named by a plural noun (`lines`), or by nothing (an empty string).
        case items(String)
        /// Bytes, shown in megabytes.
        case bytes
    }

    private let label: String
    /// The steps there are in all, when known.
    var total: Int?
    /// The phase of the work now, shown after its label (`checking`, `appending`).
    var phase: String?
    private let unit: Unit
    private let enabled: Bool
    private let start = Date()
    private var lastUpdate = Date.distantPast

    /// Creates a reporter for work named `label` with `total` steps when known, each counting
    /// one `unit`.
    init(_ label: String, total: Int? = nil, unit: Unit = .items("")) {
        self.label = label
        self.total = total
        self.unit = unit
        enabled = isatty(STDERR_FILENO) == 1
    }

    /// Reports that `done` steps are done, at most ten times a second unless `now` says a phase
    /// has just begun.
    mutating func update(_ done: Int, now force: Bool = false) {
        guard enabled else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastUpdate) >= 0.1 else { return }
        lastUpdate = now
        let line = Self.describe(
            label: label, phase: phase, done: done, total: total, unit: unit, elapsed: now.timeIntervalSince(start))
        // Cleared after the text, so that a shorter line leaves nothing of the one before.
        writeToStandardError("\r" + line + "\u{1B}[K")
    }

    /// Clears the progress line.
    func finish() {
        guard enabled else { return }
        writeToStandardError("\r\u{1B}[K")
    }

    /// The progress line for `done` of `total` steps of `unit` after `elapsed` seconds: the
    /// total and the percentage only when `total` is known and positive, the rate only once
    /// `elapsed` reaches a second.
    static func describe(
        label: String, phase: String?, done: Int, total: Int?, unit: Unit, elapsed: Double
    ) -> String {
        var line = label + (phase.map { ", \($0)" } ?? "") + ": " + amount(done, unit)
        if let total, total > 0 {
            line += " of \(amount(total, unit))\(noun(unit)) (\(min(100, done * 100 / total))%)"
        } else {
            line += noun(unit)
        }
        if elapsed >= 1 {
            line += ", \(amount(Int(Double(done) / elapsed), unit))\(noun(unit))/s"
        }
        return line
    }

    private static func amount(_ value: Int, _ unit: Unit) -> String {
        guard unit == .bytes else { return "\(value)" }
        let tenths = value / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func noun(_ unit: Unit) -> String {
        switch unit {
        case .items(let noun): noun.isEmpty ? "" : " " + noun
        case .bytes: " MB"
        }
    }
}
