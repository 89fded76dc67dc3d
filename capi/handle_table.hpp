// The table behind the integer handles of the Kingsrow DLL interface (egdb.h): slot and
// generation in one int, so a closed handle never names a later database (it stays
// EGDB_BAD_HANDLE), and a database is destroyed only when no call is still using it.
//
// Every lookup goes through find(), so it must not serialise threads: a mutex there, or one
// shared reference count, moves a cache line between the cores on every call and two threads
// become slower than one. A call instead announces itself in a counter of its own thread's stripe
// (a cache line of its own), then checks that the slot is still open; close marks the slot closed
// and waits until every stripe of the slot is back to zero before destroying the entry. Both sides
// use sequentially consistent operations, so either the call sees "closed" or close sees the call
// (the store-then-load pattern of Dekker's algorithm); tests/handle_table_thread_test.cpp hammers
// it under ThreadSanitizer.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace egdb::capi {

enum class CloseResult { Closed, NotOpen, InUseByThisThread };

template <class Entry, int kSlots>
class HandleTable {
    static constexpr std::size_t kStripes = 16;
    struct alignas(128) Stripe {
        std::atomic<std::int64_t> calls{0};
    };
    struct Slot {
        std::atomic<std::uint32_t> state{0};  // generation << 1 | open
        std::atomic<Entry*> entry{nullptr};
        std::array<Stripe, kStripes> stripes;
    };

public:
    // The largest generation keeps every handle (generation * kSlots + slot) a non-negative int.
    static constexpr std::uint32_t kGenerations = 0x7FFFFFFF / kSlots;

    // A call's use of an entry: valid while it lives. Movable, not copyable.
    class Ref {
    public:
        Ref() = default;
        Ref(Ref&& other) noexcept : calls_(std::exchange(other.calls_, nullptr)), entry_(other.entry_), slot_(other.slot_) {}
        Ref& operator=(Ref&&) = delete;
        ~Ref() {
            if (calls_ == nullptr) return;
            --held_by_this_thread()[static_cast<std::size_t>(slot_)];
            calls_->fetch_sub(1, std::memory_order_seq_cst);
        }
        explicit operator bool() const noexcept { return entry_ != nullptr; }
        Entry& operator*() const noexcept { return *entry_; }
        Entry* operator->() const noexcept { return entry_; }

    private:
        friend class HandleTable;
        Ref(std::atomic<std::int64_t>* calls, Entry* entry, int slot) noexcept : calls_(calls), entry_(entry), slot_(slot) {}
        std::atomic<std::int64_t>* calls_ = nullptr;
        Entry* entry_ = nullptr;
        int slot_ = 0;
    };

    HandleTable() = default;
    HandleTable(const HandleTable&) = delete;
    HandleTable& operator=(const HandleTable&) = delete;
    ~HandleTable() {
        for (Slot& s : slots_) delete s.entry.load();
    }

    // The handle of the entry, or -1 when every slot is taken.
    int insert(std::unique_ptr<Entry> entry) {
        std::lock_guard lock(writers_);
        for (int slot = 0; slot < kSlots; ++slot) {
            Slot& s = slots_[static_cast<std::size_t>(slot)];
            const std::uint32_t state = s.state.load();
            // Closed and no longer being closed: a closing slot keeps its entry until its calls end.
            if ((state & 1U) != 0 || s.entry.load() != nullptr) continue;
            s.entry.store(entry.release());
            s.state.store(state | 1U);
            return static_cast<int>(state >> 1) * kSlots + slot;
        }
        return -1;
    }

    Ref find(int handle) noexcept {
        if (handle < 0) return {};
        const int slot = handle % kSlots;
        Slot& s = slots_[static_cast<std::size_t>(slot)];
        const std::uint32_t open = static_cast<std::uint32_t>(handle / kSlots) << 1 | 1U;
        std::atomic<std::int64_t>& calls = s.stripes[stripe_of_this_thread()].calls;
        calls.fetch_add(1, std::memory_order_seq_cst);
        if (s.state.load(std::memory_order_seq_cst) != open) {
            calls.fetch_sub(1, std::memory_order_seq_cst);
            return {};
        }
        ++held_by_this_thread()[static_cast<std::size_t>(slot)];
        return Ref(&calls, s.entry.load(std::memory_order_seq_cst), slot);
    }

    // Closes the handle: later finds fail at once; the entry is destroyed when the calls that
    // found it before have returned (this waits for them). A thread cannot close a handle inside
    // one of its own calls on it (from a callback): that would wait for itself.
    CloseResult erase(int handle) {
        if (handle < 0) return CloseResult::NotOpen;
        const int slot = handle % kSlots;
        Slot& s = slots_[static_cast<std::size_t>(slot)];
        {
            std::lock_guard lock(writers_);
            const std::uint32_t state = s.state.load();
            if (state != (static_cast<std::uint32_t>(handle / kSlots) << 1 | 1U)) return CloseResult::NotOpen;
            if (held_by_this_thread()[static_cast<std::size_t>(slot)] != 0) return CloseResult::InUseByThisThread;
            const std::uint32_t next = ((state >> 1) + 1) % kGenerations;
            s.state.store(next << 1, std::memory_order_seq_cst);  // closed: new finds fail from here on
        }
        // Outside the lock, so that other handles open and close meanwhile; the slot is not reused
        // while it still holds the entry. Only finds of stale handles of this slot can still
        // increment a stripe, and they undo it at once.
        for (const Stripe& stripe : s.stripes) {
            while (stripe.calls.load(std::memory_order_seq_cst) != 0) std::this_thread::yield();
        }
        delete s.entry.exchange(nullptr, std::memory_order_seq_cst);
        return CloseResult::Closed;
    }

private:
    static std::size_t stripe_of_this_thread() noexcept {
        thread_local const std::size_t stripe = std::hash<std::thread::id>{}(std::this_thread::get_id()) % kStripes;
        return stripe;
    }
    // How many Refs this thread holds on each slot: only to refuse a close from inside a call.
    static std::array<std::uint16_t, kSlots>& held_by_this_thread() noexcept {
        thread_local std::array<std::uint16_t, kSlots> held{};
        return held;
    }

    std::mutex writers_;  // insert and erase only
    std::array<Slot, kSlots> slots_;
};

}  // namespace egdb::capi
