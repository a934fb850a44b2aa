import Foundation
import Glibc
import Planner

/// Worker processes for one region's Routino database, each served by its own thread (the
/// threads block on the workers' sockets, never on Swift's cooperative pool).
///
/// Queries wait in one FIFO queue and any idle thread takes the next, so queries from
/// different plans run in parallel up to the number of workers. A worker is started on first
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
        /// Tests only: called after a request reached a worker and before its answer is read.
        var afterRequestSent: (@Sendable (pid_t) -> Void)?
    }

    private let queue = JobQueue()

    init(_ configuration: Configuration) {
        for index in 0..<max(1, configuration.workers) {
            let queue = self.queue
            let thread = Thread { RoutinoWorkerPool.serve(queue, configuration) }
            thread.name = "routino-worker-\(index)"
            thread.start()
        }
    }

    /// Sends one request line; returns the worker's answer line.
    /// - throws: `RoutingError.engineFailure` when no worker can answer (twice dead, cannot start, shut down).
    func ask(_ request: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            queue.push(Job(request: request) { continuation.resume(with: $0) })
        }
    }

    /// Sends every request and blocks the calling thread until all are answered; answers are
    /// in request order. For synchronous batch work (an import step on its own thread), never
    /// for a cooperative-pool thread. The queue spreads the requests over every worker, and
    /// all of them stay busy to the end (no batch waits for its slowest answer).
    /// - parameter progress: told the number answered so far, on the calling thread, each time
    ///   at least `progressStep` more are answered, and at the end.
    func askAll(_ requests: [String], progressStep: Int = 256,
                progress: (_ answered: Int) -> Void = { _ in }) -> [Result<String, Error>] {
        final class Answers: @unchecked Sendable {
            let condition = NSCondition()
            var results: [Result<String, Error>?]
            var pending: Int
            init(count: Int) {
                results = Array(repeating: nil, count: count)
                pending = count
            }
        }
        let answers = Answers(count: requests.count)
        for (index, request) in requests.enumerated() {
            queue.push(Job(request: request) { result in
                answers.condition.lock()
                answers.results[index] = result
                answers.pending -= 1
                answers.condition.broadcast()
                answers.condition.unlock()
            })
        }
        answers.condition.lock()
        var reported = 0
        while answers.pending > 0 {
            answers.condition.wait()
            let answered = requests.count - answers.pending
            if answered - reported >= max(1, progressStep) && answers.pending > 0 {
                reported = answered
                answers.condition.unlock()
                progress(answered)
                answers.condition.lock()
            }
        }
        let results = answers.results
        answers.condition.unlock()
        if !requests.isEmpty { progress(requests.count) }
        return results.map { $0 ?? .failure(RoutingError.engineFailure("the routing worker gave no answer")) }
    }

    /// Stops accepting queries, fails those waiting and lets every worker exit.
    func shutdown() {
        queue.close()
    }

    deinit { queue.close() }

    // MARK: - Worker threads

    private static func serve(_ queue: JobQueue, _ configuration: Configuration) {
        var worker: RoutinoWorkerProcess?
        while let job = queue.pop() {
            job.complete(answer(job.request, worker: &worker, configuration))
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
                                                             answerTimeout: configuration.answerTimeout)
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

    /// A blocking FIFO shared by the pool's threads.
    final class JobQueue: @unchecked Sendable {
        private let condition = NSCondition()
        private var jobs: [Job] = []
        private var head = 0
        private var closed = false

        func push(_ job: Job) {
            condition.lock()
            if closed {
                condition.unlock()
                job.complete(.failure(RoutingError.engineFailure("the street router has shut down")))
                return
            }
            jobs.append(job)
            condition.signal()
            condition.unlock()
        }

        /// The next job, or nil once closed.
        func pop() -> Job? {
            condition.lock()
            defer { condition.unlock() }
            while head == jobs.count && !closed { condition.wait() }
            guard !closed else { return nil }
            let job = jobs[head]
            head += 1
            if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }

        func close() {
            condition.lock()
            let waiting = jobs[head...]
            jobs = []
            head = 0
            let wasClosed = closed
            closed = true
            condition.broadcast()
            condition.unlock()
            guard !wasClosed else { return }
            for job in waiting {
                job.complete(.failure(RoutingError.engineFailure("the street router has shut down")))
            }
        }
    }
}
