import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM, caught while `replay import` runs, so that it stops between lines or
/// transactions and says what it appended instead of ending without a word.
enum Interruption {
    /// The first signal received while caught, or 0.
    private static let received = Atomic<Int32>(0)

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
        let sources = signals.map { number in
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard received.compareExchange(expected: 0, desired: number, ordering: .relaxed).exchanged else {
                    return
                }
                for number in signals { Foundation.signal(number, SIG_DFL) }
                writeToStandardError(notice)
            }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            for number in signals { Foundation.signal(number, SIG_DFL) }
        }
        return try await body()
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
