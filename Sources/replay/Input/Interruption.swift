import Foundation
import Synchronization

/// SIGINT and SIGTERM, caught while `replay import` runs, so that it stops between lines or
/// transactions and says what it appended instead of ending without a word.
///
/// The signals are caught by a handler of their own (`sigaction`), which runs at once on the
/// thread the kernel picks (one that does not block them: the main thread, which waits with
/// every signal unblocked), whatever the process's threads are busy with: it records the signal,
/// restores the default actions and writes the notice, all async-signal-safe.
enum Interruption {
    /// The first signal received while caught, or 0.
    private static let received = Atomic<Int32>(0)

    /// The notice the handler writes, prepared before the handler is installed.
    nonisolated(unsafe) private static var notice = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)

    /// The signals caught.
    private static let signals = [SIGINT, SIGTERM]

    /// The signal that asked the work to stop, if one came.
    static var signal: Int32? {
        let signal = received.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }

    /// Runs `body` with SIGINT and SIGTERM caught: the first one is recorded (``signal``, which
    /// `body` polls to stop at its next safe point) and said on standard error; any later one
    /// ends the process at once, as without this. The signals' default actions are restored when
    /// `body` returns.
    ///
    /// - Parameter notice: what is said on standard error when the first signal comes.
    static func catching<T>(
        notice: String = "replay: interrupted; stopping at the next line or before the transaction being prepared is "
            + "written (interrupt again to end at once: a transaction not yet committed is then not "
            + "appended; 'replay log' shows what was)\n",
        _ body: () async throws -> T
    ) async throws -> T {
        // Everything the handler touches exists before it is installed. The notice's buffer is
        // never freed: a handler may still be writing it as the default actions come back.
        let bytes = Array(notice.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        Self.notice = buffer
        _ = received.load(ordering: .relaxed)
        for number in signals { install(handler, for: number) }
        defer {
            for number in signals { Foundation.signal(number, SIG_DFL) }
        }
        return try await body()
    }

    /// The handler: async-signal-safe (an atomic exchange, `sigaction`, `write`).
    private static let handler: @convention(c) (Int32) -> Void = { number in
        guard received.compareExchange(expected: 0, desired: number, ordering: .relaxed).exchanged else { return }
        // No array here: a handler must not allocate.
        Foundation.signal(SIGINT, SIG_DFL)
        Foundation.signal(SIGTERM, SIG_DFL)
        // The interrupted code may be about to read errno.
        let savedErrno = errno
        defer { errno = savedErrno }
        let notice = Interruption.notice
        var written = 0
        while written < notice.count {
            let count = write(2, notice.baseAddress! + written, notice.count - written)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
    }

    /// Installs `handler` for `number`, with system calls it interrupts restarted.
    private static func install(_ handler: @escaping @convention(c) (Int32) -> Void, for number: Int32) {
        var action = sigaction()
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
        #else
            action.__sigaction_handler.sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }

    /// Ends the process by `signal` with its default action, as the signal would have without
    /// ``catching(_:)``: a shell or a parent sees the tool interrupted, not failed.
    static func end(by signal: Int32) -> Never {
        Foundation.signal(signal, SIG_DFL)
        // The runtime's threads may block the signal: unblock it in this one, which raises it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        exit(128 + signal)
    }
}
