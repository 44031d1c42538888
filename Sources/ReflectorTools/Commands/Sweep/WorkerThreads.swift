import Foundation

/// A task executor of its own threads, so a sweep's task group runs on exactly the workers it
/// was given and never on Swift's shared cooperative pool. That matters twice: `--workers N`
/// means N threads whatever the machine (the pool is as wide as the cores), and a synchronous
/// caller (a command's `run`, a test on the pool's own threads) can wait for the group without
/// taking a thread the group needs, so waiting cannot deadlock.
///
/// Jobs run first in, first out; each thread runs one job at a time until `shutdown()`.
final class WorkerThreads: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var stopping = false
    private var running = 0

    /// Starts `count` threads (at least one).
    init(count: Int) {
        running = max(1, count)
        for k in 0..<running {
            let thread = Thread { [self] in loop() }
            thread.name = "sweep worker \(k)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads finish the jobs queued and waits until they have ended.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while head == jobs.count && !stopping { condition.wait() }
            if head == jobs.count {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
