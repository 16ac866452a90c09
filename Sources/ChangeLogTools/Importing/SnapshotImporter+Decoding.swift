import ChangeLog
import Dispatch
import Foundation
import ListAdapter
import ListFormat
import Synchronization

extension SnapshotImporter {
    /// A line of the input: its bytes' offsets from the input's start, and its 1-based number.
    struct Line: Sendable {
        var bytes: Range<Int>
        var number: Int
    }

    /// What decoding a line gave: the entry it appends, or why it is bad; `nil` for a blank line.
    typealias DecodedLine = Result<ChangeLog.AppendEntry, SnapshotImportError>?

    /// The lines of `input` decoded together: the lines from the first, up to ``decodingWindowLines``
    /// of them and up to about ``decodingWindowBytes`` of text (at least one line).
    static func decodingWindow(of lines: [Line], from first: Int) -> Range<Int> {
        var end = first
        var bytes = 0
        while end < lines.count, end - first < decodingWindowLines, end == first || bytes < decodingWindowBytes {
            bytes += lines[end].bytes.count
            end += 1
        }
        return first..<end
    }

    /// At most this many lines are decoded together.
    static let decodingWindowLines = 256
    /// Lines are decoded together until they hold this many bytes (16 MiB). The workers wait
    /// for each other at the end of a window, so a window holds many runs per worker: with only
    /// a few (4 MiB of 50 kB lines is three runs for two workers), workers sit idle at its end.
    static let decodingWindowBytes = 16 << 20

    /// Decodes `lines` of `input` on every processor the process may use: the lines are
    /// independent, and decoding is most of an import's work besides the writer's.
    ///
    /// Each worker decodes runs of ``decodingRunLines`` consecutive lines, so that a line shares
    /// the strings of the line before (``ListFormat/InterchangeFormat/readImportLine(_:previous:)``),
    /// except for the first of a run.
    ///
    /// - Parameters:
    ///   - options: whether a repeated title or id makes a line bad or is dropped, and whether a
    ///     revision line's recorded changes are read.
    ///   - processors: how many threads may decode at once (every processor the process may use;
    ///     tests vary it).
    /// - Returns: each line's outcome, in the order of `lines`.
    static func decode(
        _ lines: ArraySlice<Line>, of input: Data, options: Options = Options(),
        processors: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> [DecodedLine] {
        let runs = stride(from: lines.startIndex, to: lines.endIndex, by: decodingRunLines).map {
            $0..<min($0 + decodingRunLines, lines.endIndex)
        }
        let workers = min(runs.count, processors)
        guard workers > 1 else { return decodeRun(lines, of: input, options: options) }
        let outcomes = UnsafeMutableBufferPointer<DecodedLine>.allocate(capacity: lines.count)
        outcomes.initialize(repeating: nil)
        defer {
            outcomes.deinitialize()
            outcomes.deallocate()
        }
        let next = Atomic<Int>(0)
        // Each worker takes the next run not taken and writes only that run's outcomes.
        nonisolated(unsafe) let shared = outcomes
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let run = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard run < runs.count else { return }
                let range = runs[run]
                for (offset, outcome) in decodeRun(lines[range], of: input, options: options)
                    .enumerated()
                {
                    shared[range.lowerBound - lines.startIndex + offset] = outcome
                }
            }
        }
        return Array(outcomes)
    }

    /// The entry that appends `annotated`: with its recorded changes and time, stored as they
    /// came and checked for disagreement, when it has them; diffed and stamped by the log otherwise.
    static func entry(_ annotated: AnnotatedSnapshot<String, String, String>) -> ChangeLog.AppendEntry {
        guard let recorded = annotated.recorded else {
            return ChangeLog.AppendEntry(annotated.snapshot, meta: annotated.meta)
        }
        var entry = ChangeLog.AppendEntry(
            annotated.snapshot, changes: recorded.changes, meta: annotated.meta,
            millisecondsSince1970: recorded.millisecondsSince1970)
        entry.reportsDisagreement = true
        return entry
    }

    /// Consecutive lines are decoded by one worker in runs of this many.
    static let decodingRunLines = 32

    /// Decodes consecutive lines in order, each sharing the strings of the good line before.
    private static func decodeRun(
        _ lines: ArraySlice<Line>, of input: Data, options: Options
    ) -> [DecodedLine] {
        var previous: ListSnapshot<String, String, String>?
        return input.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return lines.map { line -> DecodedLine in
                let text = UnsafeBufferPointer(rebasing: bytes[line.bytes])
                // A line of nothing but spaces, tabs and carriage returns is blank.
                guard !text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { return nil }
                do throws(SnapshotImportError) {
                    let annotated = try decode(
                        line: text, lineNumber: line.number, previous: previous,
                        duplicatePolicy: options.duplicatePolicy, recorded: !options.recomputesChanges)
                    previous = annotated.snapshot
                    return .success(entry(annotated))
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    /// Where each line of `input` lies, line feeds left out, numbered from `firstNumber`; a
    /// final line feed ends the last line rather than starting an empty one.
    static func lines(of input: Data, firstNumber: Int = 1) -> [Line] {
        lines(of: input, firstNumber: firstNumber, keepingBlank: true).lines
    }

    /// The lines of ``lines(of:firstNumber:)`` that are not blank (nothing but spaces, tabs and
    /// carriage returns), with the number of lines there are, blank ones included. An input of
    /// blank lines takes no memory per line: 100 MB of line feeds would otherwise be 100 million
    /// entries of 24 bytes.
    static func nonBlankLines(of input: Data, firstNumber: Int = 1) -> (lines: [Line], count: Int) {
        lines(of: input, firstNumber: firstNumber, keepingBlank: false)
    }

    private static func lines(of input: Data, firstNumber: Int, keepingBlank: Bool) -> (lines: [Line], count: Int) {
        input.withUnsafeBytes { raw in
            var lines: [Line] = []
            var count = 0
            guard let base = raw.baseAddress else { return (lines, count) }
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < raw.count {
                let end =
                    memchr(base + start, Int32(UInt8(ascii: "\n")), raw.count - start)
                    .map { base.distance(to: UnsafeRawPointer($0)) } ?? raw.count
                if keepingBlank || !bytes[start..<end].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                    lines.append(Line(bytes: start..<end, number: firstNumber + count))
                }
                count += 1
                start = end + 1
            }
            return (lines, count)
        }
    }
}
