import ListAdapter

/// What a ``LogWriterState`` holds, read without changing it: the tail a submitting caller
/// diffs from, the count of commits, and the views its tests check.
extension LogWriterState: CustomStringConvertible {
    /// What the writer's thread is doing, as its state says.
    enum Phase: Equatable {
        /// Not running: the next request starts it.
        case idle
        /// Running: taking a step, or about to ask for one.
        case running
        /// Asleep until a request wakes it or until `deadline`.
        case waiting(until: UInt64)
    }

    var phase: Phase {
        switch state {
        case .idle: .idle
        case .waiting(_, _, _, let gathering): .waiting(until: gathering.deadline ?? 0)
        case .running, .preparing, .writing, .dropping, .modifying: .running
        }
    }

    /// The snapshot the next append request will follow if every request before it succeeds:
    /// the last entry of the last request submitted, or the latest stored snapshot when the
    /// writer is idle; `nil` when unknown.
    var tail: LogSnapshot? {
        switch state {
        case .idle(let memory): memory.end?.latest?.stored.snapshot
        case .running(_, let queue, _, _), .waiting(_, let queue, _, _), .preparing(_, let queue, _),
            .writing(_, let queue, _), .dropping(_, let queue):
            queue.tail
        case .modifying: preconditionFailure("LogWriterState read in the middle of a transition")
        }
    }

    /// The requests waiting for the writer, in order.
    var pending: [Request] {
        switch state {
        case .idle, .modifying: []
        case .running(_, let queue, _, _), .waiting(_, let queue, _, _), .preparing(_, let queue, _),
            .writing(_, let queue, _), .dropping(_, let queue):
            queue.pending
        }
    }

    /// What the writer remembers of the log and of its transactions.
    var memory: Memory {
        switch state {
        case .idle(let memory), .running(let memory, _, _, _), .waiting(let memory, _, _, _),
            .preparing(let memory, _, _), .writing(let memory, _, _), .dropping(let memory, _):
            memory
        case .modifying: preconditionFailure("LogWriterState read in the middle of a transition")
        }
    }

    /// How far the group being gathered has come; `nil` when none is (the writer is idle, or
    /// writing a transaction).
    var gathering: Gathering? {
        switch state {
        case .running(_, _, _, let gathering), .waiting(_, _, _, let gathering), .preparing(_, _, let gathering):
            gathering
        case .idle, .writing, .dropping, .modifying: nil
        }
    }

    /// The size of the group being gathered (empty when none is).
    var gatheredSize: GroupSize { gathering?.size ?? GroupSize() }

    /// The state's name, for the message of an impossible transition.
    var description: String {
        switch state {
        case .idle: "idle"
        case .running: "running"
        case .waiting: "waiting for a group to fill"
        case .preparing: "preparing a group"
        case .writing: "writing a group"
        case .dropping: "dropping revisions"
        case .modifying: "in the middle of a transition"
        }
    }
}

extension LogWriterState.Step: Equatable where Append: Equatable, Drop: Equatable, Group: Equatable {
    /// The same step, with the same requests; two ends are the same end (``LogEnd/isSame(as:)``).
    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.startGroup(let left, let leftEnd), .startGroup(let right, let rightEnd)):
            guard left == right else { return false }
            switch (leftEnd, rightEnd) {
            case (nil, nil): return true
            case (let leftEnd?, let rightEnd?): return leftEnd.isSame(as: rightEnd)
            default: return false
            }
        case (.prepare(let left, let leftGroup), .prepare(let right, let rightGroup)):
            return left == right && leftGroup == rightGroup
        case (.write(let left), .write(let right)):
            return left == right
        case (.drop(let left), .drop(let right)):
            return left == right
        case (.wait(let left), .wait(let right)):
            return left == right
        case (.stop, .stop):
            return true
        default:
            return false
        }
    }
}
