import ListAdapter

/// The tests' seeded generator: ListAdapter's SplitMix64, so every random case repeats from its seed.
typealias SeededGenerator = SplitMix64
