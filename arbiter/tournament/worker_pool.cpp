#include "arbiter/tournament/worker_pool.hpp"

#include <algorithm>
#include <chrono>

namespace arb::tournament {

MatchFunction real_matches(const GameDescriptor& game) {
    return [&game](const MatchRequest& request) { return run_match(game, request); };
}

int core_count() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

WorkerPool::WorkerPool(int threads, const MatchFunction& play, std::function<bool()> stop_requested)
    : play_(play), jobs_(threads), stop_requested_(std::move(stop_requested)) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

void WorkerPool::push(Job job) {
    {
        std::lock_guard lock(mutex_);
        if (stop_taking_) {
            done_.emplace(next_order_++, std::nullopt);
            return;
        }
        queue_.push_back({next_order_++, std::move(job)});
    }
    work_cv_.notify_one();
}

void WorkerPool::push_finished(Completion completion) {
    {
        std::lock_guard lock(mutex_);
        done_.emplace(next_order_++, std::move(completion));
    }
    done_cv_.notify_all();
}

void WorkerPool::stop_taking() {
    std::lock_guard lock(mutex_);
    stop_taking_locked();
}

void WorkerPool::stop_taking_locked() {
    stop_taking_ = true;
    for (const Queued& q : queue_) done_.emplace(q.order, std::nullopt);
    queue_.clear();
}

bool WorkerPool::releasable() const { return !done_.empty() && done_.begin()->first == next_release_; }

std::size_t WorkerPool::queued() {
    std::lock_guard lock(mutex_);
    return stop_taking_ ? 0 : queue_.size();
}

int WorkerPool::running() {
    std::lock_guard lock(mutex_);
    return running_;
}

std::vector<Completion> WorkerPool::wait() {
    std::unique_lock lock(mutex_);
    auto ready = [&] { return releasable() || (running_ == 0 && queue_.empty()); };
    while (!ready()) {
        done_cv_.wait_for(lock, std::chrono::milliseconds(100), ready);
        if (!stop_taking_ && stop_requested_ && stop_requested_()) stop_taking_locked();
    }
    std::vector<Completion> out;
    while (releasable()) {
        auto node = done_.extract(done_.begin());
        ++next_release_;
        if (node.mapped()) out.push_back(std::move(*node.mapped()));
    }
    return out;
}

void WorkerPool::close() {
    {
        std::lock_guard lock(mutex_);
        closing_ = true;
    }
    work_cv_.notify_all();
    for (auto& t : threads_)
        if (t.joinable()) t.join();
}

void WorkerPool::work() {
    std::unique_lock lock(mutex_);
    while (true) {
        work_cv_.wait(lock, [&] { return closing_ || (!stop_taking_ && !queue_.empty()); });
        if (!stop_taking_ && stop_requested_ && stop_requested_()) {
            stop_taking_locked();
            done_cv_.notify_all();
        }
        if (stop_taking_ || queue_.empty()) {
            if (closing_) return;
            continue;
        }
        const std::uint64_t order = queue_.front().order;
        Job job = std::move(queue_.front().job);
        queue_.pop_front();
        ++running_;
        Completion c;
        c.match = std::move(job.match);
        c.load = LoadNote{utc_timestamp_now(), running_, jobs_, core_count(), machine_load_now()};
        lock.unlock();
        try {
            c.record = play_(job.request);
        } catch (...) {
            c.error = std::current_exception();
        }
        lock.lock();
        --running_;
        done_.emplace(order, std::move(c));
        done_cv_.notify_all();
    }
}

std::vector<ConcurrentResult> play_concurrently(const std::vector<MatchRequest>& requests, int jobs,
                                                const MatchFunction& play, const std::function<bool()>& stop_requested) {
    std::vector<ConcurrentResult> out(requests.size());
    std::mutex mutex;
    std::size_t next = 0;
    int running = 0;
    auto work = [&] {
        while (true) {
            std::size_t i;
            LoadNote note;
            {
                std::lock_guard lock(mutex);
                if (next >= requests.size()) return;
                if (stop_requested && stop_requested()) return;
                i = next++;
                ++running;
                note = LoadNote{utc_timestamp_now(), running, jobs, core_count(), machine_load_now()};
            }
            out[i].load = note;
            try {
                out[i].record = play(requests[i]);
            } catch (...) {
                out[i].error = std::current_exception();
            }
            std::lock_guard lock(mutex);
            --running;
        }
    };
    std::vector<std::thread> threads;
    const int n = std::max(1, std::min<int>(jobs, static_cast<int>(requests.size())));
    for (int t = 1; t < n; ++t) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
    return out;
}

}  // namespace arb::tournament
