import ChangeLog

// The Swift Testing test that `replay reduce` writes beside the reduced history for the built-in
// oracles: it replays `history.jsonl` as the oracle did and fails where the original failed.

extension ReductionResult {
    /// The source of `ReducedTest.swift` for a built-in oracle, `nil` for a predicate or a custom
    /// oracle.
    ///
    /// The test reads `history.jsonl` from its own directory (`#filePath`) with `ChangeLog`'s
    /// public API alone (`RevisionRecord(jsonLine:)`), replays it into
    /// `UIKitStrictRenderer` (``ReductionOracle/strict``) or checks that each revision's changes
    /// take the previous snapshot to its snapshot (``ReductionOracle/verify``), and records an
    /// issue at the first failure: it fails as the original history did, until the bug is fixed.
    /// Comments give the original revision numbers and meta of each revision, and the failure.
    public func reducedTestSource() -> String? {
        guard isBuiltInOracle else { return nil }
        let strict = oracleName == "strict"
        var lines = [
            "// Reduced by `replay reduce --until \(oracleName)` from \(ReductionSize(original))",
            "// to \(ReductionSize(reduced)).",
        ]
        if case .fails(_, let description, _) = verdict {
            lines.append("// Failure: \(Self.commentText(description))")
        }
        lines.append("//")
        for (offset, revision) in reduced.revisions.enumerated() {
            let meta = revision.meta.sorted { $0.key < $1.key }.map {
                "\(Self.commentText($0.key))=\(Self.commentText($0.value))"
            }
            lines.append(
                "// history.jsonl revision \(offset + 1) is original revision \(revision.originalRevision)"
                    + (meta.isEmpty ? "" : " (meta: \(meta.joined(separator: ", ")))")
                    + (revision.changesAreStored ? "" : "; its changes are recomputed by the diff"))
        }
        let originals = reduced.revisions.map { String($0.originalRevision) }.joined(separator: ", ")
        lines += [
            "//",
            "// Keep this file and history.jsonl side by side in a test target that depends on the ChangeLog",
            "// and ListAdapter products. The test fails until the bug is fixed.",
            "",
            "import ChangeLog",
            "import Foundation",
            "import ListAdapter",
            "import Testing",
            "",
            strict
                ? "@Test func reducedHistoryReplaysIntoTheStrictRenderer() throws {"
                : "@Test func reducedHistoryVerifies() throws {",
            "    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()",
            "        .appendingPathComponent(\"history.jsonl\")",
            "    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: \"\\n\")",
            "    let history = try lines.map { try RevisionRecord(jsonLine: $0.utf8) }",
            "    let originalRevisions: [UInt64] = [\(originals)]",
            "    #expect(history.count == originalRevisions.count)",
        ]
        if strict {
            lines += [
                "    var renderer = UIKitStrictRenderer<String, String, String>()",
                "    for (offset, revision) in history.enumerated() {",
                "        do {",
                "            try renderer.performBatchUpdates(revision.changes, resultingIn: revision.snapshot)",
                "        } catch {",
                "            let revisionName = \"revision \\(offset + 1) (original \\(originalRevisions[offset]))\"",
                "            Issue.record(\"\\(revisionName): the strict renderer refused the batch: \\(error)\")",
                "            return",
                "        }",
                "    }",
            ]
        } else {
            lines += [
                "    var previous = LogSnapshot()",
                "    for (offset, revision) in history.enumerated() {",
                "        let revisionName = \"revision \\(offset + 1) (original \\(originalRevisions[offset]))\"",
                "        let applied: LogSnapshot",
                "        do {",
                "            applied = try previous.applying(revision.changes)",
                "        } catch {",
                "            Issue.record(\"\\(revisionName): its changes are not valid for the previous snapshot: \\(error)\")",
                "            return",
                "        }",
                "        guard applied == revision.snapshot else {",
                "            Issue.record(\"\\(revisionName): applying its changes to the previous snapshot does not give its snapshot\")",
                "            return",
                "        }",
                "        previous = revision.snapshot",
                "    }",
            ]
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
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
