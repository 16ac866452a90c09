/// Where a running reduction stands: the smallest failing history so far, the oracle calls made
/// and the time taken.
public struct ReductionProgress: Hashable, Sendable {
    /// The size of the smallest failing history found so far.
    public var size: ReductionSize
    /// The oracle calls made so far (remembered answers are not calls).
    public var oracleCalls: Int
    /// The time since the reduction started.
    public var elapsed: Duration

    /// Creates a progress report.
    public init(size: ReductionSize, oracleCalls: Int, elapsed: Duration) {
        self.size = size
        self.oracleCalls = oracleCalls
        self.elapsed = elapsed
    }

    /// Oracle calls per second so far.
    public var callsPerSecond: Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(oracleCalls) / seconds : 0
    }
}
