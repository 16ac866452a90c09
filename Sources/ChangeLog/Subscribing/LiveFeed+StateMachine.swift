extension LiveFeed {
    /// Identifies one membership of the feed.
    package typealias MemberID = UInt64

    /// A follower of the feed: what it is given, on the feed's task, and from which revision on.
    package struct Member: Sendable {
        /// The last revision the follower had when it joined (0 when none): the feed gives it
        /// only the revisions after this one.
        package let after: UInt64
        /// Takes one revision, on the feed's task, without blocking; returns `false` when the
        /// follower leaves (its buffer is full or gone): the feed then removes it.
        let receive: @Sendable (Element) -> Bool
        /// Called, on the feed's task, when the feed stopped with `error` (a revision could not
        /// be read): the follower is no longer a member.
        let end: @Sendable (ChangeLogError) -> Void

        /// A follower of the revisions after `after`.
        package init(
            after: UInt64, receive: @escaping @Sendable (Element) -> Bool,
            end: @escaping @Sendable (ChangeLogError) -> Void
        ) {
            self.after = after
            self.receive = receive
            self.end = end
        }
    }

    /// What a running feed holds: its reading task, and the listener that wakes it.
    struct Run: Sendable {
        let task: Task<Void, Never>
        let listener: CommitListener?
    }

    /// The feed's state, changed only under its lock. Each method returns what the caller must
    /// do once the lock is released: start or stop the reading task, push a revision, end
    /// members. Nothing here reads the log or runs a task, so every transition is tested
    /// without I/O (`LiveFeedStateTests`).
    ///
    /// Invariants (the ground of the argument in ``LiveFeed``):
    /// - While stopped, there are no members and no task.
    /// - While running, `published` is the last revision pushed to the members (or, before the
    ///   first, the revision the reading task starts after), and every member's `after` is at
    ///   least the `published` of the moment it joined: a member receives each revision after
    ///   its `after` exactly once, in order, because the task publishes consecutive revisions
    ///   and a member is in the set a publication pushes to from its join on.
    /// - Each start makes a new generation; a task of an earlier generation publishes nothing.
    struct StateMachine {
        enum Phase {
            /// No member, no task.
            case stopped
            /// The task of `generation` reads the log after `published`; `run` is `nil` until
            /// it is installed.
            case running(generation: UInt64, published: UInt64, run: Run?)
        }

        enum JoinAction: Equatable {
            /// Joined the running feed.
            case joined
            /// Joined, and the feed was stopped: start the task of `generation`, reading the
            /// log from revision `from` on.
            case start(generation: UInt64, from: UInt64)
            /// Not joined: the feed has already pushed revisions up to `published`, after the
            /// member's `after`. Read those from the log, then join again.
            case behind(published: UInt64)
        }

        enum PublishAction {
            /// Push the revision to these members (those whose `after` is before it).
            case push([MemberID: Member])
            /// The task is not the feed's current one: it should stop.
            case stale
            /// The revision does not follow the last one published: end these members (the
            /// feed has stopped).
            case gap(expected: UInt64, [MemberID: Member])
        }

        private(set) var phase = Phase.stopped
        private(set) var members: [MemberID: Member] = [:]
        /// The most recently installed task, kept after it is cancelled so that a test can await
        /// its end.
        private(set) var lastTask: Task<Void, Never>?
        private var generations: UInt64 = 0

        /// The last revision published, while running.
        var published: UInt64? {
            if case .running(_, let published, _) = phase { published } else { nil }
        }

        /// Adds `member` when it has every revision the feed has published; `latestStored` is
        /// a revision known to be stored, read before the call, from which a stopped feed starts
        /// (when the member's `after` is later, the revisions between reach nobody).
        mutating func join(_ id: MemberID, _ member: Member, latestStored: UInt64) -> JoinAction {
            switch phase {
            case .stopped:
                precondition(members.isEmpty, "a stopped live feed has members")
                generations += 1
                let start = min(member.after, latestStored)
                phase = .running(generation: generations, published: start, run: nil)
                members[id] = member
                return .start(generation: generations, from: start + 1)
            case .running(_, let published, _):
                guard member.after >= published else { return .behind(published: published) }
                members[id] = member
                return .joined
            }
        }

        /// Installs the task started for `generation`, and the listener that wakes it; `false`
        /// when it is no longer wanted (every member left meanwhile): the caller stops it.
        mutating func install(_ task: Task<Void, Never>, listener: CommitListener? = nil, generation: UInt64) -> Bool {
            guard case .running(generation, let published, nil) = phase else { return false }
            phase = .running(generation: generation, published: published, run: Run(task: task, listener: listener))
            lastTask = task
            return true
        }

        /// Removes member `id` (nothing when it is not one); when it was the last, stops the
        /// feed and returns its run, to stop.
        mutating func leave(_ id: MemberID) -> Run? {
            guard members.removeValue(forKey: id) != nil, members.isEmpty,
                case .running(_, _, let run) = phase
            else { return nil }
            phase = .stopped
            return run
        }

        /// Records that the task of `generation` read `revision`, and returns the members to push
        /// it to. The first revision of a feed that started from revision 1 may be any (the
        /// log's oldest); every later one must follow the previous.
        mutating func publish(_ revision: UInt64, generation: UInt64) -> PublishAction {
            guard case .running(generation, let published, let run) = phase else { return .stale }
            guard revision == published + 1 || published == 0 && revision > 0 else {
                return .gap(expected: published + 1, stop().members)
            }
            phase = .running(generation: generation, published: revision, run: run)
            return .push(members)
        }

        /// Stops the feed of `generation` after its task failed, and returns the members to end
        /// and the run to stop; none when that feed is no longer the current one.
        mutating func fail(generation: UInt64) -> (members: [MemberID: Member], run: Run?) {
            guard case .running(generation, _, _) = phase else { return ([:], nil) }
            return stop()
        }

        /// Stops the feed and returns its members and run.
        private mutating func stop() -> (members: [MemberID: Member], run: Run?) {
            defer { members = [:] }
            var run: Run?
            if case .running(_, _, let current) = phase { run = current }
            phase = .stopped
            return (members, run)
        }
    }
}
