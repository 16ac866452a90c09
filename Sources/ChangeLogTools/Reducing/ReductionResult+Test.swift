import ChangeLog
import ListAdapter

// The Swift Testing test that `replay reduce` writes for the built-in oracles: it holds the reduced
// history, replays it as the oracle did, and fails with the message the reduced history failed
// with.

extension ReductionResult {
    /// The message the emitted test records for ``reduced`` (the first failure, as the test words
    /// it, naming the original revision), or `nil` for a predicate, a custom oracle or a history
    /// that passes.
    ///
    /// It is computed as the test computes it, so the test fails with this message until the bug
    /// is fixed.
    public var reducedTestFailure: String? {
        guard isBuiltInOracle else { return nil }
        let records = reduced.records
        let originals = reduced.revisions.map(\.originalRevision)
        func name(_ offset: Int) -> String { "revision \(offset + 1) (original \(originals[offset]))" }
        if oracleName == "strict" {
            var renderer = UIKitStrictRenderer<String, String, String>()
            for (offset, record) in records.enumerated() {
                do {
                    try renderer.performBatchUpdates(record.changes, resultingIn: record.snapshot)
                } catch {
                    return "\(name(offset)): the strict renderer refused the batch: \(error)"
                }
            }
            return nil
        }
        var previous = LogSnapshot()
        for (offset, record) in records.enumerated() {
            if let failure = ChangeLog.check(record, after: previous) {
                let what =
                    failure.code == .invalidChanges
                    ? "its changes are not valid for the previous snapshot"
                    : "applying its changes to the previous snapshot does not give its snapshot"
                return "\(name(offset)): \(what): \(failure.differences.joined(separator: "; "))"
            }
            previous = record.snapshot
        }
        return nil
    }

    /// The source of `ReducedTest.swift` for a built-in oracle, `nil` for a predicate or a custom
    /// oracle.
    ///
    /// The file holds the reduced history as revision lines in a string literal, so that it needs
    /// no resource: it compiles in any test target that depends on the ChangeLog and ListAdapter
    /// products. The test reads the lines with `RevisionRecord(jsonLine:)`, replays them into
    /// `UIKitStrictRenderer` (``ReductionOracle/strict``) or checks each revision with
    /// `ChangeLog.check(_:after:)` (``ReductionOracle/verify``), and records the first failure.
    /// It expects that failure to be ``reducedTestFailure``: until the bug is fixed it fails with
    /// that message, and it says so when the history fails in another way. Comments give the
    /// original revision numbers and meta of each revision, and both failures.
    public func reducedTestSource() -> String? {
        guard isBuiltInOracle, let expected = reducedTestFailure else { return nil }
        let strict = oracleName == "strict"
        var lines = [
            "// Reduced by `replay reduce --until \(oracleName)` from \(ReductionSize(original))",
            "// to \(ReductionSize(reduced)).",
        ]
        if case .fails(let signature, let description, _) = originalVerdict {
            lines.append("// Original failure (\(signature)): \(Self.commentText(description))")
        }
        if case .fails(let signature, let description, _) = verdict {
            lines.append("// Reduced failure (\(signature)): \(Self.commentText(description))")
        }
        lines.append("//")
        for (offset, revision) in reduced.revisions.enumerated() {
            let meta = revision.meta.sorted { $0.key < $1.key }.map {
                "\(Self.commentText($0.key))=\(Self.commentText($0.value))"
            }
            lines.append(
                "// history revision \(offset + 1) is original revision \(revision.originalRevision)"
                    + (meta.isEmpty ? "" : " (meta: \(meta.joined(separator: ", ")))")
                    + (revision.changesAreStored ? "" : "; its changes are recomputed by the diff"))
        }
        let originals = reduced.revisions.map { String($0.originalRevision) }.joined(separator: ", ")
        let history = reduced.jsonLines()
        let hashes = String(repeating: "#", count: Self.longestRun(of: "#", in: history) + 1)
        lines += [
            "//",
            "// Put this file in a test target that depends on the ChangeLog and ListAdapter products (it",
            "// holds the history: no resource needed). The test fails until the bug is fixed.",
            "",
            "import ChangeLog",
            "import ListAdapter",
            "import Testing",
            "",
            strict
                ? "@Test func reducedHistoryReplaysIntoTheStrictRenderer() throws {"
                : "@Test func reducedHistoryVerifies() throws {",
            "    let history = try reducedHistory.split(separator: \"\\n\").map { try RevisionRecord(jsonLine: $0.utf8) }",
            "    let originalRevisions: [UInt64] = [\(originals)]",
            "    #expect(history.count == originalRevisions.count)",
            "    // Until the bug is fixed, the history fails with this message:",
            "    let reducedFailure = \(Self.stringLiteral(expected))",
            "    let failure = firstFailure(of: history, originalRevisions: originalRevisions)",
            "    #expect(failure == nil, Comment(rawValue: failure ?? \"\"))",
            "    if let failure {",
            "        #expect(failure == reducedFailure, \"the history fails in another way than when it was reduced\")",
            "    }",
            "}",
            "",
            "/// The first failure of `history`, in words.",
            "private func firstFailure(of history: [RevisionRecord], originalRevisions: [UInt64]) -> String? {",
            "    func name(_ offset: Int) -> String { \"revision \\(offset + 1) (original \\(originalRevisions[offset]))\" }",
        ]
        if strict {
            lines += [
                "    var renderer = UIKitStrictRenderer<String, String, String>()",
                "    for (offset, revision) in history.enumerated() {",
                "        do {",
                "            try renderer.performBatchUpdates(revision.changes, resultingIn: revision.snapshot)",
                "        } catch {",
                "            return \"\\(name(offset)): the strict renderer refused the batch: \\(error)\"",
                "        }",
                "    }",
            ]
        } else {
            lines += [
                "    var previous = LogSnapshot()",
                "    for (offset, revision) in history.enumerated() {",
                "        if let failure = ChangeLog.check(revision, after: previous) {",
                "            let what =",
                "                failure.code == .invalidChanges",
                "                ? \"its changes are not valid for the previous snapshot\"",
                "                : \"applying its changes to the previous snapshot does not give its snapshot\"",
                "            return \"\\(name(offset)): \\(what): \\(failure.differences.joined(separator: \"; \"))\"",
                "        }",
                "        previous = revision.snapshot",
                "    }",
            ]
        }
        lines += [
            "    return nil",
            "}",
            "",
            "/// The reduced history: revision lines, numbered from 1.",
            "private let reducedHistory = \(hashes)\"\"\"",
        ]
        lines.append(history.hasSuffix("\n") ? String(history.dropLast()) : history)
        lines.append("\"\"\"\(hashes)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The longest run of `character` in `text`.
    private static func longestRun(of character: Character, in text: String) -> Int {
        var (longest, run) = (0, 0)
        for found in text {
            run = found == character ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// `text` as a Swift string literal on one line.
    private static func stringLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}":
                literal += "\\u{\(String(scalar.value, radix: 16))}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// `text` on one comment line: control characters escaped as `\u{…}`.
    private static func commentText(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                escaped += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
