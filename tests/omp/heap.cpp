// tests/omp/heap.cpp — the drop-in leaves glibc's heap as the program has it
// natively (docs/dropin.md, "The heap").
//
// A hydro-like program: each step allocates temporaries on the main thread's
// heap (many 64 KiB blocks, below the mmap threshold, so they come from the
// top of the brk heap), runs schedule(runtime) loops over them, and frees
// them. Natively glibc then trims the heap back (the freed blocks merge with
// the top chunk, which exceeds M_TRIM_THRESHOLD), and the next step faults
// its pages in again. Any block the drop-in takes from the program's heap
// while the temporaries are live lands above them; a small one stays in the
// thread's tcache after free(), still "in use" for glibc, so the temporaries
// never merge with the top again and the heap stops being trimmed: fewer
// page faults, a speed-up that is not scheduling.
//
// Before the temporaries, each step allocates small blocks of every tcache
// size and keeps them to its end, as a program with live small objects does:
// a small malloc during the loops then has no cached block to reuse and
// must come from the top, above the temporaries, so the test sees every
// small allocation the drop-in makes while the loops run, whichever thread
// closes an instance.
//
// Checks, natively and under the drop-in alike:
//  - after each step's free()s the brk heap is back within 1 MiB of where
//    the step began (the trim happened);
//  - at the end a fresh 256 KiB malloc is still served by mmap: the dynamic
//    mmap threshold is still glibc's initial 128 KiB (nobody freed a large
//    mmapped block, which would raise it, and M_TRIM_THRESHOLD with it);
//  - no block of the brk heap is allocated while the steps' loops run, on
//    any thread: the cause itself, seen whichever thread closes an instance
//    and whether or not glibc had a cached block to give. The program counts
//    them by defining malloc and its family, which forward to glibc's own
//    (__libc_malloc, …), so the heap is glibc's in every other respect;
//  - under the drop-in (DROPIN_EXPECT_TAKEN=1), that it took the loops.
// Prints the minor page faults of the steps, and exits 1 when a check fails.
#include "dropin_probe.h"

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// ---- counting the heap blocks allocated while the loops run ---------------

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);
}

namespace {

std::atomic<bool> counting{false};
std::atomic<long> heap_blocks{0};
std::atomic<std::size_t> first_sizes[8];
char* heap_start = nullptr;  // the brk heap's start, read before the first block

// A block in the main arena's brk heap, allocated while the loops run.
void* seen(void* p, std::size_t bytes) {
  if (p != nullptr && counting.load(std::memory_order_relaxed)) {
    char* const c = static_cast<char*>(p);
    if (c >= heap_start && c < static_cast<char*>(sbrk(0))) {
      const long k = heap_blocks.fetch_add(1, std::memory_order_relaxed);
      if (k < 8) first_sizes[k].store(bytes, std::memory_order_relaxed);
    }
  }
  return p;
}

}  // namespace

extern "C" {
void* malloc(std::size_t n) {
  if (heap_start == nullptr) heap_start = static_cast<char*>(sbrk(0));
  return seen(__libc_malloc(n), n);
}
void* calloc(std::size_t k, std::size_t n) {
  if (heap_start == nullptr) heap_start = static_cast<char*>(sbrk(0));
  return seen(__libc_calloc(k, n), k * n);
}
void* realloc(void* p, std::size_t n) { return seen(__libc_realloc(p, n), n); }
void free(void* p) { __libc_free(p); }
void* memalign(std::size_t a, std::size_t n) { return seen(__libc_memalign(a, n), n); }
void* aligned_alloc(std::size_t a, std::size_t n) { return seen(__libc_memalign(a, n), n); }
int posix_memalign(void** out, std::size_t a, std::size_t n) {
  void* p = seen(__libc_memalign(a, n), n);
  if (p == nullptr) return 12;  // ENOMEM
  *out = p;
  return 0;
}
}

namespace {

constexpr std::size_t block = 64 * 1024;  // below the 128 KiB default mmap threshold
constexpr int blocks = 256;               // 16 MiB of temporaries a step
constexpr long n = 1 << 16;

// Plain malloc/free through volatile pointers, so the compiler keeps them.
void* volatile sink;
void* take(std::size_t bytes) {
  void* p = std::malloc(bytes);
  if (p == nullptr) std::abort();
  std::memset(p, 1, bytes);  // touched: its pages fault in
  sink = p;
  return p;
}

long minor_faults() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  return r.ru_minflt;
}

// The program's loops, each with the whole team (the last thread out closes
// an instance, the main thread in some of them: its heap is the one the
// temporaries are on). Not num_threads(1): libgomp allocates a team for each
// such region (memalign), and the remainder it frees stays cached above the
// temporaries: natively, such a program is never trimmed.
void loops(std::vector<double>& a, double** t, int step) {
#pragma omp parallel for schedule(runtime)
  for (long i = 0; i < n; ++i) a[i] = a[i] * 0.5 + t[i % blocks][i % 512];
#pragma omp parallel for schedule(runtime)
  for (long i = 0; i < n; ++i) a[i] += t[(i + 1) % blocks][i % 256] * step;
#pragma omp parallel for schedule(runtime)
  for (long i = 0; i < 4; ++i) a[i] += 1.0;
}

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 20;
  std::vector<double> a(n, 1.0);
  std::vector<double*> t(blocks);
  std::vector<void*> small;
  small.reserve(4096);

  // Warm-up, before any temporary: the loops' first instances, where libgomp
  // creates its thread pool and team and the drop-in what it keeps for each
  // loop (blocks that live on: made while temporaries were live, they would
  // keep the heap from being trimmed natively too).
  static double shared[512];
  for (auto& p : t) p = shared;
  for (int k = 0; k < 3; ++k) loops(a, t.data(), k);

  int untrimmed = 0;
  const long faults0 = minor_faults();
  char* const start = static_cast<char*>(sbrk(0));
  for (int s = 0; s < steps; ++s) {
    for (std::size_t size = 8; size <= 1032; size += 16) {  // every tcache size, beyond its 7 cached blocks
      for (int k = 0; k < 8; ++k) small.push_back(take(size));
    }
    for (auto& p : t) p = static_cast<double*>(take(block));
    counting = true;
    loops(a, t.data(), s);
    counting = false;
    for (auto* p : t) std::free(p);
    // Trimmed: the heap is back near where the steps began (the small blocks
    // are live, a few hundred KiB); not: the 16 MiB of temporaries stay.
    const long above = static_cast<long>(static_cast<char*>(sbrk(0)) - start);
    if (above > 4L * 1024 * 1024 && untrimmed++ == 0) {
      std::printf("step %d: the heap was not trimmed after the temporaries' free(): %ld KiB above the steps' start\n",
                  s, above / 1024);
    }
    for (auto* p : small) std::free(p);
    small.clear();
  }
  const long faults = minor_faults() - faults0;

  // A fresh 256 KiB block: served by mmap, as at the program's start (a
  // trimmed heap has no free block that large).
  const struct mallinfo2 before = mallinfo2();
  void* probe = take(256 * 1024);
  const struct mallinfo2 with = mallinfo2();
  const bool mmapped = with.hblks > before.hblks;
  std::free(probe);

  const long blocks_in_loops = heap_blocks.load();
  std::printf("heap: %d of %d steps untrimmed, %ld minor faults in the steps (%ld a step), fresh 256 KiB malloc %s, "
              "%ld heap blocks allocated during the loops\n",
              untrimmed, steps, faults, faults / steps, mmapped ? "mmapped" : "NOT mmapped", blocks_in_loops);
  if (blocks_in_loops > 0) {
    std::printf("blocks allocated on the brk heap while the loops ran, the first of %ld (bytes):", blocks_in_loops);
    for (long k = 0; k < blocks_in_loops && k < 8; ++k) std::printf(" %zu", first_sizes[k].load());
    std::printf("\n");
  }
  if (!mmapped && untrimmed == 0) std::printf("the mmap threshold was raised: a 256 KiB block came from the heap\n");
  bool taken = true;
  if (dropin_expect_taken()) {
    const autosched_omp_counts c = dropin_counts();
    taken = c.instances >= static_cast<unsigned long long>(3 * (steps + 3)) && c.forwarded == 0;
    if (!taken) std::printf("the drop-in took %llu instances, forwarded %llu entries\n", c.instances, c.forwarded);
  }
  std::printf("checksum %.6g\n", a[7]);
  return untrimmed == 0 && mmapped && blocks_in_loops == 0 && taken ? 0 : 1;
}
