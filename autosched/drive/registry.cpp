// The loops by id (drive::loop, find_loop, loop_ids): created on first use,
// kept for the life of the process, since records point at their names.
#include <autosched/drive/loop.hpp>

#include <functional>
#include <map>
#include <memory>
#include <shared_mutex>

namespace autosched::drive {

namespace {

class Registry {
 public:
  Loop& get(std::string_view id) {
    {
      std::shared_lock read(mutex_);
      if (auto it = loops_.find(id); it != loops_.end()) return *it->second;
    }
    std::unique_lock write(mutex_);
    auto [it, inserted] = loops_.try_emplace(std::string(id));
    if (inserted) it->second = std::make_unique<Loop>(std::string(id));
    return *it->second;
  }
  Loop* find(std::string_view id) {
    std::shared_lock read(mutex_);
    auto it = loops_.find(id);
    return it == loops_.end() ? nullptr : it->second.get();
  }
  std::vector<std::string> ids() {
    std::shared_lock read(mutex_);
    std::vector<std::string> out;
    for (const auto& [id, record] : loops_) out.push_back(id);
    return out;
  }

 private:
  std::shared_mutex mutex_;
  std::map<std::string, std::unique_ptr<Loop>, std::less<>> loops_;
};

Registry& registry() {
  static auto* r = new Registry;  // never destroyed: loops may run during static destruction
  return *r;
}

}  // namespace

Loop& loop(std::string_view id) { return registry().get(id); }
Loop* find_loop(std::string_view id) { return registry().find(id); }
std::vector<std::string> loop_ids() { return registry().ids(); }

}  // namespace autosched::drive
