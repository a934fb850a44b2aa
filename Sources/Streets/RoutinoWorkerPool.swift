import Executors
import Foundation
import Glibc
import Planner
import Synchronization

/// Worker processes for one region's Routino database, each served by its own thread (the
/// threads block on the workers' sockets, never on Swift's cooperative pool).
///
/// Queries wait in one FIFO queue and any idle thread takes the next, so queries from
/// different plans run in parallel up to the number of workers; a batch (`askAll`) is cut into
/// one lane per worker (`RoutinoBatchLanes`). A worker is started on first
/// use; one that dies (or stays silent for `answerTimeout`) is replaced and the query retried
/// once; one that has answered
/// `recycleAfterFailedRoutes` failed routes is replaced (libroutino leaks on each).
final class RoutinoWorkerPool: Sendable {
    struct Configuration: Sendable {
        var executable: String
        var database: String
        var workers: Int
        var recycleAfterFailedRoutes: Int
        /// Seconds a worker may stay silent (starting, or on one query) before it is killed as hung.
        var answerTimeout: Double = 60
        /// The nice value each worker runs at, set as it starts (nil: the starting thread's,
        /// which a spawned process inherits). The daemon's are below its I/O threads.
        var nice: Int32?
        /// Tests only: called after a request reached a worker and before its answer is read.
        var afterRequestSent: (@Sendable (pid_t) -> Void)?
    }

    private let queue = JobQueue()
    /// The worker threads (and so the lanes of a batch).
    private let threads: Int

    init(_ configuration: Configuration) {
        threads = max(1, configuration.workers)
        for index in 0..<threads {
            let queue = self.queue
            startThread(named: "routino-worker-\(index)") { RoutinoWorkerPool.serve(queue, configuration) }
        }
    }

    /// Sends one request line; returns the worker's answer line.
    /// - throws: `RoutingError.engineFailure` when no worker can answer (twice dead, cannot start, shut down).
    func ask(_ request: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            queue.push(.one(Job(request: request) { continuation.resume(with: $0) }))
        }
    }

    /// Sends every request and blocks the calling thread until all are answered; answers are
    /// in request order. For synchronous batch work (an import step on its own thread), never
    /// for a cooperative-pool thread. Each worker takes a contiguous run of the requests, then
    /// helps the others from their far ends (`RoutinoBatchLanes`): requests next to each other
    /// that share an end find its waypoint once, and every worker stays busy to the end. Gives up
    /// when `shouldStop` says so (an import cancelled while it times footpaths).
    /// - parameter progress: told the number answered so far, on the calling thread, each time
    ///   at least `progressStep` more are answered, and at the end.
    /// - parameter shouldStop: polled while the answers come in (at least every `stopPollSeconds`);
    ///   true returns nil at once, leaving the requests not yet answered to the workers (`shutdown` drops them).
    func askAll(_ requests: [String], progressStep: Int = 256, unlessStopped shouldStop: () -> Bool,
                progress: (_ answered: Int) -> Void = { _ in }) -> [Result<String, Error>]? {
        final class Answers: Sendable {
            let results: Mutex<[Result<String, Error>?]>
            init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }
        }
        let answers = Answers(count: requests.count)
        let arrived = Mailbox<Int>()  // each answer's index, as it comes
        let batch = Batch(requests: requests, lanes: threads) { index, result in
            answers.results.withLock { $0[index] = result }
            arrived.put(index)
        }
        for lane in 0..<threads { queue.push(.lane(batch, lane)) }
        var reported = 0
        for answered in requests.indices.map({ $0 + 1 }) {
            while arrived.take(waitingUpTo: Self.stopPollSeconds) == nil {
                if shouldStop() { return nil }
            }
            if shouldStop() { return nil }
            if answered - reported >= max(1, progressStep), answered < requests.count {
                reported = answered
                progress(answered)
            }
        }
        if !requests.isEmpty { progress(requests.count) }
        let results = answers.results.withLock { $0 }
        return results.map { $0 ?? .failure(RoutingError.engineFailure("the routing worker gave no answer")) }
    }

    /// How long `askAll` waits for an answer before it asks `shouldStop` again.
    static let stopPollSeconds = 0.1

    /// Stops accepting queries, fails those waiting and lets every worker exit.
    func shutdown() {
        queue.close()
    }

    deinit { queue.close() }

    // MARK: - Worker threads

    private static func serve(_ queue: JobQueue, _ configuration: Configuration) {
        var worker: RoutinoWorkerProcess?
        while let work = queue.pop() {
            switch work {
            case .one(let job):
                job.complete(answer(job.request, worker: &worker, configuration))
            case .lane(let batch, let lane):
                while !queue.isClosed, let index = batch.lanes.next(lane: lane) {
                    batch.complete(index, answer(batch.requests[index], worker: &worker, configuration))
                }
                if queue.isClosed { batch.failRemaining() }
            }
        }
        worker?.stop()
    }

    private static func answer(_ request: String, worker: inout RoutinoWorkerProcess?,
                               _ configuration: Configuration) -> Result<String, Error> {
        var deaths: [String] = []
        while deaths.count < 2 {
            do throws(RoutinoWorkerFailure) {
                let current: RoutinoWorkerProcess
                if let worker {
                    current = worker
                } else {
                    current = try RoutinoWorkerProcess.spawn(executable: configuration.executable,
                                                             database: configuration.database,
                                                             answerTimeout: configuration.answerTimeout,
                                                             nice: configuration.nice)
                    worker = current
                }
                try current.send(request)
                configuration.afterRequestSent?(current.pid)
                let line = try current.readLine()
                if line.hasPrefix("error no_route") {
                    current.failedRoutes += 1
                    if current.failedRoutes >= configuration.recycleAfterFailedRoutes {
                        current.stop()
                        worker = nil
                    }
                }
                return .success(line)
            } catch {
                switch error {
                case .startFailed(let message):
                    return .failure(RoutingError.engineFailure("the routing worker cannot start: \(message)"))
                case .died(let message):
                    worker?.kill()
                    worker = nil
                    deaths.append(message)
                }
            }
        }
        return .failure(RoutingError.engineFailure("the routing worker died twice on this query (\(deaths.joined(separator: "; ")))"))
    }

    // MARK: - Queue

    struct Job: Sendable {
        var request: String
        /// Called exactly once, on a worker thread (or by `close` for a job never served).
        var complete: @Sendable (Result<String, Error>) -> Void
    }

    /// The requests of one `askAll`, shared by the lanes every worker thread takes.
    final class Batch: Sendable {
        let requests: [String]
        let lanes: RoutinoBatchLanes
        /// Called exactly once per request index, on a worker thread (or by `failRemaining`).
        let complete: @Sendable (_ index: Int, Result<String, Error>) -> Void

        init(requests: [String], lanes: Int, complete: @escaping @Sendable (_ index: Int, Result<String, Error>) -> Void) {
            self.requests = requests
            self.lanes = RoutinoBatchLanes(count: requests.count, lanes: lanes)
            self.complete = complete
        }

        /// Fails every request no worker has taken (the pool shut down).
        func failRemaining() {
            for index in lanes.takeAll() {
                complete(index, .failure(RoutingError.engineFailure("the street router has shut down")))
            }
        }
    }

    /// What a worker thread takes from the queue: one query, or its lane of a batch.
    enum Work: Sendable {
        case one(Job)
        case lane(Batch, Int)

        /// Ends the work without a worker (the pool shut down).
        func fail() {
            switch self {
            case .one(let job): job.complete(.failure(RoutingError.engineFailure("the street router has shut down")))
            case .lane(let batch, _): batch.failRemaining()
            }
        }
    }

    /// A blocking FIFO shared by the pool's threads (a `Mailbox`); once closed, each thread that
    /// wakes passes a nil on, so every waiting thread ends.
    final class JobQueue: Sendable {
        private let closed = Mutex(false)
        /// The jobs; nil once closed.
        private let jobs = Mailbox<Work?>()

        func push(_ job: Work) {
            let accepted = closed.withLock { closed in
                guard !closed else { return false }
                jobs.put(job) // under the lock: `close` fails whatever was put before it
                return true
            }
            guard accepted else { return job.fail() }
        }

        /// True once `close` was called.
        var isClosed: Bool { closed.withLock { $0 } }

        /// The next job, or nil once closed.
        func pop() -> Work? {
            let job = jobs.take()
            guard isClosed else { return job }
            job?.fail() // taken as the queue closed
            jobs.put(nil) // closed: wake the next thread too
            return nil
        }

        func close() {
            let first = closed.withLock { closed in
                defer { closed = true }
                return !closed
            }
            guard first else { return }
            for job in jobs.takeAll() { job?.fail() }
            jobs.put(nil)
        }
    }
}
