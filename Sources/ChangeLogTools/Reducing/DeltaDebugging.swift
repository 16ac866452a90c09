/// Zeller and Hildebrandt's ddmin ("Simplifying and Isolating Failure-Inducing Input", 2002): the
/// smallest subsequence of a failing sequence it can find that still fails, 1-minimal: removing
/// any one element of it makes the candidate pass.
enum DeltaDebugging {
    /// Minimizes `elements`, of which the whole sequence fails.
    ///
    /// At granularity *n* the sequence is cut into *n* parts of nearly equal length; the parts
    /// are tried, then their complements, in order, and the first failing one is kept (a part
    /// resets *n* to 2, a complement lowers it by one). When none fails, *n* doubles, up to the
    /// length: at that granularity every complement is the sequence without one element, so the
    /// result is 1-minimal.
    ///
    /// - Parameters:
    ///   - elements: the failing sequence.
    ///   - tryingEmpty: whether to try the empty sequence when one element is left.
    ///   - candidate: the candidate a subsequence stands for.
    ///   - runner: asks the oracle; candidates of one round are asked together.
    static func minimize<Element>(
        _ elements: [Element], tryingEmpty: Bool, candidate: ([Element]) -> HistoryShape, runner: OracleRunner
    ) async throws -> [Element] {
        var current = elements
        var granularity = 2
        while current.count >= 2 {
            let parts = split(current, into: granularity)
            let complements =
                granularity == 2
                ? [] : parts.indices.map { skipped in parts.indices.filter { $0 != skipped }.flatMap { parts[$0] } }
            let found = try await runner.firstFailing((parts + complements).map(candidate))
            if let found {
                if found < parts.count {
                    current = parts[found]
                    granularity = 2
                } else {
                    current = complements[found - parts.count]
                    granularity = max(granularity - 1, 2)
                }
                continue
            }
            if granularity >= current.count { break }
            granularity = min(current.count, granularity * 2)
        }
        if current.count == 1, tryingEmpty, try await runner.fails(candidate([])) {
            current = []
        }
        return current
    }

    /// `elements` cut into `count` consecutive parts whose lengths differ by at most one.
    static func split<Element>(_ elements: [Element], into count: Int) -> [[Element]] {
        var parts: [[Element]] = []
        var start = 0
        for part in 0..<count {
            let end = start + (elements.count - start) / (count - part)
            parts.append(Array(elements[start..<end]))
            start = end
        }
        return parts
    }
}
