#include <autosched/regions/mpi/collective_training.hpp>

#include <autosched/core/error.hpp>
#include <autosched/regions/detail/region_state.hpp>

#include <climits>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace autosched::mpi {

namespace {

// Framing: every field is a length (8 bytes, little endian) and its bytes, so
// ids and texts may hold any byte. Each buffer opens with a tag naming the
// phase and the format version.
constexpr std::string_view headers_tag = "autosched-regions-headers-1";
constexpr std::string_view samples_tag = "autosched-regions-samples-1";

void put(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xffU);
}

void put(std::string& out, std::string_view s) {
  put(out, static_cast<std::uint64_t>(s.size()));
  out.append(s);
}

class Reader {
 public:
  Reader(std::string_view data, int rank) : data_(data), rank_(rank) {}

  std::uint64_t number() {
    if (data_.size() - pos_ < 8) fail("it ends inside a length");
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<unsigned char>(data_[pos_ + i])} << (8 * i);
    pos_ += 8;
    return v;
  }
  std::string_view text() {
    const std::uint64_t n = number();
    if (n > data_.size() - pos_) fail("a field runs past its end");
    const std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  /// The number of records that follow, bounded by what the bytes can hold
  /// (every record is at least `min_bytes` long).
  std::size_t count(std::size_t min_bytes) {
    const std::uint64_t n = number();
    if (n > (data_.size() - pos_) / min_bytes) fail("it announces " + std::to_string(n) + " records");
    return static_cast<std::size_t>(n);
  }
  void expect_tag(std::string_view tag) {
    if (text() != tag) fail("it is not a '" + std::string(tag) + "' record (another autosched version?)");
  }
  void expect_end() {
    if (pos_ != data_.size()) fail("bytes follow its last record");
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    detail::throw_error("collective region training: rank " + std::to_string(rank_) +
                        " sent a record this process cannot read: " + why);
  }

  std::string_view data_;
  int rank_;
  std::size_t pos_ = 0;
};

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  detail::throw_error(std::string("collective region training: ") + call + " failed: " + std::string(text, length));
}

/// Every rank's buffer, end to end (offsets, not views: a moved short string
/// moves its bytes).
struct Gathered {
  std::string bytes;
  std::vector<std::size_t> begin, size;
  [[nodiscard]] std::string_view part(int rank) const {
    const auto r = static_cast<std::size_t>(rank);
    return std::string_view(bytes).substr(begin[r], size[r]);
  }
};

/// Buffers go as blocks of 2^k bytes, k the smallest that keeps the block
/// counts and offsets within an int, so a total beyond 2 GiB needs no special path.
Gathered allgather(MPI_Comm comm, int ranks, const std::string& mine) {
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(ranks));
  const auto my_size = static_cast<std::int64_t>(mine.size());
  check(MPI_Allgather(&my_size, 1, MPI_INT64_T, sizes.data(), 1, MPI_INT64_T, comm), "MPI_Allgather");

  // Every rank computes the same block size from the same sizes.
  std::int64_t block = 1;
  auto blocks = [&](std::int64_t size) { return (size + block - 1) / block; };
  for (;;) {
    std::int64_t total = 0;
    for (const std::int64_t s : sizes) total += blocks(s);
    if (total <= INT_MAX) break;
    block *= 2;
  }
  std::vector<int> counts(sizes.size()), offsets(sizes.size());
  std::int64_t offset = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    counts[r] = static_cast<int>(blocks(sizes[r]));
    offsets[r] = static_cast<int>(offset);
    offset += counts[r];
  }
  std::string send = mine;
  send.resize(static_cast<std::size_t>(blocks(my_size) * block));
  Gathered all;
  all.bytes.resize(static_cast<std::size_t>(offset * block));

  MPI_Datatype type = MPI_BYTE;
  if (block > 1) {
    check(MPI_Type_contiguous(static_cast<int>(block), MPI_BYTE, &type), "MPI_Type_contiguous");
    check(MPI_Type_commit(&type), "MPI_Type_commit");
  }
  const int rc = MPI_Allgatherv(send.data(), static_cast<int>(blocks(my_size)), type, all.bytes.data(), counts.data(),
                                offsets.data(), type, comm);
  if (block > 1) MPI_Type_free(&type);
  check(rc, "MPI_Allgatherv");

  for (std::size_t r = 0; r < sizes.size(); ++r) {
    all.begin.push_back(static_cast<std::size_t>(offsets[r] * block));
    all.size.push_back(static_cast<std::size_t>(sizes[r]));
  }
  return all;
}

/// How a rank declares a region (its id, key and model), then its samples.
struct Header {
  std::string_view id, features, variants, model;
  std::string_view own, shared;
};

/// One rank's regions, in the order it sent them.
struct Declared {
  std::vector<Header> list;
  std::unordered_map<std::string_view, std::size_t> index;
};

/// One of this rank's regions taking part, locked until the end of the call.
struct Local {
  detail::RegionState* state = nullptr;
  std::unique_lock<std::mutex> lock;
  std::string features, variants, model;
  std::vector<int> members;      ///< ranks with the same id and key, in rank order (this one included)
  std::vector<int> mismatched;   ///< ranks with the same id and another key
  std::vector<int> other_model;  ///< members whose model spec differs
};

std::string rank_list(const std::vector<int>& ranks) {
  std::string s = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s;
}

}  // namespace

int train_regions_collectively(MPI_Comm comm) {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (!initialised || finalised) {
    detail::throw_error(
        "train_regions_collectively: MPI is not initialised (call it between MPI_Init and MPI_Finalize)");
  }
  if (comm == MPI_COMM_NULL) detail::throw_error("train_regions_collectively: the communicator is MPI_COMM_NULL");
  int inter = 0;
  check(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  if (inter) detail::throw_error("train_regions_collectively: expected an intracommunicator, got an intercommunicator");
  int rank = 0, ranks = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");

  // Lock every region taking part, under the registry lock: the library takes
  // a region's lock after the registry's or alone, never the other way round.
  // The locks are held until the merge, across the collectives: a sample
  // recorded in between would otherwise be forgotten with the own samples.
  // A region destroyed meanwhile waits in its destructor for our lock, so
  // its address cannot be reused by a new region before the merge pass.
  std::vector<Local> mine;
  {
    std::set<std::string, std::less<>> ids;
    detail::for_each_region([&](detail::RegionState& r) {
      if (!ids.insert(r.id).second) {
        detail::warn("region '" + r.id + "': another live region has this id; only the first created takes part in " +
                     "collective training");
        return;
      }
      Local l;
      l.state = &r;
      l.lock = std::unique_lock(r.mutex);
      RegionKey key = r.key();
      l.features = std::move(key.features);
      l.variants = std::move(key.variants);
      l.model = r.learner.spec().text;
      mine.push_back(std::move(l));
    });
  }

  // Phase 1: who has which region, declared how.
  std::string out;
  put(out, headers_tag);
  put(out, static_cast<std::uint64_t>(mine.size()));
  for (const Local& l : mine) {
    put(out, l.state->id);
    put(out, l.features);
    put(out, l.variants);
    put(out, l.model);
  }
  const Gathered header_buffers = allgather(comm, ranks, out);
  std::vector<Declared> declared(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    Declared& d = declared[static_cast<std::size_t>(r)];
    Reader in(header_buffers.part(r), r);
    in.expect_tag(headers_tag);
    const std::size_t n = in.count(4 * 8);
    for (std::size_t i = 0; i < n; ++i) {
      Header h;
      h.id = in.text();
      h.features = in.text();
      h.variants = in.text();
      h.model = in.text();
      d.index.emplace(h.id, i);  // a repeated id (not sent by this version) keeps its first record
      d.list.push_back(h);
    }
    in.expect_end();
  }
  for (Local& l : mine) {
    for (int r = 0; r < ranks; ++r) {
      const Declared& d = declared[static_cast<std::size_t>(r)];
      const auto it = d.index.find(l.state->id);
      if (it == d.index.end()) continue;
      const Header& h = d.list[it->second];
      if (h.features != l.features || h.variants != l.variants) {
        l.mismatched.push_back(r);
        continue;
      }
      l.members.push_back(r);
      if (h.model != l.model) l.other_model.push_back(r);
    }
  }

  // Phase 2: each region's own samples and, from the lowest rank that shares
  // it (rank 0 when it has it), the shared samples every member starts from.
  out.clear();
  put(out, samples_tag);
  put(out, static_cast<std::uint64_t>(mine.size()));
  for (const Local& l : mine) {
    const RegionLearner& learner = l.state->learner;
    put(out, learner.samples_text(RegionLearner::Samples::own));
    put(out, l.members.front() == rank ? learner.samples_text(RegionLearner::Samples::shared) : std::string());
  }
  const Gathered sample_buffers = allgather(comm, ranks, out);
  for (int r = 0; r < ranks; ++r) {
    Declared& d = declared[static_cast<std::size_t>(r)];
    Reader in(sample_buffers.part(r), r);
    in.expect_tag(samples_tag);
    const std::size_t n = in.count(2 * 8);
    if (n != d.list.size()) {
      detail::throw_error("collective region training: rank " + std::to_string(r) + " declared " +
                          std::to_string(d.list.size()) + " regions and sent samples of " + std::to_string(n));
    }
    for (Header& h : d.list) {  // in the order of its headers
      h.own = in.text();
      h.shared = in.text();
    }
    in.expect_end();
  }

  // Merge and train the regions still alive, in rank order on every rank.
  std::unordered_map<const detail::RegionState*, Local*> by_state;
  for (Local& l : mine) by_state.emplace(l.state, &l);
  int trained = 0;
  detail::for_each_region([&](detail::RegionState& r) {
    const auto found = by_state.find(&r);
    if (found == by_state.end()) return;  // created during the call: it had nothing to contribute
    Local& l = *found->second;
    if (!l.mismatched.empty()) {
      detail::warn("region '" + r.id + "' is declared with other features or variants on " + rank_list(l.mismatched) +
                   " than here (features '" + l.features + "', variants " + l.variants +
                   "); those ranks are left out of its collective training here");
    }
    if (!l.other_model.empty()) {
      detail::warn("region '" + r.id + "' uses another model on " + rank_list(l.other_model) + " than here ('" +
                   l.model + "'); the merged samples are the same but the models will differ");
    }
    auto record = [&](int m) -> const Header& {
      const Declared& d = declared[static_cast<std::size_t>(m)];
      return d.list[d.index.at(r.id)];
    };
    const std::string_view shared = record(l.members.front()).shared;
    std::vector<std::string> owns;
    owns.reserve(l.members.size());
    for (const int m : l.members) owns.emplace_back(record(m).own);
    std::string why;
    if (!r.learner.merge_and_train(shared, owns, &why)) {
      detail::warn("region '" + r.id + "': collective training failed (" + why +
                   "); the region keeps its own samples and model");
      return;
    }
    if (r.learner.trained()) ++trained;
    r.save_to_store();
  });
  return trained;
}

}  // namespace autosched::mpi
