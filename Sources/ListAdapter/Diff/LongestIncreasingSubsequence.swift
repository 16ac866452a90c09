/// Marks a longest strictly increasing subsequence of `values`.
///
/// The diff keeps the elements of such a subsequence in place and moves the others, so the
/// number of moves is the minimum (the complement of a longest increasing subsequence). Patience
/// sorting with predecessor links; an already increasing input is recognised in one pass.
///
/// - Parameter values: distinct integers.
/// - Returns: `keep[i]` is `true` when `values[i]` is part of the chosen subsequence.
/// - Complexity: O(*n* log *n*), O(*n*) when `values` is already increasing.
@inlinable
package func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
    let count = values.count
    if count < 2 || isStrictlyIncreasing(values) {
        return [Bool](repeating: true, count: count)
    }
    // tails[k]: the position in `values` of the smallest tail of an increasing run of length k + 1.
    var tails: [Int] = []
    tails.reserveCapacity(count)
    var predecessors = [Int](repeating: -1, count: count)
    values.withUnsafeBufferPointer { values in
        for position in 0..<count {
            let value = values[position]
            // Most elements of a mostly ordered input extend the longest run: skip the search.
            if let last = tails.last, values[last] < value {
                predecessors[position] = last
                tails.append(position)
                continue
            }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) >> 1
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { predecessors[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
    }
    var keep = [Bool](repeating: false, count: count)
    var position = tails.last ?? -1
    while position >= 0 {
        keep[position] = true
        position = predecessors[position]
    }
    return keep
}

@inlinable
package func isStrictlyIncreasing(_ values: [Int]) -> Bool {
    var previous = Int.min
    for value in values {
        if value <= previous { return false }
        previous = value
    }
    return true
}
