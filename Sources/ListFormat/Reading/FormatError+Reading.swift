import ListAdapter

extension FormatError {
    /// The public form of `failure`, which reading `bytes` gave: its place computed from the
    /// text, its path written out.
    init(_ failure: ReadFailure, in bytes: UnsafeBufferPointer<UInt8>) {
        let offset = min(max(failure.offset, 0), bytes.count)
        let before = UnsafeBufferPointer(rebasing: bytes[..<offset])
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        // Columns count what an editor shows: from after a byte order mark.
        let textStart = lineStart == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? min(3, offset) : lineStart
        let column = String(decoding: UnsafeBufferPointer(rebasing: bytes[textStart..<offset]), as: UTF8.self).count + 1
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        var problem = failure.reason
        if failure.kind == .syntax {
            let rest = bytes[offset...].prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
            problem = "not valid JSON: \(problem)" + (rest.isEmpty ? "" : " (\(quotedUTF8(rest, limit: 20)))")
        }
        self.init(
            offset: offset, line: line, column: column, path: Self.path(failure.reversedPath.reversed()),
            problem: problem, namesLine: bytes.contains(UInt8(ascii: "\n")))
    }

    /// An error at the start of a text that is not UTF-8.
    init(notUTF8 encoding: String) {
        self.init(
            offset: 0, line: 1, column: 1, path: "",
            problem: "the text is \(encoding), not UTF-8: the interchange format is UTF-8", namesLine: false)
    }

    /// How many steps of a path are written out: a deeper one is cut in its middle.
    static let pathStepLimit = 12

    /// `sections[3].items[12].id`: keys after dots, indices in brackets; a path deeper than
    /// ``pathStepLimit`` steps shows its first and last steps around `...`.
    static func path(_ steps: [PathStep]) -> String {
        func written(_ steps: some Collection<PathStep>, first: Bool) -> String {
            var result = ""
            for step in steps {
                switch step {
                case .key(let key):
                    let name = printableExcerpt(key)
                    result += first && result.isEmpty ? name : ".\(name)"
                case .index(let index):
                    result += "[\(index)]"
                }
            }
            return result
        }
        guard steps.count > pathStepLimit else { return written(steps, first: true) }
        let head = written(steps.prefix(pathStepLimit - 4), first: true)
        return head + "...(\(steps.count - pathStepLimit) steps)..." + written(steps.suffix(4), first: false)
    }
}
