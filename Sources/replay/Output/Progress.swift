import Foundation

/// Progress of long work on standard error, only when standard error is a terminal: a piped
/// or redirected run prints nothing extra.
struct Progress {
    private let label: String
    private let total: Int?
    private let enabled: Bool
    private var lastUpdate = Date.distantPast

    /// Creates a reporter for work named `label` with `total` steps when known.
    init(_ label: String, total: Int? = nil) {
        self.label = label
        self.total = total
        enabled = isatty(STDERR_FILENO) == 1
    }

    /// Reports that `done` steps are done, at most ten times a second.
    mutating func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastUpdate) >= 0.1 else { return }
        lastUpdate = now
        var line = "\r\(label): \(done)"
        if let total, total > 0 { line += " of \(total) (\(done * 100 / total)%)" }
        writeToStandardError(line)
    }

    /// Clears the progress line.
    func finish() {
        guard enabled else { return }
        writeToStandardError("\r\u{1B}[K")
    }
}
